"""An ensemble at 0-ply against gnubg-nn 0-ply (or against the shipped net): each play valued by
the mean of the nets' cubeless equities (every net under tavli.classnets.ClassNets, so bear-offs
come from the exact databases), mirrored pairs on bench/strength.py's gnubg dice.
    python nets-work/diag-rank/ensemble.py GAMES SEED PROCESSES NET.tnet [NET.tnet ...]
    (a NET of "shipped" is python/tavli/nets/backgammon.tnet)"""
import multiprocessing
import sys
import time

import numpy as np

sys.path.insert(0, "python"); sys.path.insert(0, "bench")
import tavli
from tavli.classnets import ClassNets
from gnubg_decisions import gnubg_equity
from strength import HEADER, best_by_equity, gnubg_game, line, pair_dice, summarize

NETS = [ClassNets(tavli.nn.shipped("backgammon") if p == "shipped" else tavli.nn.Net.load(p))
        for p in sys.argv[4:]]


def equity(rows):
    return np.mean([gnubg_equity(None, tavli.evaluate_batch(rows, "backgammon", evaluator=n)[:, :5].T)
                    for n in NETS], axis=0)


def choose(board, plays, dice):
    return best_by_equity(board, plays, equity)


def pair(k_seed):
    import gnubg_nn as gnubg
    k, seed = k_seed
    dice = pair_dice(seed, k)
    return (gnubg_game(gnubg, None, 0, dice, choose=choose), gnubg_game(gnubg, None, 1, dice, choose=choose))


if __name__ == "__main__":
    games, seed, procs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    t0 = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(procs) as pool:
        res = np.array(pool.map(pair, [(k, seed) for k in range(games // 2)], chunksize=50))
    a, b = res[:, 0], res[:, 1]
    print(HEADER)
    print(line("backgammon", f"ensemble of {len(NETS)} v gnubg 0-ply", summarize(a, b, a > 0, b > 0, a != 0, b != 0),
               time.perf_counter() - t0))
