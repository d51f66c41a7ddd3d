"""The command line's progress bar on stderr: shown when stderr is a terminal, or when --progress
asks for it. On a terminal the bar rewrites itself with a carriage return; elsewhere (a file, a
pipe, a CI log) a forced bar writes whole lines, one per tenth of the run, so logs stay readable."""

from __future__ import annotations

import sys
import time
from typing import TextIO


def wanted(forced: bool, quiet: bool, stream: TextIO | None = None) -> bool:
    """--progress forces the bar, --quiet drops it; otherwise only on a terminal."""
    if quiet:
        return False
    stream = sys.stderr if stream is None else stream
    return forced or stream.isatty()


class Bar:
    """progress(done, total) for a run of `unit`s (games, trials)."""

    WIDTH = 30

    def __init__(self, unit: str, stream: TextIO | None = None) -> None:
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        self.tty = self.stream.isatty()
        self.t0 = time.perf_counter()
        self._tenth = -1
        self._open = False

    def __call__(self, done: int, total: int) -> None:
        frac = done / total if total else 1.0
        rate = done / max(time.perf_counter() - self.t0, 1e-9)
        filled = int(self.WIDTH * frac)
        line = f"[{'#' * filled}{'-' * (self.WIDTH - filled)}] {done:,}/{total:,} {self.unit}  {rate:,.0f}/s"
        if self.tty:
            self.stream.write("\r" + line)
            self._open = True
        elif int(frac * 10) > self._tenth:  # a line per tenth, the last one included
            self._tenth = int(frac * 10)
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        """Ends the rewritten line (a terminal only), so what follows starts on its own."""
        if self._open:
            self.stream.write("\n")
            self.stream.flush()
            self._open = False


def bar_or_none(unit: str, forced: bool, quiet: bool) -> Bar | None:
    return Bar(unit) if wanted(forced, quiet) else None

