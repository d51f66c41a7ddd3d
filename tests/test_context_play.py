"""tavli.context_play: which search ranks a roll's plays (and values a position) in a cube and
match context. Each case against its own reference: Board.analyze/evaluate in money play, the
score-aware search at a match score (at double match point: the plain winning chance, the rule
book's scoring), tavli.cube_search (checked against an exact solution in test_cube_search)."""

from __future__ import annotations

import pytest

import tavli
from tavli.context_play import rank_plays, uses_cubeful_search, value_position
from tavli.cube import CubeState, MatchState
from tavli.cube_search import analyze as cubeful_analyze, evaluate as cubeful_value


def test_money_play_cubeless_is_board_analyze():
    board = tavli.Board("backgammon")
    r = rank_plays(board, (6, 4), None, None, "cubeless", 1)
    a = board.analyze((6, 4), plies=1)
    assert not r.cubeful and [str(p.play) for p in r.plays] == [str(p.play) for p in a]
    assert [p.equity for p in r.plays] == [p.equity for p in a] and all(p.mwc is None for p in r.plays)
    v = value_position(board, None, None, "cubeless", 1)
    assert v.equity == board.evaluate(1).equity and v.mwc is None


@pytest.mark.parametrize("variant", ["tavla", "backgammon", "plakoto"])
def test_double_match_point_ranks_and_values_by_the_winning_chance(variant):
    board = tavli.Board(variant)
    match = MatchState(5, (4, 4))
    r = rank_plays(board, (6, 4), None, match, "cubeless", 0)
    best = max(board.analyze((6, 4), plies=0), key=lambda p: p.probabilities.win)
    assert str(r.best.play) == str(best.play) and r.best.mwc == pytest.approx(best.probabilities.win, abs=1e-6)
    v = value_position(board, None, match, "cubeless", 0)
    assert v.mwc == pytest.approx(board.evaluate(0).probabilities.win, abs=1e-6)


def test_cubeful_mode_is_the_cubeful_search_in_games_with_the_cube_only():
    board = tavli.Board("backgammon")
    cube, match = CubeState(2, 0), MatchState(7, (3, 2))
    r = rank_plays(board, (5, 2), cube, match, "cubeful", 1)
    want = cubeful_analyze(board, (5, 2), cube, match, 1)
    assert r.cubeful and [(str(p.play), p.equity, p.mwc) for p in r.plays] == \
        [(str(p.play), p.equity, p.mwc) for p in want.plays]
    assert all(p.probabilities is None for p in r.plays)
    v = value_position(board, cube, match, "cubeful", 1)
    assert (v.equity, v.mwc) == pytest.approx(cubeful_value(board, cube, match, 1)) and v.cubeful
    # A game without the cube ranks as cubeless in either mode; a bad mode is named.
    portes = tavli.Board("portes")
    assert not uses_cubeful_search("portes", "cubeful")
    assert not rank_plays(portes, (5, 2), None, None, "cubeful", 0).cubeful
    with pytest.raises(ValueError, match="eval_mode"):
        rank_plays(board, (5, 2), None, None, "cubefull", 0)
    with pytest.raises(ValueError):
        rank_plays(portes, (5, 2), CubeState(2, 0), None, "cubeless", 0)  # no cube in Portes


def test_a_finished_game_has_its_exact_value():
    from helpers import make_board

    over = make_board("backgammon", {23: 1}, {})  # O has just borne off his last, X has 14 off: a single loss
    assert over.outcome() is not None
    for mode in ("cubeless", "cubeful"):
        v = value_position(over, CubeState(), MatchState(), mode, 1)
        assert v.equity == -1.0 and not v.cubeful  # the cube can no longer move
        # Black at 4 of 5 wins a point: the match is his, White's MWC is 0.
        at_score = value_position(over, CubeState(), MatchState(5, (0, 4)), mode, 1)
        assert at_score.mwc == pytest.approx(0.0, abs=1e-12)
