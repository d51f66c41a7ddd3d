"""Checker steps on a position row (the 64-byte layout of cpp/include/tavli/position.h), for the
positions in the middle of a turn that the environments show their agents.

The engine identifies a play by its resulting position and never exposes the positions between
its steps, so this module moves one checker at a time the way the engine's own `apply_step`
(cpp/include/tavli/movegen.h) does: landing on a lone opposing checker hits it (hitting games) or
pins it (Plakoto), and the last checker leaving a point releases the checker pinned under it. It
decides nothing about legality (the steps come from the engine's legal plays), and the turn checks
its final row against the engine's result (`Turn.finish`).
"""

from __future__ import annotations

import numpy as np

from .actions import BAR, OFF

# Row offsets (position.h): counts by each side's own route index, then bar, off, turn, flags, pins.
MOVER, OPPONENT = 0, 24
MOVER_BAR, OPPONENT_BAR, MOVER_OFF, OPPONENT_OFF = 48, 49, 50, 51
TURN, FLAGS = 52, 53
MOVER_PINS, OPPONENT_PINS = 54, 57  # 24-bit masks, little endian


def facing_point(movement: str, r: int) -> int:
    """The opponent's route index of the mover's point r (RULES.md §1.1)."""
    return (r + 12) % 24 if movement == "parallel" else 23 - r


def _pins(row: np.ndarray, at: int) -> int:
    return int(row[at]) | int(row[at + 1]) << 8 | int(row[at + 2]) << 16


def _set_pins(row: np.ndarray, at: int, mask: int) -> None:
    row[at], row[at + 1], row[at + 2] = mask & 0xFF, mask >> 8 & 0xFF, mask >> 16 & 0xFF


def apply_step(row: np.ndarray, source: int, to: int, contact: str, movement: str) -> None:
    """Moves one checker of the side to move from `source` (-1 bar) to `to` (24 off), in place.
    The mover's first-turn flag (Narde) goes at the first step, as in the engine's `apply_steps`."""
    row[FLAGS] &= 0xFE
    if source == BAR:
        row[MOVER_BAR] -= 1
    else:
        row[MOVER + source] -= 1
        if contact == "pin" and row[MOVER + source] == 0:
            o = facing_point(movement, source)
            pins = _pins(row, OPPONENT_PINS)
            if pins >> o & 1:
                _set_pins(row, OPPONENT_PINS, pins & ~(1 << o))
    if to == OFF:
        row[MOVER_OFF] += 1
        return
    if contact != "block":
        o = facing_point(movement, to)
        pins = _pins(row, OPPONENT_PINS)
        if row[OPPONENT + o] == 1 and not pins >> o & 1:
            if contact == "hit":
                row[OPPONENT + o] -= 1
                row[OPPONENT_BAR] += 1
            else:
                _set_pins(row, OPPONENT_PINS, pins | 1 << o)
    row[MOVER + to] += 1


def flipped(row: np.ndarray) -> np.ndarray:
    """The same position seen from the other side (sides swapped; the turn byte is unchanged)."""
    out = row.copy()
    out[MOVER:MOVER + 24], out[OPPONENT:OPPONENT + 24] = row[OPPONENT:OPPONENT + 24], row[MOVER:MOVER + 24]
    out[MOVER_BAR], out[OPPONENT_BAR] = row[OPPONENT_BAR], row[MOVER_BAR]
    out[MOVER_OFF], out[OPPONENT_OFF] = row[OPPONENT_OFF], row[MOVER_OFF]
    out[FLAGS] = (int(row[FLAGS]) & 1) << 1 | (int(row[FLAGS]) >> 1 & 1)
    out[MOVER_PINS:MOVER_PINS + 3], out[OPPONENT_PINS:OPPONENT_PINS + 3] = (
        row[OPPONENT_PINS:OPPONENT_PINS + 3],
        row[MOVER_PINS:MOVER_PINS + 3],
    )
    return out


def same_checkers(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two rows place every checker and pin alike (turn and first-turn flags aside)."""
    return bool(np.array_equal(a[:TURN], b[:TURN]) and np.array_equal(a[MOVER_PINS:60], b[MOVER_PINS:60]))
