"""How far an evaluator's cubeless values lie from GNU Backgammon 2-ply's (PyPI gnubg-nn) on the
same positions, by position class: per output (win, win gammon, win backgammon, lose gammon, lose
backgammon) and for the cubeless equity, the mean signed difference (bias) and the mean absolute
difference, with gnubg 0-ply beside as the yardstick. A diagnosis of the static evaluator, not of
its decisions (bench/gnubg_decisions.py judges those): a bias common to every play of a roll does
not change a choice, a position-by-position error does.

    python bench/gnubg_calibration.py --positions 2000 --player shipped \\
        --player contact=nets-work/contact-cand-60.tnet

Players as in bench/gnubg_decisions.py ("shipped", a ClassNets spec "contact=PATH,...",
"racedb[:N]"). Positions: distinct positions met in --games seeded self-play games (0-ply greedy,
tavli.simulate seeded by --seed), sampled per class with a seeded generator, the side to move to
roll; the bear-off classes are exact in tavli and left out."""

from __future__ import annotations

import argparse
import time

import numpy as np

import tavli
from gnubg_decisions import gnubg_board, gnubg_equity, player
from tavli.classnets import position_classes

OUTPUTS = ("win", "win_g", "win_bg", "lose_g", "lose_bg")


def row(name: str, p: np.ndarray, ref: np.ndarray) -> str:
    d = p - ref
    de = gnubg_equity(None, p.T) - gnubg_equity(None, ref.T)  # column-wise: one equity per position
    cells = "  ".join(f"{100 * d[:, k].mean():+6.2f}/{100 * np.abs(d[:, k]).mean():5.2f}" for k in range(5))
    return f"  {name:<36} {cells}  {de.mean():+7.4f}/{np.abs(de).mean():6.4f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--classes", nargs="*", default=["contact", "crashed", "race"])
    ap.add_argument("--positions", type=int, default=1000, help="per class")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--player", action="append", default=[])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    import gnubg_nn as gnubg

    names = args.player or ["shipped"]
    evaluators = [tavli.nn.shipped("backgammon") if s == "shipped" else player(s) for s in names]
    from tavli.selfplay import self_play_data

    rows = self_play_data("backgammon", args.games, ("greedy", "greedy"), seed=args.seed, threads=2,
                          features=False)["positions"]
    rows = np.unique(rows, axis=0)
    cls = position_classes(rows, "backgammon")
    rng = np.random.default_rng([args.seed, 11])
    print("per output: bias / mean |difference| in percentage points; equity: bias / mean |difference|")
    print(f"  {'player':<36} " + "  ".join(f"{o:>12}" for o in OUTPUTS) + f"  {'equity':>14}")
    for c in args.classes:
        idx = np.flatnonzero(cls == c)
        sample = rows[rng.permutation(idx)[:args.positions]]
        if not len(sample):
            continue
        t0 = time.perf_counter()
        boards = [gnubg_board(r) for r in sample]
        ref = np.array([gnubg.probabilities(b, 2) for b in boards])
        print(f"{c} ({len(sample)} positions) against gnubg 2-ply")
        print(row("gnubg 0-ply", np.array([gnubg.probabilities(b, 0) for b in boards]), ref))
        for name, ev in zip(names, evaluators):
            p = tavli.evaluate_batch(sample, "backgammon", evaluator=ev)[:, :5]
            print(row(name, p, ref))
        print(f"  ({time.perf_counter() - t0:.0f}s)", flush=True)


if __name__ == "__main__":
    main()
