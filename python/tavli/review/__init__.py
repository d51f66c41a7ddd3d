"""Review of a match record: every checker play and every cube decision judged by the engine,
the luck of every roll, and per player the error rates, gnubg's rating words for them, the luck
and the luck-adjusted result.

    rec = tavli.io.read("match.mat")
    rv = tavli.review.review(rec, plies=2, threads=2, progress=True)
    print(rv.table())                 # or rv.to_dict() (the review form of the review schema), rv.html()

Conventions, as GNU Backgammon's "analyse match":
* A play's equity is the cubeless equity (points per unit cube) for the side that plays it, the
  position after the play searched `plies` deep (Board.analyze; a play that the root filter cut is
  searched to the full depth on its own, so the play made is always judged at `plies`). The loss
  is best - played, in millipoints (mEMG at cube 1: normalised, as gnubg's error rates are).
* At match scores each play also in match winning chances (percent) and in EMG at the score
  (tavli.review_cube.at_score: the cubeless probabilities through the match equity table, as
  tavli.cube converts them): `mwc_played`, `mwc_best` (the best by MWC among the plays searched to
  full depth and the play made, `best_at_score`), `mwc` (the loss, percent) and `loss_emg`.
* Marks by loss, gnubg's default thresholds (gnubg.c arSkillLevel: very bad 0.160, bad 0.080,
  doubtful 0.040 equity), for checker plays and cube decisions alike.
* Cube decisions (Backgammon, Nackgammon, Hypergammon): each double, take and pass of the record,
  and each turn where the player on roll could double and did not, judged by tavli.review_cube
  (which turns count as cube decisions, the error classes: see there).
* Luck of a roll: the equity of the best play for that roll minus the average of the best plays
  over all 36 rolls (the 30 non-doubles for a first play that uses the opening roll), both at
  `luck_plies` (default 0, as gnubg's ecLuck in analysis.c). Rolls marked by gnubg's arLuckLevel
  (gnubg.c: very lucky >= 0.6, lucky >= 0.3, unlucky <= -0.3, very unlucky <= -0.6).
* A player's error rates (gnubg analysis.c getMWCFromError): checker play, the summed losses per
  unforced play (a play with one legal choice is not a decision); cube, the summed cube losses per
  cube decision ("close or actual"); overall, both sums per (unforced plays + cube decisions), the
  checker losses counted at the score (loss_emg) in a match. In mEMG, and in MWC (percent) at
  match scores. The rating words by gnubg's analysis.c GetRating (arThrsRating: error per move
  < 0.002 Supernatural, < 0.005 World class, < 0.008 Expert, < 0.012 Advanced, < 0.018
  Intermediate, < 0.026 Casual player, < 0.035 Beginner, else Awful!).
* The luck-adjusted result: points won - points lost - (own luck - the opponent's luck), luck
  counted in points (times the cube when it was rolled).
* `cube_judge(step) -> dict`, when given, replaces the built-in judgement of the record's cube
  actions (and the turns without a double are then not evaluated).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable

from .. import _core
from .._base.args import int_arg
from .._base.progress import reporter
from . import cube as RC
from ..board import Board
from ..cube import CubeDecision
from ..io.record import MatchRecord, Step, replay, validate
from ..match import OPENING

# gnubg.c arSkillLevel (defaults): equity-loss thresholds of the marks, worst first.
SKILL_THRESHOLDS = (("very bad", 0.160), ("bad", 0.080), ("doubtful", 0.040))
# gnubg.c arLuckLevel (defaults).
LUCK_THRESHOLDS = (("very lucky", 0.6), ("lucky", 0.3))
# gnubg analysis.c arThrsRating / aszRating: the best rating whose threshold the error per move is under.
RATINGS = (("Supernatural", 0.002), ("World class", 0.005), ("Expert", 0.008), ("Advanced", 0.012),
           ("Intermediate", 0.018), ("Casual player", 0.026), ("Beginner", 0.035))
WORST_RATING = "Awful!"

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def mark(loss: float) -> str:
    """gnubg's class of a play losing `loss` equity: "very bad", "bad", "doubtful" or ""."""
    for name, threshold in SKILL_THRESHOLDS:
        if loss >= threshold:
            return name
    return ""


def luck_mark(luck: float) -> str:
    for name, threshold in LUCK_THRESHOLDS:
        if luck >= threshold:
            return name
        if luck <= -threshold:
            return name.replace("lucky", "unlucky")
    return ""


def rating(error_per_move: float) -> str:
    """gnubg's rating word for an error rate per unforced move (equity, not milli)."""
    for name, threshold in RATINGS:
        if error_per_move < threshold:
            return name
    return WORST_RATING


@dataclass
class MoveReview:
    game: int  # 1-based
    turn: int  # the file's turn number (else the action's index + 1)
    player: int
    dice: tuple[int, int]
    played: str
    best: str
    equity_played: float
    equity_best: float
    loss: float  # equity (points per unit cube), best - played, >= 0
    mark: str
    forced: bool  # one legal play: not a decision
    luck: float  # equity, this roll against the average roll
    luck_mark: str
    cube: int  # the cube value when the roll was played
    position: str  # Board.id() before the roll
    gnubg_id: str | None
    seconds: float
    rollout: dict[str, float] | None = None  # equities of the play made and the best by rollout, the loss
    # and its standard error (both rolled out on the same dice: Board.rollout_plays)
    mwc: float | None = None  # match play: the loss in match winning chances, percent
    mwc_played: float | None = None  # match play: MWC (percent) of the play made
    mwc_best: float | None = None  # ... and of the best play by MWC
    best_at_score: str | None = None  # match play: the best play by MWC
    loss_emg: float | None = None  # match play: the MWC loss as normalised EMG (gnubg's mwc2eq)

    @property
    def loss_mp(self) -> float:
        return 1000.0 * self.loss


@dataclass
class CubeReview:
    game: int
    turn: int
    player: int
    action: str  # double, take, drop (the record's actions), or "no double" (a turn that counts)
    value: int | None
    position: str
    judgement: dict[str, Any] | None = None  # review_cube.CubeJudgement's fields (or cube_judge's dict)


@dataclass
class PlayerSummary:
    name: str
    moves: int
    unforced: int
    error_total: float  # equity summed over the plays
    error_rate_memg: float  # per unforced play, millipoints
    rating: str
    marks: dict[str, int]
    luck_total: float  # equity at cube 1, summed over the rolls
    luck_points: float  # luck times the cube value
    luck_rate_memg: float  # per roll, millipoints
    points_won: int
    points_lost: int
    luck_adjusted: float  # points won - lost - (own luck - opponent's), in points
    cube_decisions: int = 0  # close or actual (gnubg anCloseCube)
    cube_evaluated: int = 0  # every turn and action where the cube was judged (gnubg anTotalCube)
    cube_error_total: float = 0.0  # EMG
    cube_error_rate_memg: float = 0.0  # per cube decision
    cube_rating: str = "N/A"
    cube_errors: dict[str, int] | None = None  # gnubg's classes (review_cube.ERROR_CLASSES)
    overall_error_rate_memg: float = 0.0  # checker + cube, per (unforced plays + cube decisions)
    overall_rating: str = "N/A"
    # match play (None in money play): the same in MWC, percent; checker play at the score in EMG
    error_rate_memg_at_score: float | None = None
    error_total_mwc: float | None = None
    error_rate_mwc: float | None = None
    cube_error_total_mwc: float | None = None
    cube_error_rate_mwc: float | None = None
    overall_error_rate_mwc: float | None = None


@dataclass
class Review:
    kind: str
    length: int
    players: tuple[str, str]
    plies: int
    luck_plies: int
    threads: int
    moves: list[MoveReview]
    cube: list[CubeReview]
    summary: list[PlayerSummary]
    seconds: float
    seconds_per_move: float
    rollouts: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (tavli-review-v1.schema.json, the form "review")."""
        d = asdict(self)
        d["format"] = "tavli.review"
        d["version"] = 1
        for m, md in zip(self.moves, d["moves"]):
            md["dice"] = list(m.dice)
            md["loss_mp"] = m.loss_mp
        d["players"] = list(self.players)
        return d

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    def table(self, colour: bool | None = None, all_moves: bool = True) -> str:
        from .report import table

        return table(self, colour=sys.stdout.isatty() if colour is None else colour, all_moves=all_moves)

    def html(self) -> str:
        from .report import html

        return html(self)


def _best_equity(board: Board, dice: tuple[int, int], plies: int, threads: int, evaluator: Any) -> float:
    return board.analyze(dice, plies, threads=threads, evaluator=evaluator)[0].equity


def _average_roll(board: Board, plies: int, threads: int, evaluator: Any, opening: bool) -> float:
    """The mean over the rolls of the best play's equity (at `plies`). The 36 rolls: one
    evaluation one ply deeper (Board.evaluate at n + 1 is that average by definition, search.h,
    when its rolls' choices are not pruned: an analysis never prunes its root's);
    a first play with the opening roll: the 30 non-doubles, one by one."""
    if not opening:
        return board.evaluate(plies + 1, threads=threads, evaluator=evaluator, prune=0).equity
    rolls = [(a, b) for a in range(1, 7) for b in range(a + 1, 7)]
    return sum(_best_equity(board, r, plies, threads, evaluator) for r in rolls) / len(rolls)


def _judgement_dict(j: RC.CubeJudgement) -> dict[str, Any]:
    d = asdict(j)
    d["loss_mp"] = j.loss_mp
    return d


def _at_score(m: MoveReview, analysis: Any, probs_played: Any, cube: Any, match: Any) -> None:
    """Fills the MWC fields of a checker play at a match score: every play searched to full depth
    and the play made, converted by review_cube.at_score; the best is the one of highest MWC."""
    emg_played, mwc_played = RC.at_score(probs_played, m.player, cube, match)
    best_text, emg_best, mwc_best = m.played, emg_played, mwc_played
    for p in analysis:
        if p.plies < analysis.plies:
            continue
        emg, mwc = RC.at_score(p.probabilities, m.player, cube, match)
        if mwc > mwc_best:
            best_text, emg_best, mwc_best = str(p.play), emg, mwc
    m.mwc_played, m.mwc_best, m.best_at_score = 100.0 * mwc_played, 100.0 * mwc_best, best_text
    m.mwc = 0.0 if m.forced else 100.0 * (mwc_best - mwc_played)
    m.loss_emg = 0.0 if m.forced else emg_best - emg_played


def review(
    record: MatchRecord,
    plies: int = 2,
    *,
    threads: int = 1,
    luck_plies: int = 0,
    evaluator: Any = None,
    rollouts: int = 0,
    trials: int = 1296,
    seed: int = 0,
    progress: Any = None,
    cube_judge: Callable[[Step], dict[str, Any]] | None = None,
) -> Review:
    """Reviews every checker play of `record` (see the module's docstring for the numbers).
    `rollouts`: roll out the play made and the best play of the `rollouts` worst decisions on the
    same dice (`trials` each, Board.rollout_plays with `seed`), the results under
    `MoveReview.rollout` (the loss with its standard error from the paired trials).
    Results do not depend on `threads` (the search's threads split the root, cpp search.h)."""
    plies = int_arg("plies", plies, 0, 4)
    if isinstance(luck_plies, bool) or not isinstance(luck_plies, int) or not 0 <= luck_plies <= plies:
        raise ValueError(f"luck_plies must be an integer 0..plies, got {luck_plies!r}")
    threads = int_arg("threads", threads, 1, 256)
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 0:
        raise ValueError(f"rollouts must be a non-negative integer, got {rollouts!r}")
    record = validate(record)
    steps = list(replay(record))
    report = reporter(progress, "moves")
    total = sum(1 for s in steps if s.action.kind == "move")
    moves: list[MoveReview] = []
    cube: list[CubeReview] = []
    cube_judged: list[tuple[int, RC.CubeJudgement]] = []  # (player, judgement) of every evaluated decision
    boards: list[tuple[Board, _core.Play, _core.Play]] = []
    first_seen: set[int] = set()
    pending: CubeDecision | None = None  # the double's decision, judged again for its answer
    t0 = time.perf_counter()
    for step in steps:
        a = step.action
        turn = a.turn if a.turn is not None else step.index + 1
        game = record.games[step.game]
        with_cube = RC.takes_cube(step.board.variant)
        cube_s, match_s = RC.states(step.cube.value, step.cube.owner, record.length, game.score, game.crawford,
                                    record.jacoby)
        if a.kind != "move":
            if a.kind in ("double", "take", "drop"):
                if cube_judge is not None:
                    judged = cube_judge(step)
                else:
                    judged = None
                    if a.kind == "double" and with_cube:
                        pending = RC.evaluate(step.board, cube_s, match_s, plies, threads=threads, evaluator=evaluator)
                    if with_cube and pending is not None:
                        j = RC.judge(pending, {"double": "double", "take": "take", "drop": "pass"}[a.kind])
                        cube_judged.append((a.player, j))
                        judged = _judgement_dict(j)
                cube.append(CubeReview(step.game + 1, turn, a.player, a.kind, a.value, step.board.id(), judged))
            continue
        t = time.perf_counter()
        board, play, dice = step.board, step.play, a.dice
        assert play is not None and dice is not None  # replay gives every move its play and dice
        first_of_game = step.game not in first_seen
        opening = first_of_game and OPENING.get(board.variant) == "use_opening_dice"
        first_seen.add(step.game)
        pending = None
        if with_cube and cube_judge is None and not first_of_game and RC.available(board, cube_s, match_s):
            # gnubg evaluates the cube before every roll but a game's first one
            j = RC.judge(RC.evaluate(board, cube_s, match_s, plies, threads=threads, evaluator=evaluator), "no double")
            cube_judged.append((a.player, j))
            if j.close:
                cube.append(CubeReview(step.game + 1, turn, a.player, "no double", None, board.id(),
                                       _judgement_dict(j)))
        analysis = board.analyze(dice, plies, threads=threads, evaluator=evaluator)
        best = analysis[0]
        key = play.result_key
        made = next((p for p in analysis if p.play.result_key == key), None)
        if made is not None and made.plies >= analysis.plies:
            eq_played, probs_played = made.equity, made.probabilities
        else:  # cut by the root filter: searched on its own to the same depth
            ev = board.play(play).evaluate(plies, threads=threads, evaluator=evaluator)
            eq_played, probs_played = -ev.equity, RC.flip(ev.probabilities)
        best_play, best_eq = best.play, best.equity
        if eq_played > best_eq:  # the play made, cut at the root, is better at full depth: it is the best
            best_play, best_eq = play, eq_played
        loss = best_eq - eq_played
        best_luck = best_eq if luck_plies == plies else _best_equity(board, dice, luck_plies, threads, evaluator)
        luck = best_luck - _average_roll(board, luck_plies, threads, evaluator, opening)
        forced = len(analysis) == 1
        gid = None
        if board.variant in ("backgammon", "nackgammon", "hypergammon", "portes", "tavla"):
            try:
                gid = board.gnubg_id()
            except Exception:  # noqa: BLE001 - the ID is a convenience
                gid = None
        m = MoveReview(step.game + 1, turn, a.player, dice, str(play), str(best_play),
                       eq_played, best_eq, 0.0 if forced else loss, "" if forced else mark(loss),
                       forced, luck, luck_mark(luck), step.cube.value, board.id(), gid, 0.0)
        if record.length and with_cube:  # the table is backgammon's; the other games' own: issue 15 item 5
            _at_score(m, analysis, probs_played, cube_s, match_s)
        m.seconds = time.perf_counter() - t
        moves.append(m)
        boards.append((board, play, best_play))
        if report is not None:
            report(len(moves), total)
    roll_info = None
    if rollouts:
        worst = sorted(range(len(moves)), key=lambda i: (-moves[i].loss, i))[:rollouts]
        for i in worst:
            m = moves[i]
            if m.loss <= 0:
                continue
            board, play, best_play = boards[i]
            # Both plays on the same dice (Board.rollout_plays): the loss has its own, paired, error.
            ro = board.rollout_plays(play.dice, [best_play, play], trials, seed=seed, threads=threads,
                                     evaluator=evaluator)
            at = {str(p.play): k for k, p in enumerate(ro)}
            b, p = at[str(best_play)], at[str(play)]
            m.rollout = {"played": ro[p].equity, "best": ro[b].equity, "loss": ro[b].equity - ro[p].equity,
                         "loss_std_error": ro.difference_std_errors[b][p]}
        roll_info = {"decisions": rollouts, "trials": trials, "seed": seed}
    seconds = time.perf_counter() - t0
    summary = _summaries(record, moves, cube_judged)
    return Review(record.kind, record.length, (record.players[0], record.players[1]), plies, luck_plies, threads, moves, cube,
                  summary, seconds, seconds / max(1, len(moves)), roll_info)


def _summaries(record: MatchRecord, moves: list[MoveReview],
               cube_judged: list[tuple[int, RC.CubeJudgement]]) -> list[PlayerSummary]:
    won = [0, 0]
    for g in record.games:
        if g.winner is not None:
            won[g.winner] += g.points
    luck_points = [sum(m.luck * m.cube for m in moves if m.player == p) for p in (0, 1)]
    match = any(m.mwc is not None for m in moves)
    out = []
    for p in (0, 1):
        mine = [m for m in moves if m.player == p]
        unforced = [m for m in mine if not m.forced]
        err = sum(m.loss for m in unforced)
        per = err / len(unforced) if unforced else 0.0
        marks = {name: sum(1 for m in unforced if m.mark == name) for name, _ in SKILL_THRESHOLDS}
        luck = sum(m.luck for m in mine)
        evaluated = [j for q, j in cube_judged if q == p]
        decisions = [j for j in evaluated if j.close]
        # gnubg sums every cube error (a missed double is always "close") over the close ones
        cube_err = sum(j.loss for j in evaluated)
        cube_per = cube_err / len(decisions) if decisions else 0.0
        n_all = len(unforced) + len(decisions)
        checker_at_score = sum(m.loss if m.loss_emg is None else m.loss_emg for m in unforced)
        overall = (checker_at_score + cube_err) / n_all if n_all else 0.0
        s = PlayerSummary(
            record.players[p], len(mine), len(unforced), err, 1000.0 * per,
            rating(per) if unforced else "N/A", marks, luck, luck_points[p],
            1000.0 * luck / len(mine) if mine else 0.0, won[p], won[1 - p],
            won[p] - won[1 - p] - (luck_points[p] - luck_points[1 - p]),
            len(decisions), len(evaluated), cube_err, 1000.0 * cube_per, rating(cube_per) if decisions else "N/A",
            {name: sum(1 for j in evaluated if j.error == name) for name in RC.ERROR_CLASSES},
            1000.0 * overall, rating(overall) if n_all else "N/A")
        if match:
            mwc = sum(m.mwc or 0.0 for m in unforced)
            cube_mwc = sum(j.loss_mwc or 0.0 for j in evaluated)
            s.error_rate_memg_at_score = 1000.0 * checker_at_score / len(unforced) if unforced else 0.0
            s.error_total_mwc, s.cube_error_total_mwc = mwc, cube_mwc
            s.error_rate_mwc = mwc / len(unforced) if unforced else 0.0
            s.cube_error_rate_mwc = cube_mwc / len(decisions) if decisions else 0.0
            s.overall_error_rate_mwc = (mwc + cube_mwc) / n_all if n_all else 0.0
        out.append(s)
    return out
