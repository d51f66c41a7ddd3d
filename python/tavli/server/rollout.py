"""The API's rollout endpoint (docs/server.md): POST /api/v1/rollout estimates a position before
the roll by playing it out (Board.rollout: seeded, the same for any thread count) under the
request's CPU budget; a rollout that would not finish in it is refused, never cut short (a partial
rollout would depend on the machine's speed). This module only converts and bounds the work.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Literal

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from tavli.io import forms

Z95 = 1.959963984540054  # a two-sided 95% interval of a mean from its standard error


class RolloutRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    position: Any = Field(description="A position dict or tavli position ID (#/$defs/positionRef), or an XGID or GNU "
                          "PositionID[:MatchID] (#/$defs/positionText).")
    variant: str = Field("backgammon", description="The game of an XGID or GNU ID.")
    trials: int = Field(144, ge=1, le=1296, description="Games played out; multiples of 36 stratify the first roll.")
    player: Literal["greedy", "heuristic", "random"] = Field("greedy", description="The play on both sides (0-ply).")
    truncate: int | None = Field(None, ge=1, le=1000, description="Value each trial by the evaluator after so many plies.")
    seed: int = Field(0, ge=0, le=2**53, description="Trial i plays with the generator (seed, i).")


def rollout_to_json(r: Any) -> dict[str, Any]:
    return {"probabilities": forms.probabilities_to_dict(r.probabilities), "equity": r.equity,
            "std_errors": forms.probabilities_to_dict(r.std_errors), "equity_std_error": r.equity_std_error,
            "equity_ci95": Z95 * r.equity_std_error, "trials": r.trials, "truncated": r.truncated}


def add_routes(app: FastAPI, api: str, api_error: Callable[..., Exception],
               run: Callable[..., Awaitable[JSONResponse]]) -> None:
    """Adds POST {api}/rollout: `run(fn, body)` queues fn(body, budget) on the app's work pool;
    `api_error(field, message)` is the refusal."""
    from .cube import position_from_json

    def roll_out(body: RolloutRequest, budget: Any) -> JSONResponse:
        try:
            board = position_from_json(body.position, body.variant)[0]
        except (ValueError, TypeError) as e:
            raise api_error("position", str(e)) from None
        if board.is_game_over():
            raise api_error("position", "the game is over: nothing to roll out")
        try:
            r = board.rollout(body.trials, body.player, truncate=body.truncate, seed=body.seed,
                              time_limit=max(budget.left(), 0.001))
        except TimeoutError:
            raise api_error("trials", f"{body.trials} trials do not fit in the request's CPU budget "
                            f"({budget.seconds:g} s): ask for fewer, or truncate them") from None
        except ValueError as e:
            raise api_error("position", str(e)) from None
        return JSONResponse(rollout_to_json(r))

    @app.post(f"{api}/rollout", tags=["analysis"])
    async def rollout(body: RolloutRequest) -> JSONResponse:
        return await run(roll_out, body)
