"""Score-aware checker play (tavli.match_play; search.h's MatchUtility): plays ranked by match
winning chance, the weights from the match equity table at the score.

Expected values come from the rule of a match (a side that needs k points wins the match with a
k-point game), tavli.match_equity's recursion run here on the measured rates, and the numbers
of the Kazaross-XG2 file; rankings are checked against sorts done here on the engine's own
per-play probabilities, and the 1-ply search against a plain expectiminimax written here."""

from __future__ import annotations

import json
import os
import random

import pytest

import tavli
from tavli import _core
from tavli import match_play as mp
from tavli.cube import default_met
from tavli.match_equity import match_equity_table

ROLLS = [((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(1, a + 1)]
OPENINGS = [(a, b) for a in range(1, 7) for b in range(1, a)]


def outcome_shares(p):
    """(single win, gammon win, backgammon win, single loss, gammon loss, backgammon loss, draw)."""
    lose = 1 - p.win - p.draw
    return (p.win - p.win_double, p.win_double - p.win_triple, p.win_triple, lose - p.lose_double,
            p.lose_double - p.lose_triple, p.lose_triple, p.draw)


def mwc(p, w):
    return sum(s * x for s, x in zip(outcome_shares(p), w))


def test_measured_rates_are_stored_with_their_command():
    with open(os.path.join(os.path.dirname(tavli.__file__), "met", "game_rates.json")) as f:
        data = json.load(f)
    assert "measure_game_rates.py" in data["command"]
    for v in ("portes", "plakoto", "fevga", "tavla", "narde", "backgammon"):
        dist = mp.game_rates()[v]
        assert sum(dist.values()) == pytest.approx(1.0)
        assert 0.5 < dist[1] < 0.95 and 0.03 < dist[2] < 0.5, (v, dist)  # singles dominate; doubles occur
        assert data["games"][v]["games"] >= 1000


@pytest.mark.parametrize("variant", ["tavla", "plakoto", "narde"])
def test_one_game_table_is_match_equitys_recursion(variant):
    dist = mp.game_rates()[variant]
    p = {k: (v if k == 0 else v / 2) for k, v in dist.items()}  # a draw counted once
    q = {k: v / 2 for k, v in dist.items() if k}
    want = match_equity_table(p, q, 9)
    got = mp.cycle_met((variant,), 9)
    for a in range(1, 10):
        for b in range(1, 10):
            assert got[0][a][b] == pytest.approx(want[a][b], abs=1e-9)
            if a == b:
                assert got[0][a][b] == pytest.approx(0.5, abs=1e-9)  # equal players, equal scores


def test_cycle_table_uses_the_next_game():
    """In a Tavli match the game after Portes is Plakoto: Portes' weights are Plakoto's table."""
    cycle = ("portes", "plakoto", "fevga")
    t = mp.cycle_met(cycle)
    w = mp.utility("portes", 5, (1, 2), 0, cycle=cycle, game_index=0)
    assert w[0] == pytest.approx(t[1][3][3]) and w[1] == pytest.approx(t[1][2][3]) and w[3] == pytest.approx(t[1][4][2])
    # The tables differ by game (their gammon rates differ), so the cycle matters.
    assert abs(t[1][3][2] - t[2][3][2]) > 1e-4


@pytest.mark.parametrize("variant", ["tavla", "portes", "plakoto", "backgammon"])
def test_double_match_point_ranks_by_winning_chance(variant):
    """At 4-4 in a 5-point match any win wins the match: a gammon counts nothing extra, so the
    ranking is by plain win probability, where it differs from the money ranking."""
    w = mp.utility(variant, 5, (4, 4), 0)
    assert w[:6] == (1.0, 1.0, 1.0, 0.0, 0.0, 0.0)
    # The start and every 8th position of a seeded game (0-ply money choices): in the opening a
    # net's win and equity rankings may agree on every roll.
    rng = random.Random(5)
    boards, board = [], tavli.Board(variant)
    for ply in range(33):
        if ply % 8 == 0:
            boards.append(board.copy())
        board.push(board.analyze((rng.randint(1, 6), rng.randint(1, 6)), 0)[0].play)
    differ = 0
    for board in boards:
        for dice, _ in ROLLS:
            plays = mp.analyze(board, dice, 5, (4, 4), 0)
            wins = [p.probabilities.win for p in plays]
            assert all(a >= b - 1e-6 for a, b in zip(wins, wins[1:])), dice
            assert all(p.mwc == pytest.approx(p.probabilities.win, abs=1e-6) for p in plays)
            differ += str(board.analyze(dice, 0)[0].play) != str(plays[0].play)
    assert differ >= 2  # the money ranking is another one on these positions


def test_double_match_point_applies_at_every_node():
    """At 1 ply the opponent's reply to each play is his best by his own winning chance (not by
    money equity): a plain expectiminimax here, over the engine's 0-ply values."""
    board = tavli.Board("tavla")
    dice = (6, 4)
    plays = mp.analyze(board, dice, 5, (4, 4), 1, filters=[(1000, 0, 0)])
    for sp in plays[:3]:
        child = board.play(sp.play)
        win = 0.0
        money_choice_differs = False
        for roll, wt in ROLLS:
            replies = child.analyze(roll, 0)
            best = max(replies, key=lambda r: r.probabilities.win)
            money_choice_differs |= best.probabilities.win > replies[0].probabilities.win + 1e-6
            win += wt * (1 - best.probabilities.win)
        assert sp.probabilities.win == pytest.approx(win, abs=1e-5), str(sp.play)
    assert sp.plies == 1


def test_four_away_one_away_gammons_count_for_all_they_are_worth():
    """5-point match, White 1 (4-away) and Black 4 (1-away): White's gammons count for what they
    bring him; any loss ends the match, so his gammon losses cost nothing; for Black, any win wins
    the match: his gammons are worth nothing extra, his gammon losses everything."""
    dist = mp.game_rates()["tavla"]
    t = match_equity_table({k: v / 2 for k, v in dist.items()}, {k: v / 2 for k, v in dist.items()}, 5)
    w = mp.utility("tavla", 5, (1, 4), 0)
    assert w[:3] == pytest.approx((t[3][1], t[2][1], t[1][1]))
    assert w[3:6] == (0.0, 0.0, 0.0)
    assert w[1] - w[0] > 0.5 * w[0]  # a gammon is worth far more than a single win here
    b = mp.utility("tavla", 5, (1, 4), 1)
    assert b[:3] == (1.0, 1.0, 1.0)
    assert b[3:6] == pytest.approx((1 - t[3][1], 1 - t[2][1], 1 - t[1][1]))
    for mover, weights in ((0, w), (1, b)):
        board = tavli.Board("tavla")
        if mover:  # Black to move, after White's opening 3-1
            board = board.play(board.analyze((3, 1), 0)[0].play)
            assert board.turn == 1
        for dice in OPENINGS:
            plays = mp.analyze(board, dice, 5, (1, 4), 0)
            vals = [mwc(p.probabilities, weights) for p in plays]
            assert all(x >= y - 1e-6 for x, y in zip(vals, vals[1:])), (mover, dice)
            assert plays[0].mwc == pytest.approx(vals[0], abs=1e-6)


def test_backgammon_uses_kazaross_post_crawford():
    """At 4-away 1-away the games after this one are post-Crawford: the trailer's wins lead to
    the post-Crawford entries of the Kazaross-XG2 table (post[0][i] needing i + 1)."""
    post = default_met().post_crawford_table[0]
    w = mp.utility("backgammon", 5, (1, 4), 0)
    assert w[:3] == pytest.approx((post[2], post[1], post[0]))
    assert post[0] == pytest.approx(0.5)
    pre = default_met().pre_crawford_table
    w = mp.utility("backgammon", 7, (2, 3), 1)  # Black needs 4, White 5: no one at one-away
    assert w[0] == pytest.approx(pre[2][4]) and w[1] == pytest.approx(pre[1][4]) and w[3] == pytest.approx(pre[3][3])


def test_match_analyze_uses_the_score_and_cycle():
    m = tavli.Match("tavli", 5)
    assert m.roll_opening(6, 4)
    got = m.analyze((6, 4), 0)
    want = mp.analyze(m.board, (6, 4), 5, (0, 0), 0, cycle=("portes", "plakoto", "fevga"), game_index=0)
    assert [str(p.play) for p in got] == [str(p.play) for p in want]
    assert [p.mwc for p in got] == pytest.approx([p.mwc for p in want])
    assert str(m.best_play((6, 4))) == str(want[0].play)


def test_threads_do_not_change_the_result():
    board = tavli.Board("portes")
    one = mp.analyze(board, (5, 2), 5, (1, 4), 2, threads=1)
    two = mp.analyze(board, (5, 2), 5, (1, 4), 2, threads=2)
    assert [(str(p.play), p.mwc) for p in one] == [(str(p.play), p.mwc) for p in two]
    p1, e1, m1 = mp.evaluate(board, 5, (1, 4), 1)
    assert m1 == pytest.approx(mwc(p1, mp.utility("portes", 5, (1, 4), 0)), abs=1e-6)


def test_limits_keep_the_deepest_iteration_completed():
    """A node limit cuts the score-aware search as it cuts Board.analyze's: the deepest completed
    iteration is the answer, flagged interrupted (as_analysis carries the flag)."""
    board = tavli.Board("portes")
    full = mp._analyze(board, (5, 2), 5, (1, 4), 2, None, 1, None, None, 0, None)
    assert not full[3] and full[1] == 2
    cut = mp._analyze(board, (5, 2), 5, (1, 4), 2, None, 1, None, None, 0, None, None, full[2] - 1)
    assert cut[3] and cut[1] == 1
    one = {str(p.play): p.mwc for p in mp.analyze(board, (5, 2), 5, (1, 4), 1)}
    assert all(p.mwc == pytest.approx(one[str(p.play)], abs=1e-12) for p in cut[0] if p.plies == 1)
    a = mp.as_analysis(board, (5, 2), tavli.MatchState(5, (1, 4)), 2, node_limit=full[2] - 1)
    assert a.interrupted and a.plies == 1
    with pytest.raises(ValueError, match="node_limit"):
        mp.analyze(board, (5, 2), 5, (1, 4), 1, node_limit=-1)


def test_bad_arguments():
    with pytest.raises(ValueError, match="score"):
        mp.utility("tavla", 5, (5, 0), 0)
    with pytest.raises(ValueError, match="length"):
        mp.utility("tavla", 0, (0, 0), 0)
    assert mp.utility("tawla31", 31, (0, 0), 0) is None
    with pytest.raises(ValueError, match="checkers"):
        mp.analyze(tavli.Board("tawla31"), (3, 1), 31, (0, 0))
    with pytest.raises(ValueError, match="match utility"):
        _core._analyze_utility(tavli.Board("tavla"), (3, 1), 0, [], 1, None, (1.5, 1, 1, 0, 0, 0, 0.5))
    with pytest.raises(ValueError, match="match utility"):
        _core._analyze_utility(tavli.Board("tavla"), (3, 1), 0, [], 1, None, (0.2, 1, 1, 0.4, 0, 0, 0.5))


def test_a_dead_cube_multiplies_the_points():
    """At 2-away 2-away with the cube at 2 any win takes the match: a gammon counts for nothing more
    (rule book arithmetic, no table needed); at 1 the single win leaves 1-away 2-away."""
    assert mp.utility("backgammon", 7, (5, 5), 0, cube_value=2) == (1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.5)
    single = mp.utility("backgammon", 7, (5, 5), 0)
    assert single[0] < 1.0 and single[1] == 1.0 and single[3] > 0.0
    with pytest.raises(ValueError, match="power of two"):
        mp.utility("backgammon", 7, (5, 5), 0, cube_value=3)
    with pytest.raises(ValueError, match="no doubling cube"):
        mp.utility("tavla", 7, (5, 5), 0, cube_value=2)
