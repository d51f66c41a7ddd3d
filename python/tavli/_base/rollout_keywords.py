"""The keywords of a rollout, once: Board.rollout (cubeless and cubeful, both overloads),
tavli.cube_rollout, Board.cube_decision(rollout={...}) and tavli.rollout_data take these, each
entry point only the part that applies to it, with these defaults."""

from __future__ import annotations

from typing import Any, Mapping, TypedDict


class RolloutKeywords(TypedDict, total=False):
    """What every rollout takes besides trials and player (cpp/include/tavli/rollout.h)."""

    truncate: int | None
    seed: int
    threads: int
    evaluator: Any
    stratify: bool
    variance_reduction: bool
    luck_evaluator: Any


class RolloutRunKeywords(RolloutKeywords, total=False):
    """A single rollout's: a time limit (local runs), and where it runs (local, or sharded on Ray)."""

    time_limit: float | None
    backend: str
    ray_address: str | None


class PlayRolloutKeywords(RolloutKeywords, total=False):
    """Board.rollout_plays': a time limit (one machine's work: no shards), the match equity table
    of a cubeful one, and the elimination of trailing plays."""

    time_limit: float | None
    met: Any
    eliminate: float | None


class BoardRolloutKeywords(RolloutRunKeywords, total=False):
    """Board.rollout's: the match equity table of a cubeful rollout as well."""

    met: Any


ROLLOUT_DEFAULTS: dict[str, Any] = {"truncate": None, "seed": 0, "threads": 1, "evaluator": None, "stratify": True,
                                    "variance_reduction": False, "luck_evaluator": None}
RUN_DEFAULTS: dict[str, Any] = {**ROLLOUT_DEFAULTS, "time_limit": None, "backend": "local", "ray_address": None}
BOARD_DEFAULTS: dict[str, Any] = {**RUN_DEFAULTS, "met": None}
PLAY_ROLLOUT_DEFAULTS: dict[str, Any] = {**ROLLOUT_DEFAULTS, "time_limit": None, "met": None, "eliminate": None}
# Each set of defaults names exactly its TypedDict's keys (a key added to one and not the other fails here).
assert set(ROLLOUT_DEFAULTS) == RolloutKeywords.__optional_keys__
assert set(RUN_DEFAULTS) == RolloutRunKeywords.__optional_keys__
assert set(BOARD_DEFAULTS) == BoardRolloutKeywords.__optional_keys__
assert set(PLAY_ROLLOUT_DEFAULTS) == PlayRolloutKeywords.__optional_keys__


def with_defaults(caller: str, given: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """`given` with the defaults filled in; TypeError (as for any unknown keyword) naming one that
    `caller` does not take."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise TypeError(f"{caller}() got an unexpected keyword argument {unknown[0]!r}")
    return {**defaults, **given}
