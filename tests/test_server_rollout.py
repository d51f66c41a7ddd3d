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


def test_a_cubeful_rollout_is_the_cube_rollout_decision(client):
    from tavli.cube_rollout import decide

    board = tavli.Board("backgammon")
    match = tavli.MatchState(7, (2, 4))
    expected = decide(board, None, match, 36, "heuristic", seed=5)
    r = client.post("/api/v1/rollout", json={"position": board.id(), "trials": 36, "player": "heuristic", "seed": 5,
                                             "match": {"length": 7, "score": [2, 4]}})
    assert r.status_code == 200, r.text
    j = r.json()
    assert (j["nd"], j["dt"], j["dp"], j["nd_mwc"]) == (expected.nd, expected.dt, expected.dp, expected.nd_mwc)
    assert j["nd_std_error"] == expected.nd_std_error and j["trials"] == 36 and j["action"] == expected.action
    assert j["match"] == {"length": 7, "score": [2, 4], "crawford": False}


@pytest.mark.parametrize("body, field", [
    ({"cube": {"value": 2, "owner": 0}}, "cube"),  # Fevga has no cube
    ({"match": {"length": 5, "score": [1, 2]}}, "match"),
    ({"variant": "backgammon", "position": "4HPwATDgc/ABMA", "cube": {}, "player": "random"}, "player"),
    ({"variant": "backgammon", "position": "4HPwATDgc/ABMA", "cube": {"value": 3}}, "cube"),
])
def test_cubeful_refusals(client, body, field):
    request = {"position": tavli.Board("fevga").to_dict(), "trials": 36, **body}
    r = client.post("/api/v1/rollout", json=request)
    assert r.status_code == 422 and r.json()["error"]["field"] == field, r.text


def test_a_rolls_plays_are_board_rollout_plays(client):
    board = tavli.Board("backgammon")
    board.push(board.legal_plays((3, 1))[0])
    expected = board.rollout_plays((6, 4), 3, 36, seed=2)
    r = client.post("/api/v1/rollout", json={"position": board.id(), "trials": 36, "seed": 2, "dice": [6, 4],
                                             "candidates": 3})
    assert r.status_code == 200, r.text
    j = r.json()
    assert j["trials"] == 36 and len(j["plays"]) == 3
    for got, p in zip(j["plays"], expected):
        assert got["play"]["text"] == p.play.text and got["rollout"]["equity"] == p.equity
        assert got["difference"] == p.difference and got["difference_std_error"] == p.difference_std_error


@pytest.mark.parametrize("body, field", [
    ({"dice": [7, 1]}, "dice"),
    ({"dice": "6-5", "candidates": 0}, "candidates"),
    ({"dice": "6-5", "match": {"length": 5, "score": [1, 7]}}, "match"),
    ({"dice": "6-5", "cube": {"value": 2, "owner": 0}, "player": "random"}, "player"),
])
def test_play_rollout_refusals(client, body, field):
    request = {"position": "4HPwATDgc/ABMA", "variant": "backgammon", "trials": 36, **body}
    r = client.post("/api/v1/rollout", json=request)
    assert r.status_code == 422 and r.json()["error"]["field"] == field, r.text


def test_a_rolls_plays_cubefully(client):
    board = tavli.Board("backgammon")
    board.push(board.legal_plays((3, 1))[0])
    match = tavli.MatchState(7, (2, 4))
    expected = board.rollout_plays((6, 4), 2, 36, seed=2, match=match)
    r = client.post("/api/v1/rollout", json={"position": board.id(), "trials": 36, "seed": 2, "dice": "6-4",
                                             "candidates": 2, "match": {"length": 7, "score": [2, 4]}})
    assert r.status_code == 200, r.text
    for got, p in zip(r.json()["plays"], expected):
        assert got["rollout"]["mwc"] == p.rollout.mwc and got["rollout"]["equity"] == p.equity
        assert got["difference_std_error"] == p.difference_std_error
