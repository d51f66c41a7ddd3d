"""The one-sided bear-off table (cpp/include/tavli/bearoff.h) against an independent computation.

For sides of up to four checkers, all in the home board, this file works out from RULES.md §1.4-1.5
alone the distribution of the number of rolls each side needs to bear everything off, playing
every roll to minimise the expected number of rolls (as the table does), and from it the chance
that the side on roll wins the race: it wins when it needs no more rolls than the other side
(it rolls first). The engine's static value of such races (heuristic and nets alike use the
table) must agree.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import pytest

import tavli
from race_reference import ROLLS, board_of, plays

MAX_ROLLS = 32  # the table's horizon (bearoff.h); four checkers need at most 4 rolls


@lru_cache(maxsize=None)
def expected_rolls(state: tuple[int, ...]) -> float:
    if not any(state):
        return 0.0
    return 1.0 + sum(w * min(expected_rolls(t) for t in plays(state, dice)) for dice, w in ROLLS)


@lru_cache(maxsize=None)
def distribution(state: tuple[int, ...]) -> tuple[float, ...]:
    """P(exactly n rolls to bear off), n = 0..MAX_ROLLS - 1, under the minimal-expectation play."""
    dist = [0.0] * MAX_ROLLS
    if not any(state):
        dist[0] = 1.0
        return tuple(dist)
    for dice, w in ROLLS:
        best = min(plays(state, dice), key=expected_rolls)
        for n, p in enumerate(distribution(best)[:-1]):
            dist[n + 1] += w * p
    return tuple(dist)


def p_on_roll_wins(mine: tuple[int, ...], theirs: tuple[int, ...]) -> float:
    me, op = distribution(mine), distribution(theirs)
    return sum(me[n] * sum(op[n:]) for n in range(1, MAX_ROLLS))


def home_states(max_checkers: int):
    for n in range(1, max_checkers + 1):
        for combo in itertools.combinations_with_replacement(range(6), n):
            s = [0] * 6
            for k in combo:
                s[k] += 1
            yield tuple(s)


def test_reference_sanity():
    one_on_the_ace = (1, 0, 0, 0, 0, 0)
    assert distribution(one_on_the_ace)[1] == pytest.approx(1.0)
    # Two checkers on the six point: off in one roll with 3-3, 4-4, 5-5 or 6-6 (four steps take
    # both; 2-2 and 1-1 do not), never with a non-double (the smaller die leaves one on the board).
    six_six = (0, 0, 0, 0, 0, 2)
    assert distribution(six_six)[1] == pytest.approx(4 / 36)
    assert sum(distribution(six_six)) == pytest.approx(1.0)


STATES = list(home_states(4))  # 209 one-sided states


@pytest.mark.parametrize("k", range(12))
def test_race_values_equal_the_independent_computation(k):
    """A sample of pairs (deterministic: every 37th pair of a fixed order) of both sides' states."""
    pairs = [(a, b) for a in STATES for b in STATES][k::37 * 12][:40]
    for mine, theirs in pairs:
        got = board_of(mine, theirs).evaluate(0).probabilities
        assert got.win == pytest.approx(p_on_roll_wins(mine, theirs), abs=2e-5), (mine, theirs)
        assert got.win_double == 0 and got.lose_double == 0  # both have borne off most checkers


def test_the_side_on_roll_wins_every_race_it_finishes_first():
    # One checker on my ace against four on his six point: I am off next roll, he needs two.
    b = board_of((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 4))
    assert b.evaluate(0).probabilities.win == pytest.approx(1.0)
