"""Label noise per CPU second of rollouts: plain, luck-adjusted by the player's own lookahead, and
luck-adjusted by a 0-ply lookahead of another evaluator (Board.rollout's luck_evaluator).

    python nets-work/luck/efficiency.py POSITIONS TRIALS PLIES TRUNCATE REF_TRIALS METHOD...

POSITIONS contact positions of the shipped net's self-play (seed 5), each rolled out by the shipped
net searching PLIES plies (0: greedy), TRUNCATE plies a trial (0: to the end), on one thread (CPU
time). METHOD: plain, own (the player's own lookahead), or the luck evaluator: net (the shipped net
at 0 plies), td (its TD stage), prune (the 16-unit pruning net), heuristic. Prints per method the
CPU seconds a position, the mean standard error of the equity, and the efficiency
1 / (SE^2 x seconds) relative to the first method; with REF_TRIALS > 0 also the RMS distance to a
REF_TRIALS reference (luck by the TD net, another seed) less the reference's own noise."""
import sys
import time

import numpy as np

import tavli
from tavli import nn
from tavli.supervised import class_positions

n, trials, plies, truncate, ref_trials = (int(a) for a in sys.argv[1:6])
methods = sys.argv[6:]
rows = class_positions("backgammon", 200, "contact", players={"search": 0}, seed=5, threads=2)[:n]
boards = [tavli.Board.from_array(r, "backgammon") for r in rows]
shipped = nn.shipped("backgammon")
td = nn.shipped_stage("backgammon", "td")
judges = {"net": shipped, "td": td, "prune": nn.Net.load("python/tavli/nets/backgammon-prune.tnet"),
          "heuristic": "heuristic"}
player = {"search": plies, "evaluator": shipped}


def roll(board, t, method, seed):
    kw = {} if method == "plain" else {"variance_reduction": True}
    if method not in ("plain", "own"):
        kw["luck_evaluator"] = judges[method]
    c0 = time.process_time()
    r = board.rollout(t, player, seed=seed, truncate=truncate or None, **kw)
    return r.equity, r.equity_std_error, time.process_time() - c0


ref = np.array([roll(b, ref_trials, "td", 1000 + k) for k, b in enumerate(boards)]) if ref_trials else None
print(f"{n} positions, {trials} trials, player {plies}-ply, truncate {truncate or 'none'}"
      + (f"; reference {ref_trials} trials, mean SE {ref[:, 1].mean():.4f}" if ref_trials else ""), flush=True)
base = None
for method in methods:
    out = np.array([roll(b, trials, method, 7) for b in boards])
    se2, sec = np.mean(out[:, 1] ** 2), out[:, 2].mean()
    eff = 1.0 / (se2 * sec)
    base = base or eff
    line = (f"{method:9s} {sec * 1000:9.1f} ms a position, equity SE {np.sqrt(se2):.4f}, "
            f"efficiency x{eff / base:.2f}")
    if ref_trials:
        mse = np.mean((out[:, 0] - ref[:, 0]) ** 2) - np.mean(ref[:, 1] ** 2)
        line += f", RMS to the reference {np.sqrt(max(mse, 0.0)):.4f}"
    print(line, flush=True)
