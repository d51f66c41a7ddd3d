"""UBGI's cube and match context (docs/ubgi.md, "Cube and match play"): v0.1's `newsession`,
`setscore` and `setcube` read into tavli.CubeState / tavli.MatchState, and the answers to
`go cube` and `go take`. The decision itself is Board.cube_decision's (tavli.cube); this module
only parses the commands and writes the lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from .. import _core
from ..cube import CubeDecision, CubeState, MatchState

OWNERS = {"center": None, "centre": None, "p0": 0, "p1": 1}
_OWNER_NAMES = {None: "center", 0: "p0", 1: "p1"}


class CubeCommandError(ValueError):
    """A refused cube or match command; `code` is one of v0.2's error codes."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


def _int(text: str, what: str, low: int, high: int) -> int:
    if not re.fullmatch(r"\d{1,9}", text) or not low <= int(text) <= high:
        raise CubeCommandError("bad_value", f"{what}: expected an integer {low}..{high}, got {text!r}")
    return int(text)


def _on_off(text: str, what: str) -> bool:
    if text not in ("on", "off"):
        raise CubeCommandError("bad_value", f"{what}: expected on or off, got {text!r}")
    return text == "on"


def _pairs(args: list[str], command: str) -> dict[str, str]:
    if len(args) % 2:
        raise CubeCommandError("bad_command", f"{command}: expected <name> <value> pairs, got {' '.join(args)!r}")
    return dict(zip(args[::2], args[1::2]))


@dataclass(frozen=True)
class CubeContext:
    """The session's cube and score: what `go cube`/`go take` decide with. `crawford_rule`: v0.1's
    `newsession ... crawford on|off` (with it off, no game is the Crawford game)."""

    cube: CubeState = field(default_factory=CubeState)
    match: MatchState = field(default_factory=MatchState)
    crawford_rule: bool = True

    def _money_options(self) -> dict[str, Any]:
        return {"jacoby": self.cube.jacoby, "beavers": self.cube.beavers, "max_cube": self.cube.max_cube}

    def new_game(self) -> "CubeContext":
        """A new game of the same session: the cube back in the middle, the score kept."""
        return replace(self, cube=CubeState(1, None, **self._money_options()),
                       match=MatchState(self.match.length, self.match.score, False))

    def describe_cube(self) -> str:
        return f"value {self.cube.value} owner {_OWNER_NAMES[self.cube.owner]}"

    def describe_score(self) -> str:
        m = self.match
        if m.length == 0:
            return "money"
        return f"length {m.length} score {m.score[0]} {m.score[1]}" + (" crawford" if m.crawford else "")


def _refuse_cube_for(variant: str, what: str) -> None:
    if not _core._variant_takes_cube(variant):
        raise CubeCommandError("unsupported", f"{what}: {variant} has no doubling cube")


def newsession(args: list[str], variant: str) -> CubeContext:
    """`newsession type <money|match> [length N] [jacoby on|off] [beavers on|off] [crawford on|off]`."""
    opts = _pairs(args, "newsession")
    kind = opts.pop("type", None)
    if kind not in ("money", "match"):
        raise CubeCommandError("bad_value", f"newsession: type money or type match expected, got {kind!r}")
    length = _int(opts.pop("length"), "newsession length", 1, 99999) if "length" in opts else None
    if (kind == "match") != (length is not None):
        raise CubeCommandError("bad_value", "newsession: a match needs length N; money play has none")
    jacoby = _on_off(opts.pop("jacoby", "off"), "newsession jacoby")
    beavers = _on_off(opts.pop("beavers", "off"), "newsession beavers")
    crawford = _on_off(opts.pop("crawford", "on"), "newsession crawford")
    if opts:
        raise CubeCommandError("bad_command", f"newsession: unknown argument {next(iter(opts))!r}")
    if kind == "match" and (jacoby or beavers):
        raise CubeCommandError("bad_value", "newsession: the Jacoby rule and beavers are money-play options")
    if jacoby or beavers:
        _refuse_cube_for(variant, "newsession jacoby/beavers")
    try:
        match = MatchState(length or 0, (0, 0), False)
    except ValueError as exc:
        raise CubeCommandError("bad_value", f"newsession: {exc}") from None
    return CubeContext(CubeState(1, None, jacoby, beavers), match, crawford)


def setscore(args: list[str], ctx: CubeContext) -> CubeContext:
    """`setscore <p0> <p1> [crawford]`: the points each side has; `crawford` marks this game as the
    Crawford game (one side one away). Money play takes only `setscore 0 0`."""
    if len(args) not in (2, 3) or (len(args) == 3 and args[2] != "crawford"):
        raise CubeCommandError("bad_command", "expected: setscore <p0> <p1> [crawford]")
    length = ctx.match.length
    if length == 0:
        if args[:2] != ["0", "0"] or len(args) == 3:
            raise CubeCommandError("bad_state", f"setscore {' '.join(args)}: a money session has no score "
                                   "(newsession type match length N first)")
        return ctx
    score = (_int(args[0], "setscore p0", 0, length - 1), _int(args[1], "setscore p1", 0, length - 1))
    crawford = len(args) == 3
    if crawford and not ctx.crawford_rule:
        raise CubeCommandError("bad_value", "setscore: this session plays without the Crawford rule")
    try:
        return replace(ctx, match=MatchState(length, score, crawford))
    except ValueError as exc:
        raise CubeCommandError("bad_value", f"setscore: {exc}") from None


def setcube(args: list[str], ctx: CubeContext, variant: str) -> CubeContext:
    """`setcube value <N> owner <center|p0|p1>`. Games without a cube accept only the centred 1."""
    opts = _pairs(args, "setcube")
    if set(opts) != {"value", "owner"}:
        raise CubeCommandError("bad_command", "expected: setcube value <N> owner <center|p0|p1>")
    value = _int(opts["value"], "setcube value", 1, 2**15)
    if opts["owner"] not in OWNERS:
        raise CubeCommandError("bad_value", f"setcube owner: expected center, p0 or p1, got {opts['owner']!r}")
    owner = OWNERS[opts["owner"]]
    if value != 1 or owner is not None:
        _refuse_cube_for(variant, f"setcube {' '.join(args)}")
    try:
        return replace(ctx, cube=CubeState(value, owner, **ctx._money_options()))
    except ValueError as exc:
        raise CubeCommandError("bad_value", f"setcube: {exc}") from None


def from_position(cube: CubeState, match: MatchState, ctx: CubeContext) -> CubeContext:
    """The context an XGID carries (its cube, owner, score, Crawford flag and length)."""
    return replace(ctx, cube=cube, match=match)


def _number(x: float | None) -> str:
    return "none" if x is None else f"{x + 0.0:.6f}"


def decision_lines(role: str, decision: CubeDecision, depth: int, probabilities: Callable[[Any], str]) -> list[str]:
    """`info role <cube|take> depth D eq .. nd .. dt .. dp .. [mwc .. ndmwc .. dtmwc .. dpmwc ..]
    action <a> take <t> efficiency x pwin ..`, then `bestcube double|nodouble` (role cube) or
    draft 0.01's `take` / `drop` (`beaver` where beavering is right)."""
    d = decision
    info = (f"info role {role} depth {depth} eq {_number(d.nd if role == 'cube' else -min(d.dt or 0, d.dp or 0))} "
            f"nd {_number(d.nd)} dt {_number(d.dt)} dp {_number(d.dp)}")
    if d.nd_mwc is not None:
        info += (f" mwc {_number(d.nd_mwc)} ndmwc {_number(d.nd_mwc)} dtmwc {_number(d.dt_mwc)} "
                 f"dpmwc {_number(d.dp_mwc)}")
    info += (f" action {d.action.replace(', ', '_').replace(' ', '_')} take {d.take} "
             f"efficiency {d.efficiency:.4f} {probabilities(d.probabilities)}")
    if role == "cube":
        answer = "bestcube double" if d.available and d.action.startswith("double") else "bestcube nodouble"
    else:
        answer = {"take": "take", "beaver": "beaver", "pass": "drop"}[d.take]
    return [info, answer]


def check_decision(role: str, variant: str, ctx: CubeContext, game_over: bool, mover: int) -> None:
    """The refusals before a cube decision: no cube in this game, a state the rules forbid, a
    finished game, and (take) a doubler who may not double."""
    _refuse_cube_for(variant, f"go {role}")
    try:
        _core._validate_cube_for(variant, ctx.cube, ctx.match)
    except ValueError as exc:
        raise CubeCommandError("bad_state", f"go {role}: {exc}") from None
    if game_over:
        raise CubeCommandError("bad_state", f"go {role}: the game is over")
    if role == "take":
        if ctx.cube.owner is not None and ctx.cube.owner != mover:
            raise CubeCommandError("bad_state", f"go take: p{mover} to move does not own the cube, so cannot double")
        if ctx.match.crawford:
            raise CubeCommandError("bad_state", "go take: no doubling in the Crawford game")
