"""Score-aware play against the same player not score-aware, in mirrored-dice pairs of matches:
match i is played twice with the same seed, the players swapping sides, and the pair counts as
one sample (the score-aware player's share of its two matches); a 95% normal interval over pairs.

    nice -n 5 python tools/measure_score_aware.py backgammon 5 500 --cube --player greedy
    nice -n 5 python tools/measure_score_aware.py tavla 5 500 --player greedy
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import tavli


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", help="a tavli.Match kind: backgammon, tavla, portes, tavli, ...")
    ap.add_argument("target", type=int)
    ap.add_argument("pairs", type=int)
    ap.add_argument("--player", default="greedy", help="the base player spec (default greedy)")
    ap.add_argument("--aware", default="+score", help="what the score-aware one adds (default +score)")
    ap.add_argument("--cube", action="store_true", help="matches with the cube (backgammon family)")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    aware, plain = a.player + a.aware, a.player
    t0 = time.time()
    kw = dict(target=a.target, seed=a.seed, threads=a.threads, cube=a.cube)
    white = tavli.simulate_matches(a.kind, a.pairs, (aware, plain), **kw)
    black = tavli.simulate_matches(a.kind, a.pairs, (plain, aware), **kw)
    won = (white["winner"] == 0).astype(float) + (black["winner"] == 1).astype(float)
    unfinished = int((white["winner"] < 0).sum() + (black["winner"] < 0).sum())
    share = won / 2.0
    mean = float(share.mean())
    half = 1.96 * float(share.std(ddof=1)) / math.sqrt(len(share))
    print(f"{a.kind} to {a.target}{' with the cube' if a.cube else ''}: {aware} vs {plain}, {a.pairs} mirrored pairs "
          f"(seed {a.seed}): {aware} wins {mean:.4f} +- {half:.4f} of matches (95%), "
          f"{unfinished} unfinished, {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
