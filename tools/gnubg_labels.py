"""Experiment tool: a work directory for `tools/fit_adam.py` labelled by GNU Backgammon's 0-ply
(PyPI gnubg-nn), the yardstick for how well a learner (encoding, width, loss, epochs) can imitate a
good evaluator when its labels are as good as gnubg's. Nets fitted to it are measurements, never
shipped (issue 19: a shipped net learns from the engine's own play).

    python tools/gnubg_labels.py --from nets-work/contact-1ply --work nets-work/diag-gnubg
    python tools/gnubg_labels.py --from nets-work/contact-1ply --add-games 30000 --work nets-work/diag-all

Copies --from's positions.npy and candidates.npy; --add-games N adds the crashed and race positions
met in N self-play games of the shipped net (tavli.selfplay, seeded by --seed) and shuffles the rows
(so the held-out tenth holds every class); then labels every row by gnubg-nn 0-ply (about 90,000
positions/s)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from gnubg_decisions import gnubg_board  # noqa: E402
from tavli.classnets import position_classes  # noqa: E402
from tavli.selfplay import self_play_data  # noqa: E402


def gnubg_values(rows: np.ndarray) -> np.ndarray:
    """gnubg-nn 0-ply's (win, win g, win bg, lose g, lose bg) for the side to move in each row."""
    import gnubg_nn

    return np.array([gnubg_nn.probabilities(gnubg_board(r), 0) for r in rows], np.float32)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--from", dest="source", required=True, help="a tavli.supervised work directory")
    ap.add_argument("--work", required=True)
    ap.add_argument("--add-games", type=int, default=0)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    rows = np.load(f"{a.source}/positions.npy")
    if a.add_games:
        more = np.unique(self_play_data("backgammon", a.add_games, ("greedy", "greedy"), seed=a.seed,
                                        threads=a.threads, features=False)["positions"], axis=0)
        cls = position_classes(more, "backgammon")
        rows = np.concatenate([rows, more[(cls == "crashed") | (cls == "race")]])
        rows = rows[np.random.default_rng(5).permutation(len(rows))]
    sets = [("positions", "labels", rows)]
    if os.path.exists(f"{a.source}/candidates.npy"):
        sets.append(("candidates", "candidate_labels", np.load(f"{a.source}/candidates.npy")))
    for name, labels, x in sets:
        t0 = time.time()
        np.save(f"{a.work}/{name}.npy", x)
        np.save(f"{a.work}/{labels}_00000.npy", gnubg_values(x))
        print(f"{name}: {len(x)} rows labelled in {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
