"""What the luck adjustment costs and saves in rollouts by a search player (rollout.h's
luck_evaluator): the same 1-ply rollouts of the same positions, plain, luck-adjusted by the
player's own lookahead (21 one-ply searches a ply), and luck-adjusted by its net at 0 plies.

Run: python -m pytest bench/test_bench_rollout_luck.py --benchmark-only -p no:cacheprovider

Each round rolls out POSITIONS middle-game positions (the shipped net's self-play, seeded) with
TRIALS trials truncated after TRUNCATE plies, player search:1 with the shipped net, one thread.
Recorded: the median time of each kind, its time and mean squared equity standard error against
the plain rollout's, and the efficiency 1 / (SE^2 x time) against the own lookahead's: how much
less CPU the 0-ply judge needs for the same error. The standard errors of so few positions are
indicative only; nets-work/luck/efficiency.py measures them at length (docs/classnets.md,
"Stop 41")."""

from __future__ import annotations

import numpy as np
import pytest

import tavli
import tavli.nn as nn
from conftest import RESULTS, ratio, record_median, record_ratio

POSITIONS, TRIALS, TRUNCATE = 2, 36, 2
KINDS = {"plain": {}, "own lookahead": {"variance_reduction": True},
         "0-ply luck": {"variance_reduction": True, "luck_evaluator": "nets"}}
SE2: dict[str, float] = {}  # per kind: the mean squared equity standard error of its rollouts


@pytest.fixture(scope="module")
def boards():
    from tavli.supervised import class_positions

    rows = class_positions("backgammon", 40, "contact", players={"search": 0}, seed=5, threads=1)[:POSITIONS]
    return [tavli.Board.from_array(r, "backgammon") for r in rows]


def name(kind: str) -> str:
    return f"1-ply rollouts, {kind} (ms a position)"


@pytest.mark.parametrize("kind", list(KINDS))
def test_rollout_luck(benchmark, boards, kind):
    player = {"search": 1, "evaluator": nn.shipped("backgammon")}

    def run():
        return [b.rollout(TRIALS, player, seed=k, truncate=TRUNCATE, **KINDS[kind]) for k, b in enumerate(boards)]

    # The own lookahead's rounds are long (21 one-ply searches a ply): two of them, no warm-up; the
    # others warm up once (the first race builds the bear-off tables).
    own = kind == "own lookahead"
    results = benchmark.pedantic(run, rounds=2 if own else 5, iterations=1, warmup_rounds=0 if own else 1)
    if benchmark.stats is None:
        return
    SE2[kind] = float(np.mean([r.equity_std_error ** 2 for r in results]))
    record_median(name(kind), benchmark, POSITIONS, "ms")
    if len(SE2) == len(KINDS):
        for k in ("own lookahead", "0-ply luck"):
            ratio(f"{k}: time / plain", name(k), name("plain"))
            record_ratio(f"{k}: SE^2 / plain", SE2[k] / SE2["plain"])
        cost = {k: SE2[k] * RESULTS[name(k)]["rate"] for k in ("own lookahead", "0-ply luck")}
        record_ratio("0-ply luck: efficiency / own lookahead's", cost["own lookahead"] / cost["0-ply luck"])
