"""Rollouts of a roll's plays on common dice (cpp/include/tavli/play_rollout.h; cubefully,
cubeful_rollout.h's cubeful_rollout_plays): which candidate play is best, by playing each one's
result out with the same dice, as GNU Backgammon's rollouts of a move's candidates do.
Board.rollout_plays is the entry point; this module checks the arguments and converts.

>>> import tavli
>>> r = tavli.Board("backgammon").rollout_plays((6, 5), 2, 36, seed=1)
>>> len(r), r[0].difference, r[1].difference <= 0
(2, 0.0, True)
"""

from __future__ import annotations

from typing import Any, Sequence

from . import _core
from ._base.args import int_arg
from ._base.deadline import time_limit_arg
from ._base.dice import Dice, parse_dice
from ._base.rollout_keywords import PLAY_ROLLOUT_DEFAULTS, with_defaults
from .board import Board, check_rollout_args
from .cube_rollout import _EVALUATOR as CUBEFUL_EVALUATOR
from .cube_rollout import CubefulRollout
from .cube_rollout import _args as cube_rollout_args
from .results import PlayRollouts, Probabilities, RolledOutPlay, Rollout


def rollout_plays(board: Board, dice: Dice, candidates: Any, trials: Any, player: Any, cube: Any, match: Any,
                  kwargs: dict[str, Any]) -> PlayRollouts:
    """Board.rollout_plays (its docstring says what each argument means)."""
    kw = with_defaults("Board.rollout_plays", kwargs, PLAY_ROLLOUT_DEFAULTS)
    time_limit = time_limit_arg(kw.pop("time_limit"))
    met = kw.pop("met")
    eliminate = eliminate_arg(kw.pop("eliminate"))
    d = parse_dice(dice)
    rollouts: list[Rollout | CubefulRollout]
    if cube is not None or match is not None or met is not None:
        cubeful = cube_rollout_args(board, cube, match, met, trials, player, kw)
        plays = _candidates(board, d, candidates, cubeful[CUBEFUL_EVALUATOR])
        values, se = _core._cubeful_rollout_plays(board, plays, *cubeful, eliminate=eliminate, time_limit=time_limit)
        rollouts = [CubefulRollout(*v, cube=cubeful[0], match=cubeful[1]) for v in values]
    else:
        cubeless = check_rollout_args(board, trials, player, **kw)
        plays = _candidates(board, d, candidates, cubeless[9])
        results, se = _core._rollout_plays(board, plays, *cubeless, eliminate=eliminate, time_limit=time_limit)
        rollouts = [Rollout(Probabilities(*r[0]), r[1], Probabilities(*r[2]), r[3], r[4], r[5]) for r in results]
    order = sorted(range(len(plays)), key=lambda k: -rollouts[k].equity)  # stable: ties keep the given order
    best = order[0]
    return PlayRollouts(
        [RolledOutPlay(plays[k], rollouts[k], rollouts[k].equity - rollouts[best].equity, float(se[k, best]))
         for k in order],
        [[float(se[a, b]) for b in order] for a in order])


def eliminate_arg(value: Any) -> float:
    """`eliminate` as the core takes it: None (off) -> 0, else standard errors in (0, MAX_ELIMINATE]."""
    if value is None:
        return 0.0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= _core.MAX_ELIMINATE:
        raise ValueError(f"eliminate must be None (off) or standard errors in (0, {_core.MAX_ELIMINATE:g}], "
                         f"got {value!r}")
    return float(value)


def _candidates(board: Board, dice: tuple[int, int], candidates: Any, evaluator: Any) -> list[_core.Play]:
    """The plays to roll out: the best N by a 0-ply cubeless analysis with `evaluator` (the core's),
    the plays given (checked to be Play objects of this roll; the core checks that they are legal
    here), or every play."""
    if candidates is None:
        return list(board.legal_plays(dice))
    if isinstance(candidates, int) and not isinstance(candidates, bool):
        n = int_arg("candidates", candidates, 1, _core.MAX_ROLLOUT_PLAYS)
        ranked, *_ = board._analyze(dice, 0, [], 1, 0.0, 0, evaluator)
        return [p for p, *_ in ranked[:n]]
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, Sequence):
        raise ValueError(f"candidates: expected a number of plays, a list of plays or None, got {candidates!r}")
    plays = list(candidates)
    if not plays:
        raise ValueError("candidates: an empty list of plays")
    if not all(isinstance(p, _core.Play) for p in plays):
        raise ValueError("candidates: expected Play objects (Board.legal_plays, analyze, find_play)")
    if any(p.dice != dice and p.dice != dice[::-1] for p in plays):
        raise ValueError(f"candidates: every play must be one of the roll {dice[0]}-{dice[1]}")
    return plays
