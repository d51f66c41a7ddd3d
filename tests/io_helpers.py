"""Shared by the tests of tavli.io: the fixtures' folder and GNU Backgammon on the command line."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

DATA = Path(__file__).parent / "data" / "io"


def gnubg_binary() -> str | None:
    found = shutil.which("gnubg")
    if found:
        return found
    return "/usr/games/gnubg" if os.access("/usr/games/gnubg", os.X_OK) else None


def gnubg(commands: list[str], cwd: Path, timeout: float = 300) -> str:
    """Runs gnubg's text interface on `commands` (one a line) and returns its output."""
    binary = gnubg_binary()
    assert binary is not None
    out = subprocess.run([binary, "-t", "-q"], input="\n".join(commands) + "\n", capture_output=True, text=True,
                         cwd=cwd, timeout=timeout, env={**os.environ, "HOME": str(cwd)})
    return out.stdout + out.stderr
