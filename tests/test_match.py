"""Matches and records: the Tavli cycle, opening rules, who starts, draws, targets, JSON replays."""

import json

import pytest

import tavli


def play_out(m: tavli.Match, rng: tavli.Rng, max_games: int | None = None) -> None:
    """Seeded uniform-random play until the match ends (or max_games games have finished)."""
    while m.phase != "over" and (max_games is None or len(m.results) < max_games):
        if m.phase == "opening":
            m.roll_opening(rng.die(), rng.die())
            continue
        dice = m.forced_dice or rng.roll()
        plays = m.board.legal_plays(dice)
        m.play(plays[rng.below(len(plays))])


def test_tavli_cycle_and_target():
    m = tavli.Match("tavli", target=7)
    play_out(m, tavli.Rng(1))
    variants = [r["variant"] for r in m.results]
    assert variants == [("portes", "plakoto", "fevga")[i % 3] for i in range(len(variants))]
    score = [0, 0]
    for r in m.results:
        assert r["points"] in ((0,) if r["kind"] == "draw" else (1, 2))
        if r["winner"] is not None:
            score[r["winner"]] += r["points"]
    assert tuple(score) == m.score
    assert max(m.score) >= 7 and m.winner == (0 if m.score[0] >= 7 else 1)
    # Every game's total before the last was below the target: the match stopped at once.
    assert max(m.score) - m.results[-1]["points"] < 7


def test_previous_winner_starts_the_next_game_without_an_opening_roll():
    m = tavli.Match("tavla", target=5)
    play_out(m, tavli.Rng(2), max_games=1)
    first = m.results[0]
    assert m.phase == "playing" and m.board.turn == first["winner"]
    play_out(m, tavli.Rng(3), max_games=2)
    assert m.results[1]["starter"] == first["winner"]


def test_moultezim_and_backgammon_roll_off_every_game():
    for kind in ("moultezim", "backgammon"):
        m = tavli.Match(kind, target=3)
        play_out(m, tavli.Rng(4), max_games=1)
        if m.phase != "over":
            assert m.phase == "opening"


def test_opening_ties_are_rolled_again_and_the_higher_die_starts():
    m = tavli.Match("fevga")
    assert m.roll_opening(4, 4) is False and m.phase == "opening"
    assert m.roll_opening(2, 6) is True
    assert m.board.turn == 1 and m.forced_dice is None  # Fevga: the starter rolls both dice again


def test_backgammon_first_play_uses_the_opening_dice():
    m = tavli.Match("backgammon")
    assert m.roll_opening(3, 1)
    assert m.forced_dice == (3, 1) and m.board.turn == 0
    with pytest.raises(tavli.IllegalMove):
        m.play(m.board.legal_plays((6, 6))[0])
    m.play(m.board.legal_plays((3, 1))[0])  # 8/5 6/5 and friends
    assert m.forced_dice is None and m.board.turn == 1


def test_opening_flag():
    m = tavli.Match("tavla", opening="use_opening_dice")
    m.roll_opening(6, 5)
    assert m.forced_dice == (6, 5)
    m = tavli.Match("backgammon", opening="reroll")
    m.roll_opening(6, 5)
    assert m.forced_dice is None


def test_drawn_plakoto_game_advances_the_rotation_with_a_roll_off():
    # Seed 0 gives a Plakoto game where both mothers end up pinned (found by search).
    m = tavli.Match("plakoto", target=1)
    play_out(m, tavli.Rng(0), max_games=1)
    assert m.results[0]["kind"] == "draw" and m.results[0]["winner"] is None
    assert m.score == (0, 0) and m.phase == "opening" and m.game_number == 1


def test_match_records_replay_to_the_same_positions(tmp_path):
    m = tavli.Match("tavli", target=3, options={"fevga": {"unblock": "R3"}})
    play_out(m, tavli.Rng(5))
    text = m.to_json()
    again = tavli.Match.from_json(text)
    assert again.results == m.results and again.score == m.score and again.winner == m.winner
    assert again.to_record() == m.to_record()
    record = json.loads(text)
    record["games"][0]["turns"][3]["steps"] = [[0, 1]]
    with pytest.raises(ValueError):
        tavli.Match.from_record(record)
    record = json.loads(text)
    record["score"] = [9, 9]
    with pytest.raises(ValueError):
        tavli.Match.from_record(record)


def test_game_records_replay():
    b = tavli.Board("plakoto")
    rng = tavli.Rng(9)
    while not b.is_game_over():
        plays = b.legal_plays(rng.roll())
        b.push(plays[rng.below(len(plays))])
    rec = b.to_record()
    assert rec["result"] is not None
    again = tavli.Board.from_record(json.loads(json.dumps(rec)))
    assert again == b and again.outcome() == b.outcome()
    rec["result"] = {"winner": 0, "points": 9, "kind": "single"}
    with pytest.raises(ValueError):
        tavli.Board.from_record(rec)


@pytest.mark.parametrize(
    "args, kwargs",
    [
        (("chess",), {}),
        (("tavli", 0), {}),
        (("tavli", True), {}),
        (("tavli",), {"options": {"narde": {}}}),
        (("tavli",), {"options": {"fevga": {"bogus": 1}}}),
        (("tavli",), {"opening": "sometimes"}),
        (("tavli",), {"next_starter": "nobody"}),
    ],
)
def test_bad_match_arguments(args, kwargs):
    with pytest.raises(ValueError):
        tavli.Match(*args, **kwargs)


def test_match_refuses_out_of_turn_calls():
    m = tavli.Match("fevga")
    with pytest.raises(tavli.IllegalMove):
        m.play(tavli.Board("fevga").legal_plays((6, 5))[0])
    with pytest.raises(ValueError):
        m.roll_opening(0, 7)
    m.roll_opening(5, 2)
    with pytest.raises(tavli.IllegalMove):
        m.roll_opening(5, 2)
    with pytest.raises(ValueError):
        tavli.Match.from_json("{not json")
    with pytest.raises(ValueError):
        tavli.Match.from_record({"format": "tavli.match", "version": 2})
