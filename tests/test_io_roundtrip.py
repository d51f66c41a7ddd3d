"""Every game round-trips through .mat and JSON (and backgammon through SGF): simulated games,
a Match (the Greek tavli cycle), a single Board's game; tavli's own JSON records stay as they are."""

from __future__ import annotations

import json
import random

import pytest

import tavli
import tavli.io as io
from tavli.match import KINDS

SINGLE_GAMES = [k for k, (games, _) in KINDS.items() if len(games) == 1]


@pytest.mark.parametrize("variant", SINGLE_GAMES)
def test_simulated_games_round_trip(variant, tmp_path):
    sim = tavli.simulate(variant, 3, ("random", "random"), seed=11, trajectories=True)
    rec = io.from_simulation(sim, variant, ("Sim A", "Sim B"))
    assert len(rec.games) == sum(1 for w, p in zip(sim["winner"], sim["points"]) if w >= 0 or p)
    # the results are the simulator's, replayed by the record
    finished = [(int(w), int(p)) for w, p in zip(sim["winner"], sim["points"]) if w >= 0]
    assert [(g.winner, g.points) for g in rec.games if g.winner is not None] == finished
    for fmt in ("mat", "json") + (("sgf",) if variant == "backgammon" else ()):
        path = tmp_path / f"games.{fmt}"
        io.write(rec, path)
        assert io.read(path) == rec, fmt
    text = (tmp_path / "games.mat").read_text()
    if variant != "backgammon":
        assert f'; [Variant "{variant}"]' in text  # the line gnubg's reader skips


def _random_match(kind: str, target: int, seed: int) -> tavli.Match:
    rng = random.Random(seed)
    m = tavli.Match(kind, target)
    while m.phase != "over":
        if m.phase == "opening":
            m.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
            continue
        dice = m.forced_dice or (rng.randint(1, 6), rng.randint(1, 6))
        m.play(rng.choice(m.board.legal_plays(dice)))
    return m


@pytest.mark.parametrize("kind", ["tavli", "tavla", "backgammon"])
def test_a_match_round_trips_and_its_json_is_unchanged(kind, tmp_path):
    m = _random_match(kind, 3, seed=5)
    rec = io.from_match(m)
    assert rec.score == m.score and len(rec.games) == len(m.results)
    assert [rec.variant(i) for i in range(len(rec.games))] == [r["variant"] for r in m.results]
    for fmt in ("mat", "json"):
        io.write(m, tmp_path / f"m.{fmt}")
        assert io.read(tmp_path / f"m.{fmt}") == rec
    # tavli's own match record is written as it always was, and reads back as a Match too
    assert json.loads((tmp_path / "m.json").read_text()) == m.to_record()
    assert tavli.Match.from_json((tmp_path / "m.json").read_text()).to_record() == m.to_record()


def test_a_boards_game_saves_as_mat_and_json(tmp_path):
    rng = random.Random(3)
    b = tavli.Board("plakoto")
    while not b.is_game_over():
        b.push(rng.choice(b.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))))
    io.write(b, tmp_path / "g.mat")
    io.write(b, tmp_path / "g.json")
    assert json.loads((tmp_path / "g.json").read_text()) == b.to_record()  # tavli.game, unchanged
    r = io.read(tmp_path / "g.mat")
    assert r == io.read(tmp_path / "g.json") == io.from_board(b)
    (g,) = r.games
    o = b.outcome()
    assert (g.winner, g.points) == ((o.winner, o.points) if o.winner is not None else (None, 0))
    assert len(g.actions) == len(b.move_stack)
    unfinished = tavli.Board("fevga")
    with pytest.raises(ValueError, match="not over"):
        io.write(unfinished, tmp_path / "u.mat")


def test_sgf_refuses_the_other_games(tmp_path):
    m = _random_match("plakoto", 1, seed=2)
    with pytest.raises(ValueError, match="backgammon only"):
        io.write(m, tmp_path / "p.sgf")
    assert not (tmp_path / "p.sgf").exists()


def test_the_jacoby_rule_of_money_play(tmp_path):
    from dataclasses import replace

    sim = tavli.simulate("backgammon", 20, ("random", "random"), seed=2, trajectories=True)
    rec = io.from_simulation(sim, "backgammon")
    gammons = [g for g in rec.games if g.points == 2]
    assert gammons, "a random game of backgammon ends in a gammon often enough"
    game = replace(gammons[0], score=(0, 0), points=1)  # the cube never turned: a single game by Jacoby
    with pytest.raises(ValueError, match="Jacoby"):
        io.validate(replace(rec, games=[game]))
    jac = io.validate(replace(rec, games=[game], jacoby=True))
    for fmt in ("mat", "sgf", "json"):
        io.write(jac, tmp_path / f"j.{fmt}")
        assert io.read(tmp_path / f"j.{fmt}") == jac, fmt


def test_rule_options_travel_in_the_mat_header(tmp_path):
    sim = tavli.simulate("fevga", 2, ("random", "random"), seed=4, trajectories=True, runner_threshold=12)
    rec = io.from_simulation(sim, "fevga", runner_threshold=12)
    assert rec.options == {"fevga": {"runner_threshold": 12}}
    io.write(rec, tmp_path / "f.mat")
    assert '; [Options "{\\"fevga\\": {\\"runner_threshold\\": 12}}"]' in (tmp_path / "f.mat").read_text()
    assert io.read(tmp_path / "f.mat") == rec
    for bad, message in (('{\\"fevga\\": 5}', "options of fevga"), ('{\\"fevga\\": {\\"nope\\": 1}}', "unknown option"),
                         ("[1]", "JSON object"), ("{", "JSON object")):
        text = (tmp_path / "f.mat").read_text().replace('{\\"fevga\\": {\\"runner_threshold\\": 12}}', bad)
        with pytest.raises(ValueError, match=message):
            io.loads(text, "mat")
