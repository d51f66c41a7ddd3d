"""A deep.py model (OUT.pt) at 0-ply against gnubg-nn 0-ply, cubeless, mirrored pairs on the dice
of bench/strength.py's gnubg suite (pair k seeded by (seed, k)); bear-off positions valued by the
engine's exact databases (ClassNets), the rest by the model.
    python nets-work/diag-rank/deep_player.py OUT.pt GAMES [SEED] [PROCESSES]"""
import multiprocessing
import sys
import time

import numpy as np
import torch

sys.path.insert(0, "python"); sys.path.insert(0, "bench")
import tavli
from tavli.classnets import ClassNets, position_classes
from tavli.supervised import net_inputs
from gnubg_decisions import gnubg_equity
from strength import HEADER, best_by_equity, gnubg_game, line, pair_dice, summarize

MODEL = torch.load(sys.argv[1], weights_only=False)
EXACT = ClassNets(tavli.nn.shipped("backgammon"))


def equity(rows):
    cls = position_classes(rows, "backgammon")
    exact = np.isin(cls, ["bearoff1", "bearoff2"])
    eq = np.zeros(len(rows))
    if (~exact).any():
        with torch.no_grad():
            p = torch.sigmoid(MODEL["model"](torch.from_numpy(net_inputs(rows[~exact], "backgammon",
                                                                         MODEL["encoding"])))).numpy()
        eq[~exact] = gnubg_equity(None, p.T)
    if exact.any():
        eq[exact] = gnubg_equity(None, tavli.evaluate_batch(rows[exact], "backgammon", evaluator=EXACT)[:, :5].T)
    return eq


def choose(board, plays, dice):
    return best_by_equity(board, plays, equity)


def pair(k_seed):
    import gnubg_nn as gnubg
    torch.set_num_threads(1)
    k, seed = k_seed
    dice = pair_dice(seed, k)
    return (gnubg_game(gnubg, None, 0, dice, choose=choose), gnubg_game(gnubg, None, 1, dice, choose=choose))


if __name__ == "__main__":
    games, seed = int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 11
    procs = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    t0 = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(procs) as pool:
        res = np.array(pool.map(pair, [(k, seed) for k in range(games // 2)], chunksize=20))
    a, b = res[:, 0], res[:, 1]
    print(HEADER)
    print(line("backgammon", "deep 0-ply v gnubg 0-ply", summarize(a, b, a > 0, b > 0, a != 0, b != 0),
               time.perf_counter() - t0))
