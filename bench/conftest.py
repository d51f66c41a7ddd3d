"""Shared fixed position sets for the benchmarks, and a summary of throughput and ratios printed at
the end of the run (ratios are between benchmarks of the same session, so machine noise cancels
out as far as it can)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tavli

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

RESULTS: dict[str, dict] = {}
SEED = 20261130


@pytest.fixture(scope="session")
def fevga_set():
    """20,000 (position, roll) pairs from seeded uniform-random Fevga games."""
    return tavli.random_positions("fevga", 20000, seed=SEED)


def record(name: str, benchmark, work: float, unit: str) -> None:
    """Stores `work` units done per benchmarked call, e.g. resulting positions."""
    if benchmark.stats is None:  # --benchmark-disable: the code ran once, nothing was timed
        return
    best = benchmark.stats.stats.min
    mean = benchmark.stats.stats.mean
    RESULTS[name] = {"rate": work / best, "mean_rate": work / mean, "unit": unit, "seconds": best}
    benchmark.extra_info[f"{unit} per second (best round)"] = work / best


def pytest_terminal_summary(terminalreporter):
    if not RESULTS:
        return
    tr = terminalreporter
    tr.section("tavli throughput (best round; ratios within this run)")
    for name, r in RESULTS.items():
        if r["unit"] == "us":
            tr.write_line(f"{name:<48} {r['rate']:>16.3f} us")
        else:
            tr.write_line(f"{name:<48} {r['rate']:>16,.0f} {r['unit']}/s")
    cpp = RESULTS.get("C++ generator (no Python in the loop)")
    ref = RESULTS.get("Python reference (tests/oracle)")
    if cpp and ref:
        tr.write_line(f"{'C++ / Python reference':<48} {cpp['rate'] / ref['rate']:>16,.0f} x")
    batch = RESULTS.get("batch_legal_plays (1 thread)")
    calls = RESULTS.get("Board.legal_plays per call")
    if batch and calls:
        tr.write_line(f"{'batch call / per-call API (positions)':<48} {batch['rate'] / calls['mean_rate']:>16,.1f} x")
    tv = RESULTS.get("tavli Board.legal_plays per call (backgammon)")
    gn = RESULTS.get("gnubg-nn moves() per call")
    if tv and gn:
        tr.write_line(f"{'tavli calls/s / gnubg-nn moves() calls/s':<48} {tv['rate'] / gn['rate']:>16,.2f} x")
    gnv = RESULTS.get("gnubg-nn moves(verbose=1) per call")
    if tv and gnv:
        tr.write_line(f"{'tavli calls/s / gnubg-nn moves(verbose=1)':<48} {tv['rate'] / gnv['rate']:>16,.2f} x")
