"""CPU time per checker-play decision of Debian's GNU Backgammon (`gnubg -t`) at N plies, default
move filters, one thread, cubeless, beside tavli's Board.analyze at the same depth (default filters,
narrowing and pruning unless --prune says otherwise, one thread), on the decision set of bench/test_bench_speed.py; and how often each
one's best play agrees with gnubg's at --reference plies (default 3), with tavli 0-ply as the floor.

    python tools/gnubg_decision_speed.py [--plies 2 3] [--positions 60] [--reference 3] [--cache] [--prune 0 5]

Each gnubg decision runs in its own `gnubg -t` process, timed by the CPU time of that child; the
median CPU time of gnubg's start-up (the same script with no decision, run several times) is
subtracted, and tavli's one-time set-up (its bear-off tables, built on first use) is done before
the timed runs. tavli's time is this process's CPU time around Board.analyze. Printed per depth: the
median and the total of the per-decision CPU times of each, the ratio of the totals and the median
of the per-decision ratios (gnubg / tavli: > 1 means tavli is faster), tavli's median node count,
and the best-move agreement with the reference. gnubg's best play is read from its `hint` (the
first listed play, in gnubg's notation) and applied to the board to compare positions, so plays
that reach the same position agree. No assertion: a measurement for issue 19."""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import gnubg_nn
import tavli

GNUBG = os.environ.get("GNUBG") or shutil.which("gnubg") or "/usr/games/gnubg"


def board(row) -> list[list[int]]:
    """gnubg's board [[opponent], [side on roll]] of a tavli row seen by the side to move."""
    r = [int(x) for x in row]
    return [[r[47 - i] for i in range(24)] + [r[49]], [r[23 - i] for i in range(24)] + [r[48]]]


def apply_gnubg_move(b: list[list[int]], move: str) -> list[list[int]]:
    """The board after gnubg's notation of a play ("bar/23 13/9*/7*", "6/off 2/off(2)") by the side
    on roll (b[1]); a checker landing on a blot sends it to the opponent's bar."""
    opp, me = list(b[0]), list(b[1])
    for token in move.split():
        m = re.fullmatch(r"(.+?)(?:\((\d)\))?", token)
        if not m:
            raise ValueError(f"cannot read gnubg's move {move!r}")
        steps = m[1].split("/")
        for _ in range(int(m[2] or 1)):
            for a, z in zip(steps, steps[1:]):
                src = 25 if a.rstrip("*") == "bar" else int(a.rstrip("*"))
                me[src - 1] -= 1
                dst = z.rstrip("*")
                if dst == "off":
                    continue
                p = int(dst)
                me[p - 1] += 1
                if opp[24 - p] == 1:  # a blot there is hit (gnubg marks "*" once for "(2)")
                    opp[24 - p] -= 1
                    opp[24] += 1
    if min(opp) < 0 or min(me) < 0:
        raise ValueError(f"gnubg's move {move!r} does not fit the board")
    return [opp, me]


def key_after(b: list[list[int]]) -> tuple:
    """An orientation-free key of a board after a play (both sides' checkers)."""
    return tuple(b[0]), tuple(b[1])


def gnubg_script(plies: int, decisions: list[tuple[str, tuple[int, int]]]) -> str:
    lines = ["set threads 1", "set player 0 human", "set player 1 human",
             f"set evaluation chequerplay eval plies {plies}", "set evaluation chequerplay eval cubeful off",
             "new game"]
    for pid, d in decisions:
        lines += [f"set board {pid}", f"set dice {d[0]} {d[1]}", "hint 1"]
    return "\n".join(lines) + "\n"


def run_gnubg(plies: int, decisions: list[tuple[str, tuple[int, int]]]) -> tuple[float, list[str]]:
    """CPU seconds of one gnubg process deciding `decisions`, and its best play for each."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(gnubg_script(plies, decisions))
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([GNUBG, "-t", "-q", "-r", "-c", f.name], capture_output=True, text=True,
                             check=True).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        os.unlink(f.name)
    best = re.findall(r"^\s+1\. Cubeless \d+-ply\s+(.+?)\s+Eq\.:", out, flags=re.M)
    if len(best) != len(decisions):
        raise RuntimeError(f"gnubg answered {len(best)} of {len(decisions)} hints:\n{out[-2000:]}")
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", type=int, nargs="+", default=[2, 3])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--reference", type=int, default=3, help="gnubg's depth for the best-move agreement")
    ap.add_argument("--cache", action="store_true", help="tavli with its shared evaluation cache")
    ap.add_argument("--prune", type=int, nargs="+", default=[tavli._core.DEFAULT_PRUNE],
                    help="tavli's plays per pruned node (search.h; 0: no pruning), each measured in turn")
    args = ap.parse_args()

    rows, dice = tavli.random_positions("backgammon", 4000, seed=20261130)
    counts = tavli.batch_legal_plays(rows, dice, "backgammon")
    ok = np.flatnonzero((rows[:, 50] == 0) & (rows[:, 51] == 0) & (counts > 1))
    pick = ok[np.linspace(0, len(ok) - 1, args.positions).astype(int)]
    decisions = [(gnubg_nn.position_id(board(rows[i])), (int(dice[i][0]), int(dice[i][1]))) for i in pick]
    boards = [tavli.Board.from_array(rows[i], "backgammon") for i in pick]

    startup = statistics.median(run_gnubg(0, [])[0] for _ in range(5))
    gnubg: dict[int, tuple[list[float], list[str]]] = {}
    for p in sorted(set(args.plies) | {args.reference}):
        times, best = [], []
        for dec in decisions:
            t, b = run_gnubg(p, [dec])
            times.append(max(t - startup, 1e-4))
            best += b
        gnubg[p] = (times, best)

    def target(k: int) -> tuple:
        return key_after(apply_gnubg_move(board(rows[pick[k]]), gnubg[args.reference][1][k]))

    def tavli_key(b: tavli.Board, play) -> tuple:
        after = board(b.play(play).to_array())  # seen by the next mover: [side that played, other]
        return tuple(after[1]), tuple(after[0])

    refs = [target(k) for k in range(len(pick))]
    # gnubg's start-up (its nets and bear-off databases loaded) is subtracted above; tavli's
    # one-time set-up (the one-sided and two-sided bear-off tables, built on first use) is done
    # here, untimed, the same thing: a race with both sides' last few checkers home needs both.
    home = [0] * 18 + [0, 0, 0, 1, 2, 2]
    tavli.Board.from_dict({"variant": "backgammon", "turn": 0, "mover": home, "opponent": home,
                           "bar": [0, 0], "off": [10, 10]}).evaluate(plies=0)
    print(f"{len(pick)} decisions (bench/test_bench_speed.py's set), one thread, cubeless, default filters; "
          f"gnubg start-up {1e3 * startup:.0f} ms CPU subtracted; agreement with gnubg {args.reference}-ply")
    for prune, p in [(prune, p) for prune in args.prune for p in [0] + sorted(args.plies)]:
        tv, nodes, agree, lone = [], [], 0, 0
        for k, (b, (_, d)) in enumerate(zip(boards, decisions)):
            t = time.process_time()
            a = b.analyze(d, plies=p, threads=1, cache=args.cache, prune=prune)
            tv.append(time.process_time() - t)
            nodes.append(a.nodes)
            agree += tavli_key(b, a.best.play) == refs[k]
            lone += p > 0 and a.best.plies < p  # the filters left one play: it is the answer (search.h)
        line = f"tavli {p}-ply (prune {prune}): agreement {agree}/{len(pick)} ({100 * agree / len(pick):.0f}%)"
        if p in gnubg:
            gt, gb = gnubg[p]
            g_agree = sum(key_after(apply_gnubg_move(board(rows[pick[k]]), gb[k])) == refs[k] for k in range(len(pick)))
            ratios = [g / max(t, 1e-6) for g, t in zip(gt, tv)]
            line += (f"; CPU ms per decision median gnubg {1e3 * statistics.median(gt):.1f}, tavli "
                     f"{1e3 * statistics.median(tv):.1f} (totals {sum(gt):.2f} s, {sum(tv):.2f} s): gnubg / tavli "
                     f"{sum(gt) / sum(tv):.2f}x by totals, {statistics.median(ratios):.2f}x median per decision; "
                     f"tavli median nodes {int(statistics.median(nodes))}, {lone} lone plays; "
                     f"gnubg {p}-ply agreement {g_agree}/{len(pick)}")
        print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
