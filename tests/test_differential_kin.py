"""The C++ generator against the pure-Python reference tests/oracle/kin.py (written from
RULES-KIN.md and RULES.md §1 only) for Jacquet, Tawla 31, Nackgammon and Hypergammon (1, 2, 3
checkers), under the defaults and every flag: 2,000 (position, roll) pairs per setting from
seeded random games, Jacquet positions built around six-point walls (so that
``six_prime="needs_last_two"`` bites), the outcome of every play on a sample, and perft fixtures
made by the reference (tests/oracle/make_perft_kin.py -> tests/data/perft_kin.json)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import tavli
from helpers import perft_case_board
from oracle import kin as ref

SETTINGS = [
    ("jacquet", {}),
    ("jacquet", {"runner_threshold": 19}),
    ("jacquet", {"runner_release": "turn"}),
    ("jacquet", {"six_prime": "needs_last_two"}),
    ("jacquet", {"doubles": "n_times"}),
    ("jacquet", {"double_win": False}),
    ("jacquet", {"dead_position": "off"}),
    ("tawla31", {}),
    ("tawla31", {"movement": "parallel"}),
    ("tawla31", {"runner_release": "turn"}),
    ("tawla31", {"runner_threshold": 19}),
    ("nackgammon", {}),
    ("hypergammon", {}),
    ("hypergammon", {"checkers": 2}),
    ("hypergammon", {"checkers": 1}),
    ("hypergammon", {"jacoby_always": True}),
    ("hypergammon", {"checkers": 1, "jacoby_always": True}),
]
IDS = [f"{v}-{o}" for v, o in SETTINGS]
PAIRS = 2000


def row_to_pos(row) -> ref.Pos:
    # These games have no pins and no first-turn flags: bytes 53..59 stay zero.
    assert not row[53] and not row[54:60].any(), row
    return ref.Pos(
        tuple(int(x) for x in row[0:24]),
        tuple(int(x) for x in row[24:48]),
        int(row[48]),
        int(row[49]),
        int(row[50]),
        int(row[51]),
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


def reference_results(variant, options, rows, dice):
    return [
        set(ref.legal_plays(variant, row_to_pos(row), (int(d[0]), int(d[1])), options))
        for row, d in zip(rows, dice)
    ]


def compare(variant, options, rows, dice, label):
    got = engine_results(variant, options, rows, dice)
    want = reference_results(variant, options, rows, dice)
    bad = []
    for i, row in enumerate(rows):
        if want[i] != got[i]:
            missing, extra = list(want[i] - got[i])[:2], list(got[i] - want[i])[:2]
            bad.append((i, row_to_pos(row), tuple(dice[i]), missing, extra))
    assert not bad, f"{label}: {len(bad)} of {len(rows)} differ; first (i, pos, dice, missing, extra): {bad[0]}"
    return want


@pytest.mark.parametrize("variant, options", SETTINGS, ids=IDS)
def test_random_games_agree_with_reference(variant, options):
    rows, dice = tavli.random_positions(variant, PAIRS, seed=20261202, **options)
    compare(variant, options, rows, dice, "random games")


# The flags must actually change something on the random games, or the comparison above would
# not test them.  (reference with the flag vs reference without it, on the flag's own games)
BITING = [
    ("jacquet", {"runner_threshold": 19}),
    ("jacquet", {"runner_release": "turn"}),
    ("jacquet", {"doubles": "n_times"}),
    ("tawla31", {"runner_release": "turn"}),
    ("tawla31", {"runner_threshold": 19}),
]
# (tawla31 movement="parallel" changes the geometry, so its positions are not positions of the
# contrary game; the perft fixtures "tawla31 start" / "tawla31 start parallel" tell them apart.)


@pytest.mark.parametrize("variant, options", BITING, ids=[f"{v}-{o}" for v, o in BITING])
def test_flags_bite_on_random_games(variant, options):
    rows, dice = tavli.random_positions(variant, PAIRS, seed=20261202, **options)
    with_flag = reference_results(variant, options, rows, dice)
    without = reference_results(variant, {}, rows, dice)
    assert sum(a != b for a, b in zip(with_flag, without)) >= 5


# --- Jacquet six-point walls -----------------------------------------------------------------

def jacquet_wall_rows(n: int, seed: int, threshold: int = 18):
    """Jacquet positions (past the runner phase) where X holds four to six consecutive points
    along O's route (O indices s..s+5, i.e. X's (s + 12) % 24 ..., possibly across X's r23 -> r0),
    often one step short of a six-point block, with and without X's r22 and r23.  Positions that
    already break the needs_last_two rule are not made (unreachable under that flag)."""
    rng = np.random.default_rng(seed)
    rows = np.zeros((n, tavli.ROW_BYTES), dtype=np.uint8)
    dice = rng.integers(1, 7, size=(n, 2))
    rules = ref.rules_of("jacquet")
    i = 0
    while i < n:
        m = np.zeros(24, dtype=int)
        s = int(rng.integers(0, 19))
        length = int(rng.choice([4, 5, 5, 6]))
        wall = [(s + k + 12) % 24 for k in range(length)]
        m[wall] = 1
        if rng.random() < 0.4:
            m[22] = max(m[22], 1)
            m[23] = max(m[23], 1)
        elif rng.random() < 0.5:
            m[int(rng.choice([22, 23]))] = 1  # only one of the two
        # out of the runner phase: a checker on r >= threshold
        if not m[threshold:].any():
            m[int(rng.integers(threshold, 24))] += 1
        # the rest on a few random points (stacks behind the wall can close its gaps)
        left = 15 - int(m.sum())
        if left < 0:
            continue
        pts = rng.choice(24, size=int(rng.integers(1, 4)), replace=False)
        m[pts] += rng.multinomial(left, np.ones(len(pts)) / len(pts))
        if ref.six_prime_violated(rules, tuple(int(x) for x in m)):
            continue
        free = [p for p in range(24) if m[p] == 0]
        if not free:
            continue
        o_mine = np.zeros(24, dtype=int)
        k = min(len(free), int(rng.integers(1, 5)))
        opts_pts = rng.choice(free, size=k, replace=False)
        o_off = int(rng.integers(0, 3)) if rng.random() < 0.2 else 0
        o_mine[opts_pts] = rng.multinomial(15 - o_off - k, np.ones(k) / k) + 1
        rows[i, 0:24] = m
        rows[i, 24:48] = np.roll(o_mine, -12)  # his r' is my (r' + 12) % 24
        rows[i, 51] = o_off
        i += 1
    return rows, dice


@pytest.mark.parametrize(
    "options",
    [{}, {"six_prime": "needs_last_two"}, {"six_prime": "needs_last_two", "doubles": "n_times"}],
    ids=str,
)
def test_jacquet_walls_agree_with_reference(options):
    rows, dice = jacquet_wall_rows(1500, seed=11)
    want = compare("jacquet", options, rows, dice, "jacquet walls")
    if options.get("six_prime") == "needs_last_two":
        # the rule must bite: it removes plays on many of these rows
        without = {k: v for k, v in options.items() if k != "six_prime"}
        free = reference_results("jacquet", without, rows, dice)
        assert sum(a != b for a, b in zip(want, free)) >= 100


# --- outcomes --------------------------------------------------------------------------------

@pytest.mark.parametrize("variant, options", SETTINGS, ids=IDS)
def test_outcomes_agree_with_reference(variant, options):
    """After every legal play of 300 random (position, roll) pairs, the game's result; plus the
    finishing plays of a longer run (games end rarely in 300 pairs)."""
    rows, dice = tavli.random_positions(variant, 300, seed=5, **options)
    finished = 0
    for row, d in zip(rows, dice):
        finished += _check_outcomes(variant, options, row, d)
    rows, dice = tavli.random_positions(variant, 6000, seed=6, **options)
    near_end = [i for i, row in enumerate(rows) if int(row[50]) + 6 >= _n(variant, options)]
    for i in near_end[:400]:
        finished += _check_outcomes(variant, options, rows[i], dice[i])
    assert finished >= 10


def _n(variant, options):
    return options.get("checkers", 3) if variant == "hypergammon" else 15


def _check_outcomes(variant, options, row, d):
    board = tavli.Board.from_array(row, variant, **options)
    before = row_to_pos(row)
    player = int(row[52])
    finished = 0
    for play in board.legal_plays((int(d[0]), int(d[1]))):
        after = board.play(play)
        mine = after.outcome()
        theirs = ref.outcome(variant, row_to_pos(after.to_array()).flipped(), options)
        if theirs is None:
            assert mine is None, (before, play, mine)
            continue
        finished += 1
        who, points, kind = theirs
        winner = None if who == "draw" else (player if who == "mover" else 1 - player)
        assert mine == (winner, points, kind), (before, play, mine, theirs)
    return finished


# --- perft -----------------------------------------------------------------------------------

CASES = json.loads((Path(__file__).parent / "data" / "perft_kin.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['name']}-d{c['depth']}" for c in CASES])
def test_perft_matches_reference_fixture(case):
    assert perft_case_board(case).perft(case["depth"]) == case["nodes"]
