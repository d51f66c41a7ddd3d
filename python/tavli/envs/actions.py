"""The fixed action space of the learning environments: one checker step.

An action moves one checker of the side to act by one die: ``action = (source + 1) * 6 + (die - 1)``
with ``source`` the checker's point as the mover's route index (RULES.md §1.1: -1 the bar, 0..23
along its own route, 0 its start, 18..23 its home board) and ``die`` 1..6. So actions 0..5 enter
from the bar with a 1..6, action 6 moves a checker from route index 0 by a 1, and so on up to 149
(route index 23 by a 6). The checker lands on ``source + die``, or is borne off (route index 24)
when that passes the end of the route.
"""

from __future__ import annotations

from typing import Any

BAR = -1
OFF = 24
SOURCES = 25  # the bar and route indices 0..23
NUM_ACTIONS = SOURCES * 6  # 150


def action_index(source: int, die: int) -> int:
    """The action that moves a checker from `source` (-1 bar, 0..23) by `die` (1..6)."""
    if not (BAR <= source <= 23 and 1 <= die <= 6):
        raise ValueError(f"no action moves from {source} by {die}: source must be -1..23, die 1..6")
    return (source + 1) * 6 + (die - 1)


def action_step(action: Any) -> tuple[int, int]:
    """(source, die) of an action index; ValueError for anything that is not an index 0..149."""
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise ValueError(f"action must be an integer 0..{NUM_ACTIONS - 1}, got {action!r}")
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action must be an integer 0..{NUM_ACTIONS - 1}, got {a}")
    return a // 6 - 1, a % 6 + 1


def step_target(source: int, die: int) -> int:
    """Where a checker moved from `source` by `die` lands: a route index, or OFF (24)."""
    return min(source + die, OFF)


def describe(action: int) -> str:
    """An action in words, for error messages: e.g. 'bar/5 (die 5)' or '13/7 (die 6)' in the
    mover's backgammon point numbers (route index r is point 24 - r)."""
    source, die = action_step(action)
    to = step_target(source, die)
    frm = "bar" if source == BAR else str(24 - source)
    dst = "off" if to == OFF else str(24 - to)
    return f"{frm}/{dst} (action {int(action)}: route index {source}, die {die})"
