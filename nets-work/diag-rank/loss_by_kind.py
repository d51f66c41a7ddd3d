"""Where the shipped net's contact decisions lose, by kind of decision: for contact decisions
(two or more distinct plays) met in seeded self-play of the shipped net, the equity its 0-ply pick
gives up by gnubg-nn 0-ply's judgement (mp), broken down by what the position and the plays are
(hits, doubles, the race, gammons, the bar, back checkers). A kind whose share of the loss far
exceeds its share of the decisions is a blind spot to aim the next labels or inputs at.
    python nets-work/diag-rank/loss_by_kind.py GAMES SEED [NET.tnet]"""
import sys
import time

import numpy as np

sys.path.insert(0, "python"); sys.path.insert(0, "bench"); sys.path.insert(0, "tools")
import tavli
from tavli.classnets import position_classes
from gnubg_decisions import gnubg_equity
from gnubg_labels import gnubg_values

games, seed = int(sys.argv[1]), int(sys.argv[2])
net = tavli.nn.Net.load(sys.argv[3]) if len(sys.argv) > 3 else tavli.nn.shipped("backgammon")
t0 = time.time()
sim = tavli.simulate("backgammon", games, (net, net), seed=seed, trajectories=True, threads=2)
rows, dice = sim["positions"], sim["dice"]
keep = position_classes(rows, "backgammon") == "contact"
rows, dice = rows[keep], dice[keep]
counts, offsets, succ = tavli.batch_legal_plays(rows, dice, "backgammon", return_positions=True, threads=2)
multi = counts >= 2
ours = tavli.evaluate_batch(succ, "backgammon", evaluator=net, threads=2)[:, 7]  # the opponent's view
judge = -gnubg_equity(None, gnubg_values(succ).T)  # the mover's equity after each play, by gnubg 0-ply
before = gnubg_values(rows)  # the mover's chances before the roll, by gnubg 0-ply
print(f"{games} games, {int(multi.sum())} contact decisions with 2+ plays, {len(succ)} plays "
      f"({time.time() - t0:.0f} s)")

idx = np.flatnonzero(multi)
loss = np.zeros(len(idx)); our_hit = np.zeros(len(idx), bool); best_hit = np.zeros(len(idx), bool)
any_hit = np.zeros(len(idx), bool)
for j, i in enumerate(idx):
    a, b = offsets[i], offsets[i + 1]
    pick, best = a + int(np.argmin(ours[a:b])), a + int(np.argmax(judge[a:b]))
    loss[j] = (judge[best] - judge[pick]) * 1000
    hits = succ[a:b, 48] > rows[i, 49]  # the opponent's bar (the side to move in succ) grew
    our_hit[j], best_hit[j], any_hit[j] = hits[pick - a], hits[best - a], hits.any()
r = rows[idx].astype(int)
w = 24 - np.arange(24)
pip_me = (r[:, :24] * w).sum(1) + 25 * r[:, 48]
pip_them = (r[:, 24:48] * w).sum(1) + 25 * r[:, 49]
lead = pip_them - pip_me  # > 0: the mover leads the race
d = dice[idx]
gam = before[idx]
kinds = {
    "all": np.ones(len(idx), bool),
    "double roll": d[:, 0] == d[:, 1],
    "some play hits": any_hit,
    "we hit, gnubg's best does not": our_hit & ~best_hit,
    "gnubg's best hits, we do not": best_hit & ~our_hit,
    "both hit": our_hit & best_hit,
    "no play hits": ~any_hit,
    "mover on the bar": r[:, 48] > 0,
    "opponent on the bar": r[:, 49] > 0,
    "mover 3+ checkers back (opponent's home)": r[:, :6].sum(1) >= 3,
    "opponent 3+ checkers back": r[:, 24:30].sum(1) >= 3,
    "race lead > +20 pips": lead > 20,
    "race lead -20..+20": np.abs(lead) <= 20,
    "race lead < -20 pips": lead < -20,
    "mover's gammon chance > 15% (gnubg)": gam[:, 1] > 0.15,
    "opponent's gammon chance > 15% (gnubg)": gam[:, 3] > 0.15,
    "neither gammon > 15%": (gam[:, 1] <= 0.15) & (gam[:, 3] <= 0.15),
    "early (both > 140 pips)": (pip_me > 140) & (pip_them > 140),
    "15+ distinct plays": counts[idx] >= 15,
}
total = loss.sum()
print(f"{'kind':44s} {'decisions':>9s} {'share':>6s} {'mean mp':>8s} {'loss share':>10s} {'ratio':>6s}")
for name, m in kinds.items():
    n = int(m.sum())
    if not n:
        continue
    mean, ci = loss[m].mean(), 1.96 * loss[m].std(ddof=1) / np.sqrt(n) if n > 1 else 0.0
    share, lshare = n / len(idx), loss[m].sum() / total
    print(f"{name:44s} {n:9d} {share:6.1%} {mean:5.2f}±{ci:4.2f} {lshare:10.1%} {lshare / share:6.2f}")

print(f"\n{'errors of size (mp)':44s} {'decisions':>9s} {'share':>6s} {'loss share':>10s}")
for lo, hi in ((0, 0.001), (0.001, 5), (5, 20), (20, 50), (50, 100), (100, 1e9)):
    m = (loss >= lo) & (loss < hi)
    label = "exactly gnubg's pick (0)" if lo == 0 else f"{lo:g}..{hi:g}" if hi < 1e9 else f">= {lo:g}"
    print(f"{label:44s} {int(m.sum()):9d} {m.mean():6.1%} {loss[m].sum() / total:10.1%}")
