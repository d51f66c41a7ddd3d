"""Rollouts of a roll's plays on common dice (cpp/include/tavli/play_rollout.h,
Board.rollout_plays): each play's rollout is Board.rollout's of its result, the paired standard
errors obey what any pairing must, plays that end the game are exact, the candidates are chosen as
documented and bad input is refused (the command line: tests/test_cli.py)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import tavli
from tavli import nn


def _backgammon(mover: dict[int, int], opponent: dict[int, int], off: tuple[int, int]) -> tavli.Board:
    """A backgammon position, White to move; points by each side's own route index (23: its 1-point)."""
    return tavli.Board.from_dict({"variant": "backgammon", "mover": [mover.get(r, 0) for r in range(24)],
                                  "opponent": [opponent.get(r, 0) for r in range(24)], "bar": [0, 0],
                                  "off": list(off), "turn": 0})


def _middle_game() -> tavli.Board:
    b = tavli.Board("backgammon")
    for dice in ((6, 2), (4, 1), (5, 3), (6, 6)):
        b.push(b.legal_plays(dice)[3])
    return b


def _seen_by_the_player(board: tavli.Board, play, trials: int, **kw) -> tavli.Rollout:
    after = board.copy()
    after.push(play)
    return after.rollout(trials, **kw)


@pytest.mark.parametrize("kw", [{}, {"variance_reduction": True}, {"truncate": 5, "stratify": False},
                                {"variance_reduction": True, "luck_evaluator": nn.shipped_stage("backgammon", "td")}])
def test_each_play_is_the_rollout_of_its_result(kw):
    b = _middle_game()
    r = b.rollout_plays((4, 2), 3, 72, seed=5, threads=2, **kw)
    assert len(r) == 3
    for p in r:
        alone = _seen_by_the_player(b, p.play, 72, seed=5, **kw)  # the opponent's view: inverted
        assert p.equity == pytest.approx(-alone.equity, abs=1e-9)
        assert p.rollout.equity_std_error == pytest.approx(alone.equity_std_error, abs=1e-9)
        assert p.rollout.probabilities.win == pytest.approx(alone.probabilities.lose, abs=1e-6)
        assert p.rollout.probabilities.win_double == pytest.approx(alone.probabilities.lose_double, abs=1e-6)
        assert p.rollout.trials == 72 and p.rollout.truncated == alone.truncated
    assert [p.equity for p in r] == sorted((p.equity for p in r), reverse=True)
    assert r.best is r[0] and r[0].difference == 0.0 and r[0].difference_std_error == 0.0
    for p in r[1:]:
        assert p.difference == pytest.approx(p.equity - r[0].equity, abs=1e-12)


def test_seeded_and_independent_of_threads():
    b = _middle_game()
    one = b.rollout_plays((6, 3), 4, 108, seed=3, threads=1, variance_reduction=True)
    two = b.rollout_plays((6, 3), 4, 108, seed=3, threads=2, variance_reduction=True)
    assert list(one) == list(two) and one.difference_std_errors == two.difference_std_errors
    assert list(b.rollout_plays((6, 3), 4, 108, seed=4)) != list(b.rollout_plays((6, 3), 4, 108, seed=3))


def test_paired_standard_errors_obey_the_pairing():
    # Whatever the correlation of two plays' trials, sd(a - b) lies between |sd a - sd b| and
    # sd a + sd b; a play paired with itself differs by exactly nothing.
    b = _middle_game()
    plays = [p.play for p in b.analyze((5, 2), 0)[:4]]
    r = b.rollout_plays((5, 2), plays + [plays[1]], 144, seed=2, threads=2)
    se = r.difference_std_errors
    errors = [p.rollout.equity_std_error for p in r]
    for a, c in itertools.combinations(range(len(r)), 2):
        assert se[a][c] == se[c][a]
        assert abs(errors[a] - errors[c]) - 1e-12 <= se[a][c] <= errors[a] + errors[c] + 1e-12
        if str(r[a].play) == str(r[c].play):
            assert se[a][c] == 0.0 and r[a].equity == r[c].equity
    assert all(se[a][a] == 0.0 for a in range(len(r)))
    # Common dice: on this position the pairs are positively correlated on the whole.
    unpaired = [math.hypot(errors[0], errors[k]) for k in range(1, len(r))]
    assert sum(se[0][1:]) < sum(unpaired)


def test_plays_that_end_the_game_are_exact():
    # Our checkers on the 6- and 2-points, 13 off; 6-2 bears both off (a single win: the other side
    # has 13 off), or plays 6/4/off and leaves the 2-point checker. The other side's two checkers
    # on his 2- and 1-points come off with every roll: then he wins. Both values are exact.
    b = _backgammon({18: 1, 22: 1}, {22: 1, 23: 1}, (13, 13))
    r = b.rollout_plays((6, 2), None, 36, seed=1)
    assert len(r) == 2
    assert r[0].equity == 1.0 and r[0].rollout.equity_std_error == 0.0
    assert r[0].rollout.probabilities == (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert r[1].equity == -1.0 and r[1].rollout.equity_std_error == 0.0
    assert r[1].difference == -2.0 and r[1].difference_std_error == 0.0
    # With the other side's checkers on his 6- and 5-points he misses with some rolls: the play
    # that stays has a spread, and its difference from the exact play has exactly that spread.
    b = _backgammon({18: 1, 22: 1}, {18: 1, 19: 1}, (13, 13))
    r = b.rollout_plays((6, 2), None, 144, seed=1, threads=2)
    assert r[0].equity == 1.0 and r[0].rollout.equity_std_error == 0.0
    assert 0.0 < r[1].rollout.equity_std_error
    assert r[1].difference_std_error == pytest.approx(r[1].rollout.equity_std_error, rel=1e-12)


def test_candidates():
    b = _middle_game()
    ranked = [str(p.play) for p in b.analyze((6, 4), 0)]
    assert {str(p.play) for p in b.rollout_plays((6, 4), 3, 36)} == set(ranked[:3])
    assert len(b.rollout_plays((6, 4), None, 36)) == len(b.legal_plays((6, 4))) == len(ranked)
    assert len(b.rollout_plays((6, 4), 1000, 36)) == len(ranked)  # more than there are: all
    # By the rollout's evaluator: the heuristic ranks the plays its own way.
    by_heuristic = [str(p.play) for p in b.analyze((6, 4), 0, evaluator="heuristic")]
    assert {str(p.play) for p in b.rollout_plays((6, 4), 2, 36, "heuristic")} == set(by_heuristic[:2])
    given = b.legal_plays((4, 6))[-2:]  # either order of the dice
    assert {str(p.play) for p in b.rollout_plays("6-4", given, 36)} == {str(p) for p in given}


def test_bad_input():
    b = _middle_game()
    with pytest.raises(ValueError, match="candidates"):
        b.rollout_plays((6, 4), 0)
    with pytest.raises(ValueError, match="candidates"):
        b.rollout_plays((6, 4), "all")
    with pytest.raises(ValueError, match="empty"):
        b.rollout_plays((6, 4), [])
    with pytest.raises(ValueError, match="roll 6-4"):
        b.rollout_plays((6, 4), b.legal_plays((5, 4))[:2])
    with pytest.raises(ValueError, match="Play"):
        b.rollout_plays((6, 4), ["24/18 13/9"])
    other = tavli.Board("backgammon")
    with pytest.raises(ValueError, match="play 1 of the rollout (is not a legal play here|belongs to another position)"):
        b.rollout_plays((6, 4), other.legal_plays((6, 4))[:1])
    with pytest.raises(ValueError, match="dice"):
        b.rollout_plays((7, 4))
    with pytest.raises(ValueError, match="trials"):
        b.rollout_plays((6, 4), 2, 0)
    with pytest.raises(ValueError, match="luck_evaluator"):
        b.rollout_plays((6, 4), 2, 36, luck_evaluator="heuristic")
    with pytest.raises(TypeError, match="backend"):
        b.rollout_plays((6, 4), 2, 36, backend="ray")
    over = _backgammon({23: 1}, {12: 1}, (14, 14))
    over.push(over.legal_plays((6, 5))[0])
    with pytest.raises(ValueError, match="over"):
        over.rollout_plays((6, 5))


def test_a_play_of_another_position_with_the_same_steps_is_refused():
    # Black's opening 3-1 in Fevga has steps that are legal for White at the start, but leads
    # elsewhere (tests/test_bad_input.py's case for push): refused as push refuses it.
    start = tavli.Board("fevga")
    foreign = start.play(start.legal_plays((3, 1))[0]).legal_plays((3, 1))[0]
    with pytest.raises(ValueError, match="belongs to another position"):
        start.rollout_plays((3, 1), [start.legal_plays((3, 1))[0], foreign], 36)


def test_time_limit_stops_it():
    with pytest.raises(TimeoutError):
        _middle_game().rollout_plays((6, 4), None, 1_000_000, time_limit=0.2)


def test_rollout_plays_data_is_each_decisions_play_rollout():
    from tavli.jobs.rollouts import rollout_plays_data

    rows, dice = tavli.random_positions("backgammon", 4, seed=3)
    out = rollout_plays_data(rows, dice, "backgammon", 3, 36, truncate=4, seed=6, threads=2,
                             variance_reduction=True)
    assert out["counts"].shape == (4,) and out["results"].shape == (int(out["counts"].sum()), 64)
    _, offsets, children = tavli.batch_legal_plays(rows, dice, "backgammon", return_positions=True)
    start = 0
    for k, (row, roll) in enumerate(zip(rows, dice)):
        board = tavli.Board.from_array(row, "backgammon")
        d = (int(roll[0]), int(roll[1]))
        r = board.rollout_plays(d, 3, 36, truncate=4, seed=tavli.Rng.derive(6, k), variance_reduction=True)
        n = int(out["counts"][k])
        assert n == len(r) == min(3, len(board.legal_plays(d)))
        mine = {bytes(x) for x in children[offsets[k]:offsets[k + 1]]}
        for j, p in enumerate(r):
            m = start + j
            assert bytes(out["results"][m]) in mine  # the same rows as batch_legal_plays' children
            assert np.array_equal(out["results"][m], board.play(p.play).to_array())
            assert out["equity"][m] == p.equity and out["difference"][m] == p.difference
            assert out["difference_std_error"][m] == p.difference_std_error
            assert tuple(out["probabilities"][m]) == tuple(np.float32(p.rollout.probabilities))
            assert out["equity_std_error"][m] == p.rollout.equity_std_error
        start += n
    # With elimination: each decision is Board.rollout_plays with the same `eliminate`.
    cut = rollout_plays_data(rows[:2], dice[:2], "backgammon", 4, 288, truncate=4, seed=6, eliminate=1.0)
    one = tavli.Board.from_array(rows[1], "backgammon").rollout_plays(
        (int(dice[1][0]), int(dice[1][1])), 4, 288, truncate=4, seed=tavli.Rng.derive(6, 1), eliminate=1.0)
    n0 = int(cut["counts"][0])
    assert list(cut["equity"][n0:]) == [p.equity for p in one]
    assert list(cut["truncated"][n0:]) == [p.rollout.truncated for p in one]
    empty = rollout_plays_data(rows[:0], dice[:0], "backgammon", 3, 36)
    assert empty["counts"].shape == (0,) and empty["results"].shape == (0, 64)


def test_rollout_plays_data_bad_input():
    from tavli.jobs.rollouts import rollout_plays_data

    rows, dice = tavli.random_positions("backgammon", 2, seed=3)
    with pytest.raises(ValueError, match="dice: expected an array of shape"):
        rollout_plays_data(rows, dice[:1], "backgammon")
    with pytest.raises(ValueError, match="1..6"):
        rollout_plays_data(rows, np.array([[0, 3], [2, 2]]), "backgammon")
    with pytest.raises(ValueError, match="candidates"):
        rollout_plays_data(rows, dice, "backgammon", 0)
    with pytest.raises(ValueError, match="positions"):
        rollout_plays_data(rows[:, :10], dice, "backgammon")
    with pytest.raises(ValueError, match="trials"):
        rollout_plays_data(rows, dice, "backgammon", 2, 0)
    with pytest.raises(ValueError, match="eliminate"):
        rollout_plays_data(rows, dice, "backgammon", 2, 36, eliminate=-1)


def _after_an_opening() -> tavli.Board:
    b = tavli.Board("backgammon")
    b.push(b.legal_plays((3, 1))[0])
    return b


@pytest.mark.parametrize("money", [True, False])
def test_cubeful_plays_are_the_cubeful_rollouts_of_their_results(money):
    # Each play's value is the other side's cubeful rollout of its result (he may double before
    # his first roll), seen by the side that played: money points negated, match MWC 1 - his.
    b = _after_an_opening()
    state = {"cube": tavli.CubeState()} if money else {"match": tavli.MatchState(7, (2, 4))}
    r = b.rollout_plays((6, 4), 3, 72, seed=3, threads=2, **state)
    for p in r:
        alone = b.play(p.play).rollout(72, seed=3, **state)
        assert p.rollout.equity_std_error == pytest.approx(alone.equity_std_error, abs=1e-12)
        if money:
            assert p.equity == pytest.approx(-alone.equity, abs=1e-12) and p.rollout.mwc is None
        else:
            assert p.rollout.mwc == pytest.approx(1.0 - alone.mwc, abs=1e-12)
            assert p.rollout.mwc_std_error == pytest.approx(alone.mwc_std_error, abs=1e-12)
        assert p.rollout.trials == 72 and p.rollout.cube == tavli.CubeState()
    errors = [p.rollout.equity_std_error for p in r]
    for a, c in itertools.combinations(range(len(r)), 2):
        assert abs(errors[a] - errors[c]) - 1e-12 <= r.difference_std_errors[a][c] <= errors[a] + errors[c] + 1e-12
    assert r == r and list(r) == list(b.rollout_plays((6, 4), 3, 72, seed=3, threads=1, **state))


def test_cubeful_plays_that_end_the_game_score_the_cube():
    # The bear-off of test_plays_that_end_the_game_are_exact with the cube at 2, owned by the side
    # that plays: bearing both off wins 2 points (1 a unit of the cube), staying loses them (he
    # bears off with every roll). At 2-away 4-away in a 5-point match the win takes the match.
    b = _backgammon({18: 1, 22: 1}, {22: 1, 23: 1}, (13, 13))
    cube = tavli.CubeState(2, 0)
    r = b.rollout_plays((6, 2), None, 36, seed=1, cube=cube)
    assert [p.equity for p in r] == [1.0, -1.0] and r[0].rollout.equity_std_error == 0.0
    assert r[1].difference == -2.0 and r[1].difference_std_error == 0.0
    m = b.rollout_plays((6, 2), None, 36, seed=1, cube=cube, match=tavli.MatchState(5, (3, 1)))
    assert m[0].rollout.mwc == 1.0 and m[0].rollout.mwc_std_error == 0.0
    assert m[0].equity == pytest.approx(1.0, abs=1e-12)  # EMG: winning the cube's value
    assert m[1].rollout.mwc == 0.5 and m[1].equity == -1.0  # 3-3 in a 5-point match: even


def test_cubeful_play_rollout_bad_input():
    b = _after_an_opening()
    with pytest.raises(ValueError, match="no doubling cube"):
        tavli.Board("fevga").rollout_plays((6, 4), 2, 36, cube=tavli.CubeState())
    with pytest.raises(ValueError, match="player"):
        b.rollout_plays((6, 4), 2, 36, "random", cube=tavli.CubeState())
    with pytest.raises(ValueError, match="cube"):
        b.rollout_plays((6, 4), 2, 36, cube="2")


def test_module_example():
    import doctest

    import tavli.play_rollout

    assert doctest.testmod(tavli.play_rollout).failed == 0


def test_elimination_stops_trailing_plays_after_whole_blocks():
    # 720 trials (below 1296: no second-roll strata), so a play's first 144 trials are exactly a
    # 144-trial rollout's: a play eliminated at the first check has that rollout's value, and it
    # trailed the leader there by more than `eliminate` standard errors of the paired difference.
    b = _middle_game()
    kw = {"truncate": 4, "variance_reduction": True, "seed": 9}
    full = b.rollout_plays((6, 4), 5, 720, threads=2, **kw)
    cut = b.rollout_plays((6, 4), 5, 720, threads=2, eliminate=1.5, **kw)
    assert list(cut) == list(b.rollout_plays((6, 4), 5, 720, threads=1, eliminate=1.5, **kw))
    assert list(b.rollout_plays((6, 4), 5, 720, eliminate=None, **kw)) == list(full)
    assert all(p.rollout.trials % 144 == 0 and 144 <= p.rollout.trials <= 720 for p in cut)
    assert any(p.rollout.trials < 720 for p in cut)
    # Once one play is left the rollout stops: the most trials are always played by two or more.
    most = max(p.rollout.trials for p in cut)
    assert sum(p.rollout.trials == most for p in cut) >= 2
    first = b.rollout_plays((6, 4), [p.play for p in full], 144, **kw)
    at_144 = {str(p.play): p for p in first}
    leader = max(first, key=lambda p: p.equity)
    k_leader = first.index(leader)
    for p in cut:
        if p.rollout.trials == 144 and str(p.play) != str(leader.play):
            q = at_144[str(p.play)]
            assert p.equity == q.equity and p.rollout.equity_std_error == q.rollout.equity_std_error
            se = first.difference_std_errors[first.index(q)][k_leader]
            assert leader.equity - q.equity > 1.5 * se
    # Plays not eliminated at the first check trailed by at most 1.5 standard errors there.
    survivors = [p for p in cut if p.rollout.trials > 144]
    for p in survivors:
        q = at_144[str(p.play)]
        assert leader.equity - q.equity <= 1.5 * first.difference_std_errors[first.index(q)][k_leader] + 1e-12


@pytest.mark.parametrize("value", [0, -1.0, 101, "3", True, float("nan")])
def test_elimination_bad_values(value):
    with pytest.raises(ValueError, match="eliminate"):
        _middle_game().rollout_plays((6, 4), 2, 36, eliminate=value)
