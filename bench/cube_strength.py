"""Money play with the doubling cube: a cube-handling player against the same player without the
cube (it never doubles and always takes), in points per game with a 95% interval.

    PYTHONPATH=python python bench/cube_strength.py [--player greedy] [--pairs 2000] [--seed 15]
        [--threads 1] [--jacoby]

Mirrored pairs: pair k is game k of the seed played twice, the cube handler as White and then as
Black; with the same seed the same dice fall to the same seat, so the two players swap dice (no
cube decision or greedy/search play draws a random number). Each pair is one sample (the two games
are correlated); the interval is the normal approximation over the pairs. Points are those scored
with the cube: cube value x game value, a pass the cube's value before the double.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import tavli


def signed(result: dict, seat: int) -> np.ndarray:
    """Points each game gave the player in `seat`: won positive, lost negative, 0 unfinished."""
    won = result["winner"] == seat
    lost = (result["winner"] >= 0) & ~won
    return result["scored"].astype(np.int64) * (won.astype(np.int64) - lost)


def measure(player: str, pairs: int, seed: int, threads: int, jacoby: bool, variant: str = "backgammon") -> dict:
    cube_w = {"players": (True, False), "jacoby": jacoby}
    cube_b = {"players": (False, True), "jacoby": jacoby}
    a = tavli.simulate(variant, pairs, (player, player), seed=seed, threads=threads, cube=cube_w)
    b = tavli.simulate(variant, pairs, (player, player), seed=seed, threads=threads, cube=cube_b)
    per_pair = signed(a, 0) + signed(b, 1)
    ppg = per_pair.mean() / 2
    half = 1.96 * per_pair.std(ddof=1) / 2 / math.sqrt(pairs)
    doubled = np.concatenate([a["cube"], b["cube"]]) > 1
    return {"games": 2 * pairs, "ppg": float(ppg), "ci": float(half), "doubled": float(doubled.mean()),
            "mean_cube": float(np.concatenate([a["cube"], b["cube"]]).mean())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--player", default="greedy")
    ap.add_argument("--variant", default="backgammon")
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--jacoby", action="store_true")
    a = ap.parse_args()
    t0 = time.time()
    r = measure(a.player, a.pairs, a.seed, a.threads, a.jacoby, a.variant)
    print(f"{a.variant}, {a.player} with the cube vs {a.player} without (never doubles, always takes), "
          f"money{' (Jacoby)' if a.jacoby else ''}: {r['ppg']:+.3f} +- {r['ci']:.3f} points per game "
          f"over {r['games']} games ({r['games'] // 2} mirrored pairs); cube turned in {100 * r['doubled']:.0f}% "
          f"of games, mean final cube {r['mean_cube']:.2f}; {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
