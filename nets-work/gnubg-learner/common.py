"""Shared pieces of the gnubg-learner experiment (README.md in this folder)."""
import glob
import os
import sys

import numpy as np

sys.path.insert(0, "python"); sys.path.insert(0, "bench")
from strength import gnubg_board  # noqa: E402

def _weights() -> str:
    import gnubg_nn
    return os.path.join(os.path.dirname(gnubg_nn.__file__), "data", "gnubg.weights")


WEIGHTS = _weights()  # gnubg's own weights, as gnubg-nn ships them


def randomized_weights(path_out: str, net: str = "contact", seed: int = 1, scale: float = 0.1) -> None:
    """gnubg's weights file with one net's weights replaced by uniform(-scale, scale) values
    (the file: a name line, 'inputs hidden outputs trained beta_h beta_o', then one value a line)."""
    lines = open(WEIGHTS).read().split("\n")
    i = next(k for k, s in enumerate(lines) if s.split() and s.split()[0] == net)
    n_in, n_h, n_out = (int(v) for v in lines[i + 1].split()[:3])
    count = n_in * n_h + n_h * n_out + n_h + n_out
    rng = np.random.default_rng(seed)
    head = lines[i + 1].split()
    head[3] = "0"
    lines[i + 1] = " ".join(head)
    lines[i + 2:i + 2 + count] = [f"{v:.7f}" for v in rng.uniform(-scale, scale, count)]
    open(path_out, "w").write("\n".join(lines))


def rows_and_labels(work: str):
    rows = np.load(f"{work}/positions.npy")
    y = np.concatenate([np.load(f) for f in sorted(glob.glob(f"{work}/labels_*.npy"))])
    rows = rows[:len(y)]
    cand = sorted(glob.glob(f"{work}/candidate_labels_*.npy"))
    if cand:
        cy = np.concatenate([np.load(f) for f in cand])
        rows = np.concatenate([rows, np.load(f"{work}/candidates.npy")[:len(cy)]])
        y = np.concatenate([y, cy])
    return rows, y


def training_lines(rows, y, want_class=None):
    import gnubg_nn
    out = []
    for r, p in zip(rows, y):
        b = gnubg_board(r)
        if want_class is not None and gnubg_nn.classify(b) != want_class:
            continue
        out.append(gnubg_nn.key_of_board(b) + " " + " ".join(f"{v:.6f}" for v in p))
    return out
