"""A player against a base player in money play with the doubling cube, in mirrored-dice pairs of
games: game i is played twice with the same seed, the players swapping sides, and the pair counts
as one sample (the first player's mean points over its two games, the cube's value included); a
95% normal interval over pairs.

    nice -n 5 python tools/measure_money_cube.py 2000 --player greedy+cubeful --base greedy
    nice -n 5 python tools/measure_money_cube.py 2000 --player search:1+cubeful+cube:1 --base search:1+cube:1
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import tavli


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pairs", type=int)
    ap.add_argument("--kind", default="backgammon", help="a game with the cube (default backgammon)")
    ap.add_argument("--player", default="greedy+cubeful", help="the measured player (default greedy+cubeful)")
    ap.add_argument("--base", default="greedy", help="its opponent (default greedy)")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    t0 = time.time()
    kw = dict(seed=a.seed, threads=a.threads, cube=True)
    white = tavli.simulate(a.kind, a.pairs, (a.player, a.base), **kw)
    black = tavli.simulate(a.kind, a.pairs, (a.base, a.player), **kw)

    def points(r: dict, side: int) -> np.ndarray:
        sign = np.where(r["winner"] == side, 1.0, np.where(r["winner"] == 1 - side, -1.0, 0.0))
        return sign * r["scored"]

    per_pair = (points(white, 0) + points(black, 1)) / 2.0
    mean = float(per_pair.mean())
    half = 1.96 * float(per_pair.std(ddof=1)) / math.sqrt(len(per_pair))
    unfinished = int((white["winner"] < 0).sum() + (black["winner"] < 0).sum())
    doubled = float(np.mean(np.concatenate([white["cube"], black["cube"]]) > 1))
    print(f"{a.kind} money play with the cube: {a.player} vs {a.base}, {a.pairs} mirrored pairs (seed {a.seed}): "
          f"{mean:+.4f} +- {half:.4f} points per game (95%); cube turned in {100 * doubled:.0f}% of games, "
          f"{unfinished} unfinished, {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
