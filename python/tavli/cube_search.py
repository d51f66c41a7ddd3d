"""Cubeful n-ply search (cpp/include/tavli/cubeful_search.h): checker plays and cube decisions
valued with the cube decisions of both sides taken into account at every level of the search,
the leaves by GNU Backgammon's 0-ply cubeful model.

>>> import tavli
>>> from tavli.cube_search import analyze
>>> a = analyze(tavli.Board("backgammon"), (3, 1), plies=0)
>>> str(a.plays[0].play)
'8/5 6/5'

Board.cube_decision(plies=N) with N >= 1 uses decide() below; plies=0 is the 0-ply formula.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import _core
from ._base.dice import parse_dice

if TYPE_CHECKING:
    from ._core import CubeState, MatchEquityTable, MatchState
    from .board import Board
    from .cube import CubeDecision
    from .evaluators import CoreEvaluator

__all__ = ["CubefulAnalysis", "CubefulPlay", "analyze", "decide", "decision_value", "evaluate"]

MAX_PLIES = _core.MAX_CUBEFUL_PLIES  # the core's bound (cpp/include/tavli/cubeful_search.h)


@dataclass(frozen=True)
class CubefulPlay:
    """A play valued by the cubeful search: equity for the side that plays it (money: per unit of
    the cube; match: EMG of the cube), mwc his match winning chance (None in money play)."""

    play: Any
    equity: float
    mwc: float | None
    plies: int


@dataclass(frozen=True)
class CubefulAnalysis:
    """The plays best first (searched deepest first, then by equity); plies the deepest iteration
    completed, nodes the static evaluations, interrupted whether a time or node limit cut the
    search short (then the plays searched deepest hold that iteration's values)."""

    plays: list[CubefulPlay]
    plies: int
    nodes: int
    interrupted: bool = False

    @property
    def best(self) -> CubefulPlay:
        return self.plays[0]


def _args(board: "Board", cube: Any, match: Any, plies: Any, filters: Any, met: Any, evaluator: Any, threads: Any,
          time_limit: Any = None, node_limit: Any = None
          ) -> tuple[CubeState, MatchState, MatchEquityTable, int, list[tuple[int, int, float]], CoreEvaluator, float,
                     int]:
    from .evaluators import evaluator_arg, filters_arg, search_args
    from .cube import _cube_arg, _match_arg, _met_arg

    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= MAX_PLIES:
        raise ValueError(f"plies must be an integer 0..{MAX_PLIES}, got {plies!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 1024:
        raise ValueError(f"threads must be an integer 1..1024, got {threads!r}")
    cube_s, match_s = _cube_arg(cube), _match_arg(match)
    _core._validate_cube_for(board.variant, cube_s, match_s)
    if not _core._variant_takes_cube(board.variant):
        raise ValueError(f"{board.variant} has no doubling cube, so no cubeful search (tavli.match_play ranks its plays)")
    _, _, seconds, nodes_max = search_args(0, threads, time_limit, node_limit)
    return cube_s, match_s, _met_arg(met), plies, filters_arg(filters), evaluator_arg(evaluator), seconds, nodes_max


def analyze(board: "Board", dice: Any, cube: Any = None, match: Any = None, plies: int = 1, *, filters: Any = None,
            met: Any = None, evaluator: Any = None, threads: int = 1, time_limit: float | None = None,
            node_limit: int | None = None) -> CubefulAnalysis:
    """The legal plays for the roll, best first, valued by the cubeful search `plies` deep (move
    filters as Board.analyze's). cube/match as tavli.cube's (None: centred cube, money play).
    `threads`: the plays searched deep are shared out among them (the same results for any count).
    `time_limit` (seconds) / `node_limit` (static evaluations), as Board.analyze's: with either, the
    search deepens one ply at a time and answers with the deepest iteration completed."""
    cube_s, match_s, table, plies, flt, ev, seconds, nodes_max = _args(board, cube, match, plies, filters, met,
                                                                       evaluator, threads, time_limit, node_limit)
    if board.is_game_over():
        raise ValueError("the game is over: there are no legal plays")
    plays, done, nodes, cut = _core._cubeful_analyze(board, parse_dice(dice), cube_s, match_s, table, plies, flt, ev,
                                                     threads, seconds, nodes_max)
    return CubefulAnalysis([CubefulPlay(*p) for p in plays], done, nodes, cut)


def _decide(board: "Board", cube: Any, match: Any, plies: int, filters: Any, met: Any, evaluator: Any, threads: int,
            time_limit: Any, node_limit: Any) -> tuple["CubeDecision", int, bool]:
    """decide()'s decision with the static evaluations and whether a limit cut the search short."""
    from .cube import CubeDecision

    cube_s, match_s, table, plies, flt, ev, seconds, nodes_max = _args(board, cube, match, plies, filters, met,
                                                                       evaluator, threads, time_limit, node_limit)
    if board.is_game_over():
        raise ValueError("the game is over: no cube decision")
    (available, nd, dt, dp, nd_mwc, dt_mwc, dp_mwc, action, take, eff, nodes, done,
     cut) = _core._cubeful_decision(board, cube_s, match_s, table, plies, flt, ev, threads, seconds, nodes_max)
    cls, _ = _core._cube_efficiency(board)
    probs = board.evaluate(0, evaluator=evaluator).probabilities
    return CubeDecision(nd, dt, dp, nd_mwc, dt_mwc, dp_mwc, action, take, available, probs, eff, cls, done, cube_s,
                        match_s), nodes, cut


def decide(board: "Board", cube: Any = None, match: Any = None, plies: int = 1, *, filters: Any = None,
           met: Any = None, evaluator: Any = None, threads: int = 1, time_limit: float | None = None,
           node_limit: int | None = None) -> "CubeDecision":
    """The cube decision for the board's side to move by the cubeful search `plies` deep
    (tavli.cube.CubeDecision; its probabilities are the 0-ply cubeless ones of the position).
    `threads`: the 21 rolls are shared out among them (the same decision for any count).
    `time_limit` / `node_limit` as analyze()'s: the decision of the deepest iteration completed,
    its `plies` the depth reached (0: the 0-ply formula)."""
    return _decide(board, cube, match, plies, filters, met, evaluator, threads, time_limit, node_limit)[0]


def decision_value(d: "CubeDecision") -> tuple[float, float | None]:
    """The side to move's value of the position once he has made his cube action (the best of No
    double and the taker's answer to a double): (equity, MWC); money: per unit of the cube, MWC None."""
    if not d.available:
        return d.nd, d.nd_mwc
    assert d.dt is not None and d.dp is not None  # the side to move may double: both answers are valued
    answer = min(d.dt, d.dp)
    if d.match.money and d.cube.beavers and (d.cube.max_cube == 0 or 4 * d.cube.value <= d.cube.max_cube):
        answer = min(answer, 2.0 * d.dt)  # the taker beavers: the game for 4 cubes, his cube
    best = max(d.nd, answer)
    if d.match.money:
        return best, None
    mwc = {d.nd: d.nd_mwc, d.dt: d.dt_mwc, d.dp: d.dp_mwc}[best]
    return best, mwc


def evaluate(board: "Board", cube: Any = None, match: Any = None, plies: int = 1, **kwargs: Any) -> tuple[float, float | None]:
    """The cubeful value of the position before the roll for its side to move, his own cube
    action included: (equity, MWC); money: per unit of the cube, MWC None. decide()'s keywords."""
    return decision_value(decide(board, cube, match, plies, **kwargs))
