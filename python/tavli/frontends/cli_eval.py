"""`tavli eval` (the position before the roll, by search) and `tavli rollout` (by playing it out,
with a progress bar; or a roll's plays, each played out on the same dice). Both check every
argument before they print anything."""

from __future__ import annotations

import argparse
import time
from typing import Any

from .cli_cube import print_cube_decision
from .cli_evaluator import describe_evaluator, load_evaluator
from .cli_position import position_of
from .cli_progress import bar_or_none

Z95 = 1.959963984540054  # two-sided 95% interval of a mean from its standard error


def _table(p: Any, equity: float, errors: Any = None, equity_error: float = 0.0) -> None:
    draws = p.draw > 0 or (errors is not None and errors.draw > 0)
    cols = ["win", "win2", "win3", "lose2", "lose3"] + (["draw"] if draws else [])
    print(f"    {'':<8}" + "".join(f"{c:>8}" for c in cols) + f"{'equity':>9}")
    values = [p.win, p.win_double, p.win_triple, p.lose_double, p.lose_triple] + ([p.draw] if draws else [])
    print(f"    {'mean' if errors is not None else '':<8}" + "".join(f"{v:8.3f}" for v in values) + f"{equity:+9.3f}")
    if errors is not None:
        e = [errors.win, errors.win_double, errors.win_triple, errors.lose_double, errors.lose_triple]
        e += [errors.draw] if draws else []
        print(f"    {'95% +-':<8}" + "".join(f"{Z95 * v:8.3f}" for v in e) + f"{Z95 * equity_error:9.3f}")


def cmd_eval(args: argparse.Namespace) -> int:
    from .cli_analyze import searched_position

    searched = searched_position(args)
    if searched is None:
        return 0
    board, evaluator, state = searched
    t0 = time.perf_counter()
    ev = board.evaluate(plies=args.plies, threads=args.threads, time_limit=args.time_limit, evaluator=evaluator)
    dt = time.perf_counter() - t0
    print(f"evaluator: {describe_evaluator(evaluator, board.variant)}")
    print(f"before the roll, {('white', 'black')[board.turn]} to move: {ev.plies}-ply, {ev.nodes:,} evaluations, "
          f"{dt * 1e3:.1f} ms{' (interrupted by the time limit)' if ev.interrupted else ''}")
    _table(ev.probabilities, ev.equity)
    if state is not None:
        print_cube_decision(board, state[0], state[1], ev.probabilities, ev.plies)
    return 0


def _reduction(args: argparse.Namespace) -> str:
    """The variance reduction in a rollout's heading ('' without)."""
    if not args.variance_reduction:
        return ""
    return "variance reduction, " if args.luck is None else f"variance reduction (luck by {args.luck} at 0 plies), "


def _rollout_settings(args: argparse.Namespace, board: Any) -> dict[str, Any]:
    from ..board import check_rollout_args

    evaluator = None if args.evaluator is None else load_evaluator(args.evaluator) or "nets"
    luck = None if args.luck is None else load_evaluator(args.luck) or "nets"
    settings = dict(trials=args.trials, player=args.player, truncate=args.truncate, seed=args.seed,
                    threads=args.threads, evaluator=evaluator, variance_reduction=args.variance_reduction,
                    luck_evaluator=luck)
    check_rollout_args(board, **settings)  # every argument checked before the first trial
    return settings


def _cube_and_score(cube: Any, match: Any) -> str:
    """The heading line of a cubeful rollout: the cube, its owner, money or the match score."""
    where = "money" if match.money else (f"{match.length}-point match, white {match.score[0]} black "
                                         f"{match.score[1]}{', Crawford' if match.crawford else ''}")
    return f"cube {cube.value}{'' if cube.owner is None else ' owned by ' + ('white', 'black')[cube.owner]}, {where}"


def _cubeful_rollout(args: argparse.Namespace, board: Any, cube: Any, match: Any, settings: dict[str, Any]) -> int:
    """The cube decision by a cubeful rollout (tavli.cube_rollout.decide): one call, no bar; the
    time limit and Ctrl-C stop it without a result (a partial one would depend on the speed)."""
    from ..cube_rollout import decide

    print(board)
    print()
    t0 = time.perf_counter()
    try:
        d = decide(board, cube, match, time_limit=args.time_limit or None, **settings)
    except TimeoutError:
        print(f"cubeful rollout stopped by the time limit ({args.time_limit:g} s): no result")
        return 1
    dt = time.perf_counter() - t0
    print(f"cubeful rollout: {d.trials:,} trials (each No double and Double/take on the same dice), {args.player} "
          f"on both sides handling the cube, seed {args.seed}, "
          f"{'no truncation' if args.truncate is None else f'truncated after {args.truncate} plies'}, "
          f"{_reduction(args)}"
          f"{args.threads} thread{'s' if args.threads != 1 else ''}: {dt:.2f} s")
    print(_cube_and_score(cube, match))
    if d.truncated:
        print(f"{d.truncated:,} trials valued by the cubeful search at the truncation")
    def line(label: str, eq: float, se: float | None, mwc: float | None, mwc_se: float | None) -> str:
        half = "" if se is None else f"{Z95 * se:9.4f}"
        tail = "" if mwc is None else f"  (MWC {mwc:.4f}" + ("" if mwc_se is None else f" +- {Z95 * mwc_se:.4f}") + ")"
        return f"    {label:<13}{eq:+9.4f}{half:>9}{tail}"

    print(f"    {'':<13}{'equity':>9}{'95% +-':>9}")
    print(line("no double", d.nd, d.nd_std_error, d.nd_mwc, d.nd_mwc_std_error))
    if d.available and d.dt is not None and d.dp is not None and d.difference_std_error is not None:
        print(line("double/take", d.dt, d.dt_std_error, d.dt_mwc, d.dt_mwc_std_error))
        print(line("double/pass", d.dp, None, d.dp_mwc, None))
        print(f"    double/take - no double: {d.dt - d.nd:+.4f} +- {Z95 * d.difference_std_error:.4f}")
    print(f"    proper action: {d.action}" + (f"; the opponent would {d.take}" if d.available else ""))
    return 0


def _play_rollout(args: argparse.Namespace, board: Any, settings: dict[str, Any], state: Any) -> int:
    """The plays of one roll rolled out on common dice (Board.rollout_plays; cubefully with a cube or
    match score): one call, no bar; the time limit and Ctrl-C stop it without a result (a partial
    one would depend on the speed)."""
    print(board)
    print()
    cube: Any = None
    match: Any = None
    if state is not None:
        cube, match = state  # a CubeState and a MatchState: cubefully
    t0 = time.perf_counter()
    try:
        r = board.rollout_plays(args.dice, None if args.all else args.candidates, cube=cube, match=match,
                                eliminate=args.eliminate, time_limit=args.time_limit or None, **settings)
    except TimeoutError:
        print(f"play rollout stopped by the time limit ({args.time_limit:g} s): no result")
        return 1
    except KeyboardInterrupt:
        print("play rollout stopped by Ctrl-C: no result")
        return 130
    dt = time.perf_counter() - t0
    d1, d2 = args.dice
    trials = f"{args.trials:,} trials each" if args.eliminate is None else \
        f"up to {args.trials:,} trials each (plays trailing by {args.eliminate:g} standard errors eliminated)"
    print(f"rollout of {len(r)} play{'s' if len(r) != 1 else ''} of {d1}-{d2}: {trials} "
          f"on the same dice, {args.player} on both sides{' handling the cube' if cube is not None else ''}, "
          f"seed {args.seed}, {'no truncation' if args.truncate is None else f'truncated after {args.truncate} plies'}, "
          f"{_reduction(args)}{args.threads} thread{'s' if args.threads != 1 else ''}: {dt:.2f} s")
    heads = ["win", "win2", "lose2"]
    if state is not None:
        print(_cube_and_score(cube, match) + (": equity per unit of the cube" if match.money else ": equity in EMG"))
        heads = [] if match.money else ["MWC"]
    print(f"    {'':<4}{'play':<28}" + "".join(f"{h:>7}" for h in heads) +
          f"{'equity':>9}{'95% +-':>8}{'v best':>9}{'95% +-':>8}" + ("  trials" if args.eliminate is not None else ""))
    for k, p in enumerate(r, 1):
        ro = p.rollout
        if cube is None:
            cols = [ro.probabilities.win, ro.probabilities.win_double, ro.probabilities.lose_double]
        else:
            cols = [] if ro.mwc is None else [ro.mwc]
        diff = f"{p.difference:+9.3f}{Z95 * p.difference_std_error:8.3f}" if k > 1 else f"{'':17}"
        played = f"{ro.trials:8,}" if args.eliminate is not None else ""
        print((f"    {k:<4}{p.play!s:<28}" + "".join(f"{c:7.3f}" for c in cols) +
               f"{p.equity:+9.3f}{Z95 * ro.equity_std_error:8.3f}{diff}{played}").rstrip())
    return 0


def cmd_rollout(args: argparse.Namespace) -> int:
    from .. import _core
    from ..board import _rollout_blocks
    from .cli_cube import cube_and_match

    pos = position_of(args)
    board = pos.board
    if board.is_game_over():
        raise ValueError(f"the game is over ({board.outcome()}): nothing to roll out")
    state = cube_and_match(args, board, pos.cube, pos.match)
    settings = _rollout_settings(args, board)
    if args.dice is not None:
        from ..play_rollout import eliminate_arg

        eliminate_arg(args.eliminate)  # checked before anything is printed
        return _play_rollout(args, board, settings, state)
    if args.all or args.candidates != 5 or args.eliminate is not None:
        raise ValueError("--candidates, --all and --eliminate are for the plays of --dice: give the roll")
    if state is not None:
        return _cubeful_rollout(args, board, state[0], state[1], settings)
    print(board)
    print()
    trials = args.trials
    # Chunks of whole blocks (their moments combine into exactly Board.rollout's result), about
    # fifty of them so the bar moves.
    blocks_in_all = -(-trials // _core.ROLLOUT_BLOCK)
    chunk = _core.ROLLOUT_BLOCK * max(1, -(-blocks_in_all // 50))
    bar = bar_or_none("trials", args.progress, args.quiet)
    t0 = time.perf_counter()
    parts, done, stopped = [], 0, ""
    try:
        while done < trials:
            if args.time_limit and time.perf_counter() - t0 >= args.time_limit:
                stopped = "the time limit"
                break
            count = min(chunk, trials - done)
            parts.append(_rollout_blocks(board, done, count, **settings))
            done += count
            if bar:
                bar(done, trials)
    except KeyboardInterrupt:
        stopped = "Ctrl-C"
    finally:
        if bar:
            bar.close()
    dt = time.perf_counter() - t0
    if not parts:
        print(f"rollout stopped by {stopped} before its first {chunk} trials")
        return 130 if stopped == "Ctrl-C" else 1
    import numpy as np

    probs, equity, errors, equity_error, n, truncated = _core._rollout_combine(np.concatenate(parts))
    from ..results import Probabilities

    print(f"rollout: {n:,} trials, {args.player} on both sides, seed {args.seed}, "
          f"{'no truncation' if args.truncate is None else f'truncated after {args.truncate} plies'}, "
          f"{_reduction(args)}{args.threads} thread{'s' if args.threads != 1 else ''}: {dt:.2f} s")
    if stopped:
        print(f"(stopped by {stopped} after {n:,} of {trials:,} trials: the first {n:,} trials of the rollout)")
    if truncated:
        print(f"{truncated:,} trials valued by the evaluator at the truncation")
    _table(Probabilities(*probs), equity, Probabilities(*errors), equity_error)
    return 130 if stopped == "Ctrl-C" else 0
