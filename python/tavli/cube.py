"""The doubling cube and match play: cube and match state, match equity tables, 0-ply cube
decisions (GNU Backgammon's cubeful model; cpp/include/tavli/cubeful.h) and the GNU Match ID.

>>> import tavli
>>> d = tavli.Board("backgammon").cube_decision(probabilities=(0.75, 0.0, 0.0, 0.0, 0.0))
>>> d.action
'double, take'

The state types and the formulas live in the C++ core; this module reads gnubg's MET files,
picks the defaults (money play, the Kazaross-XG2 table) and shapes the results.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence, TypeVar

from . import _core
from ._core import CubeState, MatchEquityTable, MatchState
from ._base.args import int_arg
from .results import Probabilities

if TYPE_CHECKING:
    from .board import Board

__all__ = [
    "CubeDecision",
    "CubeState",
    "MatchEquityTable",
    "MatchState",
    "cube_decision",
    "decide",
    "default_met",
    "gnubg_id",
    "load_met",
    "parse_position",
    "xgid",
]

_MET_DIR = os.path.join(os.path.dirname(__file__), "met")
DEFAULT_MET = "Kazaross-XG2"


def load_met(source: str) -> MatchEquityTable:
    """A match equity table from gnubg's MET XML format (met.dtd): a path, or the name of a table
    shipped in tavli/met ("Kazaross-XG2"). Only explicit tables are read; gnubg's parametric ones
    (zadeh.xml, mec.xml: formulas, not numbers) raise ValueError."""
    if not isinstance(source, str):
        raise ValueError(f"load_met takes a path or a shipped table's name, got {source!r}")
    path = source if os.path.exists(source) else os.path.join(_MET_DIR, source + ".xml")
    if not os.path.exists(path):
        shipped = sorted(f[:-4] for f in os.listdir(_MET_DIR) if f.endswith(".xml"))
        raise ValueError(f"no match equity table {source!r} (a path, or one of {shipped})")
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise ValueError(f"{path}: not a MET XML file ({e})") from None
    if root.tag != "met":
        raise ValueError(f"{path}: the root element is <{root.tag}>, not <met>")
    name = (root.findtext("info/name") or os.path.basename(path)).strip()
    description = (root.findtext("info/description") or "").strip()

    def explicit(table: ET.Element, what: str) -> list[list[float]]:
        kind = table.get("type", "explicit")
        if kind != "explicit":
            raise ValueError(f"{path}: the {what} table is parametric (type={kind!r}); only explicit tables are read")
        try:
            return [[float(me.text or "") for me in row.findall("me")] for row in table.findall("row")]
        except ValueError:
            raise ValueError(f"{path}: a <me> entry of the {what} table is not a number") from None

    pre_el = root.find("pre-crawford-table")
    if pre_el is None:
        raise ValueError(f"{path}: no <pre-crawford-table>")
    pre = explicit(pre_el, "pre-Crawford")
    post: dict[int, list[float]] = {}
    for el in root.findall("post-crawford-table"):
        rows = explicit(el, "post-Crawford")
        if len(rows) != 1:
            raise ValueError(f"{path}: a post-Crawford table has one row, not {len(rows)}")
        who = el.get("player", "both")
        for p in (0, 1) if who == "both" else (int(who),) if who in ("0", "1") else ():
            post[p] = rows[0]
        if who not in ("both", "0", "1"):
            raise ValueError(f"{path}: post-Crawford player {who!r} (both, 0 or 1 expected)")
    if set(post) != {0, 1}:
        raise ValueError(f"{path}: post-Crawford rows for both players are needed")
    return MatchEquityTable(name, pre, (post[0], post[1]), description)


@functools.lru_cache(maxsize=None)
def default_met() -> MatchEquityTable:
    """The Kazaross-XG2 table gnubg ships (numbers to 25 points; tavli/met/Kazaross-XG2.xml)."""
    return load_met(DEFAULT_MET)


def _met_arg(met: Any) -> MatchEquityTable:
    if met is None:
        return default_met()
    if isinstance(met, MatchEquityTable):
        return met
    if isinstance(met, str):
        return load_met(met)
    raise ValueError(f"met must be None, a MatchEquityTable or a table's name/path, got {met!r}")


_State = TypeVar("_State", CubeState, MatchState)


def _state_arg(value: Any, kind: type[_State], what: str) -> _State:
    """None (the default state), an instance of `kind`, or a dict of its fields."""
    if value is None:
        return kind()
    if isinstance(value, kind):
        return value
    if isinstance(value, dict):
        return kind(**value)
    raise ValueError(f"{what} must be None, a {kind.__name__} or a dict of its fields, got {value!r}")


def _cube_arg(cube: Any) -> CubeState:
    return _state_arg(cube, CubeState, "cube")


def _match_arg(match: Any) -> MatchState:
    return _state_arg(match, MatchState, "match (None: money play)")


@dataclass(frozen=True)
class CubeDecision:
    """A cube decision for the side to move, before his roll.

    nd, dt, dp: the equities of No double, Double/take and Double/pass for the side to move, in
    EMG (money play: points per unit of the current cube; dt and dp are None when he may not
    double). nd_mwc, dt_mwc, dp_mwc: the same as match winning chances (None in money play).
    action: "no double", "no double, beaver", "double, take", "double, beaver", "double, pass",
    "too good to double, take", "too good to double, pass" or "cube not available".
    take: the opponent's answer to a double: "take", "beaver", "pass" ("none" without a double).
    probabilities: the cubeless probabilities used; efficiency: the cube efficiency x; cube_class
    the position class it came from ("given" when the caller gave it); plies: the depth of the
    cubeless evaluation (None when the caller brought the probabilities)."""

    nd: float
    dt: float | None
    dp: float | None
    nd_mwc: float | None
    dt_mwc: float | None
    dp_mwc: float | None
    action: str
    take: str
    available: bool
    probabilities: Probabilities
    efficiency: float
    cube_class: str
    plies: int | None
    cube: CubeState
    match: MatchState


def _probabilities_arg(p: Any) -> Probabilities:
    if isinstance(p, Probabilities):
        return p
    try:
        values = [float(v) for v in p]
    except (TypeError, ValueError):
        raise ValueError(
            "probabilities: a tavli.Probabilities or (win, win_double, win_triple, lose_double, lose_triple)"
        ) from None
    if not 5 <= len(values) <= 7:
        raise ValueError(f"probabilities: 5 to 7 numbers, got {len(values)}")
    return Probabilities(*values)


def decide(probabilities: Any, cube: Any = None, match: Any = None, *, mover: int = 0, efficiency: float = 0.68,
           met: Any = None) -> CubeDecision:
    """The 0-ply cube decision as a pure function of cubeless probabilities (no board): `mover`
    the player (0/1) to move, `efficiency` the cube efficiency x (gnubg's classes: contact 0.68,
    race 0.6..0.7 from the pips, bear-off 0.6)."""
    cube_s, match_s = _cube_arg(cube), _match_arg(match)
    probs = _probabilities_arg(probabilities)
    if isinstance(mover, bool) or mover not in (0, 1):
        raise ValueError(f"mover must be player 0 or 1, got {mover!r}")
    r = _core._cube_decision(list(probs), cube_s, match_s, mover, float(efficiency), _met_arg(met))
    available, nd, dt, dp, nd_mwc, dt_mwc, dp_mwc, action, take, eff = r
    return CubeDecision(nd, dt, dp, nd_mwc, dt_mwc, dp_mwc, action, take, available, probs, eff, "given", None,
                        cube_s, match_s)


def cube_decision(board: "Board", cube: Any = None, match: Any = None, plies: int = 0, probabilities: Any = None, *,
                  met: Any = None, efficiency: float | None = None, evaluator: Any = None,
                  rollout: Any = None, threads: int = 1, filters: Any = None) -> CubeDecision:
    """The cube decision for board's side to move (Board.cube_decision's body): decide() with the
    board's mover and position class, on the caller's probabilities or the board's evaluation;
    `rollout` (True or a dict of options): tavli.cube_rollout.decide. `threads` and `filters` go
    to the search (the cubeful search, or the evaluation when an efficiency is given) and
    `threads` to a rollout (unless its options name their own); the same decision for any count."""
    threads = int_arg("threads", threads, 1, _core.MAX_THREADS)
    if rollout is not None and rollout is not False:
        from .cube_rollout import decide as rolled_out, rollout_options

        if plies != 0 or probabilities is not None or efficiency is not None:
            raise ValueError("rollout: a cube decision by rollout takes no plies, probabilities or efficiency "
                             "(the rollout's player sets the depth: player='search:N')")
        if filters is not None:
            raise ValueError("rollout: a cube decision by rollout takes no filters (the rollout's player's: "
                             "player={'search': N, 'filters': ...})")
        options = rollout_options(rollout)
        if evaluator is not None:
            options.setdefault("evaluator", evaluator)
        options.setdefault("threads", threads)
        return rolled_out(board, cube, match, met=met, **options)
    cube_s, match_s = _cube_arg(cube), _match_arg(match)
    _core._validate_cube_for(board.variant, cube_s, match_s)
    if not _core._variant_takes_cube(board.variant):
        raise ValueError(f"{board.variant} has no doubling cube, so no cube decision")
    if board.is_game_over():
        raise ValueError("the game is over: no cube decision")
    if probabilities is None and plies >= 1 and efficiency is None:
        from .cube_search import decide as searched  # cube decisions at every level of the search

        return searched(board, cube_s, match_s, plies, met=met, evaluator=evaluator, threads=threads, filters=filters)
    if probabilities is None:
        probabilities = board.evaluate(plies, evaluator=evaluator, threads=threads, filters=filters).probabilities
        used_plies: int | None = plies
    else:
        used_plies = None
    cls, x = _core._cube_efficiency(board)
    if efficiency is not None:
        cls, x = "given", float(efficiency)
    d = decide(probabilities, cube_s, match_s, mover=board.turn, efficiency=x, met=met)
    return dataclasses.replace(d, cube_class=cls, plies=used_plies)


def parse_position(text: str, variant: str = "backgammon", **options: Any) -> "tuple[Board, CubeState, MatchState]":
    """A position with its cube and match state: an XGID ("XGID=..."), gnubg's combined
    "PositionID:MatchID", or a bare Position ID (White on roll, cube centred, money play)."""
    from .board import Board
    from ._base.options import to_pairs

    if not isinstance(text, str) or not isinstance(variant, str):
        raise ValueError("parse_position takes a text and a variant name")
    t = text.strip()
    if t.startswith("XGID=") or t.count(":") == 9:
        core, cube, match = _core._parse_xgid(t, variant, to_pairs(options))
        return Board._from_core(core), cube, match
    if ":" in t:
        pos_id, _, match_id = t.partition(":")
        m = _core._parse_gnubg_match_id(match_id)
        _core._validate_cube_for(variant, m["cube"], m["match"])
        return Board.from_gnubg_id(pos_id, variant, turn=m["on_roll"], **options), m["cube"], m["match"]
    return Board.from_gnubg_id(t, variant, **options), CubeState(), MatchState()


def gnubg_id(board: "Board", cube: Any = None, match: Any = None, dice: Sequence[int] | None = None) -> str:
    """gnubg's combined "PositionID:MatchID" for the board with its cube and match state (the side
    to move is on roll and to act; dice None: not rolled yet)."""
    cube_s, match_s = _cube_arg(cube), _match_arg(match)
    _core._validate_cube_for(board.variant, cube_s, match_s)
    d = (0, 0) if dice is None else tuple(int(v) for v in dice)
    if len(d) != 2:
        raise ValueError("dice: two values 1..6 (or None)")
    return board.gnubg_id() + ":" + _core._gnubg_match_id(cube_s, match_s, board.turn, board.turn, 1, False, 0, d)


def xgid(board: "Board", cube: Any = None, match: Any = None) -> str:
    """The XGID of the board with its cube and match state (no dice: to roll or double)."""
    return _core._xgid(board, _cube_arg(cube), _match_arg(match))
