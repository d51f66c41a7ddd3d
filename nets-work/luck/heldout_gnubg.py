"""How far nets' 0-ply equities lie from GNU Backgammon 2-ply's (gnubg-nn) on a supervised work
directory's held-out rows (the first tenth of positions.npy, as tavli.supervised and
tools/fit_adam.py hold them out), beside the labels' own distance.

    python nets-work/luck/heldout_gnubg.py WORK [MAX_ROWS] NET...

gnubg's values are kept in WORK/gnubg2_heldout.npy (git-ignored) for the next call."""
import glob
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, "bench")
import gnubg_nn as gnubg  # noqa: E402

import tavli  # noqa: E402
from gnubg_decisions import gnubg_board, gnubg_equity  # noqa: E402
from tavli.nn import Net  # noqa: E402

work = Path(sys.argv[1])
limit = int(sys.argv[2])
nets = sys.argv[3:]
rows = np.load(work / "positions.npy")
held = rows[:max(1, len(rows) // 10)][:limit]
cache = work / "gnubg2_heldout.npy"
if cache.exists() and len(np.load(cache)) == len(held):
    ref = np.load(cache)
else:
    ref = np.array([gnubg_equity(None, gnubg.probabilities(gnubg_board(r), 2)) for r in held])
    np.save(cache, ref)


def report(name, eq):
    d = eq - ref
    print(f"  {name:<40} mean |difference| {np.abs(d).mean():.4f} +- "
          f"{1.96 * np.abs(d).std(ddof=1) / np.sqrt(len(d)):.4f}, RMS {np.sqrt(np.mean(d ** 2)):.4f}, "
          f"bias {d.mean():+.4f}")


print(f"{work}: {len(held)} held-out rows against gnubg-nn 2-ply")
labels = sorted(glob.glob(str(work / "labels_*.npy")))
if labels:
    y = np.concatenate([np.load(f) for f in labels])[:len(held)]
    report("the labels", gnubg_equity(None, y.T))
for spec in nets:
    net = tavli.nn.shipped("backgammon") if spec == "shipped" else Net.load(spec)
    report(spec, tavli.evaluate_batch(held, "backgammon", evaluator=net)[:, 7])
