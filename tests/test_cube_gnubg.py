"""tavli's 0-ply cube decisions against GNU Backgammon's own, from the same cubeless probabilities.

(a) the committed fixture tests/data/gnubg_cube_reference.json (made by
tools/gnubg_cube_reference.py from Debian's gnubg: money play and ten match states, contact, race
and bear-off positions from seeded random games); (b) a small live re-run when gnubg is installed.

Positions in gnubg's two-sided bear-off database (both sides with at most six checkers, all home)
are left out of the comparison: gnubg values those exactly from the database, not with the
Janowski formula (in money play by its cubeful database equities).
"""

from __future__ import annotations

import json
import os
import shutil
import sys

import pytest

import tavli
from tavli.cube import CubeState, MatchState

HERE = os.path.dirname(__file__)
FIXTURE = os.path.join(HERE, "data", "gnubg_cube_reference.json")
TOL = 0.002


def _load():
    with open(FIXTURE) as f:
        return json.load(f)


def _state(item):
    c = item["cube"]
    m = item["match"]
    return (CubeState(c["value"], owner=c["owner"], jacoby=c["jacoby"], beavers=c["beavers"]),
            MatchState(m["length"], tuple(m["score"]), m["crawford"]))


def _board(item):
    return tavli.Board.from_gnubg_id(item["position_id"], turn=item["mover"])


def in_two_sided_database(board) -> bool:
    """gnubg's in-memory two-sided bear-off database: both sides home with at most six checkers."""
    return all(sum(side) <= 6 and sum(side[:18]) == 0 for side in (board.mover, board.opponent)) and \
        board.bar == [0, 0]


def _normalised_action(gnubg_text: str) -> str:
    t = gnubg_text.lower().replace("redouble", "double").replace("optional double", "double")
    return {"no double, take": "no double"}.get(t, t)


def _compare(item):
    b = _board(item)
    cube, match = _state(item)
    d = b.cube_decision(cube=cube, match=match, probabilities=item["probabilities"])
    errors = {k: abs(getattr(d, k) - item[k]) for k in ("nd", "dt", "dp")}
    if match.length:
        errors.update({k: abs(getattr(d, k) - item[k]) for k in ("nd_mwc", "dt_mwc", "dp_mwc")})
    return d, errors


def test_fixture_covers_what_the_issue_asks():
    items = [it for it in _load()["cube_decisions"] if not in_two_sided_database(_board(it))]
    positions = {(it["position_id"], it["mover"]) for it in items}
    assert len(positions) >= 300
    assert {it["class"] for it in items} == {"contact", "race", "bearoff"}
    scores = {(it["match"]["length"], tuple(it["match"]["score"])) for it in items if it["match"]["length"]}
    assert len(scores) >= 4
    assert any(not it["match"]["length"] for it in items)
    assert any(it["cube"]["jacoby"] for it in items) and any(it["cube"]["beavers"] for it in items)


def test_equities_match_gnubg_0_ply_on_the_fixture():
    worst: dict[str, float] = {}
    failures = []
    for it in _load()["cube_decisions"]:
        if in_two_sided_database(_board(it)):
            continue
        _, errors = _compare(it)
        for k, e in errors.items():
            worst[k] = max(worst.get(k, 0.0), e)
        if max(errors.values()) > TOL:
            failures.append((it["position_id"], it["cube"], it["match"], errors))
    assert not failures, failures[:5]
    assert set(worst) == {"nd", "dt", "dp", "nd_mwc", "dt_mwc", "dp_mwc"}


def test_actions_match_gnubg_away_from_ties():
    disagreements = []
    for it in _load()["cube_decisions"]:
        if in_two_sided_database(_board(it)):
            continue
        d, _ = _compare(it)
        close = min(abs(d.nd - d.dt), abs(d.dt - d.dp), abs(d.nd - d.dp))
        if close > TOL and d.action != _normalised_action(it["action"]):
            disagreements.append((it["position_id"], d.action, it["action"]))
    assert not disagreements, disagreements[:5]


def test_gnubg_match_ids_from_its_own_commands():
    for m in _load()["match_ids"]:
        cube = CubeState(m["cube"], owner=m["owner"])
        match = MatchState(m["length"], tuple(m["score"]), m["crawford"])
        mine = tavli._core._gnubg_match_id(cube, match, m["on_roll"], m["on_roll"], 1, False, 0, (0, 0))
        assert mine == m["match_id"], m
        back = tavli._core._parse_gnubg_match_id(m["match_id"])
        assert (back["cube"], back["match"], back["on_roll"]) == (cube, match, m["on_roll"])


@pytest.mark.skipif(not (os.environ.get("GNUBG") or shutil.which("gnubg") or os.path.exists("/usr/games/gnubg")),
                    reason="GNU Backgammon is not installed")
def test_live_gnubg_sample():
    sys.path.insert(0, os.path.join(HERE, "..", "tools"))
    try:
        import gnubg_cube_reference as ref
    finally:
        sys.path.pop(0)
    items, _ = ref.cube_items(seed=2026, per_class=3)
    checked = 0
    for it in items:
        if in_two_sided_database(_board(it)):
            continue
        _, errors = _compare(it)
        assert max(errors.values()) <= TOL, (it, errors)
        checked += 1
    assert checked >= 12
