"""The plays for a roll ranked in a cube and match context, as the frontends (UBGI's `go`, HTTP's
/move and /analyze, `tavli analyze`) answer them: one place that says which search ranks them.

- `eval_mode="cubeful"`, a game with the doubling cube: the cubeful search (tavli.cube_search),
  the live cube and both sides' cube actions in the tree; money equity per unit of the cube, or
  in a match EMG of the current cube with the MWC beside it.
- otherwise at a match score: by match winning chance at the score (tavli.match_play) at the root
  and at every reply; a game with the cube is played as if its cube were dead at its value.
- otherwise (money play): Board.analyze's cubeless equity.

>>> import tavli
>>> from tavli.context_play import rank_plays
>>> r = rank_plays(tavli.Board("tavla"), (6, 4), None, tavli.MatchState(5, (4, 4)), "cubeless", 0)
>>> abs(r.best.mwc - r.best.probabilities.win) < 1e-6  # double match point: MWC = winning chance
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import _core

if TYPE_CHECKING:
    from .board import Board

EVAL_MODES = ("cubeless", "cubeful")


@dataclass(frozen=True)
class RankedPlay:
    """A play for the side that plays it: equity (money: cubeless points, or per unit of the cube
    when cubeful; a match: EMG), mwc in a match (None in money play), the cubeless probabilities
    (None from the cubeful search, which values the cube's future, not the game's outcomes)."""

    play: Any
    equity: float
    mwc: float | None
    probabilities: Any
    plies: int


@dataclass(frozen=True)
class Ranking:
    """The plays best first (searched deepest first), the deepest iteration completed, the static
    evaluations, and whether a time or node limit cut the search short."""

    plays: list[RankedPlay]
    plies: int
    nodes: int
    interrupted: bool
    cubeful: bool  # ranked by the cubeful search

    @property
    def best(self) -> RankedPlay:
        return self.plays[0]


def uses_cubeful_search(variant: str, eval_mode: str) -> bool:
    """Whether rank_plays ranks this game's plays by the cubeful search in `eval_mode`."""
    if eval_mode not in EVAL_MODES:
        raise ValueError(f"eval_mode must be one of {', '.join(EVAL_MODES)}, got {eval_mode!r}")
    return eval_mode == "cubeful" and _core._variant_takes_cube(variant)


def rank_plays(board: "Board", dice: Any, cube: Any, match: Any, eval_mode: str, plies: int = 1, *,
               threads: int = 1, time_limit: float | None = None, node_limit: int | None = None,
               evaluator: Any = None, filters: Any = None) -> Ranking:
    """The plays for the roll, best first, ranked as the module says. cube/match: tavli.CubeState /
    tavli.MatchState (None: a centred cube at 1, money play)."""
    from . import match_play
    from .cube import _cube_arg, _match_arg
    from .cube_search import analyze as cubeful_analyze

    cubeful = uses_cubeful_search(board.variant, eval_mode)
    cube_s, match_s = _cube_arg(cube), _match_arg(match)
    _core._validate_cube_for(board.variant, cube_s, match_s)
    if cubeful:
        a = cubeful_analyze(board, dice, cube_s, match_s, plies, threads=threads, time_limit=time_limit,
                            node_limit=node_limit, evaluator=evaluator, filters=filters)
        return Ranking([RankedPlay(p.play, p.equity, p.mwc, None, p.plies) for p in a.plays], a.plies, a.nodes,
                       a.interrupted, True)
    if not match_s.money and board.variant not in match_play.NO_UTILITY:
        cube_value = cube_s.value if _core._variant_takes_cube(board.variant) else 1
        plays, done, nodes, cut = match_play._analyze(board, dice, match_s.length, match_s.score, plies, filters,
                                                      threads, evaluator, None, 0, None, time_limit, node_limit,
                                                      cube_value)
        return Ranking([RankedPlay(p.play, p.equity, p.mwc, p.probabilities, p.plies) for p in plays], done, nodes,
                       cut, False)
    r = board.analyze(dice, plies=plies, threads=threads, time_limit=time_limit, node_limit=node_limit,
                      evaluator=evaluator, filters=filters)
    return Ranking([RankedPlay(p.play, p.equity, None, p.probabilities, p.plies) for p in r], r.plies, r.nodes,
                   r.interrupted, False)


@dataclass(frozen=True)
class PositionValue:
    """A position before the roll, for its side to move, valued as rank_plays ranks: equity (money:
    cubeless points, or per unit of the cube when cubeful, his cube action included; a match:
    EMG), mwc in a match, the cubeless probabilities (the position's 0-ply ones when cubeful)."""

    equity: float
    mwc: float | None
    probabilities: Any
    plies: int
    nodes: int
    interrupted: bool
    cubeful: bool


def value_position(board: "Board", cube: Any, match: Any, eval_mode: str, plies: int = 1, *, threads: int = 1,
                   time_limit: float | None = None, node_limit: int | None = None, evaluator: Any = None,
                   filters: Any = None) -> PositionValue:
    """The position before the roll valued in the cube and match context (the module's three cases;
    cubeful: tavli.cube_search's decision, the side to move's best cube action taken). A finished
    game gets its exact value (cubeless: the cube cannot move any more)."""
    from . import match_play
    from .cube import _cube_arg, _match_arg
    from .cube_search import _decide, decision_value

    cube_s, match_s = _cube_arg(cube), _match_arg(match)
    _core._validate_cube_for(board.variant, cube_s, match_s)
    if uses_cubeful_search(board.variant, eval_mode) and not board.is_game_over():
        d, nodes, cut = _decide(board, cube_s, match_s, plies, filters, None, evaluator, threads, time_limit,
                                node_limit)
        equity, mwc = decision_value(d)
        return PositionValue(equity, mwc, d.probabilities, d.plies or 0, nodes, cut, True)
    if not match_s.money and board.variant not in match_play.NO_UTILITY:
        cube_value = cube_s.value if _core._variant_takes_cube(board.variant) else 1
        probs, eq, mwc, done, nodes, cut = match_play._evaluate(board, match_s.length, match_s.score, plies, filters,
                                                                threads, evaluator, None, 0, None, time_limit,
                                                                node_limit, cube_value)
        return PositionValue(eq, mwc, probs, done, nodes, cut, False)
    e = board.evaluate(plies, threads=threads, time_limit=time_limit, node_limit=node_limit, evaluator=evaluator,
                       filters=filters)
    return PositionValue(e.equity, None, e.probabilities, e.plies, e.nodes, e.interrupted, False)
