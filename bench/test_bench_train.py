"""TD self-play training speed (tavli.train): games learned per second with the shipped backgammon
net's shape and encoding ("expert", 205-128-5, a copy of the shipped weights), one by one on one
thread (batch_games 1, the online algorithm) and in rounds of 16 games on 1 and 2 threads, and the
ratios, by median rounds. Every call trains on the next games of one run, so each round measures distinct games.

Run: python -m pytest bench/test_bench_train.py --benchmark-only"""

from __future__ import annotations

import pytest

import tavli.nn as nn
import tavli.train as tt
from conftest import RESULTS

GAMES = 160  # per benchmark round: 10 rounds of 16


@pytest.mark.parametrize("batch, threads", [(1, 1), (16, 1), (16, 2)])
def test_td_games_per_second(benchmark, batch, threads):
    net = nn.shipped("backgammon")
    assert net is not None
    t = tt.TdTrainer(net.copy(), "backgammon", alpha=0.01, seed=1, batch_games=batch, threads=threads)
    benchmark.pedantic(t.train, args=(GAMES,), rounds=3, iterations=1, warmup_rounds=1)
    label = f"backgammon TD, batch {batch}, {threads} thread{'s' if threads > 1 else ''}"
    if benchmark.stats is None:  # --benchmark-disable
        return
    median = benchmark.stats.stats.median
    RESULTS[label] = {"rate": GAMES / median, "mean_rate": GAMES / benchmark.stats.stats.mean, "unit": "games",
                      "seconds": median}
    base = RESULTS.get("backgammon TD, batch 1, 1 thread")
    one = RESULTS.get("backgammon TD, batch 16, 1 thread")
    two = RESULTS.get("backgammon TD, batch 16, 2 threads")
    if base and one:
        RESULTS["backgammon TD, batch 16 / batch 1 (1 thread)"] = {
            "rate": one["rate"] / base["rate"], "mean_rate": 0, "unit": "x", "seconds": 0}
    if one and two:
        RESULTS["backgammon TD, batch 16: 2 threads / 1 thread"] = {
            "rate": two["rate"] / one["rate"], "mean_rate": 0, "unit": "x", "seconds": 0}
