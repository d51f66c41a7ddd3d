"""Training of a pruning net: a small net on a cheap encoding that ranks the plays of a search's
inner nodes as the game's evaluator would, so that the search evaluates only the best few of them
with the evaluator itself (cpp/include/tavli/search.h, "Pruning"; GNU Backgammon does the same with
its pruning nets).

    python -m tavli.pruning --variant backgammon --games 3000 --hidden 8 --epochs 20 --seed 1 \\
        --threads 2 --work nets-work/prune --out nets-work/backgammon-prune.tnet

Stages, each resumable from the files in --work (run the same command again):
1. nodes.npy, dice.npy: the distinct positions met in --games self-play games (tavli.simulate game
   i seeded by (seed, i), both sides 0-ply with the game's shipped evaluator), in a seeded order,
   each with a roll drawn by numpy's default_rng([seed, 2]): the nodes whose plays the net ranks.
2. rows.npy, labels.npy: every legal play's resulting position of those nodes (what a search asks
   the evaluator for), games not over, valued at 0 plies by the shipped evaluator (the targets:
   the five probabilities for the side to move there).
3. net.tnet: the net (--encoding, --hidden; random weights seeded by --seed) fitted epoch by epoch
   (supervised_epoch: SGD in an order seeded by (seed, epoch)) on the rows of 90% of the nodes; the
   checkpoint after each epoch carries the epoch counter and the whole command in its metadata
   (JSON), so a resumed run ends with the weights of an uninterrupted one. --out gets the final net.

What a pruning net is judged by is `recall`: how often the evaluator's best play of a node is among
the net's best k, on the held-out nodes.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from . import _core
from .nn import Net
from .supervised import error, fit, net_inputs

__all__ = ["node_positions", "node_plays", "recall", "main", "METADATA_FORMAT"]

METADATA_FORMAT = "tavli-pruning/1"


def node_positions(variant: str, games: int, *, seed: int, threads: int, player: Any = "greedy",
                   **options: Any) -> tuple[np.ndarray, np.ndarray]:
    """Distinct position rows met in `games` seeded self-play games (both sides `player`: by
    default 0-ply with the shipped evaluator), in a seeded order, and a seeded roll for each."""
    from .jobs.selfplay import self_play_data

    data = self_play_data(variant, games, (player, player), seed=seed, threads=threads, features=False, **options)
    rows = np.unique(data["positions"], axis=0)  # sorted: the order below depends only on the set and the seed
    rows = rows[np.random.default_rng([seed, 1]).permutation(len(rows))]
    dice = np.random.default_rng([seed, 2]).integers(1, 7, size=(len(rows), 2))
    return rows, dice


def node_plays(rows: np.ndarray, dice: np.ndarray, variant: str, *, threads: int,
               **options: Any) -> tuple[np.ndarray, np.ndarray]:
    """The plays' resulting positions of each (row, roll) node that a net values (seen by the
    opponent, as a search evaluates them; bear-off races and games over left out), and the offsets
    of each node's block."""
    from .jobs.batch import batch_legal_plays
    from .nn.classnets import position_classes

    _, offsets, succ = batch_legal_plays(rows, dice, variant, return_positions=True, threads=threads, **options)
    # Races with every checker home (and games over) are valued exactly, by any evaluator.
    keep = ~np.isin(position_classes(succ, variant, **options), ("bearoff1", "bearoff2"))
    node = np.repeat(np.arange(len(rows)), np.diff(offsets))
    succ, node = succ[keep], node[keep]
    return succ, np.searchsorted(node, np.arange(len(rows) + 1)).astype(np.int64)


def recall(pruner_equity: np.ndarray, equity: np.ndarray, offsets: np.ndarray, k: int) -> float:
    """The share of nodes with more than `k` plays whose best play by `equity` (of the positions
    after the play, seen by the opponent: the mover's best is the lowest) is among the best `k` by
    `pruner_equity`."""
    hits = total = 0
    for i in range(len(offsets) - 1):
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        if hi - lo <= k:
            continue
        best = lo + int(np.argmin(equity[lo:hi]))
        top = lo + np.argsort(pruner_equity[lo:hi], kind="stable")[:k]
        hits += int(best in top)
        total += 1
    return hits / total if total else 1.0


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def _saved(path: Path, make: Callable[[], np.ndarray]) -> np.ndarray:
    """The array in `path`, made and saved (atomically) first when the file is not there."""
    if path.exists():
        loaded: np.ndarray = np.load(path)
        return loaded
    a = make()
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, a)
    os.replace(tmp, path)
    return a


def run(args: argparse.Namespace, argv: Sequence[str]) -> Net:
    from .jobs.batch import evaluate_batch

    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    command = "python -m tavli.pruning " + " ".join(shlex.quote(a) for a in argv)
    t0 = time.perf_counter()
    if not (work / "nodes.npy").exists():
        nodes, dice = node_positions(args.variant, args.games, seed=args.seed, threads=args.threads)
        np.save(work / "dice.npy", dice)
        _saved(work / "nodes.npy", lambda: nodes)
        _log(f"{len(nodes)} nodes from {args.games} games ({time.perf_counter() - t0:.0f}s)")
    nodes, dice = np.load(work / "nodes.npy"), np.load(work / "dice.npy")
    if args.max_nodes:
        nodes, dice = nodes[:args.max_nodes], dice[:args.max_nodes]
    rows, offsets = node_plays(nodes, dice, args.variant, threads=args.threads)
    y = _saved(work / "labels.npy", lambda: np.clip(
        evaluate_batch(rows, args.variant, plies=0, threads=args.threads)[:, :5], 0.0, 1.0).astype(np.float32))
    if len(y) != len(rows):
        raise SystemExit(f"{work / 'labels.npy'} has {len(y)} rows for {len(rows)} plays: another command's work?")
    held = max(1, len(nodes) // 10)  # the first nodes' plays are held out
    split = int(offsets[held])
    x = net_inputs(rows, args.variant, args.encoding)
    xt, yt, xv, yv = x[split:], y[split:], x[:split], y[:split]

    ckpt = work / "net.tnet"
    if ckpt.exists():
        net = Net.load(ckpt)
        epoch = int(json.loads(net.metadata)["epoch"])
    else:
        net, epoch = Net(_core.net_family(args.variant), args.hidden, seed=args.seed, encoding=args.encoding), 0
        _log(f"{len(xt)} training rows, {len(xv)} held out ({held} nodes)")
    while epoch < args.epochs:
        alpha = args.alpha * (args.alpha_decay ** epoch)
        train_mse = fit(net, xt, yt, alpha=alpha, seed=args.seed, epoch=epoch)
        epoch += 1
        meta = {"format": METADATA_FORMAT, "epoch": epoch, "nodes": int(len(nodes)), "train_mse": train_mse,
                "held_out_mse": error(net, xv, yv), "command": command}
        net.metadata = json.dumps(meta)
        net.save(ckpt)
        _log(f"epoch {epoch}: train mse {train_mse:.5f}, held-out mse {meta['held_out_mse']:.5f}")
    eq = y[:split] @ np.array([2, 1, 1, -1, -1], np.float32) - 1  # equity from the cumulative outputs
    pe = evaluate_batch(rows[:split], args.variant, plies=0, threads=args.threads, evaluator=net)[:, 7]
    for k in (3, 4, 5, 6, 8):
        _log(f"held-out recall of the best play in the net's best {k}: {recall(pe, eq, offsets[:held + 1], k):.4f}")
    if args.out:
        net.save(args.out)
    return net


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog="python -m tavli.pruning", description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="backgammon")
    ap.add_argument("--games", type=int, default=3000, help="self-play games to draw the nodes from")
    ap.add_argument("--max-nodes", type=int, default=None, help="use only the first nodes of stage 1")
    ap.add_argument("--encoding", default="tesauro")
    ap.add_argument("--hidden", type=int, default=8)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--alpha", type=float, default=0.01)
    ap.add_argument("--alpha-decay", type=float, default=0.9, help="alpha * decay**epoch")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--work", required=True, help="directory for the resumable stages")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    run(args, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
