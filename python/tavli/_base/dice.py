"""Validation of dice given from outside."""

from __future__ import annotations

from typing import Any, Sequence, Union

# A roll as the calls take it: (6, 5), [6, 5], "6-5" or "65" (the order matters where a rule says so).
Dice = Union[tuple[int, int], Sequence[int], str]


def parse_dice(dice: Any) -> tuple[int, int]:
    """Accepts (d1, d2) or a string such as "6-5" or "65"; raises ValueError naming the problem."""
    if type(dice) is tuple and len(dice) == 2:  # the common case, kept cheap
        d1, d2 = dice
        if type(d1) is int and type(d2) is int and 0 < d1 < 7 and 0 < d2 < 7:
            return dice
    if isinstance(dice, str):
        text = dice.strip().replace("-", "").replace(",", "").replace(" ", "")
        if len(text) != 2 or not all(c in "0123456789" for c in text):
            raise ValueError(f"dice {dice!r}: expected two digits such as '6-5'")
        dice = (int(text[0]), int(text[1]))
    if isinstance(dice, (set, frozenset, dict)):  # unordered: which die is d1 would be arbitrary
        raise ValueError(f"dice must be an ordered pair (d1, d2), got a {type(dice).__name__}")
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise ValueError(f"dice must be a pair of integers 1..6, got {dice!r}") from None
    for d in (d1, d2):
        if isinstance(d, bool) or not isinstance(d, int) and not hasattr(d, "__index__"):
            raise ValueError(f"dice must be integers 1..6, got {dice!r}")
    d1, d2 = int(d1), int(d2)
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"dice must be integers 1..6, got ({d1}, {d2})")
    return d1, d2
