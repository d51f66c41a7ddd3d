"""The position dict of Board.to_dict and Board.from_dict (JSON Schema: #/$defs/position)."""

from __future__ import annotations

from typing import TypedDict


class _OptionalFields(TypedDict, total=False):
    pinned: list[list[int]]  # Plakoto (games with pinning): [mover, opponent] pinned route indices
    first_turn: list[bool]  # Narde: [mover, opponent] yet to play their first turn


class PositionDict(_OptionalFields):
    """A position as plain data: the variant, the side to move (0 White, 1 Black), each side's
    checkers on its 24 route indices (own frames), on the bar and borne off ([mover, opponent]),
    and the rule options that differ from the variant's defaults."""

    variant: str
    turn: int
    mover: list[int]
    opponent: list[int]
    bar: list[int]
    off: list[int]
    options: dict[str, str | int]
