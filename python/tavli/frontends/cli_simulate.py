"""`tavli simulate`: self-play in C++ threads and a summary with Wilson 95% intervals of the win rates."""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from .._base.intervals import wilson_interval
from .cli_position import parse_options
from .cli_progress import bar_or_none


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..jobs.simulate import KINDS, simulate

    players = [p.strip() for p in args.players.split(",")]
    if len(players) != 2:
        raise ValueError("--players: two players separated by a comma, e.g. random,greedy")
    bar = bar_or_none("games", args.progress, args.quiet)
    t0 = time.perf_counter()
    try:
        r = simulate(args.variant, args.games, players, seed=args.seed, threads=args.threads, progress=bar,
                     chunk=max(1, min(4096, args.games // 50 or 1)), **parse_options(args.option))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    finally:
        if bar:
            bar.close()
    dt = time.perf_counter() - t0
    n = len(r["winner"])
    print(f"{args.variant}: {n:,} games, {players[0]} (white) v {players[1]} (black), seed {args.seed}, "
          f"{args.threads} thread{'s' if args.threads != 1 else ''}: {dt:.2f} s, {n / max(dt, 1e-9):,.0f} games/s")
    decided = r["winner"] >= 0
    n_decided = int(decided.sum())
    print(f"\n{'player':<22} {'wins':>8} {'win rate':>9} {'95% CI (Wilson)':>17} {'points/game':>12}")
    for side, name in enumerate(players):
        wins = int((r["winner"] == side).sum())
        p = wins / max(n_decided, 1)
        lo, hi = wilson_interval(wins, n_decided)
        signed = np.where(r["winner"] == side, r["points"], np.where(r["winner"] == 1 - side, -r["points"], 0))
        print(f"{name + (' (white)' if side == 0 else ' (black)'):<22} {wins:>8,} {p:>9.3f} "
              f"{f'[{lo:.3f}, {hi:.3f}]':>17} {signed.mean():>12.3f}")
    if n_decided < n:
        print(f"(win rates of the {n_decided:,} decided games; {n - n_decided:,} drawn)")
    starter = np.mean(r["winner"][decided] == r["starter"][decided]) if n_decided else float("nan")
    print(f"\nmean length {r['plies'].mean():.1f} plies; starter won {starter:.3f}")
    kinds = ", ".join(f"{KINDS[k]} {np.mean(r['kind'] == k):.3f}" for k in sorted(set(r["kind"].tolist())))
    print(f"results: {kinds}")
    return 0
