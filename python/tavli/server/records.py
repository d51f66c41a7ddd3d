"""The API's match-file endpoints: POST /api/v1/record/open reads a .mat, SGF or JSON match file
(sent as text), replays it, and returns every action with the positions before and after it (and,
on request, the review of each checker play), for the record viewer (static/record.html);
POST /api/v1/record/save turns a match played on the web page into a file's text. Both run in the
app's work pool; a review stops at the request's CPU budget (a 422 naming review_plies)."""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

MAX_REVIEW_PLAYS = 400  # a review in one request: at most this many plays, and within the CPU budget


class RecordSaveRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    record: dict[str, Any] = Field(description="A tavli.match record (a match state's record), tavli.game or "
                                   "tavli.record; a match file holds its finished games.")
    format: str = Field("mat", description="mat, sgf (backgammon only) or json.", examples=["mat"])


class RecordOpenRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    text: str = Field(description="The file's contents (the request body is bounded to 1 MB).")
    format: str = Field("mat", description="mat, sgf or json.", examples=["mat"])
    review_plies: int | None = Field(None, ge=0, le=2, description="Review every checker play this deep (0..2); "
                                     f"null: no review. At most {MAX_REVIEW_PLAYS} plays.")


class ReviewOverBudget(Exception):
    """The review reached the request's CPU budget before its last play."""


def record_view(text: str, fmt: str, review_plies: int | None,
                budget_left: Callable[[], float] | None = None) -> dict[str, Any]:
    """The viewer's data: the record's facts and one entry per action (ValueError for a bad file).
    `budget_left()`: the CPU seconds the request has left, checked after each reviewed play
    (ReviewOverBudget once none is left)."""
    from .. import io
    from ..io.record import replay

    record = io.loads(text, fmt)
    steps = list(replay(record))
    reviews: list[Any] = []
    cube_reviews: list[Any] = []
    if review_plies is not None:
        plays = sum(1 for s in steps if s.action.kind == "move")
        if plays > MAX_REVIEW_PLAYS:
            raise ValueError(f"review: {plays} plays, at most {MAX_REVIEW_PLAYS} in one request (tavli review FILE)")
        from ..review import review

        def check_budget(done: int, total: int) -> None:
            if budget_left is not None and budget_left() <= 0 and done < total:
                raise ReviewOverBudget(f"the review reached the request's CPU budget after {done} of {total} plays")

        rv = review(record, review_plies, progress=check_budget)
        reviews = [m.__dict__ | {"loss_mp": m.loss_mp} for m in rv.moves]
        cube_reviews = list(rv.cube)  # in step order; a "no double" belongs to the move of its turn
    out = []
    score = [0, 0]
    last_game = -1
    move_index = 0
    for s in steps:
        if s.game != last_game:
            score = list(record.games[s.game].score)
            last_game = s.game
        a = s.action
        c = cube_reviews[0] if cube_reviews else None
        if c is not None and (c.game, c.player) == (s.game + 1, a.player) and (
                c.action == a.kind or (c.action == "no double" and a.kind == "move")):
            cube_reviews.pop(0)
        else:
            c = None
        entry: dict[str, Any] = {"game": s.game + 1, "turn": a.turn if a.turn is not None else s.index + 1,
                                 "player": a.player, "kind": a.kind, "cube": s.cube.value, "score": score,
                                 "position": s.board.id()}
        if a.kind == "move":
            assert a.dice is not None and s.play is not None
            entry["dice"] = list(a.dice)
            entry["move"] = a.move
            entry["steps"] = [list(st) for st in s.play.steps]
            entry["after"] = s.board.play(s.play).id()
            if reviews:
                entry["review"] = reviews[move_index]
            move_index += 1
        elif a.value is not None:
            entry["value"] = a.value
        if c is not None:
            entry["cube_review"] = c.judgement
        out.append(entry)
    games = [{"score": list(g.score), "winner": g.winner, "points": g.points, "crawford": g.crawford}
             for g in record.games]
    return {"kind": record.kind, "length": record.length, "players": list(record.players),
            "final_score": list(record.score), "games": games, "steps": out,
            "reviewed": review_plies is not None}


def add_routes(app: FastAPI, api: str, api_error: type, run: Callable[..., Awaitable[JSONResponse]]) -> None:
    """Adds the endpoints to the app (api: the path prefix; api_error(field, message) the refusal;
    `run(fn, body)` queues fn(body, budget) on the app's work pool)."""

    def check_format(fmt: str) -> None:
        if fmt not in ("mat", "sgf", "json"):
            raise api_error("format", f"expected mat, sgf or json, got {fmt!r}")

    def save(body: RecordSaveRequest, budget: Any) -> JSONResponse:
        from .. import io
        from ..match import Match

        check_format(body.format)
        try:
            if body.format == "json" and body.record.get("format") == "tavli.match":
                text = Match.from_record(body.record).to_json(indent=1)  # tavli's own record, replayed
            else:
                text = io.dumps(body.record, body.format)
        except ValueError as e:
            raise api_error("record", str(e)) from None
        return JSONResponse({"format": body.format, "text": text})

    def open_(body: RecordOpenRequest, budget: Any) -> JSONResponse:
        check_format(body.format)
        try:
            return JSONResponse(record_view(body.text, body.format, body.review_plies, budget.left))
        except ReviewOverBudget as e:
            raise api_error("review_plies", f"{e} ({budget.seconds:g} s): review fewer plies, or the whole "
                            "file with tavli review FILE") from None
        except ValueError as e:
            raise api_error("text", str(e)) from None

    @app.post(f"{api}/record/save", tags=["matches"])
    async def record_save(body: RecordSaveRequest) -> JSONResponse:
        return await run(save, body)

    @app.post(f"{api}/record/open", tags=["matches"])
    async def record_open(body: RecordOpenRequest) -> JSONResponse:
        return await run(open_, body)
