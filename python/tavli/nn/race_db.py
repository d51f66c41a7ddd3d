"""Races valued from the one-sided race database (cpp/include/tavli/race_db.h): for up to 15
checkers on a side's lowest `points` points, the exact distribution of the rolls it needs to bear
everything off (and its first checker), built by the engine once and cached on disk. A race where
both sides fit is then valued exactly as two independent one-sided races (the side on roll rolls
first); everything else goes to a base evaluator.

    ev = tavli.nn.race_db.RaceDb()                 # the shipped nets under it, 8 points
    tavli.Board("backgammon").analyze((6, 5), plies=0, evaluator=ev)

Opt-in: the default evaluator (tavli.nn.default_evaluator()) does not use it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .. import _core

__all__ = ["RaceDb", "DEFAULT_POINTS", "cache_dir", "database"]

DEFAULT_POINTS = 8  # 490,314 positions per side, about 37 MB on disk (docs/race_db.md)


def cache_dir() -> Path:
    """Where built tables are kept: $TAVLI_CACHE_DIR, else $XDG_CACHE_HOME/tavli, else ~/.cache/tavli."""
    if os.environ.get("TAVLI_CACHE_DIR"):
        return Path(os.environ["TAVLI_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tavli"


def database(points: int = DEFAULT_POINTS, cache: "str | os.PathLike[str] | None" = None, threads: int | None = None,
             time_limit: float = 0.0, checkers: int = 15) -> Any:
    """The core RaceDatabase for `points` (1..10) and up to `checkers` (1..15) checkers a side:
    loaded from the cache directory (`cache`, default cache_dir(); "" for none), else built there
    on `threads` threads (default: every core) and saved. Ctrl-C or the time limit stop a build
    (KeyboardInterrupt, TimeoutError); the next call resumes it."""
    for name, v in (("points", points), ("checkers", checkers)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"{name} must be an int, got {v!r}")
    where = str(cache_dir() if cache is None else cache)
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
    return _core._race_database(points, checkers, where, threads or os.cpu_count() or 1, float(time_limit))


def _base_evaluator(base: Any) -> Any:
    """The core evaluator under the database. Read here rather than by tavli.evaluators.evaluator_arg,
    which sits a layer above tavli.nn (and accepts this class): the same forms, the nn layer's own."""
    if base is None or (isinstance(base, str) and base == "nets"):
        from . import default_evaluator

        return default_evaluator()
    if isinstance(base, str) and base == "heuristic":
        return None
    if callable(getattr(base, "_evaluator", None)):  # a Net, ClassNets or another RaceDb
        return base._evaluator()
    raise ValueError(f"base: expected None or 'nets' (the shipped nets), 'heuristic', a tavli.nn.Net, ClassNets "
                     f"or RaceDb, got {base!r}")


class RaceDb:
    """An evaluator: races within `points` from the race database, the rest from `base` (None or
    "nets": the shipped nets; "heuristic"; a tavli.nn.Net or ClassNets)."""

    def __init__(self, base: Any = None, points: int = DEFAULT_POINTS,
                 cache: "str | os.PathLike[str] | None" = None, threads: int | None = None, checkers: int = 15) -> None:
        self.base, self.points, self.checkers = base, points, checkers
        self._core = _core.RaceDbEvaluator(_base_evaluator(base), database(points, cache, threads, checkers=checkers))

    def _evaluator(self) -> Any:
        return self._core

    def __repr__(self) -> str:
        return f"tavli.nn.race_db.RaceDb(base={self.base!r}, points={self.points})"
