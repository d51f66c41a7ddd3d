"""The review's cube side: cube decisions judged as GNU Backgammon's "analyse match" judges them,
and checker plays valued in match winning chances at the match score.

Cube decisions (gnubg analysis.c AnalyzeMove / updateStatcontext, eval.c isCloseCubedecision):
* The decision of the player on roll is `Board.cube_decision` on the position's cubeless
  probabilities searched `plies` deep, through the 0-ply cubeful formula (Janowski's, tavli.cube;
  not gnubg's cubeful n-ply search, which puts cube decisions inside the tree). nd, dt, dp are
  EMG for the player on roll (dp = +1), MWC in percent at match scores.
* A double: the doubler's choice is Double (worth min(dt, dp)) against the best,
  max(nd, min(dt, dp)). The answer: Take (-dt) or Pass (-dp) for the taker. A turn where the
  player on roll could double (tavli.cube's `available`: the cube centred or his, not the Crawford
  game, below the maximum, not dead for him at the score) and did not: No double (nd) against the
  same best. gnubg evaluates the cube at every such turn but the first of a game, and counts it as
  a cube decision only when it is "close or actual": a double, take or pass, or a No double where
  doubling would have cost less than 0.16 (best - min(dt, dp) < 0.16, its very-bad threshold) -
  which includes every missed double. The error classes are gnubg's statistics rows: missed
  doubles below/above the cash point (dt <= dp / dt > dp), wrong doubles below the double point /
  above the too-good point (nd > dp), wrong takes, wrong passes.
* Losses in EMG (normalised: per unit of the cube) and, at match scores, in MWC (percent); marks
  with the checker plays' thresholds (gnubg uses arSkillLevel for both).

Checker plays at match scores: a play's cubeless probabilities (as searched for the review) in
MWC at the score with the dead-cube formula of tavli.cube (each outcome's match equity after the
game from the table: gammons worth the score's gammon values), and in EMG by gnubg's mwc2eq
(linear, winning the cube's value +1, losing it -1). That is tavli.cube.decide at cube efficiency 0.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .. import _core
from ..board import Board
from ..cube import CubeDecision, CubeState, MatchState, decide
from ..results import Probabilities

CLOSE_THRESHOLD = 0.16  # gnubg eval.c isCloseCubedecision: doubling costs less than a very bad error
ERROR_CLASSES = ("missed doubles below CP", "missed doubles above CP", "wrong doubles below DP",
                 "wrong doubles above TG", "wrong takes", "wrong passes")
DECISIONS = ("no double", "double", "take", "pass")


@dataclass
class CubeJudgement:
    """One cube decision judged. Equities are EMG from the point of view of the player who decides
    (the doubler for "no double"/"double", the taker for "take"/"pass"); nd, dt, dp are the
    doubler's. MWC values are percent, None in money play."""

    decision: str  # what was done: "no double", "double", "take", "pass"
    proper: str  # the doubler's proper action (CubeDecision.action)
    proper_answer: str  # the taker's proper answer ("take", "pass", "beaver")
    nd: float
    dt: float
    dp: float
    nd_mwc: float | None
    dt_mwc: float | None
    dp_mwc: float | None
    equity_taken: float
    equity_best: float
    loss: float  # equity_best - equity_taken >= 0
    mwc_taken: float | None
    mwc_best: float | None
    loss_mwc: float | None
    mark: str
    error: str  # one of ERROR_CLASSES, or ""
    close: bool  # counts as a cube decision ("close or actual")
    probabilities: list[float]
    efficiency: float
    plies: int

    @property
    def loss_mp(self) -> float:
        return 1000.0 * self.loss


def takes_cube(variant: str) -> bool:
    return bool(_core._variant_takes_cube(variant))


def states(value: int, owner: int | None, length: int, score: tuple[int, int], crawford: bool,
           jacoby: bool) -> tuple[CubeState, MatchState]:
    """The core's cube and match state for a point of a record."""
    if length:
        # a record marks a 1-point match's only game Crawford (a side at length - 1); the core's
        # Crawford game has exactly one side at one-away (both there: the cube is dead anyway)
        crawford = crawford and list(score).count(length - 1) == 1
        return CubeState(value, owner), MatchState(length, (score[0], score[1]), crawford)
    return CubeState(value, owner, jacoby=jacoby), MatchState()


def available(board: Board, cube: CubeState, match: MatchState) -> bool:
    """Whether the player on roll may double (the decision's `available`; the probabilities do not
    matter for it)."""
    return board.cube_decision(cube, match, probabilities=(0.5, 0.0, 0.0, 0.0, 0.0)).available


def evaluate(board: Board, cube: CubeState, match: MatchState, plies: int, *, threads: int = 1,
             evaluator: Any = None, met: Any = None) -> CubeDecision:
    """The cube decision of the player on roll: the cubeless `plies`-deep probabilities through the
    0-ply cubeful formula."""
    probs = board.evaluate(plies, threads=threads, evaluator=evaluator).probabilities
    return replace(board.cube_decision(cube, match, probabilities=probs, met=met), plies=plies)


def _pct(x: float | None) -> float | None:
    return None if x is None else 100.0 * x


def judge(d: CubeDecision, decision: str) -> CubeJudgement:
    """Judges `decision` (DECISIONS) against the cube decision `d` of the doubler's position."""
    from . import mark

    if decision not in DECISIONS:
        raise ValueError(f"decision must be one of {DECISIONS}, got {decision!r}")
    if d.dt is None or d.dp is None:
        raise ValueError("the cube was not available to the player on roll: no cube decision to judge")
    nd, dt, dp = d.nd, d.dt, d.dp
    doubled = min(dt, dp)
    optimal = max(nd, doubled)
    match = d.nd_mwc is not None
    if match:
        assert d.nd_mwc is not None and d.dt_mwc is not None and d.dp_mwc is not None
        nd_m, dt_m, dp_m = d.nd_mwc, d.dt_mwc, d.dp_mwc
        doubled_m = min(dt_m, dp_m)
        optimal_m = max(nd_m, doubled_m)
    close = True
    error = ""
    if decision in ("no double", "double"):
        taken = nd if decision == "no double" else doubled
        best = optimal
        if match:
            taken_m: float | None = nd_m if decision == "no double" else doubled_m
            best_m: float | None = optimal_m
        if decision == "no double":
            close = optimal - doubled < CLOSE_THRESHOLD
            if nd < optimal:
                error = ERROR_CLASSES[1] if dt > dp else ERROR_CLASSES[0]
        elif doubled < optimal:
            error = ERROR_CLASSES[3] if nd > dp else ERROR_CLASSES[2]
    else:  # the taker's view: he gets -dt taking, -dp passing
        taken = -dt if decision == "take" else -dp
        best = max(-dt, -dp)
        if match:
            taken_m = 1.0 - (dt_m if decision == "take" else dp_m)
            best_m = 1.0 - min(dt_m, dp_m)
        if taken < best:
            error = ERROR_CLASSES[4] if decision == "take" else ERROR_CLASSES[5]
    loss = max(0.0, best - taken)
    if not match:
        taken_m = best_m = None
    loss_m = None if taken_m is None or best_m is None else max(0.0, best_m - taken_m)
    return CubeJudgement(decision, d.action, d.take, nd, dt, dp, _pct(d.nd_mwc), _pct(d.dt_mwc), _pct(d.dp_mwc),
                         taken, best, loss, _pct(taken_m), _pct(best_m), _pct(loss_m), mark(loss), error, close,
                         [float(v) for v in d.probabilities[:5]], d.efficiency, d.plies if d.plies is not None else 0)


def flip(p: Probabilities) -> Probabilities:
    """The same outcome probabilities seen by the other side."""
    return Probabilities(1.0 - p.win - p.draw, p.lose_double, p.lose_triple, p.win_double, p.win_triple, p.draw,
                         -p.margin)


def at_score(p: Probabilities, player: int, cube: CubeState, match: MatchState, met: Any = None) -> tuple[float, float]:
    """(EMG, MWC as a fraction) of cubeless probabilities `p` of `player` at the match score: the
    dead-cube conversion of tavli.cube (decide at cube efficiency 0)."""
    d = decide(p, cube, match, mover=player, efficiency=0.0, met=met)
    assert d.nd_mwc is not None
    return d.nd, d.nd_mwc
