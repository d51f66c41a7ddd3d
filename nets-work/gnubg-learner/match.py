"""Mirrored 0-ply matches against gnubg-nn 0-ply (gnubg's own weights, no evaluation cache) on
bench/strength.py's gnubg dice (pair k seeded by (seed, k)), for the gnubg-learner experiment.

    python nets-work/gnubg-learner/match.py GAMES SEED PROCESSES gnubg WEIGHTS
        A gnubg weights file plays every position (its contact net trained by train.py, its crashed
        and race nets gnubg's own). WEIGHTS = gnubg's own file is the sanity check: exactly 50%.
    python nets-work/gnubg-learner/match.py GAMES SEED PROCESSES tavli NET.tnet
        A tavli net plays the positions gnubg classifies as contact, gnubg's own weights the rest:
        the same division of labour as above, so the two are compared on contact play alone."""
import multiprocessing
import sys
import time

import numpy as np

sys.path.insert(0, "nets-work/gnubg-learner"); sys.path.insert(0, "python"); sys.path.insert(0, "bench")
from common import WEIGHTS  # noqa: E402
from strength import HEADER, _gnubg_board, gnubg_game, gnubg_pick, line, pair_dice, summarize  # noqa: E402

KIND, PATH = sys.argv[4], sys.argv[5]
HANDLES = {}


def handles():
    import gnubg_nn
    if not HANDLES:
        HANDLES["gnubg"] = gnubg_nn.net_load(WEIGHTS, 0)
        if KIND == "gnubg":
            HANDLES["trainee"] = gnubg_nn.net_load(PATH, 0)
        else:
            import tavli
            HANDLES["net"] = tavli.nn.Net.load(PATH)
        gnubg_nn.net_use(HANDLES["gnubg"])
    return gnubg_nn, HANDLES


def choose(board, plays, dice):
    gnubg, h = handles()
    if KIND == "gnubg":
        gnubg.net_use(h["trainee"])
        try:
            return gnubg_pick(gnubg, board, plays, dice)
        finally:
            gnubg.net_use(h["gnubg"])
    if gnubg.classify(_gnubg_board(board.to_array())) == gnubg.c_contact:
        return board.analyze(dice, plies=0, evaluator=h["net"]).best.play
    return gnubg_pick(gnubg, board, plays, dice)


def pair(k_seed):
    gnubg, _ = handles()
    k, seed = k_seed
    dice = pair_dice(seed, k)
    return tuple(gnubg_game(gnubg, None, s, dice, choose=choose) for s in (0, 1))


if __name__ == "__main__":
    games, seed, procs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    t0 = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(procs) as pool:
        res = pool.map(pair, [(k, seed) for k in range(games // 2)], chunksize=50)
    a = np.array([r[0] for r in res]); b = np.array([r[1] for r in res])
    print(HEADER)
    print(line("backgammon", f"{KIND} {PATH.split('/')[-1]} v gnubg",
               summarize(a, b, a > 0, b > 0, a != 0, b != 0), time.perf_counter() - t0))
