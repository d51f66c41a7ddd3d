"""Imitation loss on held-out sibling groups (groups-test.npz, gnubg-nn 0-ply labels): for each
decision, the equity (by the labels) given up by the play the model ranks first, in mp.
    python nets-work/diag-rank/imitation.py NET.tnet ...     (tavli nets, alone, no class nets)"""
import sys
import numpy as np
sys.path.insert(0, "python"); sys.path.insert(0, "bench")
import tavli
from gnubg_decisions import gnubg_equity
from tavli.nn import Net


def loss(pred_eq: np.ndarray, z) -> tuple[float, float]:
    """pred_eq: the model's equity of each successor for the side to move in it (the opponent)."""
    lab_eq = gnubg_equity(None, z["lab"].T)
    offs = np.concatenate([[0], np.cumsum(z["counts"])])
    out = []
    for g in np.flatnonzero(z["counts"] >= 2):
        a, b = offs[g], offs[g + 1]
        mover = -lab_eq[a:b]
        out.append(mover.max() - mover[np.argmin(pred_eq[a:b])])
    x = np.asarray(out) * 1000
    return float(x.mean()), float(1.96 * x.std(ddof=1) / np.sqrt(len(x)))


if __name__ == "__main__":
    z = np.load("nets-work/diag-rank/groups-test.npz")
    for path in sys.argv[1:]:
        p = tavli.evaluate_batch(z["succ"], "backgammon", evaluator=Net.load(path))[:, :5]
        print(path, "%.2f ± %.2f mp" % loss(gnubg_equity(None, p.T), z))
