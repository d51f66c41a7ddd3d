"""One recorded play of a game or match record, read whole: its steps make the play, and its move
text, when present, must name the same play (a record whose text says one play and whose steps
make another is refused, not silently replayed by its steps)."""

from __future__ import annotations

from typing import Any, Mapping


def recorded_play(board: Any, turn: Mapping[str, Any], where: str) -> Any:
    """The legal play of `board` that `turn` ({"dice", "steps", "play"?}, already checked against
    the schema) records; ValueError naming `where` when its text and steps disagree."""
    dice = tuple(turn["dice"])
    play = board.find_play(turn["steps"], dice)
    if "play" in turn:
        try:
            said = board.parse_play(turn["play"], dice)
        except ValueError as e:
            raise ValueError(f"{where}.play: {e}") from None
        if said != play:
            raise ValueError(f"{where}: the text {turn['play']!r} and the steps ({play}) describe different plays")
    return play
