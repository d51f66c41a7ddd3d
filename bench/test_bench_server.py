"""The HTTP API's speed: a real uvicorn server on 127.0.0.1 (a free port, a background thread of this
process), asked over real sockets.

Run: python -m pytest bench/test_bench_server.py --benchmark-only

1. Latency of one 1-ply /api/v1/analyze of a fixed Fevga middle-game position (the CLI's built-in
   one: 35 distinct plays for 6-5), one client, keep-alive: the median over ROUNDS sequential
   requests, next to the median of the same ``board.analyze`` called in-process, and their ratio.
   The HTTP time includes parsing and validating the position, the search, one play dict (with its
   resulting position) per play, JSON both ways and the socket round trip. Target (issue): <= 20 ms.
2. Load: CLIENTS concurrent clients (asyncio, one httpx.AsyncClient connection each) send the same
   request LOAD_REQUESTS times each; every answer must be 200. Reported: requests per second,
   median and 95th-percentile latency. Target: keeps answering under 50 concurrent clients.

The clients share the process (and its GIL) with the server, and the machine's cores with it, so
the numbers are pessimistic for a server on its own machine. With --benchmark-disable both parts
run a few requests only (so CI checks they work), and nothing is recorded.
"""

from __future__ import annotations

import asyncio
import socket
import statistics
import threading
import time

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")

import tavli
from tavli.server import create_app
from conftest import RESULTS

POSITION = "fevga:AQAmARAAEQAAAAEgAAAABQAQAQExACAAAAABAA"  # `tavli`'s built-in Fevga middle game
DICE = [6, 5]
REQUEST = {"position": POSITION, "dice": DICE, "plies": 1}
ROUNDS = 50
CLIENTS = 50
LOAD_REQUESTS = 10  # per client: 500 requests in all
LOAD_DEADLINE = 60.0  # seconds: a stuck server fails the test instead of hanging it


@pytest.fixture(scope="module")
def server_url():
    # IPPROTO_TCP spelled out: asyncio sets TCP_NODELAY only on sockets that say so, and without it
    # Nagle's algorithm and delayed ACKs add 40 ms to every response written in two parts.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))  # a free port, held from here on: no race with other processes
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(queue=64), log_level="warning", backlog=256))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}/api/v1"
    server.should_exit = True
    thread.join(10)
    sock.close()


def _ms(seconds: float) -> float:
    return 1e3 * seconds


def _store(name: str, value: float, unit: str) -> None:
    RESULTS[name] = {"rate": value, "mean_rate": value, "unit": unit, "seconds": 0}


def test_analyze_latency_against_the_direct_call(benchmark, server_url):
    board = tavli.Board.from_id(POSITION)
    assert len(board.legal_plays(tuple(DICE))) == 35
    with httpx.Client(base_url=server_url, timeout=30) as client:
        first = client.post("/analyze", json=REQUEST)  # warms the connection and the server
        assert first.status_code == 200 and len(first.json()["plays"]) == 35

        def one_request():
            r = client.post("/analyze", json=REQUEST)
            assert r.status_code == 200
            return r

        benchmark.pedantic(one_request, rounds=ROUNDS, iterations=1, warmup_rounds=2)
        if benchmark.disabled:
            return
        served = benchmark.stats.stats.median
        direct = []
        for _ in range(ROUNDS):
            t = time.perf_counter()
            board.analyze(tuple(DICE), plies=1, time_limit=5.0)
            direct.append(time.perf_counter() - t)
    _store("server /analyze 1-ply Fevga, median (HTTP)", _ms(served), "ms")
    _store("Board.analyze 1-ply Fevga, median (in-process)", _ms(statistics.median(direct)), "ms")
    _store("server / in-process (median latency)", served / statistics.median(direct), "x")
    benchmark.extra_info["median ms"] = _ms(served)


async def _load(url: str, clients: int, per_client: int) -> tuple[list[float], list[int], float]:
    latencies: list[float] = []
    statuses: list[int] = []

    async def client_loop(client: httpx.AsyncClient) -> None:
        for _ in range(per_client):
            t = time.perf_counter()
            r = await client.post("/analyze", json=REQUEST)
            latencies.append(time.perf_counter() - t)
            statuses.append(r.status_code)

    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    async with contextlib_async_clients(url, clients, limits) as pool:
        start = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(client_loop(c) for c in pool)), LOAD_DEADLINE)
        elapsed = time.perf_counter() - start
    return latencies, statuses, elapsed


class contextlib_async_clients:
    """`n` AsyncClients (one connection each: n truly concurrent clients), closed on exit."""

    def __init__(self, url: str, n: int, limits) -> None:
        self.clients = [httpx.AsyncClient(base_url=url, timeout=LOAD_DEADLINE, limits=limits) for _ in range(n)]

    async def __aenter__(self):
        return self.clients

    async def __aexit__(self, *exc) -> None:
        await asyncio.gather(*(c.aclose() for c in self.clients))


def test_fifty_concurrent_clients(benchmark, server_url):
    per_client = 1 if benchmark.disabled else LOAD_REQUESTS
    runs = []
    benchmark.pedantic(lambda: runs.append(asyncio.run(_load(server_url, CLIENTS, per_client))), rounds=1, iterations=1)
    latencies, statuses, elapsed = runs[0]
    assert len(statuses) == CLIENTS * per_client and set(statuses) == {200}
    if benchmark.disabled:
        return
    latencies.sort()
    _store(f"server load, {CLIENTS} clients: requests", len(latencies) / elapsed, "requests")
    _store(f"server load, {CLIENTS} clients: median latency", _ms(statistics.median(latencies)), "ms")
    _store(f"server load, {CLIENTS} clients: p95 latency", _ms(latencies[int(0.95 * (len(latencies) - 1))]), "ms")
