"""The position of a command: a tavli position ID ("fevga:AQAP..."), a GNU Backgammon Position ID
("4HPwATDgc/ABMA") or "PositionID:MatchID", or an XGID ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10").

A tavli ID names its game and rule options; gnubg and XG IDs do not, so they take --variant
(default backgammon) and --option. gnubg's Match ID and the XGID also carry the cube, the score
and the dice; the cube and score are kept for commands that use them.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

GNUBG_POSITION = re.compile(r"[A-Za-z0-9+/]{14}")
GNUBG_MATCH = re.compile(r"[A-Za-z0-9+/]{12}")


class Position(NamedTuple):
    board: Any  # tavli.Board
    cube: Any  # tavli.CubeState, or None where the text carries none (a tavli ID, a bare Position ID)
    match: Any  # tavli.MatchState, or None likewise


def id_format(text: str) -> str:
    """ "xgid", "gnubg" (Position ID, optionally ":MatchID") or "tavli"."""
    t = text.strip()
    if t.startswith("XGID=") or t.count(":") == 9:
        return "xgid"
    pos, sep, match = t.partition(":")
    if GNUBG_POSITION.fullmatch(pos) and (not sep or GNUBG_MATCH.fullmatch(match)):
        return "gnubg"
    return "tavli"


def read_position(text: str | None, variant: str | None, options: dict[str, Any], start: bool = False) -> Position:
    """The board named by the command's arguments; ValueError or InvalidPosition naming the problem.
    No text: the starting position with `start`, else the built-in middle-game position."""
    from .. import Board
    from ..cube import parse_position

    if text is None:
        from .cli_defaults import default_board

        variant = variant or "fevga"
        board = Board(variant, **options) if start else default_board(variant, **options)
        return Position(board, None, None)
    if start:
        raise ValueError("--start and a position ID name two positions; give one")
    kind = id_format(text)
    if kind == "tavli":
        if options:
            raise ValueError("--option cannot be combined with a tavli position ID (the ID names its options)")
        board = Board.from_id(text.strip())
        if variant is not None and variant != board.variant:
            raise ValueError(f"the position ID is a {board.variant} position, not {variant}")
        return Position(board, None, None)
    board, cube, match = parse_position(text, variant or "backgammon", **options)
    bare = kind == "gnubg" and ":" not in text  # a bare Position ID says nothing of cube or score
    return Position(board, None if bare else cube, None if bare else match)


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """--option NAME=VALUE, repeated (the values stay text: the core reads them)."""
    out: dict[str, Any] = {}
    for item in pairs:
        if "=" not in item:
            raise ValueError(f"option {item!r}: expected name=value")
        name, value = item.split("=", 1)
        out[name] = value
    return out


def position_of(args: Any) -> Position:
    """The position named by a command's POSITION argument, --id, --variant, --option and --start."""
    text = args.position
    if args.id:
        if text:
            raise ValueError("give the position once: as the argument or with --id")
        text = args.id
    return read_position(text, args.variant, parse_options(args.option), args.start)
