"""The server cannot be pinned (issue 18): a real uvicorn on 127.0.0.1 (loopback only) in a child
process, hit over raw sockets: ambiguous framing is refused, a burst of 200 concurrent mixed
requests is answered in full (200, or 503 with Retry-After when the queue is full) while /health
stays fast; the work pool's queue and the simulation budget in-process."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

import tavli
from tavli._base.json_check import check
from tavli.server import app as server_app
from tavli.server.work import Busy, WorkPool

with warnings.catch_warnings():  # newer Starlette prefers httpx2 for its test client; httpx works
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

HOST = "127.0.0.1"  # never any other address
PYTHON_DIR = Path(tavli.__file__).resolve().parent.parent

_SERVER = """
import sys, uvicorn
from tavli.server import create_app
config = uvicorn.Config(create_app(workers=2, queue=16), host="127.0.0.1", port=0, log_level="error")
server = uvicorn.Server(config)
orig = server.startup
async def startup(sockets=None):
    await orig(sockets)
    print(server.servers[0].sockets[0].getsockname()[1], flush=True)
server.startup = startup
server.run()
"""


@pytest.fixture(scope="module")
def port():
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-c", _SERVER], stdout=subprocess.PIPE, env=env, text=True)
    try:
        line = proc.stdout.readline()
        assert line.strip().isdigit(), "the server did not start"
        yield int(line)
    finally:
        proc.terminate()
        proc.wait(10)


def exchange(port: int, raw: bytes) -> bytes:
    with socket.create_connection((HOST, port), timeout=10) as s:
        s.sendall(raw)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
        return out


def response_parts(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def request(path: str, body: dict | None = None) -> bytes:
    data = b"" if body is None else json.dumps(body).encode()
    method = "GET" if body is None else "POST"
    length = "" if body is None else f"Content-Length: {len(data)}\r\n"
    return (f"{method} /api/v1{path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\n{length}\r\n").encode() + data


# --- framing --------------------------------------------------------------------------------------------------
def test_ambiguous_framing_is_refused_with_400(port):
    body = b'{"variant": "fevga"}'
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    head = f"POST /api/v1/new HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
    for framing in ([f"Content-Length: {len(body)}", "Transfer-Encoding: chunked"],
                    ["Transfer-Encoding: chunked", f"Content-Length: {len(chunked)}"]):
        raw = (head + "\r\n".join(framing) + "\r\n\r\n").encode() + chunked
        status, headers, reply = response_parts(exchange(port, raw))
        assert status == 400, reply
        assert json.loads(reply)["error"]["field"] == "body" and "not both" in json.loads(reply)["error"]["message"]
        assert headers.get("connection") == "close"
    # h11 itself refuses two lengths and a coding other than chunked: 400 either way
    for framing in ([f"Content-Length: {len(body)}", f"Content-Length: {len(body) + 1}"], ["Transfer-Encoding: gzip"]):
        status, _, _ = response_parts(exchange(port, (head + "\r\n".join(framing) + "\r\n\r\n").encode() + body))
        assert status == 400
    # each framing alone is fine
    alone = head + "Connection: close\r\n"
    ok, _, reply = response_parts(exchange(port, (alone + f"Content-Length: {len(body)}\r\n\r\n").encode() + body))
    assert ok == 200 and json.loads(reply)["id"] == tavli.Board("fevga").id()
    ok, _, reply = response_parts(exchange(port, (alone + "Transfer-Encoding: chunked\r\n\r\n").encode() + chunked))
    assert ok == 200


# --- the burst ------------------------------------------------------------------------------------------------
def _burst_requests() -> list[tuple[str, dict]]:
    rows, dice = tavli.random_positions("backgammon", 30, seed=18)
    mixed = []
    for i in range(200):
        board, roll = tavli.Board.from_array(rows[10 + i % 20], "backgammon"), [int(d) for d in dice[10 + i % 20]]
        kind = i % 8
        if kind in (0, 1):
            mixed.append(("/plays", {"position": board.id(), "dice": roll}))
        elif kind == 2:
            mixed.append(("/new", {"variant": "plakoto"}))
        elif kind in (3, 4):
            mixed.append(("/analyze", {"position": board.id(), "dice": roll, "plies": 1, "top": 3}))
        elif kind == 5:  # the expensive ones: bounded by their time limits
            mixed.append(("/analyze", {"position": board.id(), "dice": roll, "plies": 3, "time_limit": 0.2, "top": 1}))
        elif kind == 6:
            mixed.append(("/evaluate", {"position": board.id(), "plies": 2, "time_limit": 0.2}))
        else:
            mixed.append(("/simulate", {"variant": "portes", "games": 40, "players": ["greedy", "greedy"], "seed": i}))
    return mixed


async def _fetch(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(raw)
    await writer.drain()
    data = await reader.read()
    writer.close()
    return response_parts(data)


async def _burst(port: int) -> tuple[list, list[float]]:
    done = asyncio.Event()
    latencies: list[float] = []

    async def probe() -> None:
        while not done.is_set():
            start = time.perf_counter()
            status, _, _ = await _fetch(port, request("/health"))
            latencies.append(time.perf_counter() - start)
            assert status == 200
            await asyncio.sleep(0.01)

    burst = [request(path, body) for path, body in _burst_requests()]  # made before the clock starts
    prober = asyncio.create_task(probe())
    await asyncio.sleep(0.05)
    answers = await asyncio.gather(*(_fetch(port, raw) for raw in burst))
    done.set()
    await prober
    return answers, latencies


def test_200_concurrent_mixed_requests_are_all_answered_and_health_stays_fast(port):
    answers, latencies = asyncio.run(_burst(port))
    assert len(answers) == 200
    statuses = [status for status, _, _ in answers]
    assert set(statuses) <= {200, 503}, sorted(set(statuses))
    for status, headers, body in answers:
        if status == 503:  # refused at once, with a hint when to come back
            assert int(headers["retry-after"]) >= 1
            assert json.loads(body)["error"]["message"].startswith("the server is busy")
            check("error", json.loads(body))
    assert statuses.count(200) >= 18  # at least the 2 workers' and the 16 waiting requests' worth
    # the one timing bound the issue asks for: /health under 100 ms while the burst is served
    # (over every probe of the burst, robust to one slow scheduling hiccup on a shared machine)
    assert len(latencies) >= 5, latencies
    latencies.sort()
    median, p95 = statistics.median(latencies), latencies[int(0.95 * (len(latencies) - 1))]
    print(f"burst: {statuses.count(200)} x 200, {statuses.count(503)} x 503; /health over {len(latencies)} probes: "
          f"median {median * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
    assert median < 0.1 and p95 < 0.1, (median, p95, latencies[-5:])
    # and the server is still whole afterwards
    status, _, body = response_parts(exchange(port, request("/health")))
    assert status == 200 and json.loads(body)["status"] == "ok"


# --- the queue and the budget, in-process ---------------------------------------------------------------------
def test_a_full_queue_is_refused_at_once_with_retry_after():
    gate = threading.Event()

    def blocked(budget):
        gate.wait(10)
        return budget.seconds

    async def scenario():
        pool = WorkPool(workers=1, queue=1, budget=2.0)
        running = asyncio.ensure_future(pool.run(blocked))
        waiting = asyncio.ensure_future(pool.run(blocked))
        await asyncio.sleep(0.05)
        with pytest.raises(Busy) as refused:
            await pool.run(blocked)
        gate.set()
        assert await running == 2.0 and await waiting == 2.0
        assert await pool.run(blocked) == 2.0  # room again
        pool.shutdown()
        return refused.value

    busy = asyncio.run(scenario())
    assert busy.retry_after >= 1 and "1 requests waiting" in str(busy)


def test_simulate_costs_are_summed_over_both_players():
    with TestClient(server_app.create_app(workers=1)) as client:
        # search:1 is 0.5 CPU s a game per player: 6 games of two searchers (6 s) are over the 5 s
        # budget, though each player alone would fit; 9 games against random (4.5 s) are not
        two = {"variant": "hypergammon", "games": 6, "players": ["search:1", "search:1"]}
        r = client.post("/api/v1/simulate", json=two)
        assert r.status_code == 422 and r.json()["error"]["field"] == "games"
        assert "at most 5 games" in r.json()["error"]["message"]
        one = {"variant": "hypergammon", "games": 9, "players": ["search:1", "random"]}
        r = client.post("/api/v1/simulate", json=one)
        assert r.status_code == 200 and r.json()["games"] == 9 and not r.json()["interrupted"]


def test_a_simulation_stops_at_its_cpu_budget_with_the_games_played(monkeypatch):
    # an estimate far too low (greedy priced 100x too cheap) lets the request in; the budget,
    # checked between chunks of 10 games, stops it
    monkeypatch.setitem(server_app.SIM_PLAYERS, "greedy", 0.00005)
    monkeypatch.setattr(server_app, "SIM_CHUNK_SECONDS", 0.001)
    with TestClient(server_app.create_app(workers=1, cpu_budget=0.3)) as client:
        r = client.post("/api/v1/simulate", json={"variant": "fevga", "games": 2000, "players": ["greedy", "greedy"],
                                                  "seed": 5})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["interrupted"] and 0 < out["games"] < 2000 and out["games"] % 10 == 0
    check("simulation", out)  # the JSON Schema's form of it
    direct = tavli.simulate("fevga", out["games"], ("greedy", "greedy"), seed=5)
    w = direct["winner"]
    assert out["wins"] == [int((w == 0).sum()), int((w == 1).sum())]  # the first games of the whole run


def test_the_issues_simulation_is_refused_on_admission():
    # issue 18: 20 games of search:1 against search:1 cost 6.6 CPU s; summed, the estimate is 20 s
    with TestClient(server_app.create_app(workers=1)) as client:
        r = client.post("/api/v1/simulate", json={"variant": "fevga", "games": 20, "players": ["search:1", "search:1"]})
    assert r.status_code == 422 and r.json()["error"]["field"] == "games"


def test_a_search_gets_the_budget_as_its_time_limit():
    """With a 5 ms budget a 3-ply analysis asked for the default 5 s stops at the budget: the
    engine returns the deepest depth it finished (interrupted), all plays still ranked. (The 3-ply
    search of this position and roll takes some 100 ms, so the budget is a twentieth of it,
    whatever the load; 4-2 keeps several plays to the end, where 6-5's filters leave one at 0 ply
    and the search stops there, gnubg's rule.)"""
    board = tavli.Board.from_array(tavli.random_positions("backgammon", 25, seed=18)[0][24], "backgammon")
    with TestClient(server_app.create_app(workers=1, cpu_budget=0.005)) as client:
        r = client.post("/api/v1/analyze", json={"position": board.id(), "dice": [4, 2], "plies": 3})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["interrupted"] and out["plies"] < 3 and len(out["plays"]) == len(board.legal_plays((4, 2)))
