"""Cube decisions beside GNU Backgammon's cube analysis at 0, 1 and 2 plies, on the same positions:
time per decision and the ratio (gnubg's time / tavli's).

Positions: the first 150 items of tests/data/gnubg_cube_reference.json without Jacoby or beavers
(seeded random backgammon positions, contact, race and bear-off, cube states in money play and at
match scores; tools/gnubg_cube_reference.py made them).
- tavli: Board.cube_decision(cube, match, plies=N) on the shipped backgammon net, one call per
  position: the 0-ply Janowski model at 0 plies, the cubeful search (tavli.cube_search: cube
  decisions at every level of the tree, one thread) at 1 and 2.
- gnubg: Debian's `gnubg -t -q` reading one command file: the position's Match ID and board, then
  `hint` (its cube analysis, as tools/gnubg_cube_reference.py drives it), with
  `set evaluation cubedecision eval plies N`. Its time per decision is the run's wall time less that
  of the same file without the `hint`s (start-up, the MET, setting the boards), over the positions.

Run: python -m pytest bench/test_bench_cube_gnubg.py --benchmark-only
Skipped without gnubg."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time

import pytest

import tavli
from conftest import RESULTS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gnubg_cube_reference as ref  # noqa: E402

if not (shutil.which("gnubg") or os.path.exists(ref.GNUBG)):
    pytest.skip("GNU Backgammon (gnubg) is not installed", allow_module_level=True)

POSITIONS = 150
TAVLI_CUBEFUL_PLIES = (0, 1, 2)  # the plies at which tavli has a cube decision of its own


def items() -> list[dict]:
    with open(os.path.join(ROOT, "tests", "data", "gnubg_cube_reference.json")) as f:
        data = json.load(f)["cube_decisions"]
    plain = [it for it in data if not it["cube"]["jacoby"] and not it["cube"]["beavers"]]
    return plain[:POSITIONS]


@pytest.fixture(scope="module")
def positions():
    out = []
    for it in items():
        board, _, _ = tavli.cube.parse_position(it["id"])
        cube = tavli.CubeState(it["cube"]["value"], it["cube"]["owner"])
        match = tavli.MatchState(it["match"]["length"], tuple(it["match"]["score"]), it["match"]["crawford"])
        out.append((it, board, cube, match))
    return out


def gnubg_seconds(positions, plies: int, with_hints: bool) -> float:
    cmds = [f"set evaluation cubedecision eval plies {plies}", "new session"]
    for it, *_ in positions:
        pos, mid = it["id"].split(":")
        cmds += [f"set matchid {mid}", f"set board {pos}"] + (["hint"] if with_hints else [])
    t0 = time.perf_counter()
    text = ref.run_gnubg(cmds)
    elapsed = time.perf_counter() - t0
    if with_hints and len(ref.parse_hints(text)) != len(positions):
        raise RuntimeError("gnubg did not print a cube analysis for every position")
    return elapsed


def store_ms(name: str, seconds: float, calls: int) -> None:
    RESULTS[name] = {"rate": 1e3 * seconds / calls, "mean_rate": 1e3 * seconds / calls, "unit": "ms",
                     "seconds": seconds}


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_gnubg_cube_analysis(benchmark, positions, plies):
    # Best of two runs each (gnubg is a separate process; pytest-benchmark times only the call).
    # With timing off (CI's --benchmark-disable) a few positions once, so the code cannot rot.
    runs, positions = (1, positions[:5]) if benchmark.disabled else (2, positions)
    base = min(gnubg_seconds(positions, plies, False) for _ in range(runs))
    full = min(gnubg_seconds(positions, plies, True) for _ in range(runs))
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    store_ms(f"gnubg cube decision {plies}-ply", max(full - base, 0.0), len(positions))
    benchmark.extra_info["ms per decision"] = 1e3 * max(full - base, 0.0) / len(positions)


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_tavli_cube_decision(benchmark, positions, plies):
    if plies not in TAVLI_CUBEFUL_PLIES:
        pytest.skip(f"tavli has no {plies}-ply cubeful cube decision yet (issue 15 item 4: cube decisions "
                    f"inside the search tree); only the gnubg side is timed")
    tavli.nn.default_evaluator()  # load the nets outside the timing

    def run():
        for _, board, cube, match in positions:
            board.cube_decision(cube, match, plies=plies)

    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    best = benchmark.stats.stats.min if benchmark.stats is not None else None
    if best is None:
        return
    store_ms(f"tavli cube decision {plies}-ply", best, len(positions))
    gn = RESULTS.get(f"gnubg cube decision {plies}-ply")
    if gn:
        ratio = gn["rate"] / RESULTS[f"tavli cube decision {plies}-ply"]["rate"]
        RESULTS[f"gnubg / tavli time per {plies}-ply cube decision"] = {"rate": ratio, "mean_rate": ratio,
                                                                         "unit": "x", "seconds": 0}
        benchmark.extra_info["gnubg / tavli time"] = ratio
