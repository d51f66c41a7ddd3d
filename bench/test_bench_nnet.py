"""Neural-net inference speed (cpp/include/tavli/nnet.h): evaluations per second on one core.

The net is GNU Backgammon's size (250 inputs, 128 hidden, 5 outputs; the issue's target is
>= 200,000 evaluations per second per core in batch) and, for comparison, the real Tesauro
encoding's size (198 inputs). The inputs are realistic: the candidate positions of seeded random
backgammon rolls (every legal play's result, what a 0-ply move choice evaluates), encoded with
tavli.encode (Tesauro, 198 units, about 14% non-zero), zero-padded to 250 for the gnubg-size net.
BEST CASE, not the evaluator's speed: a random-weight net, inputs encoded beforehand, the best round,
and the positions come as one roll's siblings (they share most input units, which forward_batch's
tiles of 4 exploit). The shipped net with its encoding, on distinct positions, medians, is
bench/test_bench_speed.py. Each path (AVX2 + FMA, portable scalar) is timed in one call over all
the positions (C++ batches them in tiles of 4), and per call over one roll's candidates (about 20: the search's batch; the
Python call's overhead is included there). Also: the whole static evaluator (encoding, race
check, forward, probabilities) through NeuralNet.evaluate_positions.

Run: python -m pytest bench/test_bench_nnet.py --benchmark-only"""

from __future__ import annotations

import numpy as np
import pytest

import tavli
import tavli.nn as nn
from conftest import SEED, ratio, record

GNUBG_INPUTS, HIDDEN = 250, 128


@pytest.fixture(scope="module")
def candidates():
    """(encodings (M, 198), resulting rows (M, ROW_BYTES), offsets of each roll's candidates)."""
    rows, dice = tavli.random_positions("backgammon", 400, seed=SEED)
    _, offsets, results = tavli.batch_legal_plays(rows, dice, "backgammon", return_positions=True)
    return tavli.encode(results, "backgammon"), results, offsets


def net_for(inputs: int, scalar: bool) -> nn.Net:
    net = nn.Net("backgammon", HIDDEN, encoding="raw", inputs=inputs, seed=1)
    net.force_scalar = scalar
    if not scalar and not net.avx2:
        pytest.skip("CPU without AVX2/FMA")
    return net


def inputs_of(x: np.ndarray, width: int) -> np.ndarray:
    out = np.zeros((len(x), width), np.float32)
    out[:, : x.shape[1]] = x
    return out


@pytest.mark.parametrize("inputs", [GNUBG_INPUTS, 198])
@pytest.mark.parametrize("path", ["avx2", "scalar"])
def test_forward_one_call(benchmark, candidates, inputs, path):
    x = inputs_of(candidates[0], inputs)
    net = net_for(inputs, path == "scalar")
    benchmark.pedantic(net.forward, args=(x,), rounds=7, iterations=1, warmup_rounds=1)
    record(f"nnet {inputs}-{HIDDEN}-5 {path}, one call of {len(x)} (best case: siblings, pre-encoded)", benchmark, len(x), "evals")
    ratio(f"nnet {inputs}-{HIDDEN}-5 avx2 / scalar (one call)",
          f"nnet {inputs}-{HIDDEN}-5 avx2, one call of {len(x)} (best case: siblings, pre-encoded)",
          f"nnet {inputs}-{HIDDEN}-5 scalar, one call of {len(x)} (best case: siblings, pre-encoded)")


@pytest.mark.parametrize("path", ["avx2", "scalar"])
def test_forward_per_roll(benchmark, candidates, path):
    x = inputs_of(candidates[0], GNUBG_INPUTS)
    offsets = candidates[2]
    groups = [x[offsets[i] : offsets[i + 1]] for i in range(len(offsets) - 1)]
    net = net_for(GNUBG_INPUTS, path == "scalar")
    forward = net.forward

    def run():
        for g in groups:
            forward(g)

    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    record(f"nnet {GNUBG_INPUTS}-{HIDDEN}-5 {path}, per roll (~{len(x) // len(groups)} a call)", benchmark, len(x),
           "evals")


@pytest.mark.parametrize("path", ["avx2", "scalar"])
def test_forward_single_positions(benchmark, candidates, path):
    x = inputs_of(candidates[0][:2000], GNUBG_INPUTS)
    net = net_for(GNUBG_INPUTS, path == "scalar")
    forward = net._net.forward  # the core call: the Python wrapper's checks are not measured

    def run():
        for i in range(len(x)):
            forward(x[i : i + 1], False)

    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    record(f"nnet {GNUBG_INPUTS}-{HIDDEN}-5 {path}, batch 1 (Python loop)", benchmark, len(x), "evals")


@pytest.mark.parametrize("path", ["avx2", "scalar"])
def test_static_evaluator(benchmark, candidates, path):
    rows = candidates[1][candidates[1][:, 51] < 15]  # not the plays that end the game
    net = nn.Net("backgammon", HIDDEN, seed=1)
    net.force_scalar = path == "scalar"
    if path == "avx2" and not net.avx2:
        pytest.skip("CPU without AVX2/FMA")
    net.evaluate_positions(rows[:10], "backgammon")  # builds the bear-off table once
    benchmark.pedantic(net.evaluate_positions, args=(rows, "backgammon"), rounds=5, iterations=1, warmup_rounds=1)
    record(f"NeuralEvaluator 198-{HIDDEN}-5 {path} (encode + forward)", benchmark, len(rows), "positions")
