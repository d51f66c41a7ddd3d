"""Time per 0-ply cube decision (cpp/include/tavli/cubeful.h): the pure formula on given
probabilities (through the binding, and through Board.cube_decision), and with the position
evaluated by the shipped backgammon net at 0 plies. Positions: seeded random backgammon games.

Run: python -m pytest bench/test_bench_cube.py --benchmark-only"""

from __future__ import annotations

import pytest

import tavli
from tavli import _core
from tavli.cube import default_met
from conftest import RESULTS, SEED

PROBS = [0.521514, 0.153921, 0.007563, 0.129847, 0.007546]
def record_us(name: str, benchmark, calls: int) -> None:
    """Stores the time per call in microseconds, for `calls` calls per benchmarked round."""
    if benchmark.stats is None:
        return
    best, mean = benchmark.stats.stats.min, benchmark.stats.stats.mean
    RESULTS[name] = {"rate": 1e6 * best / calls, "mean_rate": 1e6 * mean / calls, "unit": "us", "seconds": best}


STATES = {"money": tavli.MatchState(), "7-point 4-2": tavli.MatchState(7, (4, 2))}


@pytest.fixture(scope="module")
def boards():
    rows, _ = tavli.random_positions("backgammon", 200, seed=SEED)
    out = [tavli.Board.from_array(r, "backgammon") for r in rows]
    return [b for b in out if not b.is_game_over()][:100]


@pytest.mark.parametrize("state", list(STATES))
def test_formula_through_binding(benchmark, state):
    met, match, cube = default_met(), STATES[state], tavli.CubeState()
    calls = 1000
    benchmark(lambda: [_core._cube_decision(PROBS, cube, match, 0, 0.68, met) for _ in range(calls)])
    record_us(f"cube formula via binding ({state})", benchmark, calls)


@pytest.mark.parametrize("state", list(STATES))
def test_board_cube_decision_given_probabilities(benchmark, state, boards):
    match = STATES[state]
    benchmark(lambda: [b.cube_decision(match=match, probabilities=PROBS) for b in boards])
    record_us(f"Board.cube_decision, given probs ({state})", benchmark, len(boards))


@pytest.mark.parametrize("state", list(STATES))
def test_board_cube_decision_shipped_net(benchmark, state, boards):
    match = STATES[state]
    benchmark(lambda: [b.cube_decision(match=match) for b in boards])
    record_us(f"Board.cube_decision, net 0-ply ({state})", benchmark, len(boards))
