"""The API's rollout endpoint (docs/server.md): POST /api/v1/rollout estimates a position before
the roll by playing it out (Board.rollout: seeded, the same for any thread count) under the
request's CPU budget; a rollout that would not finish in it is refused, never cut short (a partial
rollout would depend on the machine's speed). With a cube or match field it is a cubeful rollout of
the cube decision (tavli.cube_rollout.decide); with dice, a rollout of the roll's best plays on the
same dice (Board.rollout_plays; with a cube or match field, cubefully). This module only converts
and bounds the work.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Literal

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from tavli._base.dice import parse_dice
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
    variance_reduction: bool = Field(False, description="gnubg's luck adjustment: each trial less the luck of its "
                                     "rolls (a lookahead over the 21 rolls): a smaller standard error for about 20 "
                                     "times the work per trial (greedy and heuristic players).")
    cube: dict[str, Any] | None = Field(None, description="#/$defs/cubeState: with it (or match) a cubeful rollout "
                                        "of the cube decision, No double and Double/take on the same dice "
                                        "(backgammon, nackgammon, hypergammon; player greedy or heuristic).")
    match: dict[str, Any] | None = Field(None, description="#/$defs/matchScore (default money play); as cube.")
    dice: Any = Field(None, description="A roll, [d1, d2] or \"6-5\": roll out its best `candidates` plays (by "
                      "0-ply) on the same dice instead (cubefully with cube or match), best first, each with its "
                      "difference from the best and that difference's error from the paired trials.",
                      examples=[[6, 5]])
    candidates: int = Field(5, ge=1, le=32, description="With dice: the plays rolled out.")


def rollout_to_json(r: Any) -> dict[str, Any]:
    return {"probabilities": forms.probabilities_to_dict(r.probabilities), "equity": r.equity,
            "std_errors": forms.probabilities_to_dict(r.std_errors), "equity_std_error": r.equity_std_error,
            "equity_ci95": Z95 * r.equity_std_error, "trials": r.trials, "truncated": r.truncated}


def cubeful_value_to_json(r: Any) -> dict[str, Any]:
    """A cubeful value (tavli.cube_rollout.CubefulRollout): money per unit of the cube or match EMG,
    the MWC in match play (null in money play), standard errors and 95% half-widths."""
    return {"equity": r.equity, "equity_std_error": r.equity_std_error, "equity_ci95": Z95 * r.equity_std_error,
            "mwc": r.mwc, "mwc_std_error": r.mwc_std_error,
            "mwc_ci95": None if r.mwc_std_error is None else Z95 * r.mwc_std_error,
            "trials": r.trials, "truncated": r.truncated}


def cubeful_rollout_to_json(d: Any, board: Any) -> dict[str, Any]:
    """#/$defs/cubeDecision and the rollout's standard errors (95% intervals beside them)."""
    from .cube import decision_to_json

    out = decision_to_json(d, board)
    for name in ("nd", "dt", "nd_mwc", "dt_mwc", "difference"):
        se = getattr(d, f"{name}_std_error")
        out[f"{name}_std_error"] = se
        out[f"{name}_ci95"] = None if se is None else Z95 * se
    out["trials"], out["truncated"] = d.trials, d.truncated
    return out


def add_routes(app: FastAPI, api: str, api_error: Callable[..., Exception],
               run: Callable[..., Awaitable[JSONResponse]]) -> None:
    """Adds POST {api}/rollout: `run(fn, body)` queues fn(body, budget) on the app's work pool;
    `api_error(field, message)` is the refusal."""
    from .cube import cube_from_json, match_from_json, position_from_json

    def field(name: str, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except (ValueError, TypeError) as e:
            raise api_error(name, str(e)) from None

    def cube_and_match(body: RolloutRequest) -> tuple[Any, Any]:
        """The request's cube and match for a cubeful rollout, and a player that handles the cube."""
        cube = field("cube", lambda: cube_from_json(body.cube or {}))
        match = field("match", lambda: match_from_json(body.match or {}))
        if body.player == "random":
            raise api_error("player", "a cubeful rollout needs the greedy or heuristic player (a random one makes no "
                            "cube decisions)")
        return cube, match

    def roll_out_cubefully(body: RolloutRequest, board: Any, budget: Any) -> JSONResponse:
        from tavli.cube_rollout import decide

        cube, match = cube_and_match(body)
        try:
            d = decide(board, cube, match, body.trials, body.player, truncate=body.truncate, seed=body.seed,
                       variance_reduction=body.variance_reduction, time_limit=max(budget.left(), 0.001))
        except TimeoutError:
            raise api_error("trials", f"{body.trials} cubeful trials do not fit in the request's CPU budget "
                            f"({budget.seconds:g} s): ask for fewer, or truncate them") from None
        except ValueError as e:  # the cube or the score does not fit the game or the table
            raise api_error("match" if "match" in str(e) or body.cube is None else "cube", str(e)) from None
        return JSONResponse(cubeful_rollout_to_json(d, board))

    def roll_out_plays(body: RolloutRequest, board: Any, budget: Any) -> JSONResponse:
        from tavli.io.forms import play_to_dict

        dice = field("dice", lambda: parse_dice(tuple(body.dice) if isinstance(body.dice, list) else body.dice))
        cubeful = body.cube is not None or body.match is not None
        cube, match = cube_and_match(body) if cubeful else (None, None)
        try:
            r = board.rollout_plays(dice, body.candidates, body.trials, body.player, cube=cube, match=match,
                                    truncate=body.truncate, seed=body.seed, variance_reduction=body.variance_reduction,
                                    time_limit=max(budget.left(), 0.001))
        except TimeoutError:
            raise api_error("trials", f"{body.trials} trials of {body.candidates} plays do not fit in the request's "
                            f"CPU budget ({budget.seconds:g} s): ask for fewer, or truncate them") from None
        except ValueError as e:
            message = str(e)
            name = ("variance_reduction" if "variance_reduction" in message else "cube" if cubeful and "cube" in message
                    else "match" if cubeful and "match" in message else "position")
            raise api_error(name, message) from None
        value = cubeful_value_to_json if cubeful else rollout_to_json
        return JSONResponse({"plays": [{"play": play_to_dict(board, p.play), "rollout": value(p.rollout),
                                        "difference": p.difference, "difference_std_error": p.difference_std_error,
                                        "difference_ci95": Z95 * p.difference_std_error} for p in r],
                             "trials": body.trials})

    def roll_out(body: RolloutRequest, budget: Any) -> JSONResponse:
        try:
            board = position_from_json(body.position, body.variant)[0]
        except (ValueError, TypeError) as e:
            raise api_error("position", str(e)) from None
        if board.is_game_over():
            raise api_error("position", "the game is over: nothing to roll out")
        if body.dice is not None:
            return roll_out_plays(body, board, budget)
        if body.cube is not None or body.match is not None:
            return roll_out_cubefully(body, board, budget)
        try:
            r = board.rollout(body.trials, body.player, truncate=body.truncate, seed=body.seed,
                              variance_reduction=body.variance_reduction, time_limit=max(budget.left(), 0.001))
        except TimeoutError:
            raise api_error("trials", f"{body.trials} trials do not fit in the request's CPU budget "
                            f"({budget.seconds:g} s): ask for fewer, or truncate them") from None
        except ValueError as e:
            raise api_error("variance_reduction" if "variance_reduction" in str(e) else "position", str(e)) from None
        return JSONResponse(rollout_to_json(r))

    @app.post(f"{api}/rollout", tags=["analysis"])
    async def rollout(body: RolloutRequest) -> JSONResponse:
        return await run(roll_out, body)
