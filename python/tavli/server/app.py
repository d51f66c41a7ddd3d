"""The HTTP API v1 (docs/server.md): a FastAPI app over the Board, Match and simulate APIs.

Every engine call runs in the app's bounded work pool (server/work.py), never on the event loop,
so /health and the other facts are answered at once whatever the engine does; a full queue is
refused with 503 and Retry-After. Every request is bounded: body size and framing
(server/framing.py), plies, games, match length, and a CPU-time budget (CPU_BUDGET seconds by
default): checked on admission by a cost estimate, then passed to the engine as its time limit,
and between the chunks of a simulation. Every error is a JSON body
{"error": {"field": ..., "message": ...}} naming the request field at fault.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, AsyncIterator, Iterator, Sequence

import numpy as np

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

import tavli
from tavli.io import forms
from tavli._base.dice import parse_dice
from tavli.match import KINDS as MATCH_KINDS
from tavli.match_play import NO_UTILITY
from tavli.jobs.simulate import KINDS as RESULT_KINDS

from .cors import add_cors, checked_origins
from .docs import offline_docs_app
from .framing import RequestFraming, error_response
from .work import AdmitWhenRoom, Budget, Busy, WorkPool, call_within, default_workers

MAX_BODY_BYTES = 1_000_000
MAX_PLIES = 3
# The default CPU-time budget of one request, in seconds: the most any request may cost.
CPU_BUDGET = 5.0
MAX_TIME_LIMIT = CPU_BUDGET  # a search's time_limit; also its default, so no search runs unbounded
MAX_SIM_GAMES = 2000
MAX_MATCH_GAMES = 200
# The CPU seconds one player spends on one game, for the admission estimate of /simulate (summed
# over both players): the slowest variant's, measured on the 2-core development machine, rounded
# up (fevga: search:1 0.39 s, greedy 3.8 ms, random 0.04 ms per player and game).
SIM_PLAYERS = {"random": 0.0001, "greedy": 0.005, "search:1": 0.5}
SIM_CHUNK_SECONDS = 0.25  # a simulation checks its budget after every chunk of about this much work
WAITING_PER_WORKER = 8  # the default queue: this many waiting requests per worker,
MIN_WAITING = 32  # and at least this many (a one-core host still takes a burst of small requests)
STATIC_DIR = Path(__file__).resolve().parent / "static"
API = "/api/v1"

_PLACEHOLDER_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tavli</title></head>
<body><h1>tavli</h1><p>The web page is not installed; the API is at <a href="/docs">/docs</a>.</p></body></html>
"""


# --- errors -----------------------------------------------------------------------------------------
class ApiError(Exception):
    """A refused request: the field at fault (None: the request as a whole), why, and the status."""

    def __init__(self, field: str | None, message: str, status: int = 422,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.status = status
        self.headers = headers


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
    return error_response(422, field or "body", message)


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
    cube: dict[str, Any] | None = Field(
        None, description="#/$defs/cubeState: rank the plays with this cube (a game with the cube); default the "
        "position's XGID or Match ID's, if any.")
    match: dict[str, Any] | None = Field(
        None, description="#/$defs/matchScore: rank the plays at this score; default the position's XGID or Match "
        "ID's, if any. Without a cube or a score the plays are ranked by cubeless money equity.")
    eval_mode: str = Field(
        "cubeless", description="How the plays are ranked (tavli.context_play): cubeless (money equity; at a match "
        "score by match winning chance, the cube dead at its value) or cubeful (a game with the cube: the cubeful "
        "search with the cube and score, money or match).", examples=["cubeful"])


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
    cube: dict[str, Any] | None = Field(None, description="The doubling cube to draw (#/$defs/cubeState; games with a cube).")


class SimulateRequest(_Body):
    variant: str = Field("fevga", examples=["fevga"])
    options: dict[str, Any] = {}
    games: int = Field(100, ge=1, le=MAX_SIM_GAMES,
                       description=f"1..{MAX_SIM_GAMES}, and within the CPU budget (docs/server.md).")
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
    from .cube import position_from_json  # tavli's forms, and backgammon's XGIDs and gnubg IDs

    with _field("position"):
        return position_from_json(value)[0]


def _dice(value: Any, field: str = "dice") -> tuple[int, int]:
    with _field(field):
        return parse_dice(tuple(value) if isinstance(value, list) else value)


def _play(board: tavli.Board, value: Any, dice: tuple[int, int]) -> tavli.Play:
    with _field("play"):
        return forms.play_from_dict(board, value, dice)


def _best_play(board: tavli.Board, dice: tuple[int, int], plies: int, time_limit: float,
               budget: Budget) -> tuple[tavli.Play, float]:
    with _field("position"):
        best = call_within(board.analyze, budget, dice, plies=plies, time_limit=time_limit).best
    return best.play, best.equity


def _ranked(body: SearchRequest, budget: Budget) -> tuple[tavli.Board, tuple[int, int], Any, Any, Any]:
    """(board, dice, cube, match, ranking) of /move and /analyze: at a match score (given, or carried by
    an XGID / Match ID) or with eval_mode cubeful, the plays ranked in that context
    (tavli.context_play); else ranking None (Board.analyze's money ranking is the caller's)."""
    from tavli import context_play

    from .cube import position_and_context

    board, cube, match = position_and_context(body.position, "backgammon", body.cube, body.match, ApiError)
    dice = _dice(body.dice)
    with _field("eval_mode"):
        cubeful = context_play.uses_cubeful_search(board.variant, body.eval_mode)
    if not cubeful and (match is None or match.money):
        return board, dice, cube, match, None
    with _field("position"):
        ranking = call_within(context_play.rank_plays, budget, board, dice, cube, match, body.eval_mode, body.plies,
                              time_limit=body.time_limit)
    return board, dice, cube, match, ranking


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


def _players(specs: list[str], games: int, cpu_budget: float) -> list[str]:
    """The players, if `games` of them fit the CPU budget: the estimate sums both players' costs."""
    for spec in specs:
        if spec not in SIM_PLAYERS:
            raise ApiError("players", f"unknown player {spec!r}: use {', '.join(map(repr, SIM_PLAYERS))}")
    per_game = sum(SIM_PLAYERS[s] for s in specs)
    if games * per_game > cpu_budget:
        raise ApiError("games", f"at most {int(cpu_budget / per_game)} games with these players "
                                f"(about {per_game:g} CPU s a game; the budget is {cpu_budget:g} s)")
    return specs


def _variant(name: str) -> str:
    with _field("variant"):
        return tavli._core.canonical_variant(name)


# The per-game facts GET /variants gives a frontend, from the core's variant table
# (tavli.variant_info): which way the sides move, whether the opening dice are the starter's first
# roll, who starts a match's later games, the default match target, and the cube.
_GAME_FACTS = ("movement", "opening", "next_starter", "match_target")


def _variant_facts(variant: str) -> dict[str, Any]:
    info = tavli.variant_info(variant)
    return {"name": variant, "options": tavli.variant_options(variant), "cube": bool(info["takes_cube"]),
            **{k: info[k] for k in _GAME_FACTS}}


# --- the work of each endpoint, run in the work pool: (request body, budget) -> response --------------------
def _new(body: NewRequest, budget: Budget) -> JSONResponse:
    variant = _variant(body.variant)
    with _field("options"):
        board = tavli.Board(variant, **body.options)
    return JSONResponse({"position": board.to_dict(), "id": board.id()})


def _roll(body: RollRequest, budget: Budget) -> JSONResponse:
    # 53 bits: the seed survives a round trip through a JavaScript number
    seed = int.from_bytes(os.urandom(8), "little") >> 11 if body.seed is None else body.seed
    return JSONResponse(forms.roll_to_dict(tavli.Rng(seed).roll(), seed))


def _plays(body: PositionDiceRequest, budget: Budget) -> JSONResponse:
    board, dice = _board(body.position), _dice(body.dice)
    with _field("position"):
        legal = board.legal_plays(dice)
    return JSONResponse({"plays": [forms.play_to_dict(board, p) for p in legal]})


def _play_one(body: PlayRequest, budget: Budget) -> JSONResponse:
    board, dice = _board(body.position), _dice(body.dice)
    return JSONResponse(_after_play(board, _play(board, body.play, dice)))


def _move(body: SearchRequest, budget: Budget) -> JSONResponse:
    board, dice, _, _, ranking = _ranked(body, budget)
    if ranking is None:
        best, equity = _best_play(board, dice, body.plies, body.time_limit, budget)
        return JSONResponse({**_after_play(board, best), "equity": equity})
    out = {**_after_play(board, ranking.best.play), "equity": ranking.best.equity, "cubeful": ranking.cubeful}
    if ranking.best.mwc is not None:
        out["mwc"] = ranking.best.mwc
    return JSONResponse(out)


def _analyze(body: AnalyzeRequest, budget: Budget) -> JSONResponse:
    board, dice, cube, match, ranking = _ranked(body, budget)
    if ranking is None:
        with _field("position"):
            analysis = call_within(board.analyze, budget, dice, plies=body.plies, time_limit=body.time_limit)
        return JSONResponse(forms.analysis_to_dict(board, analysis, top=body.top))
    return JSONResponse(forms.ranking_to_dict(board, ranking, cube, match, top=body.top))


def _evaluate(body: EvaluateRequest, budget: Budget) -> JSONResponse:
    board = _board(body.position)
    with _field("position"):
        evaluation = call_within(board.evaluate, budget, plies=body.plies, time_limit=body.time_limit)
    return JSONResponse(forms.evaluation_to_dict(evaluation))


def _render(body: RenderRequest, budget: Budget) -> Response:
    try:
        from tavli.io.svg import board_svg
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
    cube = None
    if body.cube is not None:
        from .cube import cube_from_json

        with _field("cube"):
            cube = cube_from_json(body.cube)
            if not tavli._core._variant_takes_cube(board.variant):
                raise ValueError(f"{board.variant} has no doubling cube")
    with _field("position"):
        svg = board_svg(board, dice=dice, play=play, viewer=body.viewer, highlight=tuple(body.highlight), cube=cube)
    return Response(svg, media_type="image/svg+xml")


def _simulated(variant: str, games: int, players: list[str], seed: int, options: dict[str, Any],
               budget: Budget) -> dict[str, np.ndarray]:
    """Games 0.. of the seed's sequence in chunks of about SIM_CHUNK_SECONDS, until all are played or
    the budget is spent (the games played are those of one whole run: game i is seeded by (seed, i)).
    No games at all when the budget ran out inside the first chunk (empty arrays)."""
    per_game = sum(SIM_PLAYERS[s] for s in players)
    chunk = max(1, int(min(SIM_CHUNK_SECONDS, budget.seconds / 4) / per_game))
    parts: list[dict[str, np.ndarray]] = []
    played = 0
    while played < games and (not parts or budget.left() > 0):  # the first chunk always runs
        n = min(chunk, games - played)
        try:
            parts.append(call_within(tavli.simulate, budget, variant, n, players, seed=seed, threads=1, chunk=n,
                                     first_game=played, **options))
        except TimeoutError:  # the budget ran out inside this chunk, which returns nothing partial
            break
        played += n
    keys = ("winner", "points", "kind", "plies")
    return {k: np.concatenate([p[k] for p in parts]) if parts else np.zeros(0, np.int64) for k in keys}


def _simulate(body: SimulateRequest, budget: Budget) -> JSONResponse:
    variant = _variant(body.variant)
    with _field("options"):
        # through a Board first: only rule options may reach simulate's keyword arguments
        options = tavli.Board(variant, **body.options).options
    r = _simulated(variant, body.games, body.players, body.seed, options, budget)
    winner, points, kind = r["winner"], r["points"], r["kind"]
    return JSONResponse({
        "variant": variant,
        "options": options,
        "games": len(winner),
        "interrupted": len(winner) < body.games,
        "players": body.players,
        "seed": body.seed,
        "wins": [int((winner == 0).sum()), int((winner == 1).sum())],
        "draws": int((kind == 5).sum()),
        "unfinished": int((kind == 0).sum()),
        "points": [int(points[winner == 0].sum()), int(points[winner == 1].sum())],
        "kinds": {name: int((kind == k).sum()) for k, name in RESULT_KINDS.items() if (kind == k).any()},
        "mean_plies": float(r["plies"].mean()) if len(winner) else None,  # no mean of no games
    })


def _match_new(body: MatchNewRequest, budget: Budget) -> JSONResponse:
    if body.kind not in MATCH_KINDS:
        raise ApiError("kind", f"unknown match kind {body.kind!r} (known: {', '.join(MATCH_KINDS)})")
    with _field("target"):
        m = tavli.Match(body.kind, body.target)
    return JSONResponse(_match_state(m))


def _match_opening(body: MatchRequest, budget: Budget) -> JSONResponse:
    m = _match(body.record)
    white, black = _dice(body.dice)
    with _field("record"):
        m.roll_opening(white, black)
    return JSONResponse(_match_state(m))


def _match_play(body: MatchPlayRequest, budget: Budget) -> JSONResponse:
    m = _match(body.record)
    dice = _dice(body.dice)
    board = m.board
    p = _play(board, body.play, dice)
    played = forms.play_to_dict(board, p)
    with _field("play"):
        m.play(p)
    return JSONResponse(_match_state(m, played))


def _match_move(body: MatchMoveRequest, budget: Budget) -> JSONResponse:
    m = _match(body.record)
    dice = _dice(body.dice)
    if m.phase != "playing":
        raise ApiError("record", f"no play is due: the match is at {m.phase!r}")
    if m.forced_dice is not None and tuple(m.forced_dice) != dice:
        raise ApiError("dice", f"the first play of this game must use the opening dice {list(m.forced_dice)}")
    board = m.board
    if board.variant in NO_UTILITY:  # scored by checkers: no match winning chance to rank by
        best, _ = _best_play(board, dice, body.plies, body.time_limit, budget)
    else:  # ranked by match winning chance at the match's score (tavli.match_play)
        with _field("record"):
            best = m.analyze(dice, body.plies, time_limit=min(body.time_limit, max(budget.left(), 0.001)))[0].play
    played = forms.play_to_dict(board, best)
    with _field("play"):
        m.play(best)
    return JSONResponse(_match_state(m, played))


# --- the app ----------------------------------------------------------------------------------------
def _build_engine_tables() -> None:
    """Builds the engine's one-time table now: the one-sided bear-off table (about a CPU second),
    which the first evaluation of a race with every checker home would otherwise build inside
    some request, past that request's budget (a search's static level is never interrupted)."""
    last_checkers = [0] * 23 + [1]
    tavli.Board.from_dict({"variant": "backgammon", "turn": 0, "mover": last_checkers, "opponent": last_checkers,
                           "bar": [0, 0], "off": [14, 14]}).evaluate(plies=0, evaluator="heuristic")


def _busy(exc: Busy) -> JSONResponse:
    return error_response(503, None, str(exc), {"Retry-After": str(exc.retry_after)})


def create_app(*, workers: int | None = None, queue: int | None = None, cpu_budget: float = CPU_BUDGET,
               cors_origins: Sequence[str] = ()) -> FastAPI:
    """The app. `workers`: engine threads (default: the CPUs this process may use); `queue`: requests
    that may wait for one (default WAITING_PER_WORKER per worker, at least MIN_WAITING; more get
    503 + Retry-After);
    `cpu_budget`: the CPU seconds one request may cost (default CPU_BUDGET, at most that);
    `cors_origins`: the web origins ("https://example.org", or "*" for any) whose pages may call the
    API from a browser (server/cors.py; none by default)."""
    workers = default_workers() if workers is None else workers
    if not 0 < cpu_budget <= CPU_BUDGET:
        raise ValueError(f"cpu_budget must be over 0 and at most {CPU_BUDGET} s, got {cpu_budget!r}")
    origins = checked_origins(cors_origins)
    queue = max(MIN_WAITING, WAITING_PER_WORKER * workers) if queue is None else queue
    pool = WorkPool(workers, queue, cpu_budget)
    _build_engine_tables()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        pool.shutdown()

    app = offline_docs_app(  # FastAPI, with /docs and /redoc served from the package (server/docs.py)
        title="tavli",
        version=tavli.__version__,
        description="The tavli engine over HTTP: positions, legal plays, analysis, self-play and matches. "
        "JSON forms: GET /api/v1/schema (docs/json.md). Errors: {\"error\": {\"field\", \"message\"}}. "
        f"Every request costs at most {cpu_budget:g} CPU seconds; 503 with Retry-After when the queue is full.",
        lifespan=lifespan,
    )
    app.add_middleware(AdmitWhenRoom, pool=pool, is_work=lambda scope: scope["method"] == "POST", refuse=_busy)
    app.add_middleware(RequestFraming, max_bytes=MAX_BODY_BYTES)
    add_cors(app, origins)  # added last: runs first, so its headers reach every answer, refusals too

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.field, exc.message, exc.headers)

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy) -> JSONResponse:
        return _busy(exc)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _validation_error(exc)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:  # a bug: still JSON
        return error_response(500, None, f"internal error: {type(exc).__name__}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return error_response(exc.status_code, "body" if exc.status_code == 413 else None, str(exc.detail))

    # --- the page ---
    @app.get("/", include_in_schema=False)
    def index() -> Response:
        page = STATIC_DIR / "index.html"
        return FileResponse(page) if page.is_file() else HTMLResponse(_PLACEHOLDER_PAGE)

    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    # --- facts: answered on the event loop from values made once, never queued behind work ---
    health_body = {"status": "ok", "version": tavli.__version__, "schema_version": forms.SCHEMA_VERSION,
                   "variants": tavli.variants()}
    variants_body = {
        "variants": [_variant_facts(v) for v in tavli.variants()],
        "match_kinds": list(MATCH_KINDS),
        "matches": [{"kind": k, "games": list(games), "target": target} for k, (games, target) in MATCH_KINDS.items()],
    }
    schema_body = forms.schema()

    @app.get(f"{API}/health", tags=["facts"])
    async def health() -> JSONResponse:
        return JSONResponse(health_body)

    @app.get(f"{API}/variants", tags=["facts"])
    async def variants() -> JSONResponse:
        return JSONResponse(variants_body)

    @app.get(f"{API}/schema", tags=["facts"])
    async def json_schema() -> JSONResponse:
        return JSONResponse(schema_body, media_type="application/schema+json")

    # --- positions and plays ---
    @app.post(f"{API}/new", tags=["positions"])
    async def new(body: NewRequest) -> JSONResponse:
        return await pool.run(_new, body)

    @app.post(f"{API}/roll", tags=["positions"])
    async def roll(body: RollRequest) -> JSONResponse:
        return await pool.run(_roll, body)

    @app.post(f"{API}/plays", tags=["positions"])
    async def plays(body: PositionDiceRequest) -> JSONResponse:
        return await pool.run(_plays, body)

    @app.post(f"{API}/play", tags=["positions"])
    async def play(body: PlayRequest) -> JSONResponse:
        return await pool.run(_play_one, body)

    @app.post(f"{API}/render", tags=["positions"], response_class=Response,
              responses={200: {"content": {"image/svg+xml": {}}, "description": "The board as an SVG document."}})
    async def render(body: RenderRequest) -> Response:
        return await pool.run(_render, body)

    # --- the engine's opinion: a search's time_limit is its cost estimate and its bound ---
    @app.post(f"{API}/move", tags=["analysis"])
    async def move(body: SearchRequest) -> JSONResponse:
        return await pool.run(_move, body)

    @app.post(f"{API}/analyze", tags=["analysis"])
    async def analyze(body: AnalyzeRequest) -> JSONResponse:
        return await pool.run(_analyze, body)

    @app.post(f"{API}/evaluate", tags=["analysis"])
    async def evaluate(body: EvaluateRequest) -> JSONResponse:
        return await pool.run(_evaluate, body)

    @app.post(f"{API}/simulate", tags=["analysis"])
    async def simulate(body: SimulateRequest) -> JSONResponse:
        _players(body.players, body.games, cpu_budget)  # the admission estimate, before queueing
        return await pool.run(_simulate, body)

    # --- matches: the client keeps the record and sends it back with every step ---
    @app.post(f"{API}/match/new", tags=["matches"])
    async def match_new(body: MatchNewRequest) -> JSONResponse:
        return await pool.run(_match_new, body)

    @app.post(f"{API}/match/opening", tags=["matches"])
    async def match_opening(body: MatchRequest) -> JSONResponse:
        return await pool.run(_match_opening, body)

    @app.post(f"{API}/match/play", tags=["matches"])
    async def match_play(body: MatchPlayRequest) -> JSONResponse:
        return await pool.run(_match_play, body)

    @app.post(f"{API}/match/move", tags=["matches"])
    async def match_move(body: MatchMoveRequest) -> JSONResponse:
        return await pool.run(_match_move, body)

    from .records import add_routes as add_record_routes  # POST /record/open: the record viewer's data

    add_record_routes(app, API, ApiError, pool.run)
    from .cube import add_routes as add_cube_routes  # POST /cube: the cube decision

    add_cube_routes(app, API, ApiError, pool.run, call_within)
    from .rollout import add_routes as add_rollout_routes  # POST /rollout: the page's rollout

    add_rollout_routes(app, API, ApiError, pool.run)
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, *, workers: int | None = None, queue: int | None = None,
          cors_origins: Sequence[str] = (), **uvicorn_options: Any) -> None:
    """Runs the API with uvicorn (blocking; Ctrl-C stops it); `workers`, `queue`, `cors_origins` as
    in create_app."""
    import uvicorn

    app = create_app(workers=workers, queue=queue, cors_origins=cors_origins)
    uvicorn.run(app, host=host, port=port, **uvicorn_options)
