"""Backgammon move generation: tavli's per-call API against GNU Backgammon's generator (PyPI
package `gnubg-nn`, ``moves(board, d1, d2)``), on the same fixed positions, in the same process.

Both sides are timed as a Python loop of one call per (position, roll) pair over 2,000 pairs from
seeded uniform-random backgammon games: gnubg-nn's ``moves()`` on prebuilt board lists (it returns
one 20-character key per distinct resulting position), and tavli's ``Board.legal_plays(dice)`` on
prebuilt boards (it returns Play objects with their steps, closer to ``moves(..., 1)``, timed too).

Run: python -m pytest bench/test_bench_gnubg.py --benchmark-only
Skipped when gnubg-nn is not installed or tavli has no "backgammon" variant."""

from __future__ import annotations

import pytest

try:  # a missing or unloadable gnubg-nn (ImportError, not only ModuleNotFoundError) skips
    import gnubg_nn as gnubg
except ImportError as e:
    pytest.skip(f"gnubg-nn not usable ({e}); pip install gnubg-nn", allow_module_level=True)

import tavli  # noqa: E402
from conftest import SEED, record  # noqa: E402

if "backgammon" not in tavli.variants():
    pytest.skip('tavli has no "backgammon" variant yet', allow_module_level=True)

PAIRS = 2000
ROUNDS = 20


def row_to_gnubg(row) -> list[list[int]]:
    """gnubg board [[opponent], [side on roll]], each side's index i = its point i + 1 = 23 - r,
    index 24 its bar (tests/test_gnubg_backgammon.py checks this conversion)."""
    r = [int(x) for x in row]
    return [[r[47 - i] for i in range(24)] + [r[49]], [r[23 - i] for i in range(24)] + [r[48]]]


@pytest.fixture(scope="module")
def backgammon_set():
    rows, dice = tavli.random_positions("backgammon", PAIRS, seed=SEED)
    rolls = [(int(d[0]), int(d[1])) for d in dice]
    return rows, rolls


def test_gnubg_moves(benchmark, backgammon_set):
    rows, rolls = backgammon_set
    pairs = [(row_to_gnubg(r), d1, d2) for r, (d1, d2) in zip(rows, rolls)]
    moves = gnubg.moves
    total = sum(max(1, len(moves(b, d1, d2))) for b, d1, d2 in pairs)  # a pass counts as one

    def run():
        for b, d1, d2 in pairs:
            moves(b, d1, d2)

    benchmark.pedantic(run, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    record("gnubg-nn moves() per call", benchmark, len(pairs), "calls")
    benchmark.extra_info["results per call"] = total / len(pairs)


def test_gnubg_moves_verbose(benchmark, backgammon_set):
    """The same with the steps of each play (``verbose=1``), as tavli's Play objects carry."""
    rows, rolls = backgammon_set
    pairs = [(row_to_gnubg(r), d1, d2) for r, (d1, d2) in zip(rows, rolls)]
    moves = gnubg.moves

    def run():
        for b, d1, d2 in pairs:
            moves(b, d1, d2, 1)

    benchmark.pedantic(run, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    record("gnubg-nn moves(verbose=1) per call", benchmark, len(pairs), "calls")


def test_tavli_legal_plays(benchmark, backgammon_set):
    rows, rolls = backgammon_set
    boards = [tavli.Board.from_array(r, "backgammon") for r in rows]
    total = sum(len(b.legal_plays(d)) for b, d in zip(boards, rolls))

    def run():
        for b, d in zip(boards, rolls):
            b.legal_plays(d)

    benchmark.pedantic(run, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    record("tavli Board.legal_plays per call (backgammon)", benchmark, len(boards), "calls")
    benchmark.extra_info["results per call"] = total / len(boards)
