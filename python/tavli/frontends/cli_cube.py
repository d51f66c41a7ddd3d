"""The cube and match state of `tavli analyze`: --cube/--score/--length/--crawford/--jacoby/--beavers
over what an XGID or "PositionID:MatchID" carries (the flags override it), and the printed decision."""

from __future__ import annotations

import argparse
from typing import Any, Callable


def cube_and_match(args: argparse.Namespace, board: Any, cube: Any, match: Any) -> tuple[Any, Any] | None:
    """(CubeState, MatchState), or None when neither the position nor a flag names any."""
    from .. import _core
    from ..cube import CubeState, MatchState

    flags = (args.cube, args.score, args.length, args.crawford, args.jacoby, args.beavers)
    if cube is None and not any(f not in (None, False) for f in flags):
        return None
    if cube is None:
        cube, match = CubeState(), MatchState()
    value, owner = cube.value, cube.owner
    if args.cube is not None:
        text, _, who = args.cube.partition(":")
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"--cube: VALUE[:OWNER] such as 2:white, got {args.cube!r}") from None
        owners = {"": None, "centre": None, "center": None, "centred": None, "white": 0, "black": 1,
                  "mover": board.turn, "opponent": 1 - board.turn}
        if who.lower() not in owners:
            raise ValueError(f"--cube owner must be white, black, mover, opponent or centre, got {who!r}")
        owner = owners[who.lower()]
    length = match.length if args.length is None else args.length
    score = match.score
    if args.score is not None:
        try:
            a, _, b = args.score.partition("-")
            score = (int(a), int(b))
        except ValueError:
            raise ValueError(f"--score: WHITE-BLACK such as 2-4, got {args.score!r}") from None
    crawford = match.crawford or args.crawford
    cube = CubeState(value, owner=owner, jacoby=cube.jacoby or args.jacoby, beavers=cube.beavers or args.beavers,
                     max_cube=cube.max_cube if length == 0 else 0)
    match = MatchState(length, score, crawford)
    _core._validate_cube_for(board.variant, cube, match)
    return cube, match


def print_cube_decision(board: Any, cube: Any, match: Any, probabilities: Any, plies: int) -> None:
    from .. import _core

    where = "money" if match.money else (f"{match.length}-point match, white {match.score[0]} black "
                                         f"{match.score[1]}{', Crawford' if match.crawford else ''}")
    print(f"cube {cube.value}{'' if cube.owner is None else ' owned by ' + ('white', 'black')[cube.owner]}, {where}")
    if not _core._variant_takes_cube(board.variant):
        print("(no doubling cube in this game; plays ranked by "
              + ("cubeless equity)" if match.money else "match winning chance at the score)"))
        return
    d = board.cube_decision(cube, match, probabilities=probabilities)
    mwc: Callable[[float | None], str] = lambda v: "" if v is None else f"  (MWC {v:.4f})"  # noqa: E731
    print(f"cube decision (cubeless {plies}-ply probabilities, 0-ply cubeful, efficiency {d.efficiency:.3f}):")
    print(f"    no double    {d.nd:+.4f}{mwc(d.nd_mwc)}")
    if d.available:
        print(f"    double/take  {d.dt:+.4f}{mwc(d.dt_mwc)}")
        print(f"    double/pass  {d.dp:+.4f}{mwc(d.dp_mwc)}")
    print(f"    proper action: {d.action}" + (f"; the opponent would {d.take}" if d.available else ""))
