"""The `time_limit=` argument of the long calls: seconds (a real number) or None for no limit.

The core checks the range (finite, >= 0; tavli/interrupt.h); this only converts. A call that
reaches its limit raises TimeoutError, except the searches (Board.analyze, Board.evaluate), which
return their deepest completed iteration flagged `interrupted`. Ctrl-C stops every long call
within milliseconds with KeyboardInterrupt, leaving the board as it was.
"""

from __future__ import annotations

import time
from typing import Any


def time_limit_arg(value: Any) -> float:
    """None -> 0.0 (no limit); a number -> float; anything else: ValueError."""
    if value is None:
        return 0.0
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        raise ValueError(f"time_limit must be seconds (a number) or None, got {value!r}")
    return float(value)


class Deadline:
    """One time limit over several core calls (the chunks of a simulation)."""

    def __init__(self, time_limit: Any) -> None:
        self.limit = time_limit_arg(time_limit)
        self._end = time.monotonic() + self.limit if self.limit > 0 else None

    def remaining(self) -> float:
        """What is left for the next call (0.0: no limit); TimeoutError once it has run out."""
        if self._end is None:
            return self.limit  # 0.0, or the core's error for a bad value
        left = self._end - time.monotonic()
        if left <= 0:
            raise TimeoutError("the time limit was reached before the call finished")
        return left
