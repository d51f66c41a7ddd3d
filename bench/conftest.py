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


def record_median(name: str, benchmark, work: float, unit: str) -> None:
    """Stores the median round: `work` units a second, or with unit "ms" milliseconds per unit of work."""
    if benchmark.stats is None:
        return
    med = benchmark.stats.stats.median
    if unit == "ms":
        RESULTS[name] = {"rate": 1e3 * med / work, "mean_rate": 0, "unit": "ms", "seconds": med}
    else:
        RESULTS[name] = {"rate": work / med, "mean_rate": 0, "unit": unit, "seconds": med}


def record_ratio(name: str, value: float) -> None:
    """Stores a ratio measured in this run (printed with an "x")."""
    RESULTS[name] = {"rate": value, "mean_rate": 0, "unit": "x", "seconds": 0}


def ratio(name: str, a: str, b: str) -> None:
    """Stores the ratio of two recorded rates, once both are there."""
    if a in RESULTS and b in RESULTS:
        record_ratio(name, RESULTS[a]["rate"] / RESULTS[b]["rate"])


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


def record_ms(name: str, benchmark, calls: int) -> None:
    """Stores the time per call in milliseconds, for `calls` calls per benchmarked round."""
    if benchmark.stats is None:
        return
    best = benchmark.stats.stats.min
    mean = benchmark.stats.stats.mean
    RESULTS[name] = {"rate": 1e3 * best / calls, "mean_rate": 1e3 * mean / calls, "unit": "ms", "seconds": best}
    benchmark.extra_info["ms per call (best round)"] = 1e3 * best / calls


def pytest_terminal_summary(terminalreporter):
    if not RESULTS:
        return
    tr = terminalreporter
    tr.section("tavli throughput (best round; ratios within this run)")
    for name, r in RESULTS.items():
        if r["unit"] in ("us", "ms"):
            tr.write_line(f"{name:<48} {r['rate']:>16.3f} {r['unit']}")
        elif r["unit"] == "x":  # a ratio stored by a benchmark
            tr.write_line(f"{name:<48} {r['rate']:>16.2f} x")
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
    # Search against OpenSpiel's Python expectiminimax on the same backgammon positions
    # (bench/test_bench_search.py: what "depth" means on each side is explained there).
    tv1 = RESULTS.get("tavli analyze 1-ply (OpenSpiel positions)")
    for label, key in (
        ("OpenSpiel depth 2 / tavli 1-ply (time)", "OpenSpiel expectiminimax depth 2"),
        ("OpenSpiel depth 2 by turns / tavli 1-ply", "OpenSpiel expectiminimax depth 2 by turns"),
        ("OpenSpiel depth 2, free leaf / tavli 1-ply", "OpenSpiel expectiminimax depth 2, free leaf"),
    ):
        os_ = RESULTS.get(key)
        if tv1 and os_:
            tr.write_line(f"{label:<48} {os_['rate'] / tv1['rate']:>16,.0f} x")
    tve = RESULTS.get("tavli evaluate 1-ply (OpenSpiel positions)")
    ose = RESULTS.get("OpenSpiel before roll depth 1 by turns")
    if tve and ose:
        tr.write_line(f"{'OpenSpiel before-roll d1 / tavli evaluate 1-ply':<48} {ose['rate'] / tve['rate']:>16,.0f} x")
    tvl = RESULTS.get("tavli analyze 1-ply leaf evals (OS positions)")
    osl = RESULTS.get("OpenSpiel depth 2 leaf evals")
    if tvl and osl:
        tr.write_line(f"{'tavli / OpenSpiel leaf evaluations per second':<48} {tvl['rate'] / osl['rate']:>16,.0f} x")
