"""A net at 0-ply against another (default: the game's shipped net), mirrored pairs, 95% intervals.

    python nets-work/games/versus.py VARIANT NET.tnet [--against OTHER.tnet] [--games 10000] [--seed 7]
"""
import argparse
import sys
import time

sys.path.insert(0, "python")
sys.path.insert(0, "bench")
import tavli  # noqa: E402
from tavli.nn import Net, shipped  # noqa: E402
from strength import HEADER, line, mirrored  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("variant")
ap.add_argument("net")
ap.add_argument("--against")
ap.add_argument("--games", type=int, default=10000)
ap.add_argument("--seed", type=int, default=7)
ap.add_argument("--threads", type=int, default=2)
ap.add_argument("--plies", type=int, default=0)
a = ap.parse_args()
net = Net.load(a.net)
other = Net.load(a.against) if a.against else shipped(a.variant)
player = {"search": a.plies, "evaluator": net} if a.plies else net
t0 = time.perf_counter()
r = mirrored(a.variant, player, other, a.games, a.seed, a.threads)
print(HEADER)
print(line(a.variant, f"{a.net.split('/')[-1][:16]} v {(a.against or 'shipped').split('/')[-1][:6]}", r, time.perf_counter() - t0))
