"""Measures each game's per-game point distribution in self-play with the shipped nets (the
default evaluator, 0-ply 'greedy' for both sides) and writes python/tavli/met/game_rates.json,
from which tavli.match_utility builds each cubeless game's match equity table.

    PYTHONPATH=python python tools/measure_game_rates.py --games 4000 --seed 15

Both sides play the same player, so the two sides' distributions are pooled (White and Black
alternate in the tables: equal players)."""
from __future__ import annotations

import argparse
import json
import os

import numpy as np

from tavli.sim import simulate

VARIANTS = ("portes", "plakoto", "fevga", "tavla", "moultezim", "narde", "jacquet", "tawla31",
            "nackgammon", "hypergammon", "backgammon")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "python", "tavli", "met",
                                                 "game_rates.json"))
    args = ap.parse_args()
    out: dict = {"command": f"PYTHONPATH=python python tools/measure_game_rates.py --games {args.games} --seed {args.seed}",
                 "player": "greedy (0-ply, the shipped net or the default evaluator) against itself",
                 "games": {}}
    for v in VARIANTS:
        r = simulate(v, args.games, ("greedy", "greedy"), seed=args.seed)
        winner, points = r["winner"], r["points"].astype(int)
        finished = winner >= 0
        draws = int(np.sum(r["kind"] == 5))
        dist = {int(k): int(np.sum(points[finished] == k)) for k in np.unique(points[finished])}
        out["games"][v] = {"games": args.games, "draws": draws, "unfinished": int(np.sum((winner < 0) & (r["kind"] != 5))),
                           "points": {str(k): n for k, n in sorted(dist.items())},
                           "white_wins": int(np.sum(winner == 0)), "black_wins": int(np.sum(winner == 1))}
        print(v, out["games"][v], flush=True)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
