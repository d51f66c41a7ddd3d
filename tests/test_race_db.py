"""The one-sided race database (cpp/include/tavli/race_db.h) and the evaluator over it
(tavli.nn.race_db.RaceDb).

The reference here is worked out from RULES.md §1.4-1.5 alone (race_reference.py). Each roll is
played to minimise the expected number of rolls to bear everything off (for the first-off
distribution: to minimise the expected rolls until the first checker is off). Small tables (few
checkers, up to 10 points) keep these tests fast; the full 15-checker tables are built in the
slow tests.
"""

from __future__ import annotations

import itertools
import os
from functools import lru_cache

import numpy as np
import pytest

import tavli
from race_reference import ROLLS, board_of, plays
from tavli.nn.race_db import RaceDb, database

K = 64  # the database's read-out horizon (RaceDatabase::kMaxRolls)
POINTS = 10


@lru_cache(maxsize=None)
def plays_of(state: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The sorted plays of each of the 21 rolls (ROLLS' order)."""
    return tuple(tuple(sorted(plays(state, dice))) for dice, _ in ROLLS)


@lru_cache(maxsize=None)
def expected(state: tuple[int, ...]) -> float:
    if not any(state):
        return 0.0
    return 1.0 + sum(w * min(expected(t) for t in ps) for ps, (_, w) in zip(plays_of(state), ROLLS))


@lru_cache(maxsize=None)
def finish(state: tuple[int, ...]) -> tuple[float, ...]:
    dist = [0.0] * K
    if not any(state):
        dist[0] = 1.0
        return tuple(dist)
    for ps, (_, w) in zip(plays_of(state), ROLLS):
        best = min(ps, key=expected)
        for n, p in enumerate(finish(best)[:-1]):
            dist[n + 1] += w * p
    return tuple(dist)


@lru_cache(maxsize=None)
def expected_first(state: tuple[int, ...]) -> float:
    if not any(state):
        return 0.0
    total = 0.0
    for ps, (_, w) in zip(plays_of(state), ROLLS):
        total += w * (1.0 if any(sum(t) < sum(state) for t in ps) else 1.0 + min(expected_first(t) for t in ps))
    return total


@lru_cache(maxsize=None)
def first(state: tuple[int, ...]) -> tuple[float, ...]:
    dist = [0.0] * K
    if not any(state):
        dist[0] = 1.0
        return tuple(dist)
    for ps, (_, w) in zip(plays_of(state), ROLLS):
        if any(sum(t) < sum(state) for t in ps):
            dist[1] += w
            continue
        best = min(ps, key=expected_first)
        for n, p in enumerate(first(best)[:-1]):
            dist[n + 1] += w * p
    return tuple(dist)


def states(points: int, checkers: int):
    for n in range(1, checkers + 1):
        for combo in itertools.combinations_with_replacement(range(points), n):
            s = [0] * points
            for k in combo:
                s[k] += 1
            yield tuple(s)


def rows_of(pairs) -> np.ndarray:
    return np.stack([board_of(a, b).to_array() for a, b in pairs])


@pytest.fixture(scope="module")
def small():
    """Up to 3 checkers on 10 points: 286 positions, built in milliseconds (no cache)."""
    return database(POINTS, cache="", threads=2, checkers=3)


def test_hand_checked_distributions(small):
    # One checker on the ace: off with any roll.
    assert small.rolls_to_finish([1])[1] == pytest.approx(1.0)
    # Two on the six point: in one roll only with 3-3, 4-4, 5-5, 6-6 (RULES.md §1.5).
    assert small.rolls_to_finish([0, 0, 0, 0, 0, 2])[1] == pytest.approx(4 / 36, abs=1e-4)
    # One checker on the 8 point (outside home): off in one roll when the dice bring it home and
    # bear it off: 6-2, 6-3, 6-4, 6-5, 5-3, 5-4 (12/36) or any double but 1-1 (5/36).
    assert small.rolls_to_finish([0] * 7 + [1])[1] == pytest.approx(17 / 36, abs=1e-4)
    # Its first checker off is its only one.
    np.testing.assert_allclose(small.rolls_to_first([0] * 7 + [1]), small.rolls_to_finish([0] * 7 + [1]), atol=1e-4)


@pytest.mark.parametrize("k", range(4))
def test_distributions_equal_the_independent_computation(small, k):
    for s in list(states(POINTS, 3))[k::4]:
        got = small.rolls_to_finish(list(s))
        want = finish(s)
        np.testing.assert_allclose(got, want, atol=2e-4, err_msg=str(s))
        assert small.expected_rolls(list(s)) == pytest.approx(expected(s), abs=1e-4), s
        np.testing.assert_allclose(small.rolls_to_first(list(s)), first(s), atol=2e-4, err_msg=str(s))


def test_distributions_are_distributions(small):
    for s in states(POINTS, 3):
        for d in (small.rolls_to_finish(list(s)), small.rolls_to_first(list(s))):
            assert (d >= 0).all() and d.sum() == pytest.approx(1.0, abs=1e-5)
            assert d[0] == 0  # a side with a checker left needs a roll


def p_on_roll_wins(mine, theirs) -> float:
    me, op = finish(mine), finish(theirs)
    return sum(me[n] * sum(op[n:]) for n in range(1, K))


def test_race_probabilities(small):
    pairs = [((1,), (1,)),                      # the roller wins
             ((0, 0, 0, 0, 0, 2), (1,)),        # off in one roll or lost: 4/36
             ((1,), (0, 0, 0, 0, 0, 2)),
             ((0,) * 7 + (1,), (0,) * 9 + (1,)),
             ((0, 0, 1, 0, 0, 0, 0, 0, 0, 2), (0, 0, 0, 0, 0, 0, 3))]
    got = small._probabilities("backgammon", [], rows_of(pairs))
    assert got[0, 0] == pytest.approx(1.0)
    assert got[1, 0] == pytest.approx(4 / 36, abs=1e-4)
    assert got[2, 0] == pytest.approx(1.0)
    for (a, b), g in zip(pairs, got):
        assert g[0] == pytest.approx(p_on_roll_wins(a, b), abs=2e-4)
        assert g[1] == 0 and g[2] == 0  # both sides have 12 or more off


@pytest.fixture(scope="module")
def bearoff_db():
    """The bear-off range, 15 checkers on 6 points: 54,264 positions (no cache)."""
    return database(6, cache="", threads=2)


def test_gammons_from_the_first_checker_off(bearoff_db):
    """The loser has all 15 left: a gammon unless he takes one off before the winner finishes."""
    big = bearoff_db
    rows = np.stack([board_of((1,), (0, 0, 0, 0, 0, 15)).to_array(),
                     board_of((0, 0, 0, 0, 0, 15), (1,)).to_array()])
    g = big._probabilities("backgammon", [], rows)
    assert g[0, 0] == pytest.approx(1.0) and g[0, 1] == pytest.approx(1.0) and g[0, 2] == 0
    # 15 on my six point, on roll: my first checker is off this roll with a 6 (11/36), dice that
    # sum to 6 (5-1, 4-2: 4/36), 3-3 or 2-2 (2/36); he is off with his first roll whatever happens.
    assert g[1, 0] == 0 and g[1, 2] == pytest.approx(1 - 17 / 36, abs=1e-4)


def test_agrees_with_the_bear_off_table(bearoff_db):
    """Where both cover a race (every checker home), the 6-point database and the engine's exact
    one-sided table (which every evaluator uses there: bearoff.h) give the same chances."""
    rng = np.random.default_rng(19)
    pairs = []
    while len(pairs) < 200:
        sides = []
        for _ in range(2):
            n = int(rng.integers(1, 16))
            s = [0] * 6
            for k in rng.integers(0, 6, size=n):
                s[int(k)] += 1
            sides.append(tuple(s))
        pairs.append(tuple(sides))
    rows = rows_of(pairs)
    got = bearoff_db._probabilities("backgammon", [], rows)
    want = tavli.evaluate_batch(rows, "backgammon", evaluator="heuristic")
    np.testing.assert_allclose(got[:, 0], want[:, 0], atol=2e-3)
    np.testing.assert_allclose(got[:, 1], want[:, 1], atol=2e-3)  # win_double
    np.testing.assert_allclose(got[:, 2], want[:, 3], atol=2e-3)  # lose_double


def test_probabilities_bounds(bearoff_db):
    rng = np.random.default_rng(5)
    pairs = []
    for _ in range(300):
        sides = []
        for _ in range(2):
            s = [0] * 6
            for k in rng.integers(0, 6, size=int(rng.integers(1, 16))):
                s[int(k)] += 1
            sides.append(tuple(s))
        pairs.append(tuple(sides))
    g = bearoff_db._probabilities("backgammon", [], rows_of(pairs))
    assert (g >= 0).all() and (g[:, 0] <= 1 + 1e-6).all()
    assert (g[:, 1] <= g[:, 0] + 1e-6).all() and (g[:, 2] <= 1 - g[:, 0] + 1e-6).all()


def test_the_build_does_not_depend_on_threads_and_resumes(tmp_path):
    """A build stopped by its time limit leaves a partial file that the next call (here another
    cache key, so nothing is reused from memory) resumes; the result is byte for byte that of an
    uninterrupted build, on one thread or two."""
    one, two, stopped = tmp_path / "one", tmp_path / "two", tmp_path / "stopped"
    for d in (one, two, stopped):
        d.mkdir()
    database(5, cache=one, threads=1)
    database(5, cache=two, threads=2)
    assert (one / "race-5.tdb").read_bytes() == (two / "race-5.tdb").read_bytes()
    with pytest.raises(TimeoutError):
        database(6, cache=stopped, threads=1, time_limit=0.02, checkers=12)
    assert (stopped / "race-6-12.tdb.partial").exists() and not (stopped / "race-6-12.tdb").exists()
    # A copy of the partial file under another directory: resumed from the file alone.
    other = tmp_path / "other"
    other.mkdir()
    (other / "race-6-12.tdb.partial").write_bytes((stopped / "race-6-12.tdb.partial").read_bytes())
    resumed = database(6, cache=other, threads=2, checkers=12)
    assert resumed.complete and not (other / "race-6-12.tdb.partial").exists()
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    database(6, cache=fresh, threads=2, checkers=12)
    assert (other / "race-6-12.tdb").read_bytes() == (fresh / "race-6-12.tdb").read_bytes()


def test_a_damaged_cache_file_is_built_again(tmp_path):
    (tmp_path / "race-4.tdb").write_bytes(b"TAVLIRDB garbage")
    db = database(4, cache=tmp_path, threads=1)
    assert db.complete and db.rolls_to_finish([1])[1] == pytest.approx(1.0)
    assert (tmp_path / "race-4.tdb").stat().st_size > 100


@pytest.mark.parametrize("bad", [dict(points=0), dict(points=11), dict(checkers=0), dict(checkers=16),
                                 dict(points=True), dict(points=6.0)])
def test_bad_arguments(bad):
    args = dict(points=3, cache="", threads=1) | bad
    with pytest.raises(ValueError):
        database(**args)


def test_bad_counts(small):
    with pytest.raises(ValueError, match="at most 10 points"):
        small.rolls_to_finish([0] * 11)
    with pytest.raises(ValueError, match="more than 3 checkers"):
        small.rolls_to_finish([4])


def test_evaluator_values_covered_races_and_defers_the_rest():
    ev = RaceDb(points=POINTS, cache="", checkers=3, threads=2)
    race = board_of((0,) * 7 + (1,), (0,) * 9 + (1,))   # checkers outside home: from the table
    home = board_of((0, 0, 0, 1), (0, 0, 2))              # both home: the exact bear-off tables
    contact = tavli.Board("backgammon")                   # the opening: the shipped net
    beyond = board_of((0,) * 10 + (1,), (1,))             # his 11 point: beyond the table
    rows = np.stack([b.to_array() for b in (race, home, contact, beyond)])
    got = tavli.evaluate_batch(rows, "backgammon", evaluator=ev)
    base = tavli.evaluate_batch(rows, "backgammon")
    assert got[0, 0] == pytest.approx(p_on_roll_wins((0,) * 7 + (1,), (0,) * 9 + (1,)), abs=2e-4)
    assert abs(base[0, 0] - got[0, 0]) > 1e-4  # the net's value was not the exact one
    np.testing.assert_array_equal(got[1:], base[1:])
    # Plakoto (its own rules of contact) is left to the base evaluator.
    plakoto = board_of((0,) * 7 + (1,), (0,) * 9 + (1,), "plakoto").to_array()[None]
    np.testing.assert_array_equal(tavli.evaluate_batch(plakoto, "plakoto", evaluator=ev),
                                  tavli.evaluate_batch(plakoto, "plakoto"))


def test_evaluator_as_a_player():
    ev = RaceDb(points=POINTS, cache="", checkers=3, threads=2)
    r = tavli.simulate("backgammon", 4, (ev, "greedy"), seed=3, threads=1)
    assert (r["winner"] >= 0).all()


@pytest.mark.slow
def test_full_tables_agree_where_both_cover(tmp_path):
    """The 15-checker 8-point table against the 6-point one on home positions, and against the
    reference on 3-checker races outside home."""
    eight = database(8, cache=os.environ.get("TAVLI_CACHE_DIR", str(tmp_path)), threads=2)
    six = database(6, cache="", threads=2)
    for s in [(0, 0, 0, 0, 0, 15), (3, 3, 3, 2, 2, 2), (1,)]:
        np.testing.assert_allclose(eight.rolls_to_finish(list(s)), six.rolls_to_finish(list(s)), atol=1e-4)
    for s in states(8, 3):
        np.testing.assert_allclose(eight.rolls_to_finish(list(s)), finish(s), atol=2e-4)


@pytest.mark.slow
def test_race_values_near_gnubg():
    """Exact one-sided values against GNU Backgammon 2-ply on races within 8 points (gnubg's own
    race evaluation there is a net over its one-sided database): close on average."""
    gnubg = pytest.importorskip("gnubg_nn")
    ev = RaceDb(points=8)
    rng = np.random.default_rng(8)
    rows = []
    while len(rows) < 40:
        sides = []
        for _ in range(2):
            s = [0] * 8
            for k in rng.integers(0, 8, size=int(rng.integers(8, 16))):
                s[int(k)] += 1
            sides.append(tuple(s))
        rows.append(board_of(*sides).to_array())
    rows = np.stack(rows)
    ours = tavli.evaluate_batch(rows, "backgammon", evaluator=ev)[:, 0]
    theirs = []
    for row in rows:
        r = [int(x) for x in row]
        board = [[r[47 - i] for i in range(24)] + [r[49]], [r[23 - i] for i in range(24)] + [r[48]]]
        theirs.append(gnubg.probabilities(board, 2)[0])
    assert np.abs(ours - np.asarray(theirs)).mean() < 0.02
