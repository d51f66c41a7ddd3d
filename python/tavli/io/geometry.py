"""The facing-point geometry of the pictures (io.diagram, io.svg): which point of the other side
is a given point of one side.

Each side counts the points along its own route, r = 0..23 (RULES.md §1.1). When the sides move in
contrary directions the point r of one is the point 23 - r of the other; when they move in parallel
(Fevga and its kin) it is (r + 12) % 24. The map is its own inverse. It lives in one place,
facing_point in cpp/include/tavli/movegen.h; this module only hands it Python's arguments.
"""

from __future__ import annotations

from .. import _core

MOVEMENTS = ("contrary", "parallel")


def facing_point(movement: str, r: int) -> int:
    """The other side's route index of the point that is route index `r` (0..23) for one side,
    in a game of the given movement ("contrary" or "parallel", as `Board._movement` says)."""
    if not isinstance(movement, str):
        raise ValueError(f"unknown movement {movement!r} (known: {', '.join(MOVEMENTS)})")
    if isinstance(r, bool) or not hasattr(r, "__index__") or not -(2**63) <= int(r) < 2**63:
        raise ValueError(f"route index {r!r} is not a point 0..23")
    return _core.facing_point(movement, int(r))
