"""Command line: `tavli plays` lists the legal plays of a position, `tavli perft` counts them.

With no arguments, `tavli` lists the legal plays of a built-in Fevga middle-game position for all
21 rolls (the position is reached by seeded random self-play, so it is the same everywhere).
"""

from __future__ import annotations

import argparse
import sys
import time

from . import Board, random_positions
from ._core import IllegalMove, InvalidPosition

DEFAULT_SEED = 2026
DEFAULT_PLY = 24


def default_board(variant: str = "fevga", **options) -> Board:
    rows, _ = random_positions(variant, DEFAULT_PLY + 1, seed=DEFAULT_SEED, **options)
    return Board.from_array(rows[DEFAULT_PLY], variant, **options)


def _options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for item in pairs:
        if "=" not in item:
            raise ValueError(f"option {item!r}: expected name=value")
        name, value = item.split("=", 1)
        out[name] = value
    return out


def _board(args: argparse.Namespace) -> Board:
    if args.id:
        if args.option:
            raise ValueError("--option cannot be combined with --id (the ID names its options)")
        return Board.from_id(args.id)
    options = _options(args.option)
    if args.start:
        return Board(args.variant, **options)
    return default_board(args.variant, **options)


def _rolls(dice: str | None) -> list[tuple[int, int]]:
    if dice:
        from ._dice import parse_dice

        return [parse_dice(dice)]
    return [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]


def cmd_plays(args: argparse.Namespace) -> int:
    board = _board(args)
    print(board)
    print()
    total = 0
    for dice in _rolls(args.dice):
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


def cmd_perft(args: argparse.Namespace) -> int:
    board = _board(args)
    print(board)
    print()
    for depth in range(1, args.depth + 1):
        t0 = time.perf_counter()
        n = board.perft(depth)
        dt = time.perf_counter() - t0
        print(f"perft({depth}) = {n:>14,d}   {dt:8.3f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tavli", description="tavli: an engine for the tables games")
    sub = parser.add_subparsers(dest="command")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--variant", default="fevga", help="game (default fevga)")
        p.add_argument("--id", help="position ID (see Board.id()); default: a built-in middle-game position")
        p.add_argument("--start", action="store_true", help="use the starting position")
        p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE", help="rule option")

    p_plays = sub.add_parser("plays", help="legal plays of a position for one roll or all 21")
    common(p_plays)
    p_plays.add_argument("--dice", help="a roll such as 6-5 (default: all 21 rolls)")
    p_plays.add_argument("--limit", type=int, default=12, help="plays shown per roll (default 12)")
    p_plays.add_argument("--all", action="store_true", help="show every play")
    p_plays.set_defaults(func=cmd_plays)

    p_perft = sub.add_parser("perft", help="distinct plays over all rolls, recursively")
    common(p_perft)
    p_perft.add_argument("--depth", type=int, default=2, help="plies (default 2)")
    p_perft.set_defaults(func=cmd_perft)

    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["plays"] + (argv if argv is not None else sys.argv[1:]))
    try:
        return args.func(args)
    except (ValueError, InvalidPosition, IllegalMove) as e:
        print(f"tavli: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
