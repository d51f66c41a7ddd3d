"""Where the points against gnubg are lost, by position class: the shipped net at 0-ply against
gnubg-nn 0-ply, except that gnubg-nn chooses the shipped net's plays in the classes named (the class
of the position before the move). A class whose handing-over lifts the score by d points holds d of
the deficit. Mirrored pairs on bench/strength.py's gnubg dice (pair k seeded by (seed, k)).
    python nets-work/diag-rank/hybrid.py GAMES SEED PROCESSES [CLASS ...]   (race crashed contact)"""
import sys

sys.path.insert(0, "python"); sys.path.insert(0, "bench")
import tavli
from tavli.classnets import position_classes
from strength import gnubg_pairs, gnubg_pick, print_gnubg_pairs

NET = tavli.nn.shipped("backgammon")
HANDED = set(sys.argv[4:])


def choose(board, plays, dice):
    import gnubg_nn as gnubg
    if position_classes(board.to_array()[None], "backgammon")[0] in HANDED:
        return gnubg_pick(gnubg, board, plays, dice)
    return board.analyze(dice, plies=0, evaluator=NET).best.play


if __name__ == "__main__":
    games, seed, procs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    first, second, seconds = gnubg_pairs(games, seed, procs, choose=choose)
    print_gnubg_pairs("shipped, gnubg for " + (",".join(sorted(HANDED)) or "none") + " v gnubg", first, second, seconds)
