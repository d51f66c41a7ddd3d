"""Times a 2-ply review of one 64-play backgammon game (tests/data/io/gnubg_1pt_game.mat, a game
gnubg played against itself) with tavli and, when gnubg is installed, gnubg's `analyse match` at 2
plies on the same file (its start-up and import timed separately and taken off).

    PYTHONPATH=python python bench/review_speed.py [--threads 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import tavli.io as io
from tavli.review import review

GAME = Path(__file__).resolve().parent.parent / "tests" / "data" / "io" / "gnubg_1pt_game.mat"


def gnubg_seconds(binary: str, threads: int, analyse: bool) -> float:
    cmds = [f"set threads {threads}", "set analysis chequerplay evaluation plies 2",
            "set analysis cubedecision evaluation plies 2", f"import mat {GAME}"]
    if analyse:
        cmds.append("analyse match")
    with tempfile.TemporaryDirectory() as home:
        t = time.perf_counter()
        subprocess.run([binary, "-t", "-q"], input="\n".join(cmds) + "\n", capture_output=True, text=True,
                       env={**os.environ, "HOME": home}, check=True, timeout=600)
        return time.perf_counter() - t


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    record = io.read(GAME)
    review(record, 0)  # loads the net
    ours = min(review(record, 2, threads=args.threads).seconds for _ in range(args.repeat))
    plays = sum(1 for a in record.games[0].actions if a.kind == "move")
    print(f"tavli review, 2 plies, {args.threads} threads: {ours:.2f} s for {plays} plays ({1000 * ours / plays:.1f} ms each)")
    binary = shutil.which("gnubg") or ("/usr/games/gnubg" if os.access("/usr/games/gnubg", os.X_OK) else None)
    if binary is None:
        print("gnubg is not installed: no comparison")
        return
    base = min(gnubg_seconds(binary, args.threads, False) for _ in range(args.repeat))
    theirs = min(gnubg_seconds(binary, args.threads, True) for _ in range(args.repeat)) - base
    print(f"gnubg analyse match, 2 plies (checker plays, cube decisions, luck), {args.threads} threads: {theirs:.2f} s")
    print(f"ratio gnubg / tavli: {theirs / ours:.2f}")


if __name__ == "__main__":
    main()
