"""Which play each chooser picks, judged by GNU Backgammon 2-ply (gnubg-nn), on contact decisions of
the shipped net's self-play (bench/gnubg_decisions.py's sampling): the shipped net at 0 and 2 plies,
rollouts of the best 0-ply candidates on common dice (Board.rollout_plays: greedy play, luck-adjusted),
and gnubg-nn 0-ply as the yardstick. Also how much the common dice shrink the error of a difference
(paired standard error against the unpaired one, sqrt(se_a^2 + se_b^2)).

    python nets-work/playro/judge.py DECISIONS TRIALS CANDIDATES [TRUNCATE [SEED]]

Prints each chooser's mean loss (mp, 95% interval) and agreement with gnubg 2-ply's best play, and
the CPU seconds a decision."""
import math
import sys
import time

import numpy as np

sys.path.insert(0, "bench")
import gnubg_nn as gnubg  # noqa: E402

import tavli  # noqa: E402
from gnubg_decisions import choose, gnubg_board, gnubg_equity, result_value  # noqa: E402
from tavli.classnets import position_classes  # noqa: E402
from tavli.selfplay import self_play_data  # noqa: E402

n, trials, cands = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
truncate = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] != "0" else None
seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
data = self_play_data("backgammon", 300, ("greedy", "greedy"), seed=seed, threads=2, features=False)
rows, dice = data["positions"], data["dice"]
idx = np.random.default_rng([seed, 7]).permutation(np.flatnonzero(position_classes(rows, "backgammon") == "contact"))
names = ["shipped 0-ply", "shipped 2-ply", f"rollout {trials}x{cands}", "gnubg 0-ply"]
loss = {k: [] for k in names}
same = {k: 0 for k in names}
paired, unpaired, cpu = [], [], 0.0
for i in idx:
    if len(loss[names[0]]) >= n:
        break
    board = tavli.Board.from_array(rows[i], "backgammon")
    d = (int(dice[i][0]), int(dice[i][1]))
    plays = board.legal_plays(d)
    results = [board.play(p) for p in plays]
    if len({a.to_array().tobytes() for a in results}) < 2:
        continue
    judged = [v if (v := result_value(a)) is not None else
              -gnubg_equity(gnubg, gnubg.probabilities(gnubg_board(a.to_array()), 2)) for a in results]
    best = max(judged)
    key = [a.to_array().tobytes() for a in results]
    pick = {"shipped 0-ply": choose("shipped", gnubg, board, d, results),
            "gnubg 0-ply": choose("gnubg", gnubg, board, d, results),
            "shipped 2-ply": key.index(board.play(board.analyze(d, 2)[0].play).to_array().tobytes())}
    t0 = time.process_time()
    r = board.rollout_plays(d, cands, trials, seed=int(i), truncate=truncate, variance_reduction=True, threads=2)
    cpu += time.process_time() - t0
    pick[names[2]] = key.index(board.play(r.best.play).to_array().tobytes())
    for k in range(1, len(r)):
        paired.append(r[k].difference_std_error)
        unpaired.append(math.hypot(r[0].rollout.equity_std_error, r[k].rollout.equity_std_error))
    for k in names:
        loss[k].append(best - judged[pick[k]])
        same[k] += judged[pick[k]] == best
m = len(loss[names[0]])
print(f"{m} contact decisions (seed {seed}), judged by gnubg-nn 2-ply; rollouts: {cands} candidates by 0-ply, "
      f"{trials} trials, luck-adjusted, {'to the end' if truncate is None else f'truncated after {truncate} plies'}")
for k in names:
    x = np.asarray(loss[k])
    print(f"  {k:<22} {1000 * x.mean():7.2f} ± {1000 * 1.96 * x.std(ddof=1) / math.sqrt(m):5.2f} mp, "
          f"gnubg 2-ply's play {100 * same[k] / m:5.1f}%")
p, u = np.asarray(paired), np.asarray(unpaired)
print(f"  difference from the rollout's best: paired SE mean {p.mean():.4f}, unpaired {u.mean():.4f} "
      f"(variance ratio {np.mean(p ** 2) / np.mean(u ** 2):.2f}); {cpu / m:.2f} CPU s a decision (2 threads)")
