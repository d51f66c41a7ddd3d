"""What pruning (cpp/include/tavli/search.h, "Pruning") costs in quality and saves in time: the same
decisions analysed with the shipped evaluator's pruning net (--prune K, each given) and without
(prune 0), one thread, default filters, on distinct positions met in seeded 0-ply self-play games.

    python tools/pruning_agreement.py [--variant backgammon] [--plies 2] [--decisions 200] [--prune 4 5 6] [--pruner NET]

Printed per K: how often the pruned search picks the unpruned one's best play, the mean and the
largest loss of its pick by the unpruned search's values (equity of the unpruned best minus that of
the pruned pick, both valued unpruned), nodes (evaluator evaluations) and CPU seconds, and the CPU
ratio unpruned / pruned. --pruner measures another pruning net in place of the shipped one. No
assertion: a measurement for issue 19.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import tavli
from tavli import _core
from tavli.jobs.selfplay import self_play_data
from tavli.nn import Net, serving_entry, shipped, shipped_pruner


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="backgammon")
    ap.add_argument("--plies", type=int, default=2)
    ap.add_argument("--decisions", type=int, default=200)
    ap.add_argument("--prune", type=int, nargs="+", default=[_core.DEFAULT_PRUNE])
    ap.add_argument("--pruner", default=None, help="a pruning net's file instead of the shipped one")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()

    data = self_play_data(args.variant, max(20, args.decisions // 3), ("greedy", "greedy"), seed=args.seed,
                          features=False)
    rows, first = np.unique(data["positions"], axis=0, return_index=True)
    dice = data["dice"][first]
    pick = np.random.default_rng(args.seed).permutation(len(rows))
    decisions = []
    for i in pick:
        b = tavli.Board.from_array(rows[i], args.variant)
        d = (int(dice[i][0]), int(dice[i][1]))
        if not b.is_game_over() and b.count_plays(d) > 1:
            decisions.append((b, d))
        if len(decisions) == args.decisions:
            break
    net = shipped(args.variant)
    pruner = Net.load(args.pruner) if args.pruner else shipped_pruner(serving_entry(args.variant) or args.variant)
    if net is None or pruner is None:
        raise SystemExit(f"{args.variant}: no shipped net with a pruning net (give --pruner)")
    suite = _core.NetSuite()
    suite.assign([args.variant], net._net)
    suite.assign_pruner([args.variant], pruner._net)
    decisions[0][0].analyze(decisions[0][1], args.plies, evaluator=suite)  # one-time set-up untimed

    def run(prune: int) -> tuple[list, float, int]:
        out, nodes = [], 0
        t = time.process_time()
        for b, d in decisions:
            a = b.analyze(d, args.plies, evaluator=suite, prune=prune, full_depth=True)
            out.append(a)
            nodes += a.nodes
        return out, time.process_time() - t, nodes

    plain, t0, n0 = run(0)
    print(f"{len(decisions)} {args.variant} decisions at {args.plies} plies, one thread; unpruned: {n0} nodes, "
          f"{t0:.2f} s CPU")
    for k in args.prune:
        pruned, t, n = run(k)
        same, losses = 0, []
        for a, ref in zip(pruned, plain):
            value = {str(p.play): p.equity for p in ref}
            best = str(ref.best.play)
            same += str(a.best.play) == best
            losses.append(value[best] - value[str(a.best.play)])
        print(f"prune {k}: same best play {same}/{len(decisions)} ({100 * same / len(decisions):.1f}%), loss mean "
              f"{np.mean(losses):.5f} max {np.max(losses):.4f}; {n} nodes ({n0 / n:.2f}x fewer), {t:.2f} s CPU "
              f"({t0 / t:.2f}x faster)", flush=True)


if __name__ == "__main__":
    main()
