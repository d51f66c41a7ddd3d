"""Bulk calls on numpy arrays of positions (rows of ROW_BYTES uint8; layout in
cpp/include/tavli/position.h). The work runs in C++ threads with the GIL released."""

from __future__ import annotations

from typing import Any, Literal, Union, overload

import numpy as np
import numpy.typing as npt

from .. import _core
from .._base.args import as_int_array, int_arg, require_bool
from .._base.deadline import time_limit_arg
from .._base.options import to_pairs
from ..backends import backend_arg, local_only_time_limit
from ..backends import ray as on_ray
from ..backends.local import concatenate
from ..evaluators import evaluator_arg, prune_arg


def _int_in(value: Any, what: str, lo: int, hi: int) -> int:
    """The old private name (value first) of tavli._base.args.int_arg."""
    return int_arg(what, value, lo, hi)


Counts = npt.NDArray[np.int32]
CountsAndPositions = tuple[npt.NDArray[np.int32], npt.NDArray[np.int64], npt.NDArray[np.uint8]]


@overload
def batch_legal_plays(positions: Any, dice: Any, variant: str = ..., *, return_positions: Literal[False] = ...,
                      threads: int = ..., time_limit: float | None = ..., **options: Any) -> Counts: ...
@overload
def batch_legal_plays(positions: Any, dice: Any, variant: str = ..., *, return_positions: Literal[True],
                      threads: int = ..., time_limit: float | None = ..., **options: Any) -> CountsAndPositions: ...
@overload
def batch_legal_plays(positions: Any, dice: Any, variant: str = ..., *, return_positions: bool = ...,
                      threads: int = ..., time_limit: float | None = ...,
                      **options: Any) -> Union[Counts, CountsAndPositions]: ...


def batch_legal_plays(
    positions: Any,
    dice: Any,
    variant: str = "fevga",
    *,
    return_positions: bool = False,
    threads: int = 1,
    time_limit: float | None = None,
    **options: Any,
) -> Union[Counts, CountsAndPositions]:
    """Legal plays of many (position, roll) pairs at once.

    positions: uint8 array (N, ROW_BYTES); dice: integer array (N, 2).
    Returns counts (int32, N), or with ``return_positions=True`` a tuple
    (counts, offsets (int64, N + 1), positions (uint8, M x ROW_BYTES)) where row i's resulting
    positions, with the other side to move, are ``positions[offsets[i]:offsets[i + 1]]``.
    Results do not depend on ``threads``. ``time_limit`` (seconds, None: none) passed:
    TimeoutError; Ctrl-C: KeyboardInterrupt.
    """
    if not isinstance(variant, str):
        raise ValueError(f"variant must be a string, got {type(variant).__name__}")
    rows = as_int_array(positions, "positions", "uint8")
    d = as_int_array(dice, "dice", "int64")
    threads = int_arg("threads", threads, 1, _core.MAX_THREADS)
    want_positions = require_bool("return_positions", return_positions)
    return _core._batch_legal_plays(variant, to_pairs(options), rows, d, want_positions, threads,
                                    time_limit_arg(time_limit))


def random_positions(variant: str = "fevga", n: int = 1000, seed: int = 0, *, time_limit: float | None = None,
                     **options: Any) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """(positions, dice) of `n` consecutive (position, roll) pairs from seeded uniform-random
    self-play: the fixed, reproducible position sets of the tests and benchmarks.
    `time_limit` (seconds, None: none) passed: TimeoutError."""
    if not isinstance(variant, str):
        raise ValueError(f"variant must be a string, got {type(variant).__name__}")
    n = int_arg("n", n, 0, 100_000_000)
    seed = int_arg("seed", seed, 0, 2**64 - 1)
    return _core._random_positions(variant, to_pairs(options), n, seed, time_limit_arg(time_limit))


def evaluate_batch(positions: Any, variant: str = "fevga", *, plies: int = 0, threads: int = 1,
                   evaluator: Any = None, time_limit: float | None = None, prune: int = _core.DEFAULT_PRUNE,
                   backend: str = "local", ray_address: str | None = None,
                   **options: Any) -> npt.NDArray[np.float32]:
    """Values of many positions (side to move, before the roll), `plies` deep, in C++ threads: a
    float32 array (N, 8) of win, win_double, win_triple, lose_double, lose_triple, draw, margin
    (Tawla 31's expected extra points, else 0), equity. `evaluator`: None (the shipped net of the
    game, else the heuristic), "heuristic" or a tavli.nn.Net. `prune`: as Board.evaluate's (the
    plays per inner node valued by the evaluator where it has a pruning net; 0: all). `time_limit`
    (seconds, None: none) passed: TimeoutError (no partial result); Ctrl-C: KeyboardInterrupt.
    `backend="ray"`: the same array from a Ray cluster, `threads` per task
    (tavli.distributed.evaluate_batch, which also takes progress, shard and retries)."""
    if backend_arg(backend, ray_address) == "ray":
        local_only_time_limit(time_limit)
        return evaluate_batch_on_ray(positions, variant, plies=plies, threads=threads, evaluator=evaluator,
                                     prune=prune, address=ray_address, **options)
    if not isinstance(variant, str):
        raise ValueError(f"variant must be a string, got {type(variant).__name__}")
    rows = as_int_array(positions, "positions", "uint8")
    plies = int_arg("plies", plies, 0, _core.MAX_BATCH_PLIES)  # the core's bound (batch.h)
    threads = int_arg("threads", threads, 1, _core.MAX_THREADS)
    return _core._evaluate_batch(variant, to_pairs(options), rows, plies, threads, evaluator_arg(evaluator),
                                 time_limit_arg(time_limit), prune_arg(prune))


# --- the same on a Ray cluster (tavli.distributed) ----------------------------------------------
def _evaluate_batch_shard(args: tuple[np.ndarray, dict[str, Any]], first: int, count: int) -> dict[str, np.ndarray]:
    rows, kwargs = args
    return {"values": evaluate_batch(rows[first:first + count], **kwargs)}


def evaluate_batch_on_ray(positions: Any, variant: str = "fevga", *, plies: int = 0, threads: int = 1,
                          evaluator: Any = None, prune: int = _core.DEFAULT_PRUNE, progress: Any = None,
                          address: str | None = None, shard: int | None = None,
                          retries: int = on_ray.DEFAULT_RETRIES, **options: Any) -> npt.NDArray[np.float32]:
    """tavli.evaluate_batch on a Ray cluster (tavli.distributed.evaluate_batch): the same array,
    each task valuing `shard` consecutive rows on `threads` threads. A row's value depends on that
    row alone (the search is deterministic and its results do not depend on threads), so neither
    the shards nor the workers change a bit. Every argument and row is checked here before a task
    starts (a 0-ply heuristic pass over the rows validates them, far cheaper than any search)."""
    rows = as_int_array(positions, "positions", "uint8")
    kwargs = {"variant": variant, "plies": plies, "threads": threads, "evaluator": evaluator, "prune": prune,
              **options}
    empty = evaluate_batch(rows[:0], **kwargs)
    evaluate_batch(rows, variant, evaluator="heuristic", **options)
    settings = on_ray.Settings(progress, "positions", address, shard, retries, int(threads))
    if len(rows) == 0:
        return empty
    parts = settings.run(_evaluate_batch_shard, (rows, kwargs), len(rows))
    values: npt.NDArray[np.float32] = concatenate(parts)["values"]
    return values


def encode(
    positions: Any,
    variant: str = "fevga",
    *,
    dice: Any = None,
    encoding: str | None = None,
    out: Any = None,
    **options: Any,
) -> npt.NDArray[np.float32]:
    """Feature encodings for learning (layouts in cpp/include/tavli/encode.h): a float32 array
    (N, F), written into `out` when given (C-contiguous float32 of that shape). `encoding`:
    "tesauro" (backgammon-movement games, 198), "expert" (the same games: tesauro's units and 7
    hand-made ones, 205), "expert2" (219), "expert3" (239: more hand-made contact features) and
    "expert4" (251: escapes within a roll's reach),
    "race" (the hitting games' race net, 224), "plakoto" (198), "block" (Fevga, Moultezim, Narde,
    152), "block2" (the same games, 167: "block" and hand-made blocking features); default: the
    game's own. With `dice` (N, 2), 21 one-hot roll units follow."""
    if not isinstance(variant, str):
        raise ValueError(f"variant must be a string, got {type(variant).__name__}")
    if encoding is not None and (not isinstance(encoding, str) or not encoding):
        raise ValueError("encoding must be a name: tesauro, expert, expert2, expert3, expert4, race, plakoto, block or block2 "
                         "(or None for the game's own)")
    rows = as_int_array(positions, "positions", "uint8")
    d = None if dice is None else as_int_array(dice, "dice", "int64")
    if out is not None and not isinstance(out, np.ndarray):
        raise ValueError("out must be a numpy float32 array")
    if out is not None and out.dtype != np.float32:
        raise ValueError(f"out must have dtype float32, got {out.dtype}")
    return _core._encode(variant, to_pairs(options), rows, d, "" if encoding is None else encoding, out)
