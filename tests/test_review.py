"""tavli.review: the numbers of a short match recomputed by a plain Python loop over the engine's
static evaluations, gnubg's thresholds, thread independence, rollouts, the cube hook, the outputs
(table, JSON in its schema, HTML with boards) and the `tavli review` / `tavli convert` commands."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

import tavli.io as io
from tavli import review as R
from tavli.__main__ import main
from tavli.board import Board
from tavli.io.record import Action, GameRecord, MatchRecord, replay

from io_helpers import DATA

HAND = DATA / "hand_3pt.mat"


def _static_best(board: Board, dice) -> float:
    return max(-board.play(p).evaluate(0).equity for p in board.legal_plays(dice))


def test_a_zero_ply_review_equals_a_plain_loop_over_static_evaluations():
    rec = io.read(HAND)
    rv = R.review(rec, plies=0)
    moves = iter(rv.moves)
    first = set()
    expected_loss = {0: [], 1: []}
    luck_points = [0.0, 0.0]
    for step in replay(rec):
        if step.action.kind != "move":
            continue
        m = next(moves)
        board, dice = step.board, step.action.dice
        values = {str(p): -board.play(p).evaluate(0).equity for p in board.legal_plays(dice)}
        best = max(values.values())
        assert m.equity_best == pytest.approx(best, abs=1e-6)
        assert m.equity_played == pytest.approx(values[m.played], abs=1e-6)
        assert values[m.best] == pytest.approx(best, abs=1e-6)
        assert m.forced == (len(values) == 1)
        loss = best - values[m.played]
        assert m.loss == pytest.approx(0.0 if m.forced else loss, abs=1e-6)
        # backgammon's first play of a game uses the opening roll: no doubles among the 36
        rolls = [(a, b) for a in range(1, 7) for b in range(1, 7) if step.game in first or a != b]
        first.add(step.game)
        mean = sum(_static_best(board, r) for r in rolls) / len(rolls)
        luck = _static_best(board, dice) - mean
        assert m.luck == pytest.approx(luck, abs=1e-5)
        assert m.cube == step.cube.value
        if not m.forced:
            expected_loss[m.player].append(loss)
        luck_points[m.player] += luck * step.cube.value
    for p, s in enumerate(rv.summary):
        losses = expected_loss[p]
        assert s.unforced == len(losses)
        assert s.error_rate_memg == pytest.approx(1000 * sum(losses) / len(losses), abs=1e-3)
        assert s.rating == R.rating(sum(losses) / len(losses))
        assert s.luck_points == pytest.approx(luck_points[p], abs=1e-4)
    # the final score is 1-3: Bob's luck-adjusted result is +2 less his luck advantage
    bob = rv.summary[1]
    assert (bob.points_won, bob.points_lost) == (3, 1)
    assert bob.luck_adjusted == pytest.approx(2 - (luck_points[1] - luck_points[0]), abs=1e-4)


def test_deeper_reviews_judge_the_play_made_at_full_depth():
    rec = io.read(HAND)
    rv = R.review(rec, plies=1, luck_plies=0)
    steps = [s for s in replay(rec) if s.action.kind == "move"]
    for m, step in zip(rv.moves, steps):
        assert m.equity_played == pytest.approx(-step.board.play(step.play).evaluate(1).equity, abs=1e-5)
        best = step.board.parse_play(m.best, m.dice)
        assert m.equity_best == pytest.approx(-step.board.play(best).evaluate(1).equity, abs=1e-5)
        assert m.equity_best >= m.equity_played - 1e-6 or m.forced


def test_gnubgs_thresholds():
    assert [R.mark(x) for x in (0.0, 0.039, 0.04, 0.079, 0.08, 0.159, 0.16, 1.0)] == [
        "", "", "doubtful", "doubtful", "bad", "bad", "very bad", "very bad"]
    assert [R.luck_mark(x) for x in (0.0, 0.29, 0.3, 0.6, -0.3, -0.6)] == [
        "", "", "lucky", "very lucky", "unlucky", "very unlucky"]
    words = [R.rating(x / 1000) for x in (0, 1.9, 2, 4.9, 5, 7.9, 8, 11.9, 12, 17.9, 18, 25.9, 26, 34.9, 35)]
    assert words == ["Supernatural", "Supernatural", "World class", "World class", "Expert", "Expert",
                     "Advanced", "Advanced", "Intermediate", "Intermediate", "Casual player", "Casual player",
                     "Beginner", "Beginner", "Awful!"]


def _blunder_record() -> MatchRecord:
    """White opens 31 with the worst play at 0 plies, then Black resigns: a 'very bad' play."""
    b = Board("backgammon")
    worst = min(b.legal_plays((3, 1)), key=lambda p: -b.play(p).evaluate(0).equity)
    game = GameRecord((0, 0), [Action(0, "move", (3, 1), str(worst)), Action(1, "resign", value=1)], 0, 1)
    return MatchRecord(1, ("Ann", "Ben"), [game])


def test_outputs_table_json_schema_and_html():
    rv = R.review(_blunder_record(), plies=0)
    (m,) = rv.moves
    assert m.mark in ("bad", "very bad") and m.loss >= 0.08
    text = rv.table(colour=False)
    assert m.played in text and m.mark in text and "\033[" not in text and "World class" not in text
    assert "\033[" in rv.table(colour=True)
    d = rv.to_dict()
    json.dumps(d)
    jsonschema = pytest.importorskip("jsonschema")
    from importlib import resources

    schema = json.loads(resources.files("tavli").joinpath("json_schema", "tavli-review-v1.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    for form, doc in (("review", d), ("record", io.to_dict(io.read(HAND)))):
        jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{form}"}).validate(doc)
    page = rv.html()
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 1
    assert 'class="play best"' in page and 'stroke-dasharray' in page and m.best in page


def test_results_do_not_depend_on_threads_and_rollouts_are_seeded():
    rec = _blunder_record()
    a = R.review(io.read(HAND), plies=1, threads=1)
    b = R.review(io.read(HAND), plies=1, threads=2)
    strip = [replace(m, seconds=0.0) for m in a.moves]
    assert strip == [replace(m, seconds=0.0) for m in b.moves]
    r1 = R.review(rec, plies=0, rollouts=1, trials=72, seed=4)
    r2 = R.review(rec, plies=0, rollouts=1, trials=72, seed=4, threads=2)
    assert r1.moves[0].rollout is not None and r1.moves[0].rollout == r2.moves[0].rollout
    ro = r1.moves[0].rollout
    assert ro["loss"] == pytest.approx(ro["best"] - ro["played"])
    # Each equity is the rollout of that play's result with the review's seed (the same dice for
    # both), and the loss's error is below what two independent rollouts would leave.
    b = Board("backgammon")
    alone = {}
    for name in ("played", "best"):
        p = b.parse_play(getattr(r1.moves[0], name), (3, 1))
        alone[name] = b.play(p).rollout(72, seed=4)
        assert ro[name] == pytest.approx(-alone[name].equity, abs=1e-9)
    assert 0 < ro["loss_std_error"] < math.hypot(alone["played"].equity_std_error, alone["best"].equity_std_error)


def test_cube_actions_are_listed_and_the_hook_is_called():
    seen = []
    rv = R.review(io.read(HAND), plies=0, cube_judge=lambda step: seen.append(step.action.kind) or {"ok": True})
    assert [(c.game, c.player, c.action, c.value) for c in rv.cube] == [
        (1, 0, "double", 2), (1, 1, "drop", None), (2, 1, "double", 2), (2, 0, "take", None)]
    assert seen == ["double", "drop", "double", "take"] and rv.cube[0].judgement == {"ok": True}
    # without a hook the review judges them itself (tests/test_review_cube.py checks the numbers)
    assert all(c.judgement is not None and "loss" in c.judgement for c in R.review(io.read(HAND), plies=0).cube)


def test_bad_arguments():
    rec = io.read(HAND)
    for kwargs in ({"plies": -1}, {"plies": 9}, {"threads": 0}, {"luck_plies": 3}, {"rollouts": -1}):
        with pytest.raises(ValueError):
            R.review(rec, **kwargs)


def test_the_review_and_convert_commands(tmp_path, capsys):
    out_json, out_html = tmp_path / "r.json", tmp_path / "r.html"
    assert main(["review", str(HAND), "--plies", "0", "--json", str(out_json), "--html", str(out_html), "--quiet"]) == 0
    assert json.loads(out_json.read_text())["format"] == "tavli.review"
    assert out_html.read_text().startswith("<!DOCTYPE html>")
    assert main(["review", str(HAND), "--plies", "0"]) == 0
    assert "error rate (mEMG)" in capsys.readouterr().out
    assert main(["convert", str(HAND), str(tmp_path / "h.sgf")]) == 0
    assert main(["convert", str(tmp_path / "h.sgf"), str(tmp_path / "h.json")]) == 0
    assert io.read(tmp_path / "h.json") == io.read(HAND)
    bad = tmp_path / "bad.mat"
    bad.write_bytes(b"\x00\x01\x02" * 100)
    assert main(["review", str(bad), "--quiet"]) == 2
    assert "binary" in capsys.readouterr().err
    assert main(["convert", str(HAND), str(tmp_path / "x.txt")]) == 2


def test_board_svg_draws_the_best_play_as_dashed_arrows_beside_the_play_made():
    from tavli.svg import board_svg

    svg = board_svg(Board("backgammon"), dice=(3, 1), play="8/5 6/5", best="24/21 24/23")
    made, best = svg.split('class="play best"')
    assert made.count('class="arrow"') == 2 and "stroke-dasharray" not in made
    assert best.count('class="arrow"') == 2 and best.count("stroke-dasharray") == 2
    assert 'data-play="24/21 24/23"' in svg or 'data-play="24/23 24/21"' in svg
    with pytest.raises(Exception):
        board_svg(Board("backgammon"), dice=(3, 1), best="24/18")  # not a play of the roll
