"""Honest speed figures (issue 19): the shipped backgammon net, encoding included, on distinct
positions, medians; beside GNU Backgammon (PyPI gnubg-nn) in the same process; thread scaling.

Run: python -m pytest bench/test_bench_speed.py --benchmark-only -p no:cacheprovider

1. Static evaluation. POSITIONS: the distinct results of every legal play from the seeded random
   backgammon games set (games not over, shuffled), evaluated by the shipped net through
   ``Net.evaluate_positions`` (row decoding and validation included: the Python batch call) in one
   call. The C++ figure without the row decoding is ``build/tools/tavli_bench_eval`` (README).
   Best case, labelled so: one call per roll's candidates (siblings share most input units).
   gnubg-nn: ``probabilities(board, 0)``, one Python call per position (its only per-position
   entry point), on the same positions: the Python call is part of its figure. gnubg-nn caches
   its evaluations, so each of its rounds gets positions of its own (each_round); so do the
   decisions below, tavli's and gnubg-nn's alike.
2. Decisions: ``Board.analyze(dice, plies)`` (default filters; threads=1) against gnubg-nn's
   ``best_move(board, d1, d2, n=plies)`` on DECISIONS (position, roll) pairs of the middle-game set
   of bench/test_bench_search.py, ms per decision (median round), and the ratio. Debian's gnubg
   (``gnubg -t``, ``set evaluation chequerplay eval plies N``, default filters, ``set threads 1``)
   is timed by ``tools/gnubg_decision_speed.py``, outside this process.
3. Threads: the same work with threads=1 and threads=2 (2-ply analyses, batch_legal_plays with
   positions, a rollout, a simulation): the ratio of medians. Meaningful only on an idle machine
   with two free cores; on a shared one it says how much the machine had to give.

Medians (pytest-benchmark's "median" column) are what is recorded here; the summary prints them.
"""

from __future__ import annotations

import numpy as np
import pytest

import tavli
import tavli.nn as nn
from conftest import SEED, ratio, record_median
from strength import gnubg_board

try:
    import gnubg_nn as gnubg
except ImportError:
    gnubg = None

requires_gnubg = pytest.mark.skipif(gnubg is None, reason="gnubg-nn not installed (pip install gnubg-nn)")
DECISIONS = 12  # a round's; each round its own (each_round), DECISION_ROUNDS of them at most
DECISION_ROUNDS = 3


@pytest.fixture(scope="module")
def distinct():
    rows, dice = tavli.random_positions("backgammon", 3000, seed=SEED)
    _, offsets, results = tavli.batch_legal_plays(rows, dice, "backgammon", return_positions=True)
    live = (results[:, 50] < 15) & (results[:, 51] < 15)
    unique = np.unique(results[live], axis=0)
    np.random.default_rng(SEED).shuffle(unique)
    groups = [results[offsets[i]:offsets[i + 1]] for i in range(len(offsets) - 1)]
    groups = [g[(g[:, 50] < 15) & (g[:, 51] < 15)] for g in groups]
    return unique, [g for g in groups if len(g)]


def test_eval_distinct(benchmark, distinct):
    rows = distinct[0]
    net = nn.shipped("backgammon")
    net.evaluate_positions(rows[:10], "backgammon")
    benchmark.pedantic(net.evaluate_positions, args=(rows, "backgammon"), rounds=7, iterations=1, warmup_rounds=1)
    record_median(f"shipped net, {len(rows)} distinct positions", benchmark, len(rows), "positions")


def test_eval_distinct_td_net(benchmark, distinct):
    """The backgammon net's TD stage (205-128-5 "expert", shipped beside it for speed): what the
    shipped net's richer inputs cost, as a ratio in the same session."""
    rows = distinct[0]
    net = nn.shipped_stage("backgammon", "td")
    net.evaluate_positions(rows[:10], "backgammon")
    benchmark.pedantic(net.evaluate_positions, args=(rows, "backgammon"), rounds=7, iterations=1, warmup_rounds=1)
    record_median(f"TD stage net, {len(rows)} distinct positions", benchmark, len(rows), "positions")
    ratio("shipped net speed / TD stage net's", f"shipped net, {len(rows)} distinct positions",
          f"TD stage net, {len(rows)} distinct positions")


@pytest.mark.skipif(not tavli._core.NeuralNet.cpu_has_avx512(), reason="the CPU has no AVX-512F")
def test_eval_distinct_avx2_path(benchmark, distinct):
    """The shipped net on the same positions with its hidden layer kept on the AVX2 path
    (``Net.force_avx2``; the same bits): what the AVX-512 path gives, as a ratio in the same session."""
    rows = distinct[0]
    net = nn.shipped("backgammon")
    net.force_avx2 = True
    net.evaluate_positions(rows[:10], "backgammon")
    benchmark.pedantic(net.evaluate_positions, args=(rows, "backgammon"), rounds=7, iterations=1, warmup_rounds=1)
    record_median(f"shipped net on the AVX2 path, {len(rows)} distinct positions", benchmark, len(rows), "positions")
    ratio("shipped net speed, AVX-512 / AVX2 path", f"shipped net, {len(rows)} distinct positions",
          f"shipped net on the AVX2 path, {len(rows)} distinct positions")


@pytest.mark.parametrize("encoding", ["expert", "expert2", "expert3", "expert4"])
def test_eval_distinct_by_encoding(benchmark, distinct, encoding):
    """What richer inputs cost: a 128-unit net (seeded random weights: the work does not depend on
    their values) on each hitting-game encoding, the same distinct positions; ratios to "expert"
    (the shipped net's encoding) in the same session."""
    rows = distinct[0]
    net = nn.Net("backgammon", 128, seed=1, encoding=encoding)
    net.evaluate_positions(rows[:10], "backgammon")
    benchmark.pedantic(net.evaluate_positions, args=(rows, "backgammon"), rounds=7, iterations=1, warmup_rounds=1)
    record_median(f"{encoding} net (128 units), distinct positions", benchmark, len(rows), "positions")
    if encoding != "expert":
        ratio(f"{encoding} net speed / expert net's", f"{encoding} net (128 units), distinct positions",
              "expert net (128 units), distinct positions")


def test_eval_siblings_best_case(benchmark, distinct):
    groups = distinct[1]
    net = nn.shipped("backgammon")
    total = sum(len(g) for g in groups)

    def run():
        for g in groups:
            net.evaluate_positions(g, "backgammon")

    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    record_median("shipped net, one roll's siblings a call (best case)", benchmark, total, "positions")


def each_round(items: list, per_round: int, rounds: int):
    """A function giving round k's `per_round` of `items` at its k-th call, rounds times (every
    len(items) // per_round-th item from item k: each round spans the whole set). gnubg-nn keeps
    its evaluations in a cache in the process (its API has no call that clears it), so a round
    that repeated the last one's positions would time cache hits (a second pass over 5,000
    positions ran 7x faster than the first): every round, the warm-up's too, gets its own."""
    stride = len(items) // per_round
    assert stride >= rounds, "too few items for fresh rounds"
    rounds_left = iter(range(rounds))
    return lambda: items[next(rounds_left)::stride][:per_round]


@requires_gnubg
def test_gnubg_eval_per_call(benchmark, distinct):
    per_round, rounds = 5000, 3
    boards = [gnubg_board(r) for r in distinct[0][:per_round * (rounds + 1)]]
    next_boards = each_round(boards, per_round, rounds + 1)
    probabilities = gnubg.probabilities

    def run():
        for b in next_boards():
            probabilities(b, 0)

    benchmark.pedantic(run, rounds=rounds, iterations=1, warmup_rounds=1)
    record_median("gnubg-nn probabilities(board, 0), a Python call each", benchmark, per_round, "positions")


@pytest.fixture(scope="module")
def decisions():
    rows, dice = tavli.random_positions("backgammon", 4000, seed=SEED)
    counts = tavli.batch_legal_plays(rows, dice, "backgammon")
    ok = np.flatnonzero((rows[:, 50] == 0) & (rows[:, 51] == 0) & (counts > 1))
    pick = ok[np.linspace(0, len(ok) - 1, DECISIONS * DECISION_ROUNDS).astype(int)]
    return [(rows[i], (int(dice[i][0]), int(dice[i][1]))) for i in pick]


@pytest.mark.parametrize("prune", [tavli._core.DEFAULT_PRUNE, 0], ids=["pruned", "unpruned"])
@pytest.mark.parametrize("plies", [2, 3])
def test_tavli_decision(benchmark, decisions, plies, prune):
    """The default search (the shipped pruning net on) and, as the baseline, the same without
    pruning (search.h, "Pruning")."""
    boards = [(tavli.Board.from_array(r, "backgammon"), d) for r, d in decisions]
    rounds = DECISION_ROUNDS if plies == 2 else 1
    next_boards = each_round(boards, DECISIONS, rounds)  # the rounds gnubg-nn gets (its cache)

    def run():
        for b, d in next_boards():
            b.analyze(d, plies=plies, threads=1, prune=prune)

    benchmark.pedantic(run, rounds=rounds, iterations=1, warmup_rounds=0)
    name = f"tavli analyze {plies}-ply (ms per decision)"
    record_median(name if prune else f"tavli analyze {plies}-ply unpruned (ms per decision)", benchmark, DECISIONS, "ms")
    ratio(f"unpruned / pruned time, {plies}-ply decision", f"tavli analyze {plies}-ply unpruned (ms per decision)", name)
    ratio(f"gnubg-nn / tavli time, {plies}-ply decision", f"gnubg-nn best_move n={plies} (ms per decision)", name)


@requires_gnubg
@pytest.mark.parametrize("plies", [2, 3])
def test_gnubg_decision(benchmark, decisions, plies):
    boards = [(gnubg_board(r), d) for r, d in decisions]
    rounds = DECISION_ROUNDS if plies == 2 else 1
    next_boards = each_round(boards, DECISIONS, rounds)

    def run():
        for b, (d1, d2) in next_boards():
            gnubg.best_move(b, d1, d2, n=plies)

    benchmark.pedantic(run, rounds=rounds, iterations=1, warmup_rounds=0)
    record_median(f"gnubg-nn best_move n={plies} (ms per decision)", benchmark, DECISIONS, "ms")
    ratio(f"gnubg-nn / tavli time, {plies}-ply decision", f"gnubg-nn best_move n={plies} (ms per decision)",
          f"tavli analyze {plies}-ply (ms per decision)")


def _scaling_work(kind: str):
    if kind == "analyze 2-ply":
        rows, dice = tavli.random_positions("backgammon", 400, seed=SEED)
        boards = [(tavli.Board.from_array(rows[i], "backgammon"), (int(dice[i][0]), int(dice[i][1])))
                  for i in range(40, 400, 60)]
        return lambda t: [b.analyze(d, plies=2, threads=t) for b, d in boards]
    if kind == "batch_legal_plays positions":
        rows, dice = tavli.random_positions("backgammon", 200_000, seed=SEED)
        return lambda t: tavli.batch_legal_plays(rows, dice, "backgammon", return_positions=True, threads=t)
    if kind == "cubeful decision 2-ply":  # tavli.cube_search: the root's 21 rolls shared out
        from tavli.cube_search import decide

        rows, dice = tavli.random_positions("backgammon", 400, seed=SEED)
        boards = [tavli.Board.from_array(rows[i], "backgammon") for i in range(20, 400, 20)]
        return lambda t: [decide(b, plies=2, threads=t) for b in boards]
    if kind == "rollout":
        board = tavli.Board("backgammon")
        return lambda t: board.rollout(2592, player="greedy", seed=1, threads=t)
    return lambda t: tavli.simulate("backgammon", 4000, seed=1, threads=t)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("kind", ["analyze 2-ply", "batch_legal_plays positions", "cubeful decision 2-ply", "rollout",
                                  "simulate"])
def test_thread_scaling(benchmark, kind, threads):
    work = _scaling_work(kind)
    benchmark.pedantic(work, args=(threads,), rounds=3, iterations=1, warmup_rounds=1)
    record_median(f"{kind}, {threads} thread(s) (ms)", benchmark, 1, "ms")
    ratio(f"{kind}: 1 thread / 2 threads", f"{kind}, 1 thread(s) (ms)", f"{kind}, 2 thread(s) (ms)")
