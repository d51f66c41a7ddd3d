"""POST /api/v1/rollout (the web page's rollout): Board.rollout under the request's budget."""

from __future__ import annotations

import pytest

import tavli

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from tavli.server.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(workers=1))


def sure_single_win() -> tavli.Board:
    """White's last checker on its 1-point, Black with one off: every roll wins, singly (+1)."""
    return tavli.Board.from_dict({"variant": "backgammon", "mover": [0] * 23 + [1], "opponent": [0] * 23 + [14],
                                  "off": [14, 1]})


def test_a_sure_win_rolls_out_to_plus_one(client):
    r = client.post("/api/v1/rollout", json={"position": sure_single_win().to_dict(), "trials": 36,
                                             "player": "heuristic"}).json()
    assert r["equity"] == 1.0 and r["equity_ci95"] == 0.0 and r["trials"] == 36
    assert r["probabilities"]["win"] == 1.0 and r["probabilities"]["win_double"] == 0.0


def test_the_rollout_is_board_rollout(client):
    board = tavli.Board("fevga")
    expected = board.rollout(72, "greedy", seed=3)  # first: it loads the net (once a process) outside the budget
    r = client.post("/api/v1/rollout", json={"position": board.id(), "trials": 72, "seed": 3}).json()
    assert r["equity"] == expected.equity and r["equity_std_error"] == expected.equity_std_error


@pytest.mark.parametrize("body, field", [
    ({"trials": 0}, "trials"),
    ({"trials": 5000}, "trials"),
    ({"player": "search:3"}, "player"),
    ({"position": "nonsense"}, "position"),
])
def test_refusals(client, body, field):
    request = {"position": tavli.Board("fevga").to_dict(), **body}
    r = client.post("/api/v1/rollout", json=request)
    assert r.status_code == 422 and r.json()["error"]["field"] == field


def test_a_finished_game_is_refused(client):
    # White has borne off its last checker: Black, to move, has lost.
    d = {"variant": "backgammon", "turn": 1, "mover": [0] * 23 + [14], "opponent": [0] * 24, "off": [1, 15]}
    r = client.post("/api/v1/rollout", json={"position": d})
    assert r.status_code == 422 and "over" in r.json()["error"]["message"]
