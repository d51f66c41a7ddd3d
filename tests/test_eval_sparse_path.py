"""The evaluator's sparse path (encode_sparse + NeuralNet::forward_sparse, nnet.h) against the
dense one (tavli.encode + Net.forward): bit-identical outputs, for every encoding, both forward
implementations, shipped and random nets, on positions of every phase (seeded random games)."""

from __future__ import annotations

import numpy as np
import pytest

import tavli
import tavli.nn as nn

# (variant, encoding) pairs: every encoding of encode.h, each with a game that uses it.
CASES = [("backgammon", "tesauro"), ("backgammon", "expert"), ("backgammon", "expert2"), ("backgammon", "expert3"),
         ("portes", "expert3"), ("plakoto", "plakoto"), ("fevga", "block"),
         ("narde", "block"), ("tawla31", None), ("moultezim", "block")]


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
