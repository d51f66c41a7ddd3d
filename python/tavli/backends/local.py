"""The local executor: a run cut into chunks that the core plays in turn in C++ threads (the GIL
released), so that progress, Ctrl-C and a time limit are seen between chunks."""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np


def chunks(total: int, chunk: int) -> Iterator[tuple[int, int]]:
    """(first, count) of consecutive chunks of at most `chunk` covering 0 .. total - 1."""
    first = 0
    while first < total:
        n = min(chunk, total - first)
        yield first, n
        first += n


def concatenate(parts: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The parts' arrays joined key by key, in order (always a copy: arrays from Ray's object
    store are read-only views)."""
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def run_chunks(shard: Callable[[int, int], Mapping[str, np.ndarray]], total: int, chunk: int,
               progress: Callable[[int, int], Any] | None) -> dict[str, np.ndarray]:
    """shard(first, count) over consecutive chunks of 0 .. total - 1, progress(done, total) after
    each, the arrays joined in order; shard(0, 0) (the empty arrays) when total is 0."""
    parts = []
    done = 0
    for first, n in chunks(total, chunk):
        parts.append(shard(first, n))
        done += n
        if progress is not None:
            progress(done, total)
    if not parts:
        parts.append(shard(0, 0))
    return concatenate(parts)
