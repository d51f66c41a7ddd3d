"""`tavli plays`, `tavli analyze` and `tavli perft`: the legal plays of a position, ranked by search,
counted recursively. Each checks all its arguments (position, evaluator, cube) before it prints."""

from __future__ import annotations

import argparse
import time
from typing import Any

from .. import _core
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
    before the board is printed (`cubeful`: the plies too, for the cubeful search that ranks the
    plays of a game with the cube); None when the game is over (said so)."""
    from ..cube_search import MAX_PLIES

    pos = position_of(args)
    board = pos.board
    evaluator = load_evaluator(args.evaluator)
    state = cube_and_match(args, board, pos.cube, pos.match)
    if cubeful and state is not None and _core._variant_takes_cube(board.variant) and args.plies > MAX_PLIES:
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
    if state is not None and _core._variant_takes_cube(board.variant):
        return print_cubeful_plays(args, board, dice, state[0], state[1], evaluator)
    for dice in [dice]:
        t0 = time.perf_counter()
        if state is not None and not state[1].money:  # ranked by match winning chance (tavli.match_play)
            from ..match_play import as_analysis

            a = as_analysis(board, dice, state[1], args.plies, threads=args.threads, evaluator=evaluator,
                            time_limit=args.time_limit)
        else:
            a = board.analyze(dice, plies=args.plies, threads=args.threads, time_limit=args.time_limit,
                              evaluator=evaluator)
        dt = time.perf_counter() - t0
        print(f"\n{dice[0]}-{dice[1]}: {len(a)} legal play{'s' if len(a) != 1 else ''}, {a.plies}-ply, "
              f"{a.nodes:,} evaluations, {dt * 1e3:.1f} ms{' (interrupted)' if a.interrupted else ''}")
        print(f"    {'#':>3} {'play':<28} {'equity':>8} {'win':>6} {'win2':>6} {'win3':>6} {'lose2':>6} {'lose3':>6}  ply")
        best = a[0].equity
        for i, ap in enumerate(a[: args.limit if not args.all else None]):
            q = ap.probabilities
            diff = "" if i == 0 else f" ({ap.equity - best:+.3f})"
            print(f"    {i + 1:>3} {str(ap.play):<28} {ap.equity:>+8.3f} {q.win:6.3f} {q.win_double:6.3f} "
                  f"{q.win_triple:6.3f} {q.lose_double:6.3f} {q.lose_triple:6.3f}  {ap.plies}{diff}")
        if len(a) > args.limit and not args.all:
            print(f"    ... {len(a) - args.limit} more (--all to list them)")
    return 0


def print_cubeful_plays(args: argparse.Namespace, board: Any, dice: tuple[int, int], cube: Any, match: Any,
                        evaluator: Any) -> int:
    """A game with the cube, given a cube or a score: the plays ranked by the cubeful search
    (tavli.cube_search, as gnubg's cubeful chequer play): equity per unit of the cube in money
    play, EMG with the MWC beside it in a match."""
    from ..cube_search import analyze

    t0 = time.perf_counter()
    a = analyze(board, dice, cube, match, args.plies, evaluator=evaluator, threads=args.threads,
                time_limit=args.time_limit)
    dt = time.perf_counter() - t0
    money = match.money
    print(f"\n{dice[0]}-{dice[1]}: {len(a.plays)} legal play{'s' if len(a.plays) != 1 else ''}, cubeful "
          f"{a.plies}-ply, {a.nodes:,} evaluations, {dt * 1e3:.1f} ms{' (interrupted)' if a.interrupted else ''}")
    print(f"    {'#':>3} {'play':<28} {'equity' if money else 'EMG':>8}{'' if money else '      MWC'}  ply")
    best = a.plays[0].equity
    for i, cp in enumerate(a.plays[: args.limit if not args.all else None]):
        diff = "" if i == 0 else f" ({cp.equity - best:+.3f})"
        mwc = "" if money else f" {cp.mwc:8.4f}"
        print(f"    {i + 1:>3} {str(cp.play):<28} {cp.equity:>+8.3f}{mwc}  {cp.plies}{diff}")
    if len(a.plays) > args.limit and not args.all:
        print(f"    ... {len(a.plays) - args.limit} more (--all to list them)")
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
