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

from . import _core
from ._base.deadline import time_limit_arg
from .cube import CubeDecision, CubeState, MatchState, _cube_arg, _match_arg, _met_arg

if TYPE_CHECKING:
    from .board import Board

__all__ = ["CubefulRollout", "RolloutCubeDecision", "decide", "rollout"]

# The keywords a rollout takes (Board.cube_decision(rollout={...}) passes these on).
ROLLOUT_KEYS = ("trials", "player", "truncate", "seed", "threads", "evaluator", "stratify", "time_limit")


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
CubefulArgs = tuple[CubeState, MatchState, Any, int, str, int, list[tuple[int, int, float]], int, int, int, bool, Any]


def _args(board: "Board", cube: Any, match: Any, met: Any, trials: Any, player: Any, truncate: Any, seed: Any,
          threads: Any, evaluator: Any, stratify: Any) -> CubefulArgs:
    from .board import check_rollout_args

    cube_s, match_s = _cube_arg(cube), _match_arg(match)
    _core._validate_cube_for(board.variant, cube_s, match_s)
    if not _core._variant_takes_cube(board.variant):
        raise ValueError(f"{board.variant} has no doubling cube, so no cubeful rollout (cube and match are for "
                         "backgammon, nackgammon and hypergammon)")
    args = check_rollout_args(board, trials, player, truncate, seed, threads, evaluator, stratify)
    if args[1] == "random":
        raise ValueError("player: a cubeful rollout needs a greedy or search player (a random one makes no cube "
                         "decisions)")
    return (cube_s, match_s, _met_arg(met), *args)


def rollout(board: "Board", cube: Any = None, match: Any = None, trials: int = 1296, player: Any = "greedy", *,
            truncate: int | None = None, seed: int = 0, threads: int = 1, evaluator: Any = None,
            stratify: bool = True, time_limit: float | None = None, met: Any = None) -> CubefulRollout:
    """The board's position before the roll, for its side to move, rolled out cubefully: Board.rollout's
    options (player 'greedy' or 'search:N', not 'random'), cube a tavli.CubeState (None: centred
    at 1), match a tavli.MatchState (None: money play), met the match equity table (None:
    Kazaross-XG2)."""
    args = _args(board, cube, match, met, trials, player, truncate, seed, threads, evaluator, stratify)
    eq, eq_se, mwc, mwc_se, done, truncated = _core._cubeful_rollout(board, *args,
                                                                      time_limit=time_limit_arg(time_limit))
    return CubefulRollout(eq, eq_se, mwc, mwc_se, done, truncated, args[0], args[1])


def decide(board: "Board", cube: Any = None, match: Any = None, trials: int = 1296, player: Any = "greedy", *,
           truncate: int | None = None, seed: int = 0, threads: int = 1, evaluator: Any = None, stratify: bool = True,
           time_limit: float | None = None, met: Any = None) -> RolloutCubeDecision:
    """The cube decision for the board's side to move by a cubeful rollout of No double and
    Double/take on the same dice; rollout()'s arguments."""
    from .players import player_arg

    args = _args(board, cube, match, met, trials, player, truncate, seed, threads, evaluator, stratify)
    r = _core._cubeful_rollout_decision(board, *args, time_limit=time_limit_arg(time_limit))
    available, nd, dt, dp, nd_mwc, dt_mwc, dp_mwc, action, take, eff = r[:10]
    nd_se, dt_se, nd_mwc_se, dt_mwc_se, difference_se, done, truncated = r[10:]
    cls, _ = _core._cube_efficiency(board)
    probs = _static_probabilities(board, args[-1])
    plies = player_arg(player)[1]
    return RolloutCubeDecision(nd, dt, dp, nd_mwc, dt_mwc, dp_mwc, action, take, available, probs, eff, cls, plies,
                               args[0], args[1], nd_se, dt_se, nd_mwc_se, dt_mwc_se, difference_se, done, truncated)


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
