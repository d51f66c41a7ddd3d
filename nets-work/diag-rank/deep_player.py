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
from strength import HEADER, _gnubg_board, line, summarize

W = np.array([2.0, 1.0, 1.0, -1.0, -1.0])
MODEL = torch.load(sys.argv[1], weights_only=False)
EXACT = ClassNets(tavli.nn.shipped("backgammon"))


def choose(board, plays):
    results = [board.play(p) for p in plays]
    values = np.zeros(len(results))
    live = []
    for i, a in enumerate(results):
        o = a.outcome()
        if o is None:
            live.append(i)
        else:
            values[i] = o.points
    if live:
        rows = np.stack([results[i].to_array() for i in live])
        cls = position_classes(rows, "backgammon")
        exact = np.isin(cls, ["bearoff1", "bearoff2"])
        eq = np.zeros(len(live))
        if (~exact).any():
            with torch.no_grad():
                p = torch.sigmoid(MODEL["model"](torch.from_numpy(net_inputs(rows[~exact], "backgammon",
                                                                             MODEL["encoding"])))).numpy()
            eq[~exact] = p @ W - 1
        if exact.any():
            eq[exact] = tavli.evaluate_batch(rows[exact], "backgammon", evaluator=EXACT)[:, :5] @ W - 1
        values[live] = -eq
    return plays[int(np.argmax(values))]


def game(gnubg, seat, dice):
    board = tavli.Board("backgammon")
    for turn, (d1, d2) in enumerate(dice):
        if board.is_game_over():
            break
        plays = board.legal_plays((d1, d2))
        if len(plays) == 1:
            play = plays[0]
        elif turn % 2 == seat:
            play = choose(board, plays)
        else:
            _, key = gnubg.best_move(_gnubg_board(board.to_array()), d1, d2, n=0, b=1)
            play = next(p for p in plays if gnubg.key_of_board(_gnubg_board(board.play(p).to_array())) == key)
        board.push(play)
    o = board.outcome()
    return o.points if o.winner == seat else -o.points


def pair(k_seed):
    import gnubg_nn as gnubg
    torch.set_num_threads(1)
    k, seed = k_seed
    rng = np.random.default_rng([seed, k])
    opening = rng.integers(1, 7, size=2)
    while opening[0] == opening[1]:
        opening = rng.integers(1, 7, size=2)
    dice = [(int(opening[0]), int(opening[1]))] + [tuple(int(x) for x in rng.integers(1, 7, size=2)) for _ in range(600)]
    return game(gnubg, 0, dice), game(gnubg, 1, dice)


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
