"""Legal-play generation speed over fixed, seeded Fevga position sets.

Run: python -m pytest bench/ --benchmark-only
Reported: distinct resulting positions per second for the C++ generator with no Python in the
loop, the same through the Python API and the batch call, the pure-Python reference on a subset,
and their ratios (printed in the terminal summary)."""

from __future__ import annotations

import numpy as np
import pytest

import tavli
from conftest import SEED, record
from tavli import _core


def test_cpp_generator(benchmark, fevga_set):
    rows, dice = fevga_set
    total = _core._generate_all("fevga", [], rows, dice, 1)
    benchmark.pedantic(_core._generate_all, args=("fevga", [], rows, dice, 5), rounds=5, iterations=1)
    record("C++ generator (no Python in the loop)", benchmark, 5 * total, "results")


@pytest.mark.parametrize(
    "variant", ["moultezim", "backgammon", "portes", "tavla", "plakoto", "narde", "jacquet", "tawla31", "nackgammon", "hypergammon"]
)
def test_cpp_generator_per_game(benchmark, variant):
    """Each game on its own seeded random-games set (20,000 pairs), no Python in the loop."""
    rows, dice = tavli.random_positions(variant, 20000, seed=SEED)
    total = _core._generate_all(variant, [], rows, dice, 1)
    benchmark.pedantic(_core._generate_all, args=(variant, [], rows, dice, 5), rounds=5, iterations=1)
    record(f"C++ generator, {variant}", benchmark, 5 * total, "results")


def test_python_reference(benchmark, fevga_set):
    from oracle import fevga as ref

    rows, dice = fevga_set
    rows, dice = rows[:400], dice[:400]
    args = [
        ([int(x) for x in r[0:24]], [int(x) for x in r[24:48]], int(r[50]), int(r[51]), (int(d[0]), int(d[1])))
        for r, d in zip(rows, dice)
    ]

    def run():
        return sum(len(ref.legal_plays(*a)) for a in args)

    total = run()
    benchmark.pedantic(run, rounds=3, iterations=1)
    record("Python reference (tests/oracle)", benchmark, total, "results")


def test_batch_call(benchmark, fevga_set):
    rows, dice = fevga_set
    counts = tavli.batch_legal_plays(rows, dice)
    benchmark.pedantic(tavli.batch_legal_plays, args=(rows, dice), rounds=5, iterations=1)
    record("batch_legal_plays (1 thread)", benchmark, int(counts.sum()), "results")
    record("batch_legal_plays positions", benchmark, len(rows), "positions")


def test_batch_call_with_positions(benchmark, fevga_set):
    rows, dice = fevga_set
    counts = tavli.batch_legal_plays(rows, dice)
    benchmark.pedantic(
        tavli.batch_legal_plays, args=(rows, dice), kwargs={"return_positions": True}, rounds=5, iterations=1
    )
    record("batch_legal_plays, returning positions", benchmark, int(counts.sum()), "results")


def test_legal_plays_api(benchmark, fevga_set):
    rows, dice = fevga_set
    boards = [tavli.Board.from_array(r) for r in rows[:2000]]
    rolls = [(int(d[0]), int(d[1])) for d in dice[:2000]]
    total = sum(len(b.legal_plays(d)) for b, d in zip(boards, rolls))

    def run():
        for b, d in zip(boards, rolls):
            b.legal_plays(d)

    benchmark.pedantic(run, rounds=5, iterations=1)
    record("Board.legal_plays results", benchmark, total, "results")
    record("Board.legal_plays per call", benchmark, len(boards), "calls")
    benchmark.extra_info["plays per call"] = total / len(boards)


def test_legal_plays_cost_model(benchmark, fevga_set):
    """Per-call cost split into a fixed part and a part per play returned (least squares)."""
    import time

    rows, dice = fevga_set
    boards = [tavli.Board.from_array(r) for r in rows[:3000]]
    rolls = [(int(d[0]), int(d[1])) for d in dice[:3000]]
    sizes, times = [], []
    for b, d in zip(boards, rolls):
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            plays = b.legal_plays(d)
            best = min(best, time.perf_counter() - t0)
        sizes.append(len(plays))
        times.append(best)
    slope, intercept = np.polyfit(np.array(sizes, dtype=float), np.array(times), 1)
    benchmark.extra_info["fixed cost per call (us)"] = intercept * 1e6
    benchmark.extra_info["cost per play returned (us)"] = slope * 1e6
    benchmark.pedantic(lambda: boards[0].legal_plays(rolls[0]), rounds=100, iterations=10)
    from conftest import RESULTS

    RESULTS["legal_plays fixed cost (us)"] = {"rate": intercept * 1e6, "mean_rate": 0, "unit": "us", "seconds": 0}
    RESULTS["legal_plays cost per play (us)"] = {"rate": slope * 1e6, "mean_rate": 0, "unit": "us", "seconds": 0}
