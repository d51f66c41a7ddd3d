"""CPU time per checker-play decision of Debian's GNU Backgammon (`gnubg -t`) at N plies, default
move filters, one thread, cubeless, on the decision set of bench/test_bench_speed.py, beside
tavli's Board.analyze at the same depth:  python tools/gnubg_decision_speed.py PLIES [POSITIONS]
gnubg's start-up (the same script with no positions) is subtracted."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

import gnubg_nn
import tavli

GNUBG = os.environ.get("GNUBG") or shutil.which("gnubg") or "/usr/games/gnubg"


def board(row):
    r = [int(x) for x in row]
    return [[r[47 - i] for i in range(24)] + [r[49]], [r[23 - i] for i in range(24)] + [r[48]]]


def main() -> None:
    plies = int(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    rows, dice = tavli.random_positions("backgammon", 4000, seed=20261130)
    counts = tavli.batch_legal_plays(rows, dice, "backgammon")
    ok = np.flatnonzero((rows[:, 50] == 0) & (rows[:, 51] == 0) & (counts > 1))
    pick = ok[np.linspace(0, len(ok) - 1, count).astype(int)]

    def gnubg_cpu(k: int) -> float:
        lines = ["set threads 1", "set player 0 human", "set player 1 human",
                 f"set evaluation chequerplay eval plies {plies}", "set evaluation chequerplay eval cubeful off",
                 "new game"]
        for i in pick[:k]:
            lines += [f"set board {gnubg_nn.position_id(board(rows[i]))}", f"set dice {dice[i][0]} {dice[i][1]}",
                      "hint 1"]
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([GNUBG, "-t", "-q", "-r", "-c", f.name], capture_output=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        os.unlink(f.name)
        return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

    g = (gnubg_cpu(count) - gnubg_cpu(0)) / count
    boards = [(tavli.Board.from_array(rows[i], "backgammon"), (int(dice[i][0]), int(dice[i][1]))) for i in pick]
    t = time.process_time()
    for b, d in boards:
        b.analyze(d, plies=plies, threads=1)
    v = (time.process_time() - t) / count
    print(f"{plies}-ply, {count} decisions, CPU ms per decision: gnubg {1e3 * g:.1f}, tavli {1e3 * v:.1f} "
          f"(tavli {g / v:.2f}x faster)")


if __name__ == "__main__":
    main()
