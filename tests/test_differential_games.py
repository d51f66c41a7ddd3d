"""The C++ generator against the pure-Python reference tests/oracle/games.py (written from
RULES.md only) for Backgammon, Portes, Tavla, Plakoto and Long Narde, under the defaults and every
flag: 2,000 (position, roll) pairs per setting from seeded random games (which reach the bar, hits,
pins, bear-offs and the head rule often), Narde positions built around six-point walls, the
outcome of every play on a sample, and perft fixtures made by the reference."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import tavli
from helpers import perft_case_board
from oracle import games as ref

SETTINGS = [
    ("backgammon", {}),
    ("portes", {}),
    ("tavla", {}),
    ("plakoto", {}),
    ("plakoto", {"bearoff_with_pinned": True}),
    ("plakoto", {"mother": "at_pin_only"}),
    ("plakoto", {"mother": "off", "mother_points": 3}),
    ("narde", {}),
    ("narde", {"head_doubles": "64"}),
    ("narde", {"prime_check": "step"}),
    ("narde", {"prime_borne_off_ahead": False}),
]
IDS = [f"{v}-{o}" for v, o in SETTINGS]
PAIRS = 2000


def mask(b: np.ndarray) -> frozenset:
    m = int(b[0]) | int(b[1]) << 8 | int(b[2]) << 16
    return frozenset(r for r in range(24) if m >> r & 1)


def row_to_pos(row) -> ref.Pos:
    return ref.Pos(
        tuple(int(x) for x in row[0:24]),
        tuple(int(x) for x in row[24:48]),
        int(row[48]),
        int(row[49]),
        int(row[50]),
        int(row[51]),
        mask(row[54:57]),
        mask(row[57:60]),
        bool(row[53] & 1),
        bool(row[53] & 2),
    )


def engine_results(variant, options, rows, dice):
    counts, offsets, out = tavli.batch_legal_plays(rows, dice, variant, return_positions=True, **options)
    res = []
    for i in range(len(rows)):
        # Result rows have the other side to move: flip back to the mover's view.
        got = {row_to_pos(r).flipped() for r in out[offsets[i] : offsets[i + 1]]}
        assert len(got) == counts[i], f"row {i}: duplicate results"
        res.append(got)
    return res


def compare(variant, options, rows, dice, label):
    got = engine_results(variant, options, rows, dice)
    bad = []
    for i, row in enumerate(rows):
        want = set(ref.legal_plays(variant, row_to_pos(row), (int(dice[i][0]), int(dice[i][1])), options))
        if want != got[i]:
            bad.append((i, row_to_pos(row), tuple(dice[i]), list(want - got[i])[:2], list(got[i] - want)[:2]))
    assert not bad, f"{label}: {len(bad)} of {len(rows)} differ; first: {bad[0]}"


@pytest.mark.parametrize("variant, options", SETTINGS, ids=IDS)
def test_random_games_agree_with_reference(variant, options):
    rows, dice = tavli.random_positions(variant, PAIRS, seed=20261201, **options)
    compare(variant, options, rows, dice, "random games")


def narde_wall_rows(n: int, seed: int, wrap: bool = False):
    """Narde positions where the mover holds five or six points in a row and can often close a
    six-prime, with the opponent's checkers before, on both sides of, or past the wall.
    `wrap`: the run may also start late and go on across the mover's r23 -> r0 (which is the
    middle of the opponent's route)."""
    rng = np.random.default_rng(seed)
    rows = np.zeros((n, tavli.ROW_BYTES), dtype=np.uint8)
    dice = rng.integers(1, 7, size=(n, 2))
    i = 0
    while i < n:
        m = np.zeros(24, dtype=int)
        start = int(rng.integers(0, 24 if wrap else 18))
        wall = list(range(start, start + int(rng.integers(5, 7))))
        wall = [p % 24 for p in wall] if wrap else [p for p in wall if p < 24]
        m[wall] = 1
        extra = rng.choice(24, size=3, replace=False)
        m[extra] += 1
        m[int(rng.integers(0, 24))] += 15 - m.sum() if m.sum() < 15 else 0
        if m.sum() != 15:
            continue
        free = [p for p in range(24) if m[p] == 0]
        o_mine = np.zeros(24, dtype=int)
        pts = rng.choice(free, size=min(len(free), int(rng.integers(1, 5))), replace=False)
        o_off = int(rng.integers(0, 3)) if rng.random() < 0.2 else 0
        share = rng.multinomial(15 - o_off - len(pts), np.ones(len(pts)) / len(pts)) + 1
        o_mine[pts] = share
        if (o_mine > 15).any():
            continue
        rows[i, 0:24] = m
        rows[i, 24:48] = np.roll(o_mine, -12)  # his r' is my (r' + 12) % 24
        rows[i, 51] = o_off
        i += 1
    return rows, dice


@pytest.mark.parametrize("options", [{}, {"prime_check": "step"}, {"prime_borne_off_ahead": False}], ids=str)
def test_narde_walls_agree_with_reference(options):
    rows, dice = narde_wall_rows(1500, seed=11)
    compare("narde", options, rows, dice, "narde walls")


@pytest.mark.parametrize("options", [{}, {"prime_check": "step"}, {"prime_borne_off_ahead": False}], ids=str)
def test_narde_walls_across_both_route_ends_agree_with_reference(options):
    """Runs across the mover's r11 -> r12 (the opponent's end and start: no wall for him) and
    across the mover's r23 -> r0 (the middle of his route: a wall) (RULES.md §6.5, §7.2)."""
    rows, dice = narde_wall_rows(1500, seed=12, wrap=True)
    compare("narde", options, rows, dice, "narde walls across the route ends")


@pytest.mark.parametrize("variant, options", SETTINGS, ids=IDS)
def test_outcomes_agree_with_reference(variant, options):
    """After every legal play of 300 random (position, roll) pairs, the game's result."""
    rows, dice = tavli.random_positions(variant, 300, seed=5, **options)
    for row, d in zip(rows, dice):
        board = tavli.Board.from_array(row, variant, **options)
        before = row_to_pos(row)
        player = int(row[52])
        for play in board.legal_plays((int(d[0]), int(d[1]))):
            after = board.play(play)
            mine = after.outcome()
            theirs = ref.outcome(variant, row_to_pos(after.to_array()).flipped(), options, before=before)
            if theirs is None:
                assert mine is None, (before, play)
                continue
            who, points, kind = theirs
            winner = None if who == "draw" else (player if who == "mover" else 1 - player)
            assert mine == (winner, points, kind), (before, play, mine, theirs)


CASES = json.loads((Path(__file__).parent / "data" / "perft_games.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['name']}-d{c['depth']}" for c in CASES])
def test_perft_matches_reference_fixture(case):
    assert perft_case_board(case).perft(case["depth"]) == case["nodes"]
