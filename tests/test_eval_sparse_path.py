"""The evaluator's sparse path (encode_sparse + NeuralNet::forward_sparse, nnet.h) against the
dense one (tavli.encode + Net.forward): bit-identical outputs, for every encoding, both forward
implementations, shipped and random nets, on positions of every phase (seeded random games)."""

from __future__ import annotations

import numpy as np
import pytest

import tavli
import tavli.nn as nn

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
    raw = net.forward(tavli.encode(rows, variant, encoding=net.encoding))
    # The win column is the net's first output, untouched by the consistency clamps.
    np.testing.assert_array_equal(p[:, 0], raw[:, 0])
    # Outputs in their consistent range are passed through unchanged too.
    ok = (raw[:, 1] <= raw[:, 0]) & (raw[:, 3] <= 1 - raw[:, 0])
    if variant == "backgammon":
        np.testing.assert_array_equal(p[ok, 1], raw[ok, 1])
        np.testing.assert_array_equal(p[ok, 3], raw[ok, 3])


@pytest.mark.parametrize("variant", ["backgammon", "plakoto", "fevga", "narde", "tawla31"])
def test_shipped_net_sparse_equals_dense(variant):
    net = nn.shipped(variant)
    if net is None:
        pytest.skip(f"no shipped net for {variant}")
    rows = white_rows_not_home(variant, 3000, seed=5)
    p = net.evaluate_positions(rows, variant)
    raw = net.forward(tavli.encode(rows, variant, encoding=net.encoding))
    np.testing.assert_array_equal(p[:, 0], raw[:, 0])


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
