"""A text diagram of a board, drawn from White's side.

White's route index r is White's point 24 - r. The top row shows White's points 13..24 left to
right, the bottom row points 12..1; White's checkers are X, Black's O; a cell reads like "X15".
"""

from __future__ import annotations

from typing import Any

from .geometry import facing_point


def _white_frame(board: Any) -> tuple[list[int], list[int], set[int], set[int]]:
    mover, opponent = board.mover, board.opponent
    pins = board.pinned
    white, black = (mover, opponent) if board.turn == 0 else (opponent, mover)
    white_pins, black_pins = (pins[0], pins[1]) if board.turn == 0 else (pins[1], pins[0])
    movement = board._movement
    black_at = [0] * 24
    for rb, n in enumerate(black):
        black_at[facing_point(movement, rb)] += n
    return white, black_at, set(white_pins), {facing_point(movement, r) for r in black_pins}


def _cell(w: int, b: int, w_pinned: bool = False, b_pinned: bool = False) -> str:
    # Plakoto: a pinned checker is shown in lower case under the pinner ("X2o": two X on an O).
    if w and b:
        return (f"O{b}x" if w_pinned else f"X{w}o" if b_pinned else f"{w}X{b}O")[:4].rjust(4)
    if w:
        return f"X{w}".rjust(4)
    if b:
        return f"O{b}".rjust(4)
    return "   ."


def pip_counts(board: Any) -> tuple[int, int]:
    """(White's, Black's) pips still to travel: a checker on route index r has 24 - r to go (r 23:
    one pip to bear off), one on the bar 25 (RULES.md §1.1's frame, the same in every game)."""
    mover, opponent = (sum(n * (24 - r) for r, n in enumerate(side)) + 25 * bar
                       for side, bar in ((board.mover, board.bar[0]), (board.opponent, board.bar[1])))
    return (mover, opponent) if board.turn == 0 else (opponent, mover)


def diagram(board: Any) -> str:
    white, black, white_pins, black_pins = _white_frame(board)
    top = [11 - i for i in range(12)]  # White r 11..0 = points 13..24
    bottom = [12 + i for i in range(12)]  # White r 12..23 = points 12..1
    def row(idx: list[int]) -> str:
        cells = [_cell(white[r], black[r], r in white_pins, r in black_pins) for r in idx]
        return "|" + "".join(cells[:6]) + " |" + "".join(cells[6:]) + " |"
    def labels(idx: list[int]) -> str:
        nums = [f"{24 - r:4d}" for r in idx]
        return " " + "".join(nums[:6]) + "  " + "".join(nums[6:])
    bar_w, bar_b = (board.bar if board.turn == 0 else board.bar[::-1])
    off_w, off_b = (board.off if board.turn == 0 else board.off[::-1])
    pips_w, pips_b = pip_counts(board)
    to_move = "X (white)" if board.turn == 0 else "O (black)"
    lines = [
        f"{board.variant}: {to_move} to move",
        labels(top),
        row(top),
        row(bottom),
        labels(bottom),
        f"bar X {bar_w} O {bar_b}   off X {off_w} O {off_b}   pips X {pips_w} O {pips_b}",
        f"id {board.id()}",
    ]
    return "\n".join(lines)
