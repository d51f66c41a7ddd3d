"""Strength checks: the heuristic 0-ply player against uniform random play, and 1-ply search
against 0-ply, in every game, with 95% confidence intervals.

    python bench/strength.py [--games 1000] [--deep-games 300] [--threads 2] [--seed 1]

Each pairing is played from both seats (half the games each way) so that neither colour nor who
starts favours one player; win rates are over decided games (a Plakoto draw counts for neither).
"""

from __future__ import annotations

import argparse
import time

import tavli
from tavli.sim import KINDS

GAMES = ["fevga", "moultezim", "plakoto", "portes", "tavla", "backgammon", "narde",
         "jacquet", "tawla31", "nackgammon", "hypergammon"]


def match_up(variant: str, a: str, b: str, games: int, seed: int, threads: int) -> dict:
    half = games // 2
    r1 = tavli.simulate(variant, half, (a, b), seed=seed, threads=threads)
    r2 = tavli.simulate(variant, games - half, (b, a), seed=seed + 1, threads=threads)
    wins = int((r1["winner"] == 0).sum() + (r2["winner"] == 1).sum())
    losses = int((r1["winner"] == 1).sum() + (r2["winner"] == 0).sum())
    pts = float((r1["points"] * ((r1["winner"] == 0) * 1 - (r1["winner"] == 1))).sum()
                + (r2["points"] * ((r2["winner"] == 1) * 1 - (r2["winner"] == 0))).sum())
    decided = wins + losses
    p = wins / decided if decided else float("nan")
    half_width = 1.96 * (p * (1 - p) / decided) ** 0.5 if decided else float("nan")
    unfinished = int((r1["kind"] == 0).sum() + (r2["kind"] == 0).sum())
    return {"p": p, "ci": half_width, "ppg": pts / games, "games": games, "decided": decided, "unfinished": unfinished}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per game for 0-ply vs random")
    ap.add_argument("--deep-games", type=int, default=300, help="games per game for 1-ply vs 0-ply")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variants", nargs="*", default=GAMES)
    args = ap.parse_args()
    print(f"{'game':<11} {'pairing':<18} {'games':>6} {'win rate':>9} {'95% CI':>15} {'points/game':>12}  time")
    for v in args.variants:
        for a, b, n in (("greedy", "random", args.games), ("search:1", "greedy", args.deep_games)):
            t0 = time.perf_counter()
            r = match_up(v, a, b, n, args.seed, args.threads)
            dt = time.perf_counter() - t0
            lo, hi = r["p"] - r["ci"], r["p"] + r["ci"]
            note = f"  ({r['unfinished']} unfinished)" if r["unfinished"] else ""
            print(f"{v:<11} {a + ' v ' + b:<18} {n:>6} {r['p']:>9.3f} [{lo:.3f}, {hi:.3f}] {r['ppg']:>12.3f}  {dt:5.1f}s{note}")


if __name__ == "__main__":
    main()
