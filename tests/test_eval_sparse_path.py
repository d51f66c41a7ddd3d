"""The evaluator's sparse path (encode_sparse + NeuralNet::forward_sparse, nnet.h) against the
dense one (tavli.encode + Net.forward), for every encoding, both forward implementations, shipped
and random nets, on positions of every phase (seeded random games): bit-identical outputs where the
encoding has no point columns (encode.h); where it has them, the evaluator adds one precomputed
column per occupied point, so the sums round differently: equal within 1e-6, and equal to a
float64 numpy forward pass within the scalar tolerance."""

from __future__ import annotations

import numpy as np
import pytest

import tavli
import tavli.nn as nn
from test_nnet import reference

# (variant, encoding) pairs: every encoding of encode.h, each with a game that uses it.
CASES = [("backgammon", "tesauro"), ("backgammon", "expert"), ("backgammon", "expert2"), ("backgammon", "expert3"), ("backgammon", "expert4"),
         ("portes", "expert3"), ("plakoto", "plakoto"), ("fevga", "block"),
         ("narde", "block"), ("tawla31", None), ("moultezim", "block"), ("fevga", "block2"), ("narde", "block2"),
         ("tawla31", "block2"), ("jacquet", "block2"), ("plakoto", "plakoto2")]


def white_rows_not_home(variant: str, n: int, seed: int) -> np.ndarray:
    """Rows with white to move (the evaluator encodes as white to move), leaving out those with
    both sides' checkers all home (r >= 18, none on the bar): there the exact bear-off table may
    stand in for the net."""
    rows, _ = tavli.random_positions(variant, n, seed=seed)
    rows = rows[rows[:, 52] == 0]
    home = lambda side: (side[:, :18].sum(axis=1) == 0)  # noqa: E731
    both_home = home(rows[:, :24]) & home(rows[:, 24:48]) & (rows[:, 48] == 0) & (rows[:, 49] == 0)
    return rows[~both_home]


# The encodings whose point units depend on the count alone (encode.h, "Point columns").
POINT_COLUMNS = {"tesauro", "expert", "expert2", "expert3", "expert4", "block", "block2"}
COLUMN_TOLERANCE = 1e-6  # per output: a few float32 roundings of sums of order 10


def assert_matches(got, want, encoding):
    if encoding in POINT_COLUMNS:
        np.testing.assert_allclose(got, want, rtol=0, atol=COLUMN_TOLERANCE)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("scalar", [False, True])
@pytest.mark.parametrize("variant,encoding", CASES)
def test_random_net_sparse_equals_dense(variant, encoding, scalar):
    family = nn.family(variant)
    kwargs = {"encoding": encoding} if encoding else {}
    net = nn.Net(family, 40, seed=3, **kwargs)
    net.force_scalar = scalar
    rows = white_rows_not_home(variant, 1500, seed=11)
    assert len(rows) > 300
    p = net.evaluate_positions(rows, variant)
    x = tavli.encode(rows, variant, encoding=net.encoding)
    raw = net.forward(x)
    # The win column is the net's first output, untouched by the consistency clamps.
    assert_matches(p[:, 0], raw[:, 0], net.encoding)
    # Outputs in their consistent range are passed through unchanged too.
    ok = (raw[:, 1] <= raw[:, 0]) & (raw[:, 3] <= 1 - raw[:, 0])
    if variant == "backgammon":
        assert_matches(p[ok, 1], raw[ok, 1], net.encoding)
        assert_matches(p[ok, 3], raw[ok, 3], net.encoding)
    # Against the definition in float64 (nnet.h's numpy form), the same bound as the scalar path's.
    want, _ = reference(net, x)
    np.testing.assert_allclose(p[:, 0], want[:, 0], rtol=0, atol=1e-5)


@pytest.mark.parametrize("variant", ["backgammon", "plakoto", "fevga", "narde", "tawla31", "moultezim", "jacquet"])
def test_shipped_net_sparse_equals_dense(variant):
    net = nn.shipped(variant)
    if net is None:
        pytest.skip(f"no shipped net for {variant}")
    rows = white_rows_not_home(variant, 3000, seed=5)
    p = net.evaluate_positions(rows, variant)
    raw = net.forward(tavli.encode(rows, variant, encoding=net.encoding))
    assert_matches(p[:, 0], raw[:, 0], net.encoding)
    if net.encoding in POINT_COLUMNS:  # the columns are in use: some sums do round differently
        assert (p[:, 0] != raw[:, 0]).any()


def test_evaluator_follows_the_nets_changes():
    """Net keeps its core evaluator (building the point columns costs more than a small call)
    until the weights or the forward path change: each change gives the core net a new version,
    and the next evaluation sees it."""
    net = nn.Net("backgammon", 32, seed=4, encoding="expert3")
    rows = white_rows_not_home("backgammon", 200, seed=3)
    before, version = net.evaluate_positions(rows), net._net.version
    assert net._evaluator() is net._evaluator()  # kept
    _ = net.w1, net.b1, net.hidden  # reading changes nothing
    assert net._net.version == version
    assert net.copy()._net.version == version  # a copy has the same weights
    w1 = net.w1
    w1[98 + 4 * 12] += 0.25  # the opponent's 1-checker unit of its point r = 12 (its midpoint: occupied often)
    net.w1 = w1
    assert net._net.version != version
    after = net.evaluate_positions(rows)
    assert not np.array_equal(before, after)
    np.testing.assert_array_equal(after, net.copy().evaluate_positions(rows))  # a fresh evaluator: the same
    version = net._net.version
    net.force_scalar = True
    assert net._net.version != version and not net.avx2
    np.testing.assert_allclose(net.evaluate_positions(rows), after, rtol=0, atol=1e-5)


@pytest.mark.skipif(not tavli._core.NeuralNet.cpu_has_avx512(), reason="the CPU has no AVX-512F")
@pytest.mark.parametrize("hidden", [8, 40, 80, 128, 136, 256])
def test_avx512_hidden_layer_equals_avx2(hidden):
    """The AVX-512 sparse hidden layer (blocks of up to 128 units, the last 16-lane register
    masked) gives the AVX2 path's bits for every hidden size: one, several and partial blocks."""
    net = nn.Net("backgammon", hidden, seed=hidden, encoding="expert3")
    rows = white_rows_not_home("backgammon", 1500, seed=13)
    assert net.avx512 and not net.force_avx2
    wide = net.evaluate_positions(rows, "backgammon")
    net.force_avx2 = True
    assert not net.avx512 and net.avx2
    narrow = net.evaluate_positions(rows, "backgammon")
    np.testing.assert_array_equal(wide, narrow)
    net.force_scalar = True  # scalar, then back: the widest path returns
    net.force_scalar = False
    assert net.avx512
