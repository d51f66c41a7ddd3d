"""Rollouts of a roll's plays on common dice (Board.rollout_plays, play_rollout.h): what one costs
against rolling out each candidate's result alone with the same options, how it scales from one
thread to two, how much the pairing shrinks the error of a difference, and what the elimination of
trailing plays saves.

Run: python -m pytest bench/test_bench_play_rollout.py --benchmark-only -p no:cacheprovider

Each round rolls out the best CANDIDATES plays (by 0-ply) of DECISIONS contact decisions of the
shipped net's self-play (seeded), TRIALS luck-adjusted greedy trials truncated after TRUNCATE
plies. Recorded: the median time a decision of each kind, their ratios, and the mean squared
standard error of the differences from the best play, paired against unpaired (sqrt(se_a^2 +
se_b^2)); nets-work/playro/judge.py measures the pairing at length (docs/classnets.md, "Stop 42")."""

from __future__ import annotations

import numpy as np
import pytest

import tavli
from conftest import ratio, record_median, record_ratio

DECISIONS, CANDIDATES, TRIALS, TRUNCATE = 3, 5, 36, 6
OPTIONS = {"trials": TRIALS, "truncate": TRUNCATE, "variance_reduction": True}


@pytest.fixture(scope="module")
def decisions():
    from tavli.supervised import class_positions

    rows = class_positions("backgammon", 60, "contact", players={"search": 0}, seed=5, threads=1)
    rng = np.random.default_rng(5)
    out = []
    for r in rows:
        board = tavli.Board.from_array(r, "backgammon")
        dice = tuple(int(x) for x in rng.integers(1, 7, size=2))
        if len(board.legal_plays(dice)) >= CANDIDATES:
            out.append((board, dice))
        if len(out) == DECISIONS:
            return out
    raise RuntimeError("too few decisions")


def name(kind: str) -> str:
    return f"play rollouts, {CANDIDATES} candidates, {kind} (ms a decision)"


@pytest.mark.parametrize("threads", [1, 2])
def test_play_rollout(benchmark, decisions, threads):
    def run():
        return [b.rollout_plays(d, CANDIDATES, seed=k, threads=threads, **OPTIONS)
                for k, (b, d) in enumerate(decisions)]

    results = benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    if benchmark.stats is None:
        return
    record_median(name(f"{threads} thread{'s' if threads > 1 else ''}"), benchmark, DECISIONS, "ms")
    if threads == 1:
        paired = [p.difference_std_error ** 2 for r in results for p in r[1:]]
        unpaired = [r[0].rollout.equity_std_error ** 2 + p.rollout.equity_std_error ** 2
                    for r in results for p in r[1:]]
        record_ratio("SE^2 of a difference, paired / unpaired", float(np.mean(paired) / np.mean(unpaired)))
    else:
        ratio("play rollout speed, 2 threads / 1", name("1 thread"), name("2 threads"))


def test_each_result_alone(benchmark, decisions):
    """The same candidates' results rolled out one by one (Board.rollout, the same seeds: the same
    trials): the work a play rollout does, without the pairing."""
    plays = [[p.play for p in b.analyze(d, 0)[:CANDIDATES]] for b, d in decisions]

    def run():
        return [b.play(p).rollout(seed=k, **OPTIONS)
                for k, ((b, _), ps) in enumerate(zip(decisions, plays)) for p in ps]

    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    if benchmark.stats is None:
        return
    record_median(name("each result alone"), benchmark, DECISIONS, "ms")
    ratio("play rollout time / each result alone's", name("1 thread"), name("each result alone"))


@pytest.mark.parametrize("eliminate", [None, 3.0])
def test_elimination(benchmark, decisions, eliminate):
    """288 trials (two blocks of 144) of the same candidates, all of them or with the plays more
    than 3 standard errors behind after the first block eliminated: the time it saves, and how
    often it keeps the full rollout's best play (recorded as a ratio of decisions)."""
    kw = {**OPTIONS, "trials": 288, "eliminate": eliminate}
    some = decisions[:2]  # long rounds: two decisions

    def run():
        return [b.rollout_plays(d, CANDIDATES, seed=k, **kw) for k, (b, d) in enumerate(some)]

    results = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=0)
    if benchmark.stats is None:
        return
    label = "288 trials, " + ("every play to the end" if eliminate is None else f"eliminate {eliminate:g}")
    record_median(name(label), benchmark, len(some), "ms")
    BEST[eliminate] = [str(r.best.play) for r in results]
    if len(BEST) == 2:
        ratio("elimination: speed / every play to the end", name("288 trials, every play to the end"),
              name(label))
        record_ratio("elimination: the same best play (share of decisions)",
                     float(np.mean([a == b for a, b in zip(BEST[None], BEST[3.0])])))


BEST: dict[float | None, list[str]] = {}
