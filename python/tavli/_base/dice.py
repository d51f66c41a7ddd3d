"""Validation of dice given from outside."""

from __future__ import annotations

from typing import Any, Sequence, Union

from .. import _core

# A roll as the calls take it: (6, 5), [6, 5], "6-5" or "65" (the order matters where a rule says so).
Dice = Union[tuple[int, int], Sequence[int], str]


def parse_dice(dice: Any) -> tuple[int, int]:
    """Accepts (d1, d2) or a string such as "6-5" or "65"; raises ValueError naming the problem.
    The forms and their checks are the core's (tavli._core.parse_dice, cpp/include/tavli/notation.h)."""
    if type(dice) is tuple and len(dice) == 2:  # the common case, kept cheap
        d1, d2 = dice
        if type(d1) is int and type(d2) is int and 0 < d1 < 7 and 0 < d2 < 7:
            return dice
    return _core.parse_dice(dice)
