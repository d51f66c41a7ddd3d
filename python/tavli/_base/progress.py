"""Progress of long runs (simulate, the Ray backend, rollouts): `progress` is None, a callable
progress(done, total), or True for a bar on stderr (tqdm when it is installed, else a plain line)."""

from __future__ import annotations

import sys
from typing import Any, Callable, cast

Reporter = Callable[[int, int], Any]


def reporter(progress: Any, unit: str = "games") -> Reporter | None:
    """The callable behind a `progress` argument; ValueError for anything else."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return _Bar(unit)
    if not callable(progress):
        raise ValueError("progress must be callable(done, total), True (a progress bar) or None")
    return cast(Reporter, progress)  # the caller's callable: its signature is the documented contract


class _Bar:
    """One bar for the whole run, however many processes or machines report into it."""

    def __init__(self, unit: str) -> None:
        self._unit = unit
        self._bar: Any = None
        self._shown = 0

    def __call__(self, done: int, total: int) -> None:
        try:
            from tqdm import tqdm
        except ImportError:  # no tqdm: a line that rewrites itself
            sys.stderr.write(f"\r{done}/{total} {self._unit}" + ("\n" if done >= total else ""))
            sys.stderr.flush()
            return
        if self._bar is None:
            self._bar = tqdm(total=total, unit=self._unit, file=sys.stderr)
        self._bar.update(done - self._shown)
        self._shown = done
        if done >= total:
            self._bar.close()
