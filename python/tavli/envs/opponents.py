"""The built-in opponents of the single-agent environment: a function (board, dice) -> Play."""

from __future__ import annotations

from typing import Any, Callable, cast

import numpy as np

from .. import _core
from ..board import Board

Opponent = Callable[[Board, tuple[int, int]], _core.Play]


def greedy(board: Board, dice: tuple[int, int]) -> _core.Play:
    """The engine's 0-ply choice: the play whose resulting position its default evaluator likes best."""
    return board.analyze(dice, plies=0)[0].play


def make_opponent(opponent: Any, np_random: Callable[[], np.random.Generator]) -> Opponent:
    """"random" (uniform over the legal plays, drawn from the environment's generator), "greedy",
    or a callable (board, dice) -> Play that gets a copy of the board."""
    if isinstance(opponent, str) and opponent == "greedy":
        return greedy
    if isinstance(opponent, str) and opponent == "random":
        def random_play(board: Board, dice: tuple[int, int]) -> _core.Play:
            plays = board.legal_plays(dice)
            return plays[int(np_random().integers(len(plays)))]

        return random_play
    if callable(opponent) and not isinstance(opponent, str):
        return cast(Opponent, opponent)  # the caller's callable: its signature is the documented contract
    raise ValueError(f"opponent must be 'random', 'greedy' or a callable (board, dice) -> Play, got {opponent!r}")
