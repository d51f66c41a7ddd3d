"""Cubeful rollouts (cpp/include/tavli/cubeful_rollout.h): a position or a cube decision valued by
playing it out with the doubling cube in play, as GNU Backgammon's cubeful rollouts do.

Each trial plays the game out with the rollout player on both sides handling the cube (doubling,
taking, passing, beavering by the cubeful model at the player's depth; plays chosen cubefully), at
the cube state and match score given; a trial counts cube value x points in money play, or the
match winning chance at the score. A cube decision rolls out No double and Double/take on the
same dice (common random numbers).

>>> import tavli
>>> from tavli.cube_rollout import decide
>>> d = decide(tavli.Board("backgammon"), trials=36, seed=1)
>>> d.trials, d.available
(36, True)

Board.rollout(cube=..., match=...) uses rollout() below; Board.cube_decision(rollout=...) decide().
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from ._base.deadline import time_limit_arg
from ._base.rollout_keywords import RUN_DEFAULTS, RolloutRunKeywords, with_defaults
from .backends import backend_arg, local_only_time_limit
from .backends import ray as on_ray
from .cube import CubeDecision, CubeState, MatchState, _cube_arg, _match_arg, _met_arg

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from Python 3.11; only read by type checkers

    from .board import Board

__all__ = ["CubefulRollout", "RolloutCubeDecision", "decide", "rollout"]

# The keywords a rollout takes (Board.cube_decision(rollout={...}) passes these on).
ROLLOUT_KEYS = ("trials", "player", *RUN_DEFAULTS)


@dataclass(frozen=True)
class CubefulRollout:
    """A position's cubeful value for its side to move, his own cube action included: equity in
    money points per unit of the cube (match play: EMG of the cube), mwc his match winning chance
    (None in money play), each with its standard error; trials, and those truncated."""

    equity: float
    equity_std_error: float
    mwc: float | None
    mwc_std_error: float | None
    trials: int
    truncated: int
    cube: CubeState
    match: MatchState


@dataclass(frozen=True)
class RolloutCubeDecision(CubeDecision):
    """tavli.cube.CubeDecision from a cubeful rollout, with the standard errors of its equities
    (EMG; the *_mwc_* ones in match play, else None), that of dt - nd from the paired trials, and
    the trial counts (truncated counts the trials of both lines). probabilities are the 0-ply
    cubeless ones of the position; plies the rollout player's depth."""

    nd_std_error: float
    dt_std_error: float | None
    nd_mwc_std_error: float | None
    dt_mwc_std_error: float | None
    difference_std_error: float | None
    trials: int
    truncated: int


# The core's arguments after the board: cube, match, table, then Board.rollout's checked ones.
CubefulArgs = tuple[CubeState, MatchState, Any, int, str, int, list[tuple[int, int, float]], int, int, int, bool, bool,
                    Any, Any]
_EVALUATOR = 12  # the player's evaluator in CubefulArgs (the luck evaluator follows it)


def _args(board: "Board", cube: Any, match: Any, met: Any, trials: Any, player: Any,
          kwargs: dict[str, Any]) -> CubefulArgs:
    from .board import check_rollout_args

    cube_s, match_s = _cube_arg(cube), _match_arg(match)
    _core._validate_cube_for(board.variant, cube_s, match_s)
    if not _core._variant_takes_cube(board.variant):
        raise ValueError(f"{board.variant} has no doubling cube, so no cubeful rollout (cube and match are for "
                         "backgammon, nackgammon and hypergammon)")
    args = check_rollout_args(board, trials, player, **kwargs)
    if args[1] == "random":
        raise ValueError("player: a cubeful rollout needs a greedy or search player (a random one makes no cube "
                         "decisions)")
    return (cube_s, match_s, _met_arg(met), *args)


def _run(board: "Board", decision: bool, cube: Any, match: Any, met: Any, trials: Any, player: Any,
         kwargs: dict[str, Any], ray: dict[str, Any]) -> tuple[Any, CubefulArgs]:
    """The core's result tuple of a cubeful rollout (`decision`: of the cube decision), run here or,
    with backend "ray", sharded on a Ray cluster (`ray`: progress, shard, retries); and the
    checked arguments."""
    kw = with_defaults("tavli.cube_rollout", kwargs, RUN_DEFAULTS)
    time_limit, backend, address = kw.pop("time_limit"), kw.pop("backend"), kw.pop("ray_address")
    on_cluster = backend_arg(backend, address) == "ray"
    if ray and not on_cluster:
        raise TypeError(f"{', '.join(sorted(ray))}: for backend='ray' only")
    args = _args(board, cube, match, met, trials, player, kw)
    if not on_cluster:
        run = _core._cubeful_rollout_decision if decision else _core._cubeful_rollout
        return run(board, *args, time_limit=time_limit_arg(time_limit)), args
    local_only_time_limit(time_limit)
    settings = on_ray.Settings(ray.get("progress"), "trials", address, ray.get("shard"),
                               ray.get("retries", on_ray.DEFAULT_RETRIES), args[9], align=_core.ROLLOUT_BLOCK)
    # The arguments as given travel (a core evaluator does not pickle; a tavli.nn.Net does), each
    # task checks them again.
    job = (board, decision, (cube, match, met, trials, player, kw))
    blocks = np.concatenate(settings.run(_shard, job, args[3]))
    return _core._cubeful_rollout_combine(board, decision, blocks, *args), args


def _shard(job: tuple["Board", bool, tuple[Any, Any, Any, Any, Any, dict[str, Any]]], first: int,
           count: int) -> np.ndarray:
    """Trials first .. first + count - 1 of a cubeful rollout as the core's block rows: a Ray task."""
    board, decision, (cube, match, met, trials, player, kw) = job
    args = _args(board, cube, match, met, trials, player, kw)
    return _core._cubeful_rollout_blocks(board, decision, first, count, *args)


def rollout(board: "Board", cube: Any = None, match: Any = None, trials: int = 1296, player: Any = "greedy", *,
            met: Any = None, progress: Any = None, shard: int | None = None, retries: int | None = None,
            **kwargs: Unpack[RolloutRunKeywords]) -> CubefulRollout:
    """The board's position before the roll, for its side to move, rolled out cubefully: Board.rollout's
    options (player 'greedy' or 'search:N', not 'random'), cube a tavli.CubeState (None: centred
    at 1), match a tavli.MatchState (None: money play), met the match equity table (None:
    Kazaross-XG2). backend="ray": the trials sharded on a Ray cluster (progress, shard and retries
    as tavli.distributed's), the local result bit for bit."""
    ray = _ray_settings(progress, shard, retries)
    r, args = _run(board, False, cube, match, met, trials, player, dict(kwargs), ray)
    eq, eq_se, mwc, mwc_se, done, truncated = r
    return CubefulRollout(eq, eq_se, mwc, mwc_se, done, truncated, args[0], args[1])


def decide(board: "Board", cube: Any = None, match: Any = None, trials: int = 1296, player: Any = "greedy", *,
           met: Any = None, progress: Any = None, shard: int | None = None, retries: int | None = None,
           **kwargs: Unpack[RolloutRunKeywords]) -> RolloutCubeDecision:
    """The cube decision for the board's side to move by a cubeful rollout of No double and
    Double/take on the same dice; rollout()'s arguments."""
    from .players import player_arg

    ray = _ray_settings(progress, shard, retries)
    r, args = _run(board, True, cube, match, met, trials, player, dict(kwargs), ray)
    available, nd, dt, dp, nd_mwc, dt_mwc, dp_mwc, action, take, eff = r[:10]
    nd_se, dt_se, nd_mwc_se, dt_mwc_se, difference_se, done, truncated = r[10:]
    cls, _ = _core._cube_efficiency(board)
    probs = _static_probabilities(board, args[_EVALUATOR])
    plies = player_arg(player)[1]
    return RolloutCubeDecision(nd, dt, dp, nd_mwc, dt_mwc, dp_mwc, action, take, available, probs, eff, cls, plies,
                               args[0], args[1], nd_se, dt_se, nd_mwc_se, dt_mwc_se, difference_se, done, truncated)


def _ray_settings(progress: Any, shard: Any, retries: Any) -> dict[str, Any]:
    """The Ray-only arguments that were given."""
    given = {"progress": progress, "shard": shard, "retries": retries}
    return {k: v for k, v in given.items() if v is not None}


def _static_probabilities(board: "Board", ev: Any) -> Any:
    """The position's 0-ply cubeless probabilities by the rollout's own evaluator."""
    from .evaluators import filters_arg, search_args
    from .results import Probabilities

    plies, threads, time_limit, node_limit = search_args(0, 1, None, None)
    return Probabilities(*board._evaluate(plies, filters_arg(None), threads, time_limit, node_limit, ev)[0])


def rollout_options(value: Any) -> dict[str, Any]:
    """Board.cube_decision's `rollout`: True (the defaults) or a dict of rollout()'s keywords."""
    if value is True:
        return {}
    if isinstance(value, dict):
        unknown = sorted(set(value) - set(ROLLOUT_KEYS))
        if unknown:
            raise ValueError(f"rollout: unknown option(s) {', '.join(map(str, unknown))} "
                             f"(allowed: {', '.join(ROLLOUT_KEYS)})")
        return dict(value)
    raise ValueError(f"rollout must be None, True or a dict of rollout options ({', '.join(ROLLOUT_KEYS)}), "
                     f"got {value!r}")
