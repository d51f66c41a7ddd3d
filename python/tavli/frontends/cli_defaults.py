"""The command line's built-in position: a Fevga middle game (or one of the game given), reached by
seeded random self-play, so it is the same everywhere."""

from __future__ import annotations

from typing import Any

DEFAULT_SEED = 2026
DEFAULT_PLY = 24


def default_board(variant: str = "fevga", **options: Any) -> Any:
    from .. import Board, random_positions

    rows, _ = random_positions(variant, DEFAULT_PLY + 1, seed=DEFAULT_SEED, **options)
    return Board.from_array(rows[DEFAULT_PLY], variant, **options)
