"""Can a small net valuing (position, roll) stand in for the luck lookahead? For self-play
positions of the shipped net's greedy play, each of the 21 rolls' value (the equity after the
roll's best play by the shipped net at 0 ply, the mover's view: what rollout_luck.h's greedy
lookahead computes) is the target; a one-hidden-layer net on the position's "expert" units plus
the roll's one-hot (21 units) is fitted to it (torch, Adam). Reported on held-out positions: the
share of the luck variance (value minus the position's roll-weighted mean) the net's luck
removes, 1 - E[w (l - l^)^2] / E[w l^2], which is the share of the per-ply luck variance a
luck-adjusted rollout would remove with this net as its judge.

    python nets-work/luck/rollnet_probe.py GAMES HIDDEN EPOCHS
"""
import sys
import time

import numpy as np
import torch

import tavli
from tavli import nn
from tavli.jobs.selfplay import self_play_data

games, hidden, epochs = (int(a) for a in sys.argv[1:4])
t0 = time.time()
shipped = nn.shipped("backgammon")
data = self_play_data("backgammon", games, ({"search": 0, "evaluator": shipped},) * 2, seed=3, threads=2,
                      features=False)
rows = np.unique(data["positions"], axis=0)
rows = rows[np.random.default_rng(1).permutation(len(rows))]
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
W = np.array([1.0 if a == b else 2.0 for a, b in ROLLS]) / 36.0
n = len(rows)
dice = np.array(ROLLS * n, dtype=np.int64).reshape(n * 21, 2)
rep = np.repeat(rows, 21, axis=0)
_, offsets, succ = tavli.batch_legal_plays(rep, dice, "backgammon", return_positions=True, threads=2)
# Successors are seen by the opponent: the mover's value is minus the opponent's equity (the
# roll's best play is the one the opponent values least).
ev = tavli.evaluate_batch(succ, "backgammon", plies=0, threads=2, evaluator=shipped)[:, 7]
vals = np.empty(n * 21)
for i in range(n * 21):
    lo, hi = offsets[i], offsets[i + 1]
    vals[i] = -ev[lo:hi].min()
vals = vals.reshape(n, 21)
print(f"{n} positions, {len(succ)} successors ({time.time() - t0:.0f}s)", flush=True)
x = tavli.encode(rows, "backgammon", encoding="expert")
luck = vals - (vals @ W)[:, None]
held = n // 10
X = torch.tensor(x, dtype=torch.float32)
Y = torch.tensor(vals, dtype=torch.float32)
torch.manual_seed(1)
w1 = torch.nn.Linear(x.shape[1], hidden)
wr = torch.nn.Parameter(torch.zeros(21, hidden))
w2 = torch.nn.Linear(hidden, 1)
params = list(w1.parameters()) + [wr] + list(w2.parameters())
opt = torch.optim.Adam(params, lr=3e-3)
Wt = torch.tensor(W, dtype=torch.float32)


def predict(xb):
    a = w1(xb)[:, None, :] + wr[None, :, :]  # (B, 21, H): the position's sums once, a row per roll
    return w2(torch.sigmoid(a)).squeeze(-1) * 3.0  # equities in [-3, 3]


for epoch in range(epochs):
    perm = torch.randperm(n - held) + held
    for k in range(0, len(perm), 256):
        b = perm[k:k + 256]
        p = predict(X[b])
        lp = p - (p @ Wt)[:, None]
        ly = Y[b] - (Y[b] @ Wt)[:, None]
        loss = ((lp - ly) ** 2 @ Wt).mean()  # the luck's error, roll-weighted
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        p = predict(X[:held]).numpy()
    lp = p - (p @ W)[:, None]
    lh = luck[:held]
    removed = 1 - ((lh - lp) ** 2 @ W).mean() / ((lh ** 2) @ W).mean()
    print(f"epoch {epoch + 1}: held-out luck variance removed {removed:.3f}", flush=True)
