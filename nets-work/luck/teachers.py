"""How close each kind of training label comes to GNU Backgammon 2-ply's equity (gnubg-nn), on
contact positions of the shipped net's self-play: the shipped net's 0/1/2-ply values, and rollouts
of its play (greedy with its own luck lookahead; searching 1 ply with the luck at 0 plies).

    python nets-work/luck/teachers.py POSITIONS TRIALS [SEED]

Prints per label the mean |equity - gnubg 2-ply's| (bias beside), its 95% interval, and the CPU
seconds a label costs on one thread; gnubg 0-ply is the yardstick."""
import sys
import time

import numpy as np

sys.path.insert(0, "bench")
import gnubg_nn as gnubg  # noqa: E402

import tavli  # noqa: E402
from gnubg_decisions import gnubg_board, gnubg_equity  # noqa: E402
from tavli import nn  # noqa: E402
from tavli.supervised import class_positions  # noqa: E402

n, trials = int(sys.argv[1]), int(sys.argv[2])
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 9
rows = class_positions("backgammon", 300, "contact", players={"search": 0}, seed=seed, threads=1)[:n]
boards = [tavli.Board.from_array(r, "backgammon") for r in rows]
shipped = nn.shipped("backgammon")
ref = np.array([gnubg_equity(None, gnubg.probabilities(gnubg_board(r), 2)) for r in rows])
labels = {"gnubg 0-ply": (np.array([gnubg_equity(None, gnubg.probabilities(gnubg_board(r), 0)) for r in rows]), 0.0)}
for plies in (0, 1, 2):
    t0 = time.process_time()
    eq = tavli.evaluate_batch(rows, "backgammon", plies=plies, evaluator=shipped)[:, 7]
    labels[f"shipped {plies}-ply"] = (eq, (time.process_time() - t0) / n)
for name, player, kw in (
        (f"rollout {trials}, greedy, own luck", {"search": 0, "evaluator": shipped}, {}),
        (f"rollout {trials}, 1-ply, luck at 0 ply", {"search": 1, "evaluator": shipped}, {"luck_evaluator": shipped})):
    t0 = time.process_time()
    eq = np.array([b.rollout(trials, player, seed=k, variance_reduction=True, **kw).equity
                   for k, b in enumerate(boards)])
    labels[name] = (eq, (time.process_time() - t0) / n)
    print(f"({name}: {time.process_time() - t0:.0f} s)", flush=True)
print(f"{n} contact positions, against gnubg-nn 2-ply's equity")
for name, (eq, sec) in labels.items():
    d = eq - ref
    a = np.abs(d)
    print(f"  {name:<34} mean |difference| {a.mean():.4f} +- {1.96 * a.std(ddof=1) / np.sqrt(n):.4f}, "
          f"bias {d.mean():+.4f}, {sec * 1000:8.1f} ms a label")
