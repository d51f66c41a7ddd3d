"""`tavli plays`, `tavli analyze` and `tavli perft`: the legal plays of a position, ranked by search,
counted recursively. Each checks all its arguments (position, evaluator, cube) before it prints."""

from __future__ import annotations

import argparse
import time
from typing import Any

from .. import _core
from ..context_play import rank_plays
from .cli_cube import cube_and_match, print_cube_decision
from .cli_evaluator import describe_evaluator, load_evaluator
from .cli_position import position_of

ALL_ROLLS = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]


def cmd_plays(args: argparse.Namespace) -> int:
    board = position_of(args).board
    print(board)
    print()
    total = 0
    for dice in [args.dice] if args.dice else ALL_ROLLS:
        plays = board.legal_plays(dice)
        total += len(plays)
        shown = plays if args.all or len(plays) <= args.limit else plays[: args.limit]
        print(f"{dice[0]}-{dice[1]}: {len(plays)} legal play{'s' if len(plays) != 1 else ''}")
        for p in shown:
            print(f"    {p}")
        if len(shown) < len(plays):
            print(f"    ... {len(plays) - len(shown)} more (--all to list them)")
    if not args.dice:
        print(f"\n{total} distinct plays over the 21 rolls")
    return 0


def searched_position(args: argparse.Namespace, cubeful: bool = False) -> tuple[Any, Any, Any] | None:
    """(board, evaluator, cube and match or None) of `analyze` and `eval`, every argument checked
    before the board is printed (`cubeful`: the plies too, for the cubeful search that --cubeful
    ranks a cube game's plays by); None when the game is over (said so)."""
    from ..cube_search import MAX_PLIES

    pos = position_of(args)
    board = pos.board
    evaluator = load_evaluator(args.evaluator)
    state = cube_and_match(args, board, pos.cube, pos.match)
    if cubeful and args.cubeful and _core._variant_takes_cube(board.variant) and args.plies > MAX_PLIES:
        raise ValueError(f"--plies: the cubeful search goes 0..{MAX_PLIES} plies deep, not {args.plies}")
    print(board)
    print()
    if board.is_game_over():
        print(f"the game is over: {board.outcome()}")
        return None
    return board, evaluator, state


def cmd_analyze(args: argparse.Namespace) -> int:
    searched = searched_position(args, cubeful=True)
    if searched is None:
        return 0
    board, evaluator, state = searched
    ev = board.evaluate(plies=min(args.plies, 2), evaluator=evaluator)
    p = ev.probabilities
    print(f"evaluator: {describe_evaluator(evaluator, board.variant)}")
    print(f"before the roll ({ev.plies}-ply): equity {ev.equity:+.3f}  win {p.win:.3f}  "
          f"win2 {p.win_double:.3f}  lose2 {p.lose_double:.3f}")
    if state is not None:
        print_cube_decision(board, state[0], state[1], p, min(args.plies, 2))
    dice = args.dice or (6, 5)
    cube, match = state if state is not None else (None, None)
    t0 = time.perf_counter()
    # tavli.context_play: at a match score by match winning chance, with --cubeful (a game with the
    # cube) by the cubeful search, otherwise Board.analyze's money equity.
    r = rank_plays(board, dice, cube, match, "cubeful" if args.cubeful else "cubeless", args.plies,
                   threads=args.threads, time_limit=args.time_limit, evaluator=evaluator)
    dt = time.perf_counter() - t0
    in_match = match is not None and not match.money
    print(f"\n{dice[0]}-{dice[1]}: {len(r.plays)} legal play{'s' if len(r.plays) != 1 else ''}, "
          f"{'cubeful ' if r.cubeful else ''}{r.plies}-ply, {r.nodes:,} evaluations, {dt * 1e3:.1f} ms"
          f"{' (interrupted)' if r.interrupted else ''}")
    columns = f"{'EMG' if in_match else 'equity':>8}" + ("      MWC" if in_match else "")
    if not r.cubeful:
        columns += f" {'win':>6} {'win2':>6} {'win3':>6} {'lose2':>6} {'lose3':>6}"
    print(f"    {'#':>3} {'play':<28} {columns}  ply")
    best = r.best.equity
    for i, rp in enumerate(r.plays[: args.limit if not args.all else None]):
        diff = "" if i == 0 else f" ({rp.equity - best:+.3f})"
        cells = f"{rp.equity:>+8.3f}" + (f" {rp.mwc:8.4f}" if rp.mwc is not None else "")
        if (q := rp.probabilities) is not None:
            cells += f" {q.win:6.3f} {q.win_double:6.3f} {q.win_triple:6.3f} {q.lose_double:6.3f} {q.lose_triple:6.3f}"
        print(f"    {i + 1:>3} {str(rp.play):<28} {cells}  {rp.plies}{diff}")
    if len(r.plays) > args.limit and not args.all:
        print(f"    ... {len(r.plays) - args.limit} more (--all to list them)")
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    board = position_of(args).board
    print(board)
    print()
    for depth in range(1, args.depth + 1):
        t0 = time.perf_counter()
        n = board.perft(depth)
        dt = time.perf_counter() - t0
        print(f"perft({depth}) = {n:>14,d}   {dt:8.3f} s")
    return 0
