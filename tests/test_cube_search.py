"""The cubeful n-ply search (cpp/include/tavli/cubeful_search.h) against an exact solution.

Short no-contact endgames (every line of play ends within the search depth, so no leaf is
estimated) are solved here by a dynamic program over positions and cube states, written
independently of the engine: the legal plays come from the pure-Python oracle (tests/oracle),
the scoring from the rule book, the cube from the rules of doubling (before his roll the side to
move may double where the cube is centred or his; the other side passes, losing the cube's
value, or takes and owns the doubled cube), match results from the Kazaross-XG2 table's numbers.
The engine's full-width search at that depth must equal the solution, in money play (Jacoby off,
Jacoby on, an owned cube) and at match scores.
"""

from __future__ import annotations

import functools

import pytest

import tavli
from helpers import make_board
from oracle import games as ref
from test_search_exact import ExactSolver, oracle_pos, rulebook_points
from tavli.cube import CubeState, MatchState, default_met
from tavli.cube_search import analyze, decide, evaluate

ROLLS = [((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(1, a + 1)]
FULL = [(1000, 0, 0)]
TOL = 1e-9


@functools.lru_cache(maxsize=None)
def plays_of(pos, dice):
    """The oracle's distinct results (still seen from the mover), shared by every solver."""
    return tuple(ref.legal_plays("backgammon", pos, dice))


class CubeDP:
    """value(pos, cube, owner) for the side to move in `pos` (absolute player `mover`), before his
    roll, his cube action included. Values: money points (the cube's value included), or MWC.
    `away` (match play): points each absolute player needs; owner -1 centred, else 0/1."""

    def __init__(self, variant, away=None, jacoby=False):
        self.variant = variant
        self.away = away
        self.jacoby = jacoby
        self.pre = default_met().pre_crawford_table  # pre[i][j]: needing i+1 against j+1

    def mwc(self, player, a0, a1):
        """Player's MWC with the aways a0, a1 (no one was at one-away: the pre-Crawford table)."""
        if a0 <= 0 or a1 <= 0:
            white = 1.0 if a0 <= 0 else 0.0
        else:
            white = self.pre[a0 - 1][a1 - 1]
        return white if player == 0 else 1.0 - white

    def result(self, me, winner, points, cube, owner):
        if self.away is None:
            pts = (1 if self.jacoby and owner == -1 else points) * cube
            return pts if me == winner else -pts
        a = list(self.away)
        a[winner] -= points * cube
        return self.mwc(me, a[0], a[1])

    def flip(self, v):
        return -v if self.away is None else 1.0 - v

    def may_double(self, me, cube, owner):
        if owner not in (-1, me):
            return False
        return self.away is None or self.away[me] > cube  # a double he needs no points from: never

    @functools.lru_cache(maxsize=None)
    def value(self, pos, me, cube, owner):
        nd = self.play_on(pos, me, cube, owner)
        if not self.may_double(me, cube, owner):
            return nd
        take = self.play_on(pos, me, 2 * cube, 1 - me)
        return max(nd, min(take, self.result(me, me, 1, cube, owner)))

    @functools.lru_cache(maxsize=None)
    def play_on(self, pos, me, cube, owner):
        total = 0.0
        for dice, w in ROLLS:
            total += w * max(self.child(c, me, cube, owner) for c in plays_of(pos, dice))
        return total

    def child(self, c, me, cube, owner):
        if c.mover_off == 15:
            return self.result(me, me, rulebook_points(self.variant, c.opp, c.opp_bar, c.opp_off), cube, owner)
        return self.flip(self.value(c.flipped(), 1 - me, cube, owner))


# (mover {r: n}, opponent {r: n}, what): backgammon, the rest off (route indices, 18..23 home).
ENDGAMES = [
    ({20: 1, 22: 1}, {19: 1, 21: 1}, "race 2 v 2"),
    ({18: 1, 21: 1}, {20: 1, 23: 1}, "race, underdog"),
    ({18: 1, 20: 1}, {19: 1, 22: 1}, "race, double and take"),
    ({21: 1, 22: 1}, {5: 1, 23: 14}, "gammon + backgammon chance"),
]
# (cube, match, jacoby): money centred with Jacoby off and on, an owned cube each way, match scores
# (aways 4-3: the cube ladder 1-2-4, each side's limits; 2-4: a dead cube for one side).
STATES = [
    (CubeState(), MatchState(), "money, Jacoby off"),
    (CubeState(jacoby=True), MatchState(), "money, Jacoby on"),
    (CubeState(2, 0), MatchState(), "money, White owns 2"),
    (CubeState(2, 1), MatchState(), "money, Black owns 2"),
    (CubeState(), MatchState(7, (3, 4)), "7-point match 3-4"),
    (CubeState(2, 1), MatchState(7, (3, 4)), "7-point match 3-4, Black owns 2"),
    (CubeState(), MatchState(9, (7, 5)), "9-point match 7-5"),
]


@functools.lru_cache(maxsize=None)
def longest_game(m, o):
    _p, _amb, longest = ExactSolver("backgammon").value(oracle_pos(make_board("backgammon", dict(m), dict(o))))
    return longest


@functools.lru_cache(maxsize=None)
def _solver(away, jacoby):
    return CubeDP("backgammon", away, jacoby)


def solver_for(match, cube):
    away = None if match.money else (match.away(0), match.away(1))
    return _solver(away, cube.jacoby)


def owner_of(cube):
    return -1 if cube.owner is None else cube.owner


@pytest.mark.parametrize("cube,match,what", STATES, ids=[s[2] for s in STATES])
@pytest.mark.parametrize("m,o,pos_what", ENDGAMES, ids=[e[2] for e in ENDGAMES])
def test_cube_decision_equals_the_exact_solution(m, o, pos_what, cube, match, what):
    board = make_board("backgammon", m, o)
    depth = longest_game(tuple(m.items()), tuple(o.items()))
    assert 2 <= depth <= 6
    dp = solver_for(match, cube)
    pos = oracle_pos(board)
    me, c, own = board.turn, cube.value, owner_of(cube)
    d = decide(board, cube, match, depth, filters=FULL)
    assert d.plies == depth
    nd = dp.play_on(pos, me, c, own)
    if match.money:
        assert d.nd * c == pytest.approx(nd, abs=TOL)
    else:
        assert d.nd_mwc == pytest.approx(nd, abs=TOL)
    if not dp.may_double(me, c, own):
        assert not d.available and d.dt is None
        return
    assert d.available
    dt = dp.play_on(pos, me, 2 * c, 1 - me)
    if match.money:
        assert d.dt * c == pytest.approx(dt, abs=TOL) and d.dp == 1.0
    else:
        assert d.dt_mwc == pytest.approx(dt, abs=TOL)
        assert d.dp_mwc == pytest.approx(dp.result(me, me, 1, c, own), abs=TOL)
    # The proper action follows from the exact equities.
    dpv = dp.result(me, me, 1, c, own)
    want_double = min(dt, dpv) > nd
    assert d.action.startswith("double") == want_double, (d.action, nd, dt, dpv)
    assert d.take == ("pass" if dt > dpv else "take")
    # The position's cubeful value, the cube action included.
    eq, mwc = evaluate(board, cube, match, depth, filters=FULL)
    assert (eq * c if match.money else mwc) == pytest.approx(dp.value(pos, me, c, own), abs=TOL)
    # Deeper than the game can last changes nothing.
    deeper = decide(board, cube, match, depth + 1, filters=FULL)
    assert deeper.nd == pytest.approx(d.nd, abs=TOL) and deeper.dt == pytest.approx(d.dt, abs=TOL)


@pytest.mark.parametrize("cube,match,what", [STATES[0], STATES[1], STATES[4], STATES[5]],
                         ids=[STATES[i][2] for i in (0, 1, 4, 5)])
def test_every_play_equals_the_exact_solution(cube, match, what):
    """analyze at (longest - 1) plies full width values each play as the solution does: the
    opponent's cube action on his next roll and everything after."""
    m, o, _ = ENDGAMES[3]
    board = make_board("backgammon", m, o)
    depth = longest_game(tuple(m.items()), tuple(o.items()))
    dp = solver_for(match, cube)
    me, c, own = board.turn, cube.value, owner_of(cube)
    for dice in [(2, 1), (6, 6), (5, 3)]:
        a = analyze(board, dice, cube, match, depth - 1, filters=FULL)
        assert len(a.plays) == len(ref.legal_plays("backgammon", oracle_pos(board), dice))
        for p in a.plays:
            want = dp.child(oracle_pos(board.play(p.play)).flipped(), me, c, own)
            got = p.equity * c if match.money else p.mwc
            assert got == pytest.approx(want, abs=TOL), (dice, str(p.play))
        vals = [p.equity for p in a.plays]
        assert vals == sorted(vals, reverse=True)


def test_the_solutions_exercise_the_cube():
    """The cases above include doubles that are taken and passed, and Jacoby changes a value."""
    m, o, _ = ENDGAMES[3]
    board = make_board("backgammon", m, o)
    depth = longest_game(tuple(m.items()), tuple(o.items()))
    off = decide(board, CubeState(), MatchState(), depth, filters=FULL)
    on = decide(board, CubeState(jacoby=True), MatchState(), depth, filters=FULL)
    assert off.nd != pytest.approx(on.nd, abs=1e-3)  # gammons count only with Jacoby off
    actions = {decide(make_board("backgammon", mm, oo), cube, match, longest_game(tuple(mm.items()), tuple(oo.items())),
                      filters=FULL).action for mm, oo, _ in ENDGAMES for cube, match, _ in STATES}
    assert any(a.startswith("double, take") for a in actions) and any("pass" in a for a in actions), actions


def test_zero_plies_is_the_zero_ply_formula():
    board = tavli.Board("backgammon")
    for cube, match in [(CubeState(), MatchState()), (CubeState(2, 0), MatchState()),
                        (CubeState(), MatchState(7, (2, 3))), (CubeState(2, 1), MatchState(7, (2, 3)))]:
        a = decide(board, cube, match, 0)
        b = board.cube_decision(cube, match, 0)
        assert a.nd == pytest.approx(b.nd, abs=1e-9) and a.action == b.action and a.available == b.available
        if b.dt is not None:
            assert a.dt == pytest.approx(b.dt, abs=1e-9) and a.dp == pytest.approx(b.dp, abs=1e-9)


def test_board_cube_decision_searches_at_one_ply_and_more():
    board = tavli.Board("backgammon")
    d = board.cube_decision(plies=1)
    e = decide(board, plies=1)
    assert d.plies == 1 and d.nd == e.nd and d.dt == e.dt and d.action == e.action
    assert d.nd != board.cube_decision(plies=0).nd


def test_bad_arguments():
    board = tavli.Board("backgammon")
    with pytest.raises(ValueError, match="plies"):
        decide(board, plies=9)
    with pytest.raises(ValueError, match="no doubling cube"):
        analyze(tavli.Board("portes"), (3, 1))
    with pytest.raises(ValueError):
        decide(board, CubeState(2, 0), MatchState(3, (0, 2)), 1)  # an owned cube at a score it cannot be


def test_limits_keep_the_deepest_iteration_completed():
    """With a time or node limit the cubeful analysis deepens a ply at a time (the same kept plays):
    completed, it equals the unlimited search; cut short, the plays hold the last completed
    iteration's values, which are the shallower search's own. The node total an iteration needs
    does not depend on the threads, so a limit one short of it stops every thread count alike."""
    board = tavli.Board("backgammon")
    cube, match = CubeState(), MatchState(7, (2, 4))
    plain = analyze(board, (4, 2), cube, match, plies=2)
    one = {str(p.play): p.equity for p in analyze(board, (4, 2), cube, match, plies=1).plays}
    zero = {str(p.play): p.equity for p in analyze(board, (4, 2), cube, match, plies=0).plays}
    roomy = analyze(board, (4, 2), cube, match, plies=2, node_limit=10**9, time_limit=3600)
    assert not roomy.interrupted and roomy.plies == 2
    assert [(str(p.play), p.equity, p.mwc, p.plies) for p in roomy.plays] == \
        [(str(p.play), p.equity, p.mwc, p.plies) for p in plain.plays]
    for threads in (1, 2):
        exact = analyze(board, (4, 2), cube, match, plies=2, node_limit=roomy.nodes, threads=threads)
        assert not exact.interrupted and exact.nodes == roomy.nodes
        short = analyze(board, (4, 2), cube, match, plies=2, node_limit=roomy.nodes - 1, threads=threads)
        assert short.interrupted and short.plies == 1 and short.nodes < roomy.nodes
        deep = [p for p in short.plays if p.plies == 1]
        assert 1 <= len(deep) < len(short.plays)  # the 2-ply root filter's plays, searched to 1 ply
        for p in short.plays:
            assert p.equity == pytest.approx((one if p.plies == 1 else zero)[str(p.play)], abs=1e-12)
    first = analyze(board, (4, 2), cube, match, plies=2, node_limit=1)
    assert first.interrupted and first.plies == 0 and len(first.plays) == len(zero)
    timed = analyze(board, (4, 2), cube, match, plies=8, time_limit=0.05)
    assert timed.interrupted and timed.plies < 8
    for bad in ({"time_limit": -1}, {"node_limit": -5}, {"node_limit": 1.5}, {"time_limit": float("nan")}):
        with pytest.raises(ValueError, match="time_limit|node_limit"):
            analyze(board, (4, 2), cube, match, plies=1, **bad)


def test_decision_limits_keep_the_deepest_iteration_completed():
    board = tavli.Board("backgammon")
    cube, match = CubeState(), MatchState(7, (2, 4))
    plain = decide(board, cube, match, 2)
    roomy = decide(board, cube, match, 2, node_limit=10**9, time_limit=3600)
    assert (roomy.plies, roomy.nd, roomy.dt, roomy.action) == (2, plain.nd, plain.dt, plain.action)
    one = decide(board, cube, match, 1)
    zero = decide(board, cube, match, 0)
    nodes_1 = _core_nodes(board, cube, match, 1)
    cut = decide(board, cube, match, 2, node_limit=nodes_1 + 10)  # room for 1 ply, not for 2
    assert cut.plies == 1 and cut.nd == pytest.approx(one.nd, abs=1e-12) and cut.dt == pytest.approx(one.dt, abs=1e-12)
    first = decide(board, cube, match, 2, node_limit=5)
    assert first.plies == 0 and first.nd == pytest.approx(zero.nd, abs=1e-9)


def _core_nodes(board, cube, match, plies):
    from tavli import _core

    return _core._cubeful_decision(board, cube, match, default_met(), plies, [], None, 1)[10]
