"""argparse types of the command line. Each checks its value while the arguments are parsed, so a
bad one stops the command with its usage and exit status 2 before any work starts."""

from __future__ import annotations

import argparse
import math
from typing import Callable


def int_in(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """An integer lo..hi (hi None: no upper bound)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < lo or (hi is not None and value > hi):
            span = f"at least {lo}" if hi is None else f"{lo}..{hi}"
            raise argparse.ArgumentTypeError(f"expected an integer {span}, got {value}")
        return value

    parse.__name__ = "integer"  # argparse names the type in some messages
    return parse


def seconds(text: str) -> float:
    """A time limit in seconds, 0..86400 (the core's bound; 0: no limit)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds (a number), got {text!r}") from None
    if not math.isfinite(value) or not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"expected seconds 0..86400 (0: no limit), got {text!r}")
    return value


def dice(text: str) -> tuple[int, int]:
    """A roll such as 6-5, 65 or 6,5: two dice 1..6."""
    from .._base.dice import parse_dice

    try:
        return parse_dice(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


port = int_in(1, 65535)
threads = int_in(1, 1024)  # the core's own bound on threads
plies = int_in(0, 32)  # the search's bound (tavli.analysis.search_args)
seed = int_in(0, 2**64 - 1)
