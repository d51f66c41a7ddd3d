"""Experiment tool: sibling groups for `tools/fit_adam.py --groups`. For N decisions (positions of a
`python -m tavli.supervised` work directory, each with a seeded roll), every distinct play's
resulting position (the other side to move), labelled by the shipped net's own search at --plies
(what a shipped net may learn from; --label-contact/--label-race/--label-crashed: other class nets) or, with --gnubg, by GNU Backgammon's 0-ply (PyPI gnubg-nn:
a yardstick for how well a learner imitates a good evaluator, never a shipped net's labels).
--class C keeps only the positions of one class (tavli.classnets.position_classes).
--test draws from the work directory's held-out tenth instead, with the next seed. --keep K labels
only the first K decisions of the draw (in row order), so a larger run later extends a smaller one.
--backend ray labels on a Ray cluster (docs/distributed.md), the same values bit for bit. The labels
are saved chunk by chunk (--chunk plays) beside --out (OUT.parts/) until the .npz is written, so
the same command resumes an interrupted run.
--rollout-trials N labels by rollouts instead: each decision's best --candidates plays by the
labeller's 0-ply, rolled out on common dice by its greedy play (tavli.jobs.rollouts.rollout_plays_data;
--rollout-truncate T, --variance-reduction as Board.rollout's, --eliminate Z as Board.rollout_plays';
decision k of the chunk starting at decision F seeded by Rng.derive(seed + F, k)): the groups are
then those candidates only, and a chunk is --chunk decisions.

    python tools/sibling_groups.py --work nets-work/contact-1ply --decisions 15000 --plies 2 \\
        --threads 2 --out groups-own.npz

Writes an .npz: rows (N x ROW_BYTES uint8: the decisions' positions, the side to move on roll) and
dice (N x 2), succ (M x ROW_BYTES uint8), lab (M x 5: win, win g, win bg, lose g, lose bg for the
side to move in succ), counts (N: plays per decision; decision k's plays are the rows from
sum(counts[:k])). Tested in tests/test_sibling_groups.py."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import tavli  # noqa: E402
from tavli.classnets import ClassNets, position_classes  # noqa: E402
from tavli.supervised import label_positions  # noqa: E402


def labelled_chunk(parts: Path, k: int, rows: np.ndarray, label: Any) -> np.ndarray:
    """Chunk k's labels: parts/lab_K.npy when an interrupted run of the same command left it (with
    its rows, which must be these), else label(rows), saved there first. So a long labelling run
    stopped at any point resumes where it stopped; the parts go once the .npz is written."""
    lab_file, rows_file = parts / f"lab_{k:05d}.npy", parts / f"rows_{k:05d}.npy"
    if lab_file.exists() and rows_file.exists():
        if not np.array_equal(np.load(rows_file), rows):
            raise SystemExit(f"{parts} holds another run's chunks (other options?): remove it or use another --out")
        return np.load(lab_file)
    lab = label(rows)
    parts.mkdir(parents=True, exist_ok=True)
    np.save(rows_file, rows)
    np.save(parts / "lab.tmp.npy", lab)
    os.replace(parts / "lab.tmp.npy", lab_file)  # complete chunks only
    return lab


def labeller_of(a: argparse.Namespace) -> ClassNets:
    net = lambda path: tavli.nn.Net.load(path) if path else None  # noqa: E731
    return ClassNets(net(a.label_contact) or tavli.nn.shipped(a.variant), net(a.label_race), net(a.label_crashed))


def rolled_out(a: argparse.Namespace, rows: np.ndarray, dice: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(counts, succ, lab) of --rollout-trials: each decision's candidates rolled out on common dice,
    chunk by chunk (OUT.parts/rolled_K.npz, resumed as labelled_chunk's parts are)."""
    from tavli.jobs.rollouts import rollout_plays_data

    parts, labeller, done = Path(a.out + ".parts"), labeller_of(a), []
    for first in range(0, len(rows), a.chunk):
        r, d = rows[first:first + a.chunk], dice[first:first + a.chunk]
        part = parts / f"rolled_{first // a.chunk:05d}.npz"
        if part.exists():
            z = np.load(part)
            if not (np.array_equal(z["rows"], r) and np.array_equal(z["dice"], d)):
                raise SystemExit(f"{parts} holds another run's chunks (other options?): remove it or use another --out")
            done.append({k: z[k] for k in ("counts", "results", "probabilities")})
            continue
        out = rollout_plays_data(r, d, a.variant, a.candidates, a.rollout_trials, labeller,
                                 truncate=a.rollout_truncate, seed=a.seed + first, threads=a.threads,
                                 variance_reduction=a.variance_reduction, eliminate=a.eliminate, backend=a.backend,
                                 ray_address=a.ray_address)
        parts.mkdir(parents=True, exist_ok=True)
        np.savez(parts / "rolled.tmp.npz", rows=r, dice=d, **out)
        os.replace(parts / "rolled.tmp.npz", part)  # complete chunks only
        done.append(out)
    counts = np.concatenate([z["counts"] for z in done])
    succ = np.concatenate([z["results"] for z in done])
    p = np.concatenate([z["probabilities"] for z in done]).astype(np.float64)
    # The rollouts are for the side that played; the labels for the side to move in succ, clipped
    # (luck-adjusted means may leave [0, 1] by a little), as label_positions gives them.
    lab = np.stack([1.0 - p[:, 0] - p[:, 5], p[:, 3], p[:, 4], p[:, 1], p[:, 2]], axis=1)
    return counts, succ, np.clip(lab, 0.0, 1.0).astype(np.float32)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", required=True, help="a tavli.supervised work directory (its positions.npy)")
    ap.add_argument("--variant", default="backgammon", help="the game of the work directory's positions")
    ap.add_argument("--decisions", type=int, required=True)
    ap.add_argument("--plies", type=int, default=2, help="the shipped nets' search depth for the labels")
    ap.add_argument("--label-contact", help="label with this contact net (and it serves every class without "
                    "a net of its own) instead of the shipped net")
    ap.add_argument("--label-race", help="... and this race net")
    ap.add_argument("--label-crashed", help="... and this crashed net")
    ap.add_argument("--gnubg", action="store_true", help="label by gnubg-nn 0-ply instead (a yardstick)")
    ap.add_argument("--class", dest="cls", help="only positions of this class (contact, crashed, race, ...)")
    ap.add_argument("--test", action="store_true", help="decisions from the held-out tenth")
    ap.add_argument("--keep", type=int, help="label only the first K decisions of the draw")
    ap.add_argument("--seed", type=int, default=123)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--chunk", type=int, help="plays labelled a chunk (default 20000; with --rollout-trials "
                    "decisions a chunk, default 200)")
    ap.add_argument("--rollout-trials", type=int, default=0,
                    help="label each decision's best --candidates plays by rollouts of this many trials")
    ap.add_argument("--rollout-truncate", type=int, help="... each trial valued by the labeller after T plies")
    ap.add_argument("--variance-reduction", action="store_true", help="... luck-adjusted")
    ap.add_argument("--candidates", type=int, default=5, help="plays rolled out a decision (default 5)")
    ap.add_argument("--eliminate", type=float, help="... a play trailing by Z standard errors rolled out no further "
                    "(Board.rollout_plays)")
    ap.add_argument("--backend", choices=("local", "ray"), default="local",
                    help="ray: the labels on a Ray cluster (--threads per task), the same bits")
    ap.add_argument("--ray-address", default=None)
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    a.chunk = a.chunk or (200 if a.rollout_trials else 20000)
    pos = np.load(f"{a.work}/positions.npy", mmap_mode="r")
    held = len(pos) // 10
    first, end = (0, held) if a.test else (held, len(pos))
    rng = np.random.default_rng(a.seed + int(a.test))
    pool = first + np.arange(end - first)
    if a.cls:
        pool = pool[position_classes(np.asarray(pos[first:end]), a.variant) == a.cls]
    take = np.sort(pool[rng.permutation(len(pool))[:a.decisions]])
    rows = np.asarray(pos[take])
    dice = rng.integers(1, 7, size=(len(rows), 2))
    counts, _, succ = tavli.batch_legal_plays(rows, dice, a.variant, return_positions=True, threads=a.threads)
    if a.keep is not None:
        rows, dice, counts, succ = rows[:a.keep], dice[:a.keep], counts[:a.keep], succ[:int(counts[:a.keep].sum())]
    t0 = time.time()
    if a.gnubg:
        from gnubg_labels import gnubg_values

        lab = gnubg_values(succ)
    elif a.rollout_trials:
        counts, succ, lab = rolled_out(a, rows, dice)
    else:
        labeller = labeller_of(a)
        lab = np.concatenate([labelled_chunk(Path(a.out + ".parts"), i // a.chunk, succ[i:i + a.chunk],
                                             lambda rows: label_positions(rows, a.variant, labeller, plies=a.plies,
                                                                          threads=a.threads, backend=a.backend,
                                                                          ray_address=a.ray_address))
                              for i in range(0, len(succ), a.chunk)])
    print(f"{len(rows)} decisions, {int((counts >= 2).sum())} with two or more plays, {len(succ)} plays "
          f"labelled in {time.time() - t0:.0f} s")
    np.savez(a.out, rows=rows, dice=dice, succ=succ, lab=lab, counts=counts)
    shutil.rmtree(a.out + ".parts", ignore_errors=True)


if __name__ == "__main__":
    main()
