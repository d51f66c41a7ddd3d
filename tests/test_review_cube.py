"""tavli.review's cube side: cube decisions judged as gnubg judges them (checked against a plain loop
calling tavli.cube.decide on the engine's probabilities, and one bear-off position worked by hand),
and checker plays in match winning chances at a match score (checked against the match equity
table read directly)."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

import tavli.io as io
from tavli import _core
from tavli import review as R
from tavli import review_cube as RC
from tavli.board import Board
from tavli.cube import CubeState, MatchState, decide, default_met
from tavli.io.record import Action, GameRecord, MatchRecord, replay

from io_helpers import DATA


def _bearoff_board() -> Board:
    """White to roll one checker on his 6-point; Black has two on his 1-point and wins next turn.
    White wins iff his roll bears the checker off: a + b >= 6 (non-doubles 11 * 2) or a double
    other than 1-1 (5): 27 of 36. Both sides have borne off checkers: no gammons."""
    mover, opp = [0] * 24, [0] * 24
    mover[18], opp[23] = 1, 2  # route indices: 18 is White's 6-point, 23 Black's 1-point
    return Board.from_dict({"variant": "backgammon", "turn": 0, "mover": mover, "opponent": opp,
                            "bar": [0, 0], "off": [14, 13]})


def test_a_missed_double_worked_by_hand_in_an_exact_bear_off():
    board = _bearoff_board()
    p = board.evaluate(0).probabilities  # the exact one-sided bear-off table
    assert p.win == pytest.approx(27 / 36, abs=1e-6) and p.win_double == p.lose_double == 0.0
    j = RC.judge(RC.evaluate(board, CubeState(), MatchState(), 0), "no double")
    # Janowski, money, W = L = 1: take point 0.2, cash point 0.8; bear-off efficiency x = 0.6.
    # ND: 0.4 * (2p - 1) + 0.6 * (-1 + (p - 0.2) * 2 / 0.6) = 0.4 * 0.5 + 0.6 * 0.8333 = 0.7
    # DT: 2 * (0.4 * 0.5 + 0.6 * (-1 + (p - 0.2) * 2 / 0.8)) = 2 * (0.2 + 0.6 * 0.375) = 0.85; DP = 1
    assert (j.nd, j.dt, j.dp) == (pytest.approx(0.7, abs=1e-5), pytest.approx(0.85, abs=1e-5), 1.0)
    assert j.proper == "double, take" and j.close
    assert j.loss == pytest.approx(0.15, abs=1e-5) and j.mark == "bad" and j.error == "missed doubles below CP"
    # the other choices at the same position
    assert RC.judge(RC.evaluate(board, CubeState(), MatchState(), 0), "double").loss == 0.0
    passed = RC.judge(RC.evaluate(board, CubeState(), MatchState(), 0), "pass")
    assert passed.loss == pytest.approx(1.0 - 0.85, abs=1e-5) and passed.error == "wrong passes"


def _greedy(board: Board, dice) -> _core.Play:
    return board.analyze(dice, 0)[0].play


def _roll(rng: random.Random, first: bool) -> tuple[int, int]:
    while True:
        d = (rng.randint(1, 6), rng.randint(1, 6))
        if not first or d[0] != d[1]:  # backgammon's first play uses the opening roll: no doubles
            return d


def _decision(board: Board, cube: CubeState):
    x = _core._cube_efficiency(board)[1]
    return decide(board.evaluate(0).probabilities, cube, None, mover=board.turn, efficiency=x)


def _game_until(rng: random.Random, stop, max_plies: int = 400):
    """Greedy self-play from the start; before each roll but the first, stop(board, decision) may
    end the game's actions there. Returns (actions, board at the stop) or None."""
    board = Board("backgammon")
    actions: list[Action] = []
    for ply in range(max_plies):
        if board.is_game_over():
            return None
        if ply and stop(board, _decision(board, CubeState())):
            return actions, board
        dice = _roll(rng, ply == 0)
        play = _greedy(board, dice)
        actions.append(Action(board.turn, "move", dice, str(play)))
        board = board.play(play)
    return None


def _is_race(board: Board) -> bool:
    return _core._cube_efficiency(board)[0] in ("race", "bearoff")


def _hand_made_session() -> MatchRecord:
    """A money session of two greedy games: in the first the side on roll, far ahead in a race,
    does not double (a missed double) and then the other side resigns; in the second a player
    doubles a race where the taker has over 40% and no gammons, and the double is dropped."""
    rng = random.Random(2026)
    got1 = got2 = None
    for _ in range(40):
        got1 = got1 or _game_until(rng, lambda b, d: _is_race(b) and d.action.startswith("double")
                                   and d.nd < min(d.dt, d.dp) - 0.02)
        got2 = got2 or _game_until(rng, lambda b, d: _is_race(b) and 0.5 < d.probabilities.win < 0.6
                                   and d.probabilities.win_double + d.probabilities.lose_double < 1e-3)
        if got1 and got2:
            break
    assert got1 and got2, "greedy self-play found no such positions"
    (acts1, b1), (acts2, b2) = got1, got2
    leader = b1.turn
    dice = _roll(rng, False)
    acts1 = acts1 + [Action(leader, "move", dice, str(_greedy(b1, dice))), Action(1 - leader, "resign", value=1)]
    doubler = b2.turn
    acts2 = acts2 + [Action(doubler, "double", value=2), Action(1 - doubler, "drop")]
    g1 = GameRecord((0, 0), acts1, leader, 1)
    s = [0, 0]
    s[leader] += 1
    g2 = GameRecord((s[0], s[1]), acts2, doubler, 1)
    return MatchRecord(0, ("Ann", "Ben"), [g1, g2])


def _expected_cube(rec: MatchRecord):
    """The cube decisions by a plain loop: tavli.cube.decide on each position's 0-ply probabilities,
    at every turn where the cube is the mover's or centred (money play) but a game's first."""
    out = []
    pending = None
    seen: set[int] = set()
    for step in replay(rec):
        a, board = step.action, step.board
        cube = CubeState(step.cube.value, step.cube.owner)
        if a.kind == "move":
            first = step.game not in seen
            seen.add(step.game)
            if not first and step.cube.owner in (None, board.turn):
                d = _decision(board, cube)
                best = max(d.nd, min(d.dt, d.dp))
                out.append((step.game + 1, a.player, "no double", best - d.nd, best - min(d.dt, d.dp) < 0.16, d))
        elif a.kind == "double":
            pending = _decision(board, cube)
            d = pending
            out.append((step.game + 1, a.player, "double", max(d.nd, min(d.dt, d.dp)) - min(d.dt, d.dp), True, d))
        elif a.kind in ("take", "drop"):
            d = pending
            mine = -d.dt if a.kind == "take" else -d.dp
            out.append((step.game + 1, a.player, a.kind, max(-d.dt, -d.dp) - mine, True, d))
    return out


def test_cube_decisions_of_a_record_equal_a_plain_loop_over_decide():
    rec = _hand_made_session()
    rv = R.review(rec, plies=0)
    expected = _expected_cube(rec)
    listed = [e for e in expected if e[4]]  # the record's actions and the no-doubles that count
    assert [(c.game, c.player, c.action) for c in rv.cube] == [(g, p, k) for g, p, k, *_ in listed]
    for c, (_, _, kind, loss, _, d) in zip(rv.cube, listed):
        j = c.judgement
        assert j is not None
        assert (j["nd"], j["dt"], j["dp"]) == (pytest.approx(d.nd, abs=1e-9), pytest.approx(d.dt, abs=1e-9),
                                               pytest.approx(d.dp, abs=1e-9))
        assert j["loss"] == pytest.approx(loss, abs=1e-9) and j["mark"] == R.mark(loss)
        assert j["proper"] == d.action
    # the missed double of game 1 and the wrong pass of game 2 are there
    missed = [c for c in rv.cube if c.game == 1 and c.judgement and c.judgement["error"].startswith("missed")]
    assert max(c.judgement["loss"] for c in missed) > 0.02  # the stop of _hand_made_session's first game
    (drop,) = [c for c in rv.cube if c.action == "drop"]
    assert drop.judgement["error"] == "wrong passes" and drop.judgement["loss"] > 0.3
    assert drop.judgement["mark"] == "very bad"
    # per player: counts, rates and the overall rate (checker + cube) as gnubg sums them
    for p, s in enumerate(rv.summary):
        mine = [e for e in expected if e[1] == p]
        close = [e for e in mine if e[4]]
        cube_loss = sum(e[3] for e in mine)
        assert s.cube_evaluated == len(mine) and s.cube_decisions == len(close)
        assert s.cube_error_rate_memg == pytest.approx(1000 * cube_loss / len(close) if close else 0.0, abs=1e-6)
        assert s.cube_errors["wrong passes"] == sum(1 for e in mine if e[2] == "drop" and e[3] > 0)
        assert s.cube_errors["missed doubles below CP"] + s.cube_errors["missed doubles above CP"] == sum(
            1 for e in mine if e[2] == "no double" and e[3] > 0)
        n = s.unforced + len(close)
        assert s.overall_error_rate_memg == pytest.approx(1000 * (s.error_total + cube_loss) / n, abs=1e-6)
        assert s.overall_rating == R.rating((s.error_total + cube_loss) / n)
        assert s.error_rate_mwc is None  # money play
    assert rv.summary[1 - rec.games[1].winner].cube_errors["wrong passes"] == 1


def _met_after(met, length: int, score: tuple[int, int], me: int, winner: int, points: int) -> float:
    """My MWC after a game of a match in which nobody was at one-away before it, read from the table."""
    s = list(score)
    s[winner] += points
    if s[winner] >= length:
        return 1.0 if winner == me else 0.0
    return met.pre_crawford(length - s[me], length - s[1 - me])  # the next game (Crawford or not)


def _mwc(met, p, length, score, me, cube) -> float:
    outcomes = ((me, 1, p.win - p.win_double), (me, 2, p.win_double - p.win_triple), (me, 3, p.win_triple),
                (1 - me, 1, p.lose - p.lose_double), (1 - me, 2, p.lose_double - p.lose_triple),
                (1 - me, 3, p.lose_triple))
    return sum(q * _met_after(met, length, score, me, w, k * cube) for w, k, q in outcomes)


def test_checker_plays_at_a_match_score_in_mwc_from_the_table():
    rec = io.read(DATA / "hand_3pt.mat")  # a 3-point match; game 2 starts at 1-0
    rv = R.review(rec, plies=0)
    met = default_met()
    steps = [s for s in replay(rec) if s.action.kind == "move"]
    checked = 0
    for m, step in zip(rv.moves, steps):
        score = rec.games[step.game].score
        if max(score) >= rec.length - 1:
            continue  # the helper above reads only scores without a side at one-away
        board, me, cube = step.board, step.action.player, step.cube.value
        values = {}
        for play in board.legal_plays(step.action.dice):
            after = board.play(play).evaluate(0).probabilities
            mine = RC.flip(after)
            values[str(play)] = _mwc(met, mine, rec.length, score, me, cube)
        best = max(values.values())
        # Percentages of float32 probabilities: 1e-5 is the last bits (1e-7 of a match).
        assert m.mwc_played == pytest.approx(100 * values[m.played], abs=1e-5)
        assert m.mwc_best == pytest.approx(100 * best, abs=1e-5)
        assert values[m.best_at_score] == pytest.approx(best, abs=1e-9)
        win = _met_after(met, rec.length, score, me, me, cube)
        lose = _met_after(met, rec.length, score, me, 1 - me, cube)
        if not m.forced:
            assert m.mwc == pytest.approx(100 * (best - values[m.played]), abs=1e-5)
            assert m.loss_emg == pytest.approx((best - values[m.played]) / ((win - lose) / 2), abs=1e-6)
        checked += 1
    assert checked >= 6
    big = max(rv.moves, key=lambda m: m.mwc or 0.0)
    assert big.mwc > 0.5  # Bob's bar/21 13/10 costs several percent
    s = rv.summary[big.player]
    unforced = [m for m in rv.moves if m.player == big.player and not m.forced]
    assert s.error_rate_mwc == pytest.approx(sum(m.mwc for m in unforced) / len(unforced), abs=1e-9)


def test_cube_judgements_in_the_table_json_and_html():
    rv = R.review(io.read(DATA / "hand_3pt.mat"), plies=0)
    text = rv.table(colour=False)
    assert "wrong passes" in text and "MWC %" in text and "cube error rate" in text
    page = rv.html()
    assert "Double/take" in page and "wrong doubles below DP" in page
    d = rv.to_dict()
    jsonschema = pytest.importorskip("jsonschema")
    from importlib import resources

    schema = json.loads(resources.files("tavli").joinpath("json_schema", "tavli-review-v1.schema.json").read_text())
    jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/review"}).validate(d)
    assert any(c["action"] == "no double" for c in d["cube"])
    money = R.review(_hand_made_session(), plies=0).to_dict()
    jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/review"}).validate(money)


def test_games_without_the_cube_have_no_cube_decisions():
    sim_rec = io.from_simulation(__import__("tavli").simulate("plakoto", 1, ("greedy", "greedy"), seed=3,
                                                              trajectories=True), "plakoto")
    for rec in (sim_rec, replace(sim_rec, length=5)):  # money, and a 5-point match: no MWC without its own table
        rv = R.review(rec, plies=0)
        assert rv.cube == [] and all(s.cube_decisions == 0 and s.cube_rating == "N/A" for s in rv.summary)
        assert all(m.mwc is None for m in rv.moves) and rv.summary[0].error_rate_mwc is None
        assert "MWC" not in rv.table(colour=False) and rv.html().startswith("<!DOCTYPE html>")


def _view(hand_text: str):
    pytest.importorskip("fastapi", reason="the server needs FastAPI")
    from fastapi.testclient import TestClient

    from tavli.server.app import create_app

    r = TestClient(create_app()).post("/api/v1/record/open", json={"text": hand_text, "format": "mat",
                                                                   "review_plies": 0})
    assert r.status_code == 200
    return r.json()


def test_the_record_viewer_gets_the_cube_judgements():
    hand = DATA / "hand_3pt.mat"
    view = _view(hand.read_text())
    rv = R.review(io.read(hand), plies=0)
    judged = [(s["game"], s["player"], s["kind"], s["cube_review"]) for s in view["steps"] if "cube_review" in s]
    expected = [(c.game, c.player, "move" if c.action == "no double" else c.action, c.judgement) for c in rv.cube]
    assert len(judged) == len(expected)
    for (g, p, k, j), (eg, ep, ek, ej) in zip(judged, expected):
        assert (g, p, k) == (eg, ep, ek) and j["loss"] == pytest.approx(ej["loss"]) and j["decision"] == ej["decision"]
    moves = [s["review"] for s in view["steps"] if s["kind"] == "move"]
    assert all(m["mwc"] is not None for m in moves)  # a 3-point match


try:  # test_browser's fixtures (a live server, Chromium)
    import playwright.sync_api  # noqa: F401
except ImportError:
    CHROMIUM = None
else:
    from test_browser import CHROMIUM, TIMEOUT_MS, browser, server_url  # noqa: E402,F401


@pytest.mark.skipif(CHROMIUM is None, reason="needs Playwright and a Chromium binary")
def test_the_record_viewer_shows_a_wrong_pass(browser, server_url):  # noqa: F811
    hand = DATA / "hand_3pt.mat"
    drop = next(i for i, s in enumerate(replay(io.read(hand))) if s.action.kind == "drop")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{server_url}/static/record.html")
    pg.set_input_files("#file", str(hand))
    pg.wait_for_selector('#board[data-step="0"] svg')
    assert "very bad" in pg.inner_text(f'#steps li[data-step="{drop}"]')
    pg.click(f'#steps li[data-step="{drop}"]')
    pg.wait_for_selector(f'#board[data-step="{drop}"] svg')
    line = pg.inner_text('[data-testid="cube-line"]')
    assert "Cube: pass" in line and "wrong passes" in line and "% MWC" in line
    context.close()
    assert not errors, errors
