"""Bulk calls on numpy arrays of positions (rows of ROW_BYTES uint8; layout in
cpp/include/tavli/position.h). The work runs in C++ threads with the GIL released."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core
from ._options import to_pairs


def batch_legal_plays(
    positions: Any,
    dice: Any,
    variant: str = "fevga",
    *,
    return_positions: bool = False,
    threads: int = 1,
    **options: Any,
):
    """Legal plays of many (position, roll) pairs at once.

    positions: uint8 array (N, ROW_BYTES); dice: integer array (N, 2).
    Returns counts (int32, N), or with ``return_positions=True`` a tuple
    (counts, offsets (int64, N + 1), positions (uint8, M x ROW_BYTES)) where row i's resulting
    positions, with the other side to move, are ``positions[offsets[i]:offsets[i + 1]]``.
    Results do not depend on ``threads``.
    """
    rows = np.ascontiguousarray(positions, dtype=np.uint8)
    d = np.ascontiguousarray(dice, dtype=np.int64)
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise ValueError("threads must be an integer")
    return _core._batch_legal_plays(variant, to_pairs(options), rows, d, bool(return_positions), threads)


def random_positions(variant: str = "fevga", n: int = 1000, seed: int = 0, **options: Any):
    """(positions, dice) of `n` consecutive (position, roll) pairs from seeded uniform-random
    self-play: the fixed, reproducible position sets of the tests and benchmarks."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative integer, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer in 0..2**64-1, got {seed!r}")
    return _core._random_positions(variant, to_pairs(options), n, seed)
