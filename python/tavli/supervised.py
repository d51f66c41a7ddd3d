"""Supervised training of a class net on positions labelled by the engine's own deeper search
(the second stage of how GNU Backgammon's nets were made; the fit is cpp/include/tavli/supervised.h).

    python -m tavli.supervised --variant backgammon --class race --games 400 --label-plies 1 \\
        --hidden 64 --epochs 30 --alpha 0.01 --seed 1 --threads 2 --work nets-work/race \\
        --out nets-work/race.tnet

Stages, each resumable from the files in --work (run the same command again):
1. positions.npy: the positions of --class met in --games self-play games (tavli.simulate game i
   seeded by (seed, i); both sides 0-ply with the labeller's nets), duplicates dropped, at most
   --max-positions of them (a seeded sample), in a seeded order.
2. labels_NNNNN.npy: their values for the side to move, in chunks of --chunk rows: a
   --label-plies search (tavli.evaluate_batch, --threads C++ threads; the result does not depend
   on the count) or, with --rollout-trials, rollouts by the labeller searching --rollout-plies
   plies (tavli.rollout_data; seeds in label_positions; --variance-reduction adjusts each trial
   for the luck of its dice, valued as --luck says). The labeller is the shipped contact net with
   --label-race / --label-crashed nets for their classes (default: the shipped nets) over the
   exact bear-off databases.
2b. with --candidates N: candidates.npy, near alternatives to the labeller's 0-ply pick for N
   training rows (candidate_positions), labelled the same way in candidate_labels_NNNNN.npy; they
   join the training rows, never the held-out ones.
3. net.tnet: the net (random, seeded by --seed, or --init's net widened to the encoding), fitted epoch by epoch (supervised_epoch: SGD in an order seeded by
   (seed, epoch)) on 90% of the rows, the rest held out; the checkpoint after each epoch carries
   the epoch counter and the whole command in its metadata (JSON), so a resumed run ends with the
   weights of an uninterrupted one. --out receives the final net.

Labels are the costly stage (a 2-ply label takes about 6 ms of one core; a luck-adjusted rollout of
36 greedy trials about 0.2 s, of 36 one-ply trials with --luck 0-ply 1.5-3 s). `--backend ray` runs
the self-play games and the labels on a Ray cluster (docs/distributed.md), `--threads` per task,
and writes the same files bit for bit, so a run may move between a laptop and a cluster, or
resume on the other, chunk by chunk.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from . import _core
from ._base.options import to_pairs
from .nn.classnets import ClassNets, position_classes
from .nn import Net, shipped
from .nn.widen import widen

__all__ = ["class_positions", "candidate_positions", "label_positions", "net_inputs", "fit", "error", "widen", "main", "METADATA_FORMAT"]

METADATA_FORMAT = "tavli-supervised/1"
ENCODINGS = {"race": "race", "contact": "expert2", "crashed": "expert2"}


def class_positions(variant: str, games: int, cls: str, *, players: Any, seed: int, threads: int,
                    max_positions: int | None = None, backend: str = "local", ray_address: str | None = None,
                    **options: Any) -> np.ndarray:
    """Distinct position rows of class `cls` met in `games` seeded self-play games, in a seeded
    random order (at most max_positions). `backend="ray"`: the games on a Ray cluster, the same rows."""
    from .jobs.selfplay import self_play_data

    data = self_play_data(variant, games, (players, players), seed=seed, threads=threads, features=False,
                          backend=backend, ray_address=ray_address, **options)
    rows = data["positions"]
    rows = rows[position_classes(rows, variant, **options) == cls]
    rows = np.unique(rows, axis=0)  # sorted: the order below depends only on the set and the seed
    order = np.random.default_rng([seed, 1]).permutation(len(rows))
    rows = rows[order]
    return rows if max_positions is None else rows[:max_positions]


def candidate_positions(rows: np.ndarray, variant: str, cls: str, *, labeller: Any, count: int, ranks: int,
                        seed: int, threads: int, **options: Any) -> np.ndarray:
    """Positions the 0-ply chooser has to tell apart from its pick: for each of the first `count`
    rows (positions with their side to move), a roll drawn by numpy's default_rng([seed, 2]), the
    roll's legal successors of class `cls` ranked by the labeller at 0-ply for the mover, and one of
    the ranks 2..`ranks` taken uniformly (rows with fewer than two such successors give none);
    distinct, in an order seeded by (seed, 3). Self-play alone shows the net
    the positions it chose; its mistakes are the near alternatives it ranks wrongly."""
    from .jobs.batch import batch_legal_plays, evaluate_batch

    base = rows[:count]
    rng = np.random.default_rng([seed, 2])
    dice = rng.integers(1, 7, size=(len(base), 2))
    _, offsets, succ = batch_legal_plays(base, dice, variant, return_positions=True, threads=threads, **options)
    keep = position_classes(succ, variant, **options) == cls
    # The successors are seen by the opponent: the mover's best is the opponent's lowest equity.
    equity = np.where(keep, evaluate_batch(succ, variant, plies=0, threads=threads, evaluator=labeller,
                                           **options)[:, 7], np.inf)
    picks = rng.random(len(base))
    out = []
    for i in range(len(base)):
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        n = int(np.count_nonzero(keep[lo:hi]))
        if n < 2:
            continue
        order = lo + np.argsort(equity[lo:hi], kind="stable")[:n]
        out.append(order[1 + int(picks[i] * (min(ranks, n) - 1))])
    cand = np.unique(succ[np.asarray(out, dtype=np.int64)], axis=0) if out else np.zeros((0, succ.shape[1]), np.uint8)
    return cand[np.random.default_rng([seed, 3]).permutation(len(cand))]


def label_positions(rows: np.ndarray, variant: str, labeller: Any, *, plies: int = 1, rollout_trials: int = 0,
                    rollout_plies: int = 0, rollout_truncate: int | None = None, variance_reduction: bool = False,
                    luck_evaluator: Any = None,
                    seed: int = 1, first_row: int = 0, threads: int = 1, backend: str = "local",
                    ray_address: str | None = None, **options: Any) -> np.ndarray:
    """Targets (N, 5: win, win_double, win_triple, lose_double, lose_triple) for the side to move:
    a `plies` search, or rollouts of `rollout_trials` games played by the labeller searching
    `rollout_plies` plies (0: greedy), each trial to the end or for `rollout_truncate` plies and
    then valued by the labeller (row k of the call seeded by tavli.Rng.derive(seed + first_row,
    k): chunks never share seeds as long as chunks are fewer than rows), with
    `variance_reduction` luck-adjusted (rollout_luck.h: the same games, an unbiased value with a
    fraction of the dice's noise, at about 21 times the player's work a play, or with
    `luck_evaluator` (Board.rollout's) a 0-ply lookahead of that evaluator a play).
    `backend="ray"`: the rows spread over a Ray cluster's tasks of `threads` threads each
    (tavli.distributed), the same labels bit for bit: a row's search or rollout depends on that
    row (and its seed) alone."""
    if rollout_trials:
        from .jobs.rollouts import rollout_data

        out = rollout_data(rows, variant, rollout_trials, {"search": rollout_plies, "evaluator": labeller},
                           truncate=rollout_truncate, seed=seed + first_row, threads=threads, evaluator=labeller,
                           variance_reduction=variance_reduction, luck_evaluator=luck_evaluator, backend=backend,
                           ray_address=ray_address, **options)
        labels: np.ndarray = np.clip(out["probabilities"][:, :5], 0.0, 1.0).astype(np.float32)
        return labels
    from .jobs.batch import evaluate_batch

    return np.clip(evaluate_batch(rows, variant, plies=plies, threads=threads, evaluator=labeller, backend=backend,
                                  ray_address=ray_address, **options)[:, :5], 0.0, 1.0).astype(np.float32)


def net_inputs(rows: np.ndarray, variant: str, encoding: str, **options: Any) -> np.ndarray:
    """The net's inputs for position rows (seen by the side to move, as the evaluator encodes)."""
    return _core._net_encode(variant, to_pairs(options), np.ascontiguousarray(rows, dtype=np.uint8), encoding)


def fit(net: Net, x: np.ndarray, y: np.ndarray, *, alpha: float, seed: int, epoch: int) -> float:
    """One epoch of SGD (cpp/include/tavli/supervised.h); returns the training mean squared error."""
    return _core._supervised_epoch(net._net, np.ascontiguousarray(x, np.float32), np.ascontiguousarray(y, np.float32),
                                   float(alpha), int(seed), int(epoch))


def error(net: Net, x: np.ndarray, y: np.ndarray) -> float:
    """Mean squared error of the net's 5 outputs against the targets."""
    return _core._supervised_error(net._net, np.ascontiguousarray(x, np.float32), np.ascontiguousarray(y, np.float32))


def _labeller(args: argparse.Namespace) -> ClassNets:
    contact = Net.load(args.label_contact) if args.label_contact else shipped(args.variant)
    if contact is None:
        raise SystemExit(f"no shipped net for {args.variant}: give --label-contact")
    race = Net.load(args.label_race) if args.label_race else None
    crashed = Net.load(args.label_crashed) if args.label_crashed else None
    return ClassNets(contact, race, crashed)


def _luck(args: argparse.Namespace, labeller: ClassNets) -> Any:
    """--luck as label_positions' luck_evaluator: None (the player's own lookahead), the labeller
    (at 0 plies) or a net file."""
    if args.luck == "own":
        return None
    if args.luck == "0-ply":
        return labeller
    return Net.load(args.luck)


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def _labelled(work: Path, prefix: str, rows: np.ndarray, args: argparse.Namespace, labeller: ClassNets,
              seed_offset: int = 0) -> np.ndarray:
    """The labels of `rows`, chunk by chunk from work/PREFIX_NNNNN.npy, labelling missing chunks
    (rollout seeds from row seed_offset + first on)."""
    chunks = []
    for first in range(0, len(rows), args.chunk):
        f = work / f"{prefix}_{first // args.chunk:05d}.npy"
        if not f.exists():
            t0 = time.perf_counter()
            y = label_positions(rows[first:first + args.chunk], args.variant, labeller, plies=args.label_plies,
                                rollout_trials=args.rollout_trials, rollout_plies=args.rollout_plies,
                                rollout_truncate=args.rollout_truncate,
                                variance_reduction=args.variance_reduction, luck_evaluator=_luck(args, labeller),
                                seed=args.seed, first_row=seed_offset + first, threads=args.threads,
                                backend=args.backend, ray_address=args.ray_address)
            np.save(work / "labels.tmp.npy", y)
            os.replace(work / "labels.tmp.npy", f)
            _log(f"{prefix}: labelled rows {first}..{first + len(y) - 1} ({time.perf_counter() - t0:.0f}s)")
        chunks.append(np.load(f))
    return np.concatenate(chunks) if chunks else np.zeros((0, 5), np.float32)


def run(args: argparse.Namespace, argv: Sequence[str]) -> Net:
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    command = "python -m tavli.supervised " + " ".join(shlex.quote(a) for a in argv)
    labeller = _labeller(args)

    pos_file = work / "positions.npy"
    if pos_file.exists():
        rows = np.load(pos_file)
    else:
        t0 = time.perf_counter()
        rows = class_positions(args.variant, args.games, args.cls, players=labeller, seed=args.seed,
                               threads=args.threads, max_positions=args.max_positions, backend=args.backend,
                               ray_address=args.ray_address)
        np.save(work / "positions.tmp.npy", rows)
        os.replace(work / "positions.tmp.npy", pos_file)
        _log(f"{len(rows)} {args.cls} positions from {args.games} games ({time.perf_counter() - t0:.0f}s)")

    y = _labelled(work, "labels", rows, args, labeller)
    held = max(1, len(rows) // 10)
    if args.candidates:
        cand_file = work / "candidates.npy"
        if cand_file.exists():
            cand = np.load(cand_file)
        else:
            t0 = time.perf_counter()
            # From training rows only (successors of held-out rows would leak into training).
            cand = candidate_positions(rows[held:], args.variant, args.cls, labeller=labeller, count=args.candidates,
                                       ranks=args.candidate_ranks, seed=args.seed, threads=args.threads)
            np.save(work / "candidates.tmp.npy", cand)
            os.replace(work / "candidates.tmp.npy", cand_file)
            _log(f"{len(cand)} candidate positions from {args.candidates} rows ({time.perf_counter() - t0:.0f}s)")
        # Candidates join the training rows only: the held-out rows stay self-play positions.
        y = np.concatenate([y, _labelled(work, "candidate_labels", cand, args, labeller, len(rows))])
        rows = np.concatenate([rows, cand])
    encoding = args.encoding or ENCODINGS[args.cls]
    x = net_inputs(rows, args.variant, encoding)
    xt, yt, xv, yv = x[held:], y[held:], x[:held], y[:held]

    ckpt = work / "net.tnet"
    if ckpt.exists():
        net = Net.load(ckpt)
        meta = json.loads(net.metadata)
        epoch = int(meta["epoch"])
    elif args.init:
        net, epoch = widen(Net.load(args.init), encoding), 0
    else:
        net, epoch = Net(_core.net_family(args.variant), args.hidden, seed=args.seed, encoding=encoding), 0
    if epoch == 0:
        _log(f"before training: held-out mse {error(net, xv, yv):.5f} ({len(xt)} training rows, {len(xv)} held out)")
    while epoch < args.epochs:
        alpha = args.alpha * (args.alpha_decay ** epoch)
        train_mse = fit(net, xt, yt, alpha=alpha, seed=args.seed, epoch=epoch)
        epoch += 1
        meta = {"format": METADATA_FORMAT, "class": args.cls, "epoch": epoch, "positions": int(len(rows)),
                "train_mse": train_mse, "held_out_mse": error(net, xv, yv), "command": command}
        net.metadata = json.dumps(meta)
        net.save(ckpt)
        _log(f"epoch {epoch}: train mse {train_mse:.5f}, held-out mse {meta['held_out_mse']:.5f}")
    if args.out:
        net.save(args.out)
    return net


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog="python -m tavli.supervised", description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="backgammon")
    ap.add_argument("--class", dest="cls", choices=sorted(ENCODINGS), default="race")
    ap.add_argument("--games", type=int, default=400, help="self-play games to draw positions from")
    ap.add_argument("--max-positions", type=int, default=None)
    ap.add_argument("--label-plies", type=int, default=1)
    ap.add_argument("--candidates", type=int, default=0,
                    help="also label a near alternative to the 0-ply pick for this many of the rows")
    ap.add_argument("--candidate-ranks", type=int, default=5, help="the alternatives: ranks 2..this")
    ap.add_argument("--rollout-trials", type=int, default=0, help="label by rollouts of this many games instead")
    ap.add_argument("--variance-reduction", action="store_true",
                    help="with --rollout-trials: luck-adjusted rollouts (less noise per trial, ~21x the evaluations)")
    ap.add_argument("--rollout-plies", type=int, default=0,
                    help="with --rollout-trials: the labeller's search depth in the rollouts (0: greedy)")
    ap.add_argument("--rollout-truncate", type=int, default=None,
                    help="with --rollout-trials: value each trial by the labeller after so many plies (default: "
                         "play to the end; 24 measured closest to gnubg 2-ply for 0.7x the time, docs/classnets.md)")
    ap.add_argument("--luck", default="own",
                    help="with --variance-reduction: who values each roll's luck: own (the rollout player's own "
                         "lookahead, at its depth), 0-ply (the labeller at 0 plies: for --rollout-plies 1 or more, "
                         "nearly the same reduction for a fraction of the work) or a .tnet file")
    ap.add_argument("--label-contact", default=None, help="labeller's contact net (default: the shipped one)")
    ap.add_argument("--label-race", default=None)
    ap.add_argument("--label-crashed", default=None)
    ap.add_argument("--chunk", type=int, default=2000)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--init", default=None, help="start from this net (widened to the encoding) instead of random weights")
    ap.add_argument("--encoding", default=None, help="the net's encoding (default: race for race, expert2 otherwise)")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--alpha", type=float, default=0.01)
    ap.add_argument("--alpha-decay", type=float, default=0.95, help="alpha * decay**epoch")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="C++ threads (with --backend ray: of each task)")
    ap.add_argument("--backend", choices=("local", "ray"), default="local",
                    help="ray: the self-play games and the labels on a Ray cluster (docs/distributed.md), the same "
                         "files bit for bit; the candidates and the fit stay on this machine")
    ap.add_argument("--ray-address", default=None, help="with --backend ray: the cluster (default: RAY_ADDRESS or a new "
                    "local one)")
    ap.add_argument("--work", required=True, help="directory for the resumable stages")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    run(args, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
