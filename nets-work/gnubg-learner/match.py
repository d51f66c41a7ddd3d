"""Mirrored 0-ply matches against gnubg-nn 0-ply (gnubg's own weights, no evaluation cache) on
bench/strength.py's gnubg dice (pair k seeded by (seed, k)), for the gnubg-learner experiment.

    python nets-work/gnubg-learner/match.py GAMES SEED PROCESSES gnubg WEIGHTS
        A gnubg weights file plays every position (its contact net trained by train.py, its crashed
        and race nets gnubg's own). WEIGHTS = gnubg's own file is the sanity check: exactly 50%.
    python nets-work/gnubg-learner/match.py GAMES SEED PROCESSES tavli NET.tnet
        A tavli net plays the positions gnubg classifies as contact, gnubg's own weights the rest:
        the same division of labour as above, so the two are compared on contact play alone."""
import sys

sys.path.insert(0, "nets-work/gnubg-learner"); sys.path.insert(0, "python"); sys.path.insert(0, "bench")
from common import WEIGHTS  # noqa: E402
from strength import gnubg_board, gnubg_pairs, gnubg_pick, print_gnubg_pairs  # noqa: E402

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
    if gnubg.classify(gnubg_board(board.to_array())) == gnubg.c_contact:
        return board.analyze(dice, plies=0, evaluator=h["net"]).best.play
    return gnubg_pick(gnubg, board, plays, dice)


if __name__ == "__main__":
    games, seed, procs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    handles()  # loaded once here, inherited by the forked workers
    first, second, seconds = gnubg_pairs(games, seed, procs, choose=choose)
    print_gnubg_pairs(f"{KIND} {PATH.split('/')[-1]} v gnubg", first, second, seconds)
