"""Where the points against gnubg are lost, by position class: the shipped net at 0-ply against
gnubg-nn 0-ply, except that gnubg-nn chooses the shipped net's plays in the classes named (the class
of the position before the move). A class whose handing-over lifts the score by d points holds d of
the deficit. Mirrored pairs on bench/strength.py's gnubg dice (pair k seeded by (seed, k)).
    python nets-work/diag-rank/hybrid.py GAMES SEED PROCESSES [CLASS ...]   (race crashed contact)"""
import multiprocessing
import sys
import time

import numpy as np

sys.path.insert(0, "python"); sys.path.insert(0, "bench")
import tavli
from tavli.classnets import position_classes
from strength import HEADER, gnubg_game, gnubg_pick, line, pair_dice, summarize

NET = tavli.nn.shipped("backgammon")
HANDED = set(sys.argv[4:])


def choose(board, plays, dice):
    import gnubg_nn as gnubg
    if position_classes(board.to_array()[None], "backgammon")[0] in HANDED:
        return gnubg_pick(gnubg, board, plays, dice)
    return board.analyze(dice, plies=0, evaluator=NET).best.play


def pair(k_seed):
    import gnubg_nn as gnubg
    k, seed = k_seed
    dice = pair_dice(seed, k)
    return tuple(gnubg_game(gnubg, None, s, dice, choose=choose) for s in (0, 1))


if __name__ == "__main__":
    games, seed, procs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    t0 = time.perf_counter()
    pairs = games // 2
    with multiprocessing.get_context("fork").Pool(procs) as pool:
        res = pool.map(pair, [(k, seed) for k in range(pairs)], chunksize=50)
    a = np.array([r[0] for r in res]); b = np.array([r[1] for r in res])
    print(HEADER)
    print(line("backgammon", "shipped, gnubg for " + (",".join(sorted(HANDED)) or "none") + " v gnubg",
               summarize(a, b, a > 0, b > 0, a != 0, b != 0), time.perf_counter() - t0))
