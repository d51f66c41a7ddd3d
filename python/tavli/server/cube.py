"""The API's cube endpoint (docs/server.md): POST /api/v1/cube answers the side to move's cube
decision (Board.cube_decision; the model is tavli.cube's) for a position given as a tavli position,
an XGID or GNU Backgammon's PositionID[:MatchID], with the cube and the score (#/$defs/cubeState,
#/$defs/matchScore). This module only converts the JSON forms and bounds the work: the cubeless
evaluation under the request's CPU budget, then the 0-ply cubeful formula (microseconds).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Awaitable, Callable

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

import tavli
from tavli import _core
from tavli.io import forms
from tavli.cube import CubeDecision

_CUBE_FIELDS = ("value", "owner", "jacoby", "beavers", "max_cube")
_MATCH_FIELDS = ("length", "score", "crawford")


def is_foreign_id(text: str) -> bool:
    """An XGID or a GNU Backgammon ID, not tavli's own "<variant>[,flags]:<payload>"."""
    if text.startswith("XGID="):
        return True
    head = text.split(":", 1)[0]
    if ":" not in text:
        return True  # a bare Position ID (tavli's IDs always name their game)
    try:
        _core.canonical_variant(head.split(",", 1)[0])
        return False
    except ValueError:
        return True


def position_from_json(value: Any, variant: str = "backgammon") -> tuple[tavli.Board, Any, Any]:
    """(board, cube, match) of a request's position: a position dict or tavli ID (cube and match
    None: not given), or an XGID / PositionID[:MatchID] (the states it carries; a bare Position ID
    carries none)."""
    if isinstance(value, str) and is_foreign_id(value.strip()):
        text = value.strip()
        board, cube, match = tavli.parse_position(text, variant)
        carries = text.startswith("XGID=") or ":" in text
        return board, cube if carries else None, match if carries else None
    return forms.board_from_json(value), None, None


def _small_ints(value: dict[str, Any]) -> None:
    """Integers the core's int fields can hold (a bigger one would fail pybind11's cast with an
    unnamed RuntimeError); the core then checks the ranges that are legal."""
    for name, v in value.items():
        for x in v if isinstance(v, (list, tuple)) else (v,):
            if isinstance(x, int) and not isinstance(x, bool) and not -2**31 <= x < 2**31:
                raise ValueError(f"{name}: {x} is out of range")


def cube_from_json(value: dict[str, Any]) -> tavli.CubeState:
    extra = set(value) - set(_CUBE_FIELDS)
    if extra:
        raise ValueError(f"unknown field {sorted(extra)[0]!r} (expected {', '.join(_CUBE_FIELDS)})")
    _small_ints(value)
    return tavli.CubeState(**value)


def match_from_json(value: dict[str, Any]) -> tavli.MatchState:
    extra = set(value) - set(_MATCH_FIELDS)
    if extra:
        raise ValueError(f"unknown field {sorted(extra)[0]!r} (expected {', '.join(_MATCH_FIELDS)})")
    if "score" in value:
        score = value["score"]
        if not isinstance(score, list) or len(score) != 2:
            raise ValueError("score: [white points, black points]")
        value = {**value, "score": tuple(score)}
    _small_ints(value)
    return tavli.MatchState(**value)


cube_to_json = forms.cube_to_dict
match_to_json = forms.match_to_dict


def decision_to_json(d: CubeDecision, board: tavli.Board | None = None) -> dict[str, Any]:
    """#/$defs/cubeDecision."""
    out = {"nd": d.nd, "dt": d.dt, "dp": d.dp, "nd_mwc": d.nd_mwc, "dt_mwc": d.dt_mwc, "dp_mwc": d.dp_mwc,
           "action": d.action, "take": d.take, "available": d.available,
           "probabilities": forms.probabilities_to_dict(d.probabilities), "efficiency": d.efficiency,
           "cube_class": d.cube_class, "plies": d.plies, "cube": cube_to_json(d.cube), "match": match_to_json(d.match)}
    if board is not None:
        out["position"] = board.id()
        out["turn"] = board.turn
    return out


def _in_field(name: str, fn: Callable[[], Any], api_error: Callable[..., Exception]) -> Any:
    """fn(), its ValueError or TypeError refused as `api_error(name, message)`."""
    try:
        return fn()
    except (ValueError, TypeError) as e:
        raise api_error(name, str(e)) from None


def position_and_context(position: Any, variant: str, cube: dict[str, Any] | None, match: dict[str, Any] | None,
                         api_error: Callable[..., Exception]) -> tuple[tavli.Board, Any, Any]:
    """(board, cube, match) of a request: the position, and the cube and score given beside it or
    carried by its XGID / Match ID (not both; None where neither gives one). A cube or score the
    game's rules forbid is refused by field."""
    def field(name: str, fn: Callable[[], Any]) -> Any:
        return _in_field(name, fn, api_error)

    board, id_cube, id_match = field("position", lambda: position_from_json(position, variant))
    for name, given, carried in (("cube", cube, id_cube), ("match", match, id_match)):
        if given is not None and carried is not None:
            raise api_error(name, f"the position's XGID or Match ID already gives the {name}: send one of them")
    cube_s = id_cube if cube is None else field("cube", lambda: cube_from_json(cube or {}))
    match_s = id_match if match is None else field("match", lambda: match_from_json(match or {}))
    if cube_s is not None or match_s is not None:
        field("cube" if cube_s is not None else "match",
              lambda: _core._validate_cube_for(board.variant, tavli.CubeState() if cube_s is None else cube_s,
                                               tavli.MatchState() if match_s is None else match_s))
    return board, cube_s, match_s


class CubeRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    position: Any = Field(description="A position dict or tavli position ID (#/$defs/positionRef), or an XGID or GNU "
                          "PositionID[:MatchID] (#/$defs/positionText), whose cube and score are used.",
                          examples=["XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:1:0:7:10"])
    variant: str = Field("backgammon", description="The game of an XGID or GNU ID: backgammon, nackgammon or hypergammon.")
    cube: dict[str, Any] | None = Field(None, description="#/$defs/cubeState; default the centred 1 (or the ID's).")
    match: dict[str, Any] | None = Field(None, description="#/$defs/matchScore; default money play (or the ID's).")
    plies: int = Field(1, ge=0, le=3, description="Depth, 0..3 (ignored with probabilities): of the cubeless "
                       "evaluation (eval_mode cubeless), or of the cubeful search (cubeful).")
    eval_mode: str = Field("cubeless", description="cubeless: the 0-ply cubeful formula on the cubeless evaluation "
                           "`plies` deep; cubeful: the cubeful search `plies` deep (tavli.cube_search.decide, both "
                           "sides' cube actions in the tree, as gnubg's n-ply cube decisions).", examples=["cubeful"])
    probabilities: list[float] | None = Field(
        None, min_length=5, max_length=5,
        description="Cubeless [win, win_gammon, win_backgammon, lose_gammon, lose_backgammon] for the side to move "
        "(gnubg's cumulative convention) to decide on instead of evaluating.")


def add_routes(app: FastAPI, api: str, api_error: Callable[..., Exception], run: Callable[..., Awaitable[JSONResponse]],
               call_within: Callable[..., Any]) -> None:
    """Adds POST {api}/cube: `run(fn, body)` queues fn(body, budget) on the app's work pool;
    `api_error(field, message)` is the refusal; `call_within` bounds the evaluation by the budget."""

    def field(name: str, fn: Callable[[], Any]) -> Any:
        return _in_field(name, fn, api_error)

    def decide(body: CubeRequest, budget: Any) -> JSONResponse:
        board, cube, match = position_and_context(body.position, body.variant, body.cube, body.match, api_error)
        if not _core._variant_takes_cube(board.variant):
            raise api_error("position", f"{board.variant} has no doubling cube, so no cube decision")
        if body.eval_mode not in ("cubeless", "cubeful"):
            raise api_error("eval_mode", f"eval_mode must be cubeless or cubeful, got {body.eval_mode!r}")
        if body.eval_mode == "cubeful" and body.probabilities is not None:
            raise api_error("eval_mode", "the cubeful search evaluates the position itself: send no probabilities")
        if body.eval_mode == "cubeful" and body.plies >= 1:
            if board.is_game_over():
                raise api_error("position", "the game is over: no cube decision")
            from tavli.cube_search import decide as cubeful_decide

            d = field("position", lambda: call_within(cubeful_decide, budget, board, cube, match, body.plies))
            return JSONResponse(decision_to_json(d, board))
        probabilities = body.probabilities
        plies: int | None = None
        if probabilities is None:
            if board.is_game_over():
                raise api_error("position", "the game is over: no cube decision")
            evaluation = field("position", lambda: call_within(board.evaluate, budget, body.plies))
            probabilities, plies = evaluation.probabilities, evaluation.plies
        d = field("probabilities" if body.probabilities is not None else "position",
                  lambda: board.cube_decision(cube, match, probabilities=probabilities))
        if plies is not None:
            d = dataclasses.replace(d, plies=plies)
        return JSONResponse(decision_to_json(d, board))

    @app.post(f"{api}/cube", tags=["analysis"])
    async def cube_decision(body: CubeRequest) -> JSONResponse:
        return await run(decide, body)
