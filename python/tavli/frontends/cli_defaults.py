"""The command line's built-in position: a Fevga middle game (or one of the game given), reached by
seeded random self-play, so it is the same everywhere."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..board import Board

DEFAULT_SEED = 2026
DEFAULT_PLY = 24


def default_board(variant: str = "fevga", **options: Any) -> Board:
    from .. import Board, random_positions

    rows, _ = random_positions(variant, DEFAULT_PLY + 1, seed=DEFAULT_SEED, **options)
    return Board.from_array(rows[DEFAULT_PLY], variant, **options)
