"""How close each kind of training label comes to GNU Backgammon 2-ply's equity (gnubg-nn), on
contact positions of the shipped net's self-play: the shipped net's 0/1/2-ply values, and rollouts
of its play (greedy with its own luck lookahead; searching 1 ply with the luck at 0 plies).

    python nets-work/luck/teachers.py POSITIONS TRIALS [SEED [greedy [TRUNCATE...]]]

Prints per label the mean |equity - gnubg 2-ply's| (bias beside), its 95% interval, the root mean
square difference (for rollouts also with their own noise, the mean squared standard error,
taken out: the part a fit on many rows does not average away) and the CPU seconds a label costs
on one thread; gnubg 0-ply is the yardstick. "greedy": the greedy rollouts only, also truncated
after each TRUNCATE plies (then valued by the net at 0 plies)."""
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
greedy_only = len(sys.argv) > 4 and sys.argv[4] == "greedy"
truncations = [int(a) for a in sys.argv[5:]]
rows = class_positions("backgammon", 300, "contact", players={"search": 0}, seed=seed, threads=1)[:n]
boards = [tavli.Board.from_array(r, "backgammon") for r in rows]
shipped = nn.shipped("backgammon")
ref = np.array([gnubg_equity(None, gnubg.probabilities(gnubg_board(r), 2)) for r in rows])
labels = {"gnubg 0-ply": (np.array([gnubg_equity(None, gnubg.probabilities(gnubg_board(r), 0)) for r in rows]), 0.0,
                          0.0)}
for plies in (0, 1, 2):
    t0 = time.process_time()
    eq = tavli.evaluate_batch(rows, "backgammon", plies=plies, evaluator=shipped)[:, 7]
    labels[f"shipped {plies}-ply"] = (eq, (time.process_time() - t0) / n, 0.0)
kinds = [(f"rollout {trials}, greedy, own luck", {"search": 0, "evaluator": shipped}, {}),
         (f"rollout {trials}, 1-ply, luck at 0 ply", {"search": 1, "evaluator": shipped}, {"luck_evaluator": shipped})]
kinds += [(f"rollout {trials}, greedy, own luck, truncated at {t}", kinds[0][1], {"truncate": t}) for t in truncations]
for name, player, kw in [kinds[0], *kinds[2:]] if greedy_only else kinds:
    t0 = time.process_time()
    out = [b.rollout(trials, player, seed=k, variance_reduction=True, **kw) for k, b in enumerate(boards)]
    eq = np.array([r.equity for r in out])
    labels[name] = (eq, (time.process_time() - t0) / n, float(np.mean([r.equity_std_error ** 2 for r in out])))
    print(f"({name}: {time.process_time() - t0:.0f} s)", flush=True)
print(f"{n} contact positions, against gnubg-nn 2-ply's equity")
for name, (eq, sec, noise) in labels.items():
    d = eq - ref
    a = np.abs(d)
    ms = float(np.mean(d ** 2))
    print(f"  {name:<34} mean |difference| {a.mean():.4f} +- {1.96 * a.std(ddof=1) / np.sqrt(n):.4f}, "
          f"bias {d.mean():+.4f}, RMS {np.sqrt(ms):.4f}"
          + (f" ({np.sqrt(max(ms - noise, 0.0)):.4f} without its noise)" if noise else "")
          + f", {sec * 1000:8.1f} ms a label")
