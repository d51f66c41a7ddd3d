"""Position rows (the 64-byte layout of cpp/include/tavli/position.h) seen from either side, for
the positions in the middle of a turn that the environments show their agents (the engine applies
the steps: Board._after_steps)."""

from __future__ import annotations

import numpy as np

# Row offsets (position.h): counts by each side's own route index, then bar, off, turn, flags, pins.
MOVER, OPPONENT = 0, 24
MOVER_BAR, OPPONENT_BAR, MOVER_OFF, OPPONENT_OFF = 48, 49, 50, 51
TURN, FLAGS = 52, 53
MOVER_PINS, OPPONENT_PINS = 54, 57  # 24-bit masks, little endian


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
