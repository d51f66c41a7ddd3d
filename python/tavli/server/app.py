"""The HTTP API v1 (docs/server.md): a FastAPI app over the Board, Match and simulate APIs.

Every engine call runs in FastAPI's threadpool (the endpoints are plain functions and the core
releases the GIL), so slow searches never block the event loop. Every request is bounded: body
size, plies, search time, simulated games, match length. Every error is a 4xx JSON body
{"error": {"field": ..., "message": ...}} naming the request field at fault.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Iterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

import tavli
from tavli import forms
from tavli._dice import parse_dice
from tavli.match import KINDS as MATCH_KINDS
from tavli.sim import KINDS as RESULT_KINDS

MAX_BODY_BYTES = 1_000_000
MAX_PLIES = 3
MAX_TIME_LIMIT = 5.0  # seconds; also the default, so no search runs unbounded
MAX_SIM_GAMES = 2000
MAX_MATCH_GAMES = 200
# Cost of one game per player, against the MAX_SIM_GAMES budget: a 1-ply searcher takes about a
# hundred times as long per game as the others.
SIM_PLAYERS = {"random": 1, "greedy": 1, "search:1": 100}
STATIC_DIR = Path(__file__).resolve().parent / "static"
API = "/api/v1"

_PLACEHOLDER_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tavli</title></head>
<body><h1>tavli</h1><p>The web page is not installed; the API is at <a href="/docs">/docs</a>.</p></body></html>
"""


# --- errors -----------------------------------------------------------------------------------------
class ApiError(Exception):
    """A refused request: the field at fault (None: the request as a whole), why, and the status."""

    def __init__(self, field: str | None, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.status = status


def _error(status: int, field: str | None, message: str) -> JSONResponse:
    return JSONResponse({"error": {"field": field, "message": message}}, status_code=status)


@contextlib.contextmanager
def _field(name: str) -> Iterator[None]:
    """Turns the engine's refusal of one request field into an ApiError naming that field."""
    try:
        yield
    except ApiError:
        raise
    except (ValueError, TypeError, OverflowError) as e:  # InvalidPosition, IllegalMove are ValueErrors
        raise ApiError(name, str(e)) from None


def _validation_error(exc: RequestValidationError) -> JSONResponse:
    err = exc.errors()[0]
    loc = [x for x in err.get("loc", ()) if x != "body"]
    field = str(loc[0]) if loc and isinstance(loc[0], str) else None
    path = "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in loc[1:])
    message = err.get("msg", "invalid request")
    if err.get("type") == "json_invalid":
        message = f"invalid JSON: {err.get('ctx', {}).get('error', message)}"
    elif path:
        message = f"{field}{path}: {message}"
    return _error(422, field or "body", message)


class _BodyLimit:
    """Refuses request bodies over `max_bytes` with 413, by Content-Length or while reading."""

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = f"request body over {self.max_bytes} bytes"
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                if not value.isdigit():
                    await _error(400, "body", "invalid Content-Length header")(scope, receive, send)
                    return
                if int(value) > self.max_bytes:
                    await _error(413, "body", too_large)(scope, receive, send)
                    return
        received = 0

        async def limited_receive() -> dict:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:  # chunked bodies have no Content-Length
                    raise StarletteHTTPException(413, too_large)
            return message

        await self.app(scope, limited_receive, send)


# --- requests ---------------------------------------------------------------------------------------
_POSITION = Field(
    description="A position dict (Board.to_dict(), #/$defs/position) or a position ID string (\"fevga:AQ...\").",
    examples=["fevga:AQAmARAAEQAAAAEgAAAABQAQAQExACAAAAABAA"],
)
_DICE = Field(description="The roll [d1, d2], each 1..6.", examples=[[6, 5]])
_PLAY = Field(
    description="A play of the roll: {\"steps\": [[from, to], ...]} (route indices in the mover's frame, "
    "bar -1, off 24) or {\"text\": \"24/18 13/11\"}.",
    examples=[{"text": "24/13"}],
)
_PLIES = Field(1, ge=0, le=MAX_PLIES, description=f"Search depth, 0..{MAX_PLIES}.")
_TIME = Field(
    MAX_TIME_LIMIT,
    gt=0,
    le=MAX_TIME_LIMIT,
    description=f"Seconds, at most {MAX_TIME_LIMIT}: the deepest finished iteration is returned.",
)


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class NewRequest(_Body):
    variant: str = Field("fevga", examples=["fevga"])
    options: dict[str, Any] = Field({}, description="Rule options (GET /api/v1/variants lists them).")


class RollRequest(_Body):
    seed: int | None = Field(None, ge=0, le=2**64 - 1, description="Seed of tavli.Rng; drawn by the server if absent.")


class PositionDiceRequest(_Body):
    position: Any = _POSITION
    dice: Any = _DICE


class PlayRequest(PositionDiceRequest):
    play: Any = _PLAY


class SearchRequest(PositionDiceRequest):
    plies: int = _PLIES
    time_limit: float = _TIME


class AnalyzeRequest(SearchRequest):
    top: int | None = Field(None, ge=1, description="Return only the best `top` plays (default: all).")


class EvaluateRequest(_Body):
    position: Any = _POSITION
    plies: int = _PLIES
    time_limit: float = _TIME


class RenderRequest(_Body):
    position: Any = _POSITION
    dice: Any = Field(None, description="The roll to draw, [d1, d2] (needed with `play`).", examples=[[6, 5]])
    play: Any = Field(None, description="A play of `dice` to draw as arrows (as in /play).")
    viewer: int = Field(0, ge=0, le=1, description="Whose side is drawn at the bottom: 0 White, 1 Black.")
    highlight: list[int | str] = Field(
        [], max_length=26, description="Point numbers 1..24 (the viewer's numbering), \"bar\" or \"off\" to highlight."
    )


class SimulateRequest(_Body):
    variant: str = Field("fevga", examples=["fevga"])
    options: dict[str, Any] = {}
    games: int = Field(100, ge=1, le=MAX_SIM_GAMES, description=f"1..{MAX_SIM_GAMES} (a search:1 player counts 100 each).")
    players: list[str] = Field(["greedy", "random"], min_length=2, max_length=2, description="White, Black: " + ", ".join(SIM_PLAYERS))
    seed: int = Field(0, ge=0, le=2**64 - 1)


class MatchNewRequest(_Body):
    kind: str = Field("tavli", description="A match kind: " + ", ".join(MATCH_KINDS))
    target: int | None = Field(None, ge=1, le=999, description="Points to win (default: the kind's usual target).")


class MatchRequest(_Body):
    record: Any = Field(description="The match record of the last match state (#/$defs/matchRecord).")
    dice: Any = Field(description="[white die, black die] for /match/opening; the roll otherwise.", examples=[[6, 5]])


class MatchPlayRequest(MatchRequest):
    play: Any = _PLAY


class MatchMoveRequest(MatchRequest):
    plies: int = _PLIES
    time_limit: float = _TIME


# --- conversions ------------------------------------------------------------------------------------
def _board(value: Any) -> tavli.Board:
    with _field("position"):
        return forms.board_from_json(value)


def _dice(value: Any, field: str = "dice") -> tuple[int, int]:
    with _field(field):
        return parse_dice(tuple(value) if isinstance(value, list) else value)


def _play(board: tavli.Board, value: Any, dice: tuple[int, int]) -> tavli.Play:
    with _field("play"):
        return forms.play_from_dict(board, value, dice)


def _best_play(board: tavli.Board, dice: tuple[int, int], plies: int, time_limit: float) -> tuple[tavli.Play, float]:
    with _field("position"):
        best = board.analyze(dice, plies=plies, time_limit=time_limit).best
    return best.play, best.equity


def _after_play(board: tavli.Board, play: tavli.Play) -> dict[str, Any]:
    played = forms.play_to_dict(board, play)
    return {"position": played["result"], "id": played["result_id"], "outcome": played["outcome"], "play": played}


def _match(record: Any) -> tavli.Match:
    if isinstance(record, dict) and isinstance(record.get("games"), list) and len(record["games"]) > MAX_MATCH_GAMES:
        raise ApiError("record", f"a match record may hold at most {MAX_MATCH_GAMES} games")
    with _field("record"):
        if not isinstance(record, dict):
            raise ValueError("expected the match record (a dict) of the last match state")
        return tavli.Match.from_record(record)


def _match_state(m: tavli.Match, play: dict[str, Any] | None = None) -> dict[str, Any]:
    board = m.board
    state = {
        "record": m.to_record(),
        "phase": m.phase,
        "score": list(m.score),
        "target": m.target,
        "game_number": m.game_number,
        "variant": board.variant,
        "position": board.to_dict(),
        "id": board.id(),
        "turn": board.turn,
        "forced_dice": None if m.forced_dice is None else list(m.forced_dice),
        "winner": m.winner,
        "results": m.results,
    }
    if play is not None:
        state["play"] = play
    return state


def _players(specs: list[str], games: int) -> list[str]:
    for spec in specs:
        if spec not in SIM_PLAYERS:
            raise ApiError("players", f"unknown player {spec!r}: use {', '.join(map(repr, SIM_PLAYERS))}")
    weight = max(SIM_PLAYERS[s] for s in specs)
    if games * weight > MAX_SIM_GAMES:
        raise ApiError("games", f"at most {MAX_SIM_GAMES // weight} games with these players")
    return specs


def _variant(name: str) -> str:
    with _field("variant"):
        return tavli._core.canonical_variant(name)


# --- the app ----------------------------------------------------------------------------------------
def create_app() -> FastAPI:
    app = FastAPI(
        title="tavli",
        version=tavli.__version__,
        description="The tavli engine over HTTP: positions, legal plays, analysis, self-play and matches. "
        "JSON forms: GET /api/v1/schema (docs/json.md). Errors: {\"error\": {\"field\", \"message\"}}.",
    )
    app.add_middleware(_BodyLimit, max_bytes=MAX_BODY_BYTES)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.field, exc.message)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _validation_error(exc)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:  # a bug: still JSON
        return _error(500, None, f"internal error: {type(exc).__name__}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, "body" if exc.status_code == 413 else None, str(exc.detail))

    # --- the page ---
    @app.get("/", include_in_schema=False)
    def index() -> Response:
        page = STATIC_DIR / "index.html"
        return FileResponse(page) if page.is_file() else HTMLResponse(_PLACEHOLDER_PAGE)

    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    # --- facts ---
    @app.get(f"{API}/health", tags=["facts"])
    def health() -> JSONResponse:
        return JSONResponse({
            "status": "ok",
            "version": tavli.__version__,
            "schema_version": forms.SCHEMA_VERSION,
            "variants": tavli.variants(),
        })

    @app.get(f"{API}/variants", tags=["facts"])
    def variants() -> JSONResponse:
        return JSONResponse({
            "variants": [{"name": v, "options": tavli.variant_options(v)} for v in tavli.variants()],
            "match_kinds": list(MATCH_KINDS),
            "matches": [{"kind": k, "games": list(games), "target": target} for k, (games, target) in MATCH_KINDS.items()],
        })

    @app.get(f"{API}/schema", tags=["facts"])
    def json_schema() -> JSONResponse:
        return JSONResponse(forms.schema(), media_type="application/schema+json")

    # --- positions and plays ---
    @app.post(f"{API}/new", tags=["positions"])
    def new(body: NewRequest) -> JSONResponse:
        variant = _variant(body.variant)
        with _field("options"):
            board = tavli.Board(variant, **body.options)
        return JSONResponse({"position": board.to_dict(), "id": board.id()})

    @app.post(f"{API}/roll", tags=["positions"])
    def roll(body: RollRequest) -> JSONResponse:
        # 53 bits: the seed survives a round trip through a JavaScript number
        seed = int.from_bytes(os.urandom(8), "little") >> 11 if body.seed is None else body.seed
        return JSONResponse(forms.roll_to_dict(tavli.Rng(seed).roll(), seed))

    @app.post(f"{API}/plays", tags=["positions"])
    def plays(body: PositionDiceRequest) -> JSONResponse:
        board, dice = _board(body.position), _dice(body.dice)
        with _field("position"):
            legal = board.legal_plays(dice)
        return JSONResponse({"plays": [forms.play_to_dict(board, p) for p in legal]})

    @app.post(f"{API}/play", tags=["positions"])
    def play(body: PlayRequest) -> JSONResponse:
        board, dice = _board(body.position), _dice(body.dice)
        return JSONResponse(_after_play(board, _play(board, body.play, dice)))

    # --- the engine's opinion ---
    @app.post(f"{API}/move", tags=["analysis"])
    def move(body: SearchRequest) -> JSONResponse:
        board, dice = _board(body.position), _dice(body.dice)
        best, equity = _best_play(board, dice, body.plies, body.time_limit)
        return JSONResponse({**_after_play(board, best), "equity": equity})

    @app.post(f"{API}/analyze", tags=["analysis"])
    def analyze(body: AnalyzeRequest) -> JSONResponse:
        board, dice = _board(body.position), _dice(body.dice)
        with _field("position"):
            analysis = board.analyze(dice, plies=body.plies, time_limit=body.time_limit)
        return JSONResponse(forms.analysis_to_dict(board, analysis, top=body.top))

    @app.post(f"{API}/evaluate", tags=["analysis"])
    def evaluate(body: EvaluateRequest) -> JSONResponse:
        board = _board(body.position)
        with _field("position"):
            evaluation = board.evaluate(plies=body.plies, time_limit=body.time_limit)
        return JSONResponse(forms.evaluation_to_dict(evaluation))

    @app.post(f"{API}/render", tags=["positions"], response_class=Response,
              responses={200: {"content": {"image/svg+xml": {}}, "description": "The board as an SVG document."}})
    def render(body: RenderRequest) -> Response:
        try:
            from tavli.svg import board_svg
        except ImportError:
            raise ApiError(None, "rendering is not available (tavli.svg is missing)", 501) from None
        board = _board(body.position)
        dice = None if body.dice is None else _dice(body.dice)
        play = None
        if body.play is not None:
            if dice is None:
                raise ApiError("dice", "a play needs the dice it was played with")
            play = _play(board, body.play, dice)
        for point in body.highlight:
            if point not in ("bar", "off") and not (isinstance(point, int) and 1 <= point <= 24):
                raise ApiError("highlight", f"expected point numbers 1..24, 'bar' or 'off', got {point!r}")
        with _field("position"):
            svg = board_svg(board, dice=dice, play=play, viewer=body.viewer, highlight=tuple(body.highlight))
        return Response(svg, media_type="image/svg+xml")

    @app.post(f"{API}/simulate", tags=["analysis"])
    def simulate(body: SimulateRequest) -> JSONResponse:
        variant = _variant(body.variant)
        players = _players(body.players, body.games)
        with _field("options"):
            # through a Board first: only rule options may reach simulate's keyword arguments
            options = tavli.Board(variant, **body.options).options
        r = tavli.simulate(variant, body.games, players, seed=body.seed, threads=1, **options)
        winner, points, kind = r["winner"], r["points"], r["kind"]
        return JSONResponse({
            "variant": variant,
            "options": options,
            "games": body.games,
            "players": players,
            "seed": body.seed,
            "wins": [int((winner == 0).sum()), int((winner == 1).sum())],
            "draws": int((kind == 5).sum()),
            "unfinished": int((kind == 0).sum()),
            "points": [int(points[winner == 0].sum()), int(points[winner == 1].sum())],
            "kinds": {name: int((kind == k).sum()) for k, name in RESULT_KINDS.items() if (kind == k).any()},
            "mean_plies": float(r["plies"].mean()),
        })

    # --- matches: the client keeps the record and sends it back with every step ---
    @app.post(f"{API}/match/new", tags=["matches"])
    def match_new(body: MatchNewRequest) -> JSONResponse:
        if body.kind not in MATCH_KINDS:
            raise ApiError("kind", f"unknown match kind {body.kind!r} (known: {', '.join(MATCH_KINDS)})")
        with _field("target"):
            m = tavli.Match(body.kind, body.target)
        return JSONResponse(_match_state(m))

    @app.post(f"{API}/match/opening", tags=["matches"])
    def match_opening(body: MatchRequest) -> JSONResponse:
        m = _match(body.record)
        white, black = _dice(body.dice)
        with _field("record"):
            m.roll_opening(white, black)
        return JSONResponse(_match_state(m))

    @app.post(f"{API}/match/play", tags=["matches"])
    def match_play(body: MatchPlayRequest) -> JSONResponse:
        m = _match(body.record)
        dice = _dice(body.dice)
        board = m.board
        p = _play(board, body.play, dice)
        played = forms.play_to_dict(board, p)
        with _field("play"):
            m.play(p)
        return JSONResponse(_match_state(m, played))

    @app.post(f"{API}/match/move", tags=["matches"])
    def match_move(body: MatchMoveRequest) -> JSONResponse:
        m = _match(body.record)
        dice = _dice(body.dice)
        if m.phase != "playing":
            raise ApiError("record", f"no play is due: the match is at {m.phase!r}")
        if m.forced_dice is not None and tuple(m.forced_dice) != dice:
            raise ApiError("dice", f"the first play of this game must use the opening dice {list(m.forced_dice)}")
        board = m.board
        best, _ = _best_play(board, dice, body.plies, body.time_limit)
        played = forms.play_to_dict(board, best)
        with _field("play"):
            m.play(best)
        return JSONResponse(_match_state(m, played))

    from .records import add_routes as add_record_routes  # POST /record/open: the record viewer's data

    add_record_routes(app, API, ApiError)
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, **uvicorn_options: Any) -> None:
    """Runs the API with uvicorn (blocking; Ctrl-C stops it)."""
    import uvicorn

    uvicorn.run(create_app(), host=host, port=port, **uvicorn_options)
