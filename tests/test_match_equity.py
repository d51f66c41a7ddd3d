"""Hand-computed checks of the cubeless match equity recursion (tavli.match_equity)."""
import pytest

from tavli.match_equity import match_equity_table, outcome_weights


def test_double_match_point_is_even():
    t = match_equity_table({1: 0.4, 2: 0.1}, {1: 0.4, 2: 0.1}, 3)
    assert t[1][1] == pytest.approx(0.5)


def test_two_away_one_away_single_wins_only():
    # we must win two games in a row: 0.5 * 0.5
    t = match_equity_table({1: 0.5}, {1: 0.5}, 2)
    assert t[2][1] == pytest.approx(0.25)


def test_two_away_one_away_with_gammons():
    # gammon rate g each side: we win at once with a gammon (0.5*g), or win a single
    # (0.5*(1-g)) and reach 1-away 1-away (0.5): 0.5g + 0.25(1-g) = (1+g)/4
    g = 0.2
    t = match_equity_table({1: 0.5 * (1 - g), 2: 0.5 * g}, {1: 0.5 * (1 - g), 2: 0.5 * g}, 2)
    assert t[2][1] == pytest.approx((1 + g) / 4)


def test_symmetry_and_monotonicity():
    d = {1: 0.3, 2: 0.15, 3: 0.05}
    t = match_equity_table(d, d, 7)
    for a in range(1, 8):
        for b in range(1, 8):
            assert t[a][b] + t[b][a] == pytest.approx(1.0)
            if a > 1:
                assert t[a][b] < t[a - 1][b]
            if b > 1:
                assert t[a][b] > t[a][b - 1]


def test_draws_are_replayed():
    t = match_equity_table({0: 0.2, 1: 0.4}, {1: 0.4}, 2)
    assert t[2][1] == pytest.approx(0.25)


def test_gammons_count_nothing_at_double_match_point():
    d = {1: 0.4, 2: 0.1}
    t = match_equity_table(d, d, 4)
    w = outcome_weights(t, 1, 1, {"win": 1, "win_double": 2, "lose": -1, "lose_double": -2})
    assert w == {"win": 1.0, "win_double": 1.0, "lose": 0.0, "lose_double": 0.0}
    # trailer at 4-away vs 1-away: a gammon win is worth more than a single win
    w = outcome_weights(t, 4, 1, {"win": 1, "win_double": 2})
    assert w["win_double"] == pytest.approx(t[2][1]) and w["win"] == pytest.approx(t[3][1])
    assert w["win_double"] > w["win"]


def test_bad_input():
    with pytest.raises(ValueError, match="sum to 1"):
        match_equity_table({1: 0.5}, {1: 0.4}, 2)
    with pytest.raises(ValueError, match="max_away"):
        match_equity_table({1: 0.5}, {1: 0.5}, 0)
    with pytest.raises(ValueError, match="never ends"):
        match_equity_table({0: 1.0}, {}, 2)
