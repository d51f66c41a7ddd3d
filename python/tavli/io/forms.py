"""The JSON forms of positions, plays, rolls, analyses and records (docs/json.md), and the way back in.

Positions are ``Board.to_dict()``, games ``Board.to_record()`` and matches ``Match.to_record()``;
this module adds the forms that only frontends need (plays with their resulting positions,
probabilities, evaluations, analyses, rolls) and the versioned JSON Schema that describes them all
(``json_schema/tavli-v1.schema.json``). Everything that comes back in goes through
``Board.from_dict`` / ``board_from_json``, ``Board.from_record`` / ``Match.from_record`` or
``play_from_dict``: the engine validates it; nothing here decides what is legal.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any, Mapping

from .. import _core
from .._base.dice import parse_dice
from ..board import Board, Outcome
from ..results import Analysis, Evaluation, Probabilities

SCHEMA_VERSION = 1
SCHEMA_ID = f"urn:tavli:schema:v{SCHEMA_VERSION}"
_SCHEMA_FILE = f"tavli-v{SCHEMA_VERSION}.schema.json"

# Keys a client may send back unchanged from play_to_dict(): they describe the play's effect and
# are recomputed, never trusted.
_PLAY_OUTPUT_KEYS = {"hits", "result", "result_id", "outcome"}
_PLAY_INPUT_KEYS = {"steps", "text", "dice"}


@functools.lru_cache(maxsize=1)
def _schema_text() -> str:
    return resources.files("tavli").joinpath("json_schema", _SCHEMA_FILE).read_text(encoding="utf-8")


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every form, one ``$defs`` entry per form (a fresh copy)."""
    doc: dict[str, Any] = json.loads(_schema_text())
    return doc


# --- positions -------------------------------------------------------------------------------------
def board_from_json(value: Any) -> Board:
    """The board of a position as a client may send it: a position dict or a position ID string."""
    if isinstance(value, str):
        return Board.from_id(value)
    if isinstance(value, Mapping):
        return Board.from_dict(value)
    raise ValueError(f"expected a position dict or a position ID string, got {type(value).__name__}")


def outcome_to_dict(outcome: Outcome | None) -> dict[str, Any] | None:
    return None if outcome is None else outcome._asdict()


# --- plays ------------------------------------------------------------------------------------------
def play_to_dict(board: Board, play: _core.Play) -> dict[str, Any]:
    """A legal play of `board`: its steps (route indices in the mover's frame, bar -1, off 24), the
    dice, the move text, which steps hit, and the position it leads to with its outcome."""
    after = board.play(play)
    return {
        "steps": [list(s) for s in play.steps],
        "dice": list(play.dice),
        "text": play.text,
        "hits": play.hits,
        "result": after.to_dict(),
        "result_id": after.id(),
        "outcome": outcome_to_dict(after.outcome()),
    }


def play_from_dict(board: Board, d: Mapping[str, Any], dice: Any = None) -> _core.Play:
    """The legal play of `board` that a play dict describes: {"steps": [[from, to], ...], "dice":
    [d1, d2]} or {"text": "24/18 13/11", "dice": [d1, d2]} (both: they must agree). The dice may
    come instead from `dice` (a request's roll). Raises ValueError or IllegalMove."""
    if not isinstance(d, Mapping):
        raise ValueError(f"play: expected a dict with steps or text, got {type(d).__name__}")
    unknown = set(d) - _PLAY_INPUT_KEYS - _PLAY_OUTPUT_KEYS
    if unknown:
        raise ValueError(f"play: unknown keys {sorted(map(str, unknown))}; give steps or text, and dice")
    if "dice" in d:
        if not isinstance(d["dice"], (list, tuple)):  # the JSON form is [d1, d2], not "6-5"
            raise ValueError(f"play: dice must be [d1, d2], got {d['dice']!r}")
        roll = parse_dice(tuple(d["dice"]))
        if dice is not None and roll != parse_dice(dice):
            raise ValueError(f"play: dice {list(roll)} differ from the roll {list(parse_dice(dice))}")
    elif dice is not None:
        roll = parse_dice(dice)
    else:
        raise ValueError("play: missing dice")
    if "steps" not in d and "text" not in d:
        raise ValueError("play: give steps ([[from, to], ...]) or text (move text such as '24/18 13/11')")
    if "steps" in d:
        play = board.find_play(d["steps"], roll)
        if "text" in d and board.parse_play(d["text"], roll) != play:
            raise ValueError(f"play: the text {d['text']!r} and the steps describe different plays")
        return play
    return board.parse_play(d["text"], roll)


# --- values -----------------------------------------------------------------------------------------
def probabilities_to_dict(p: Probabilities) -> dict[str, float]:
    """GNU Backgammon's cumulative probabilities for one side, plus lose (derived), draw and margin."""
    return {
        "win": p.win,
        "win_double": p.win_double,
        "win_triple": p.win_triple,
        "lose": p.lose,
        "lose_double": p.lose_double,
        "lose_triple": p.lose_triple,
        "draw": p.draw,
        "margin": p.margin,
    }


def evaluation_to_dict(e: Evaluation) -> dict[str, Any]:
    """A position before the roll, for the side to move."""
    return {
        "probabilities": probabilities_to_dict(e.probabilities),
        "equity": e.equity,
        "plies": e.plies,
        "nodes": e.nodes,
        "interrupted": e.interrupted,
    }


def analysis_to_dict(board: Board, analysis: Analysis, top: int | None = None) -> dict[str, Any]:
    """The ranked plays of a roll (best first; the first `top` of them when given) with the search's
    totals. `board` is the analysed position (the plays' results are computed from it)."""
    shown = analysis if top is None else analysis[:top]
    return {
        "id": board.id(),
        "dice": list(analysis[0].play.dice) if len(analysis) else None,
        "plies": analysis.plies,
        "nodes": analysis.nodes,
        "interrupted": analysis.interrupted,
        "plays": [
            {
                "play": play_to_dict(board, a.play),
                "probabilities": probabilities_to_dict(a.probabilities),
                "equity": a.equity,
                "plies": a.plies,
            }
            for a in shown
        ],
    }


def cube_to_dict(cube: Any) -> dict[str, Any]:
    """#/$defs/cubeState of a tavli.CubeState."""
    return {name: getattr(cube, name) for name in ("value", "owner", "jacoby", "beavers", "max_cube")}


def match_to_dict(match: Any) -> dict[str, Any]:
    """#/$defs/matchScore of a tavli.MatchState."""
    return {"length": match.length, "score": list(match.score), "crawford": match.crawford}


def ranking_to_dict(board: Board, ranking: Any, cube: Any, match: Any, top: int | None = None) -> dict[str, Any]:
    """analysis_to_dict's form for plays ranked in a cube and match context (a
    tavli.context_play.Ranking): each play's equity (money: per unit of the cube when cubeful;
    a match: EMG) and mwc (null in money play), its cubeless probabilities (null from the cubeful
    search); `cubeful` says which search ranked them, `cube` and `match` the context."""
    from ..cube import CubeState, MatchState

    cube = cube if cube is not None else CubeState()
    match = match if match is not None else MatchState()
    shown = ranking.plays if top is None else ranking.plays[:top]
    return {
        "id": board.id(),
        "dice": list(ranking.plays[0].play.dice) if ranking.plays else None,
        "plies": ranking.plies,
        "nodes": ranking.nodes,
        "interrupted": ranking.interrupted,
        "cubeful": ranking.cubeful,
        "cube": cube_to_dict(cube),
        "match": match_to_dict(match),
        "plays": [
            {
                "play": play_to_dict(board, p.play),
                "probabilities": None if p.probabilities is None else probabilities_to_dict(p.probabilities),
                "equity": p.equity,
                "mwc": p.mwc,
                "plies": p.plies,
            }
            for p in shown
        ],
    }


def roll_to_dict(dice: Any, seed: int) -> dict[str, Any]:
    """A roll and the seed of the tavli.Rng that made it (``Rng(seed).roll()`` gives it again)."""
    return {"dice": list(parse_dice(dice)), "seed": seed}
