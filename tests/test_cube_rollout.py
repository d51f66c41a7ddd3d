"""Cubeful rollouts (cpp/include/tavli/cubeful_rollout.h, tavli.cube_rollout).

The expected values come from outside the engine: the exact dynamic-programming solution of
short races over positions and cube states (tests/test_cube_search.py's CubeDP, on the oracle's
plays and the rule book's scoring), and the cubeless rollout where the cube is dead. A rollout
whose players play each turn exactly (a full-width cubeful search as deep as the rest of the game)
is an unbiased estimate of the solution, so its No double and Double/take equities must lie within
3 standard errors of it.
"""

from __future__ import annotations

import pytest

import tavli
from helpers import make_board
from test_cube_search import ENDGAMES, STATES, longest_game, oracle_pos, owner_of, solver_for
from tavli.cube import CubeDecision, CubeState, MatchState
from tavli.cube_rollout import CubefulRollout, RolloutCubeDecision, decide, rollout
from tavli.results import Rollout

FULL = [(1000, 0, 0)]


def exact_player(m, o):
    """A player that plays the rest of the game exactly: full width, as deep as it can last."""
    depth = longest_game(tuple(m.items()), tuple(o.items()))
    assert depth <= 4
    return {"search": depth, "filters": FULL, "evaluator": "heuristic"}


def check_against_solution(m, o, cube, match, trials, **kwargs):
    board = make_board("backgammon", m, o)
    dp = solver_for(match, cube)
    pos, me, c, own = oracle_pos(board), board.turn, cube.value, owner_of(cube)
    d = decide(board, cube, match, trials, exact_player(m, o), seed=11, **kwargs)
    assert isinstance(d, CubeDecision) and d.trials == trials and d.truncated == 0
    nd = dp.play_on(pos, me, c, own)
    # Absolute values (money points with the cube; MWC) and their standard errors.
    got_nd, se_nd = (d.nd * c, d.nd_std_error * c) if match.money else (d.nd_mwc, d.nd_mwc_std_error)
    assert abs(got_nd - nd) <= 3 * se_nd + 1e-12, (got_nd, nd, se_nd)  # se 0: every trial the same
    if not dp.may_double(me, c, own):
        assert not d.available and d.dt is None
        return d
    dt = dp.play_on(pos, me, 2 * c, 1 - me)
    got_dt, se_dt = (d.dt * c, d.dt_std_error * c) if match.money else (d.dt_mwc, d.dt_mwc_std_error)
    assert abs(got_dt - dt) <= 3 * se_dt + 1e-12, (got_dt, dt, se_dt)
    if match.money:
        assert d.dp == 1.0
        assert abs((d.dt - d.nd) - (dt - nd) / c) <= 3 * d.difference_std_error + 1e-12
    else:
        assert d.dp_mwc == pytest.approx(dp.result(me, me, 1, c, own), abs=1e-12)
    return d


FAST = [
    (ENDGAMES[3], STATES[0]),  # gammons, money, Jacoby off: too good / double, pass
    (ENDGAMES[3], STATES[1]),  # Jacoby on
    (ENDGAMES[3], STATES[4]),  # 7-point match 3-4
    (ENDGAMES[1], STATES[0]),  # the underdog: no double
    (ENDGAMES[1], STATES[5]),  # match, Black owns 2
]


@pytest.mark.parametrize("endgame,state", FAST, ids=[f"{e[2]}, {s[2]}" for e, s in FAST])
def test_cube_decision_agrees_with_the_exact_solution(endgame, state):
    (m, o, _), (cube, match, _) = endgame, state
    check_against_solution(m, o, cube, match, 324)


@pytest.mark.slow
@pytest.mark.parametrize("state", STATES, ids=[s[2] for s in STATES])
@pytest.mark.parametrize("endgame", [e for e in ENDGAMES if longest_game(tuple(e[0].items()), tuple(e[1].items())) <= 4],
                         ids=lambda e: e[2])
def test_cube_decision_agrees_with_the_exact_solution_more_trials(endgame, state):
    (m, o, _), (cube, match, _) = endgame, state
    check_against_solution(m, o, cube, match, 1296)


def test_position_rollout_includes_the_movers_cube_action():
    """rollout() lets the side to move double before his first roll: the solution's value()."""
    m, o, _ = ENDGAMES[3]
    board = make_board("backgammon", m, o)
    for cube, match in [(CubeState(), MatchState()), (CubeState(), MatchState(7, (3, 4)))]:
        dp = solver_for(match, cube)
        want = dp.value(oracle_pos(board), board.turn, cube.value, owner_of(cube))
        r = board.rollout(324, exact_player(m, o), cube=cube, match=match, seed=2)
        assert isinstance(r, CubefulRollout)
        got, se = (r.equity, r.equity_std_error) if match.money else (r.mwc, r.mwc_std_error)
        assert abs(got - want) <= 3 * se, (got, want, se)
        # The mover cashes (too good / double, pass in the solution) far more often than not:
        # the value is well above the No double line's.
        assert got > dp.play_on(oracle_pos(board), board.turn, cube.value, owner_of(cube)) - 3 * se


# A race with a checker off on each side: no gammons, so cubeless and cubeful play choose alike.
DEAD_RACE = ({18: 2, 19: 2, 20: 3, 22: 2, 23: 3}, {18: 1, 19: 3, 20: 2, 21: 3, 22: 2, 23: 2})


def test_a_dead_cube_is_the_cubeless_rollout_times_the_cube():
    board = make_board("backgammon", *DEAD_RACE)
    cubeless = board.rollout(216, "heuristic", seed=4)
    assert cubeless.probabilities.win_double == 0 and cubeless.probabilities.lose_double == 0
    # Money, the cube at its cap (nobody may double): points = cube x cubeless points, per unit the same.
    capped = CubeState(4, 1 - board.turn, max_cube=4)
    r = board.rollout(216, "heuristic", cube=capped, seed=4)
    assert r.equity == pytest.approx(cubeless.equity, abs=1e-12)
    assert r.equity_std_error == pytest.approx(cubeless.equity_std_error, abs=1e-12)
    d = decide(board, capped, None, 216, "heuristic", seed=4)
    assert not d.available and d.nd == pytest.approx(cubeless.equity, abs=1e-12)
    # Match play, 2-away 2-away with the cube at 2: every game decides the match, MWC = P(win),
    # and the EMG of the cube the cubeless equity.
    owned = CubeState(2, board.turn)
    r = board.rollout(216, "heuristic", cube=owned, match=MatchState(5, (3, 3)), seed=4)
    assert r.mwc == pytest.approx((cubeless.equity + 1) / 2, abs=1e-12)
    assert r.mwc == pytest.approx(cubeless.probabilities.win, abs=1e-6)  # a float32 field
    assert r.equity == pytest.approx(cubeless.equity, abs=1e-12)


def test_common_random_numbers_shrink_the_error_of_the_difference():
    board = tavli.Board("backgammon")
    d = decide(board, None, None, 144, "heuristic", seed=3)
    assert d.difference_std_error < (d.nd_std_error ** 2 + d.dt_std_error ** 2) ** 0.5


def test_seeded_and_independent_of_threads():
    board = tavli.Board("backgammon")
    for match in [None, MatchState(5, (1, 2))]:
        a = decide(board, None, match, 72, "heuristic", seed=9, threads=1)
        b = decide(board, None, match, 72, "heuristic", seed=9, threads=3)
        assert a == b
        c = decide(board, None, match, 72, "heuristic", seed=10)
        assert (c.nd, c.dt) != (a.nd, a.dt)
        assert rollout(board, None, match, 72, "heuristic", seed=9, threads=2) == \
            rollout(board, None, match, 72, "heuristic", seed=9)


def test_board_entry_points():
    board = tavli.Board("backgammon")
    d = board.cube_decision(rollout={"trials": 36, "player": "heuristic", "seed": 1})
    assert isinstance(d, RolloutCubeDecision) and d == decide(board, None, None, 36, "heuristic", seed=1)
    assert d.action in ("no double", "double, take", "double, pass", "too good to double, pass",
                        "too good to double, take")
    r = board.rollout(36, "heuristic", cube=CubeState(), seed=1)
    assert r == rollout(board, None, None, 36, "heuristic", seed=1)
    # Without cube or match, board.rollout stays the cubeless one.
    assert isinstance(board.rollout(36, "heuristic"), Rollout)


def test_stops_on_its_time_limit():
    with pytest.raises(TimeoutError):
        decide(tavli.Board("backgammon"), None, None, 100_000, "heuristic", time_limit=0.05)


def test_bad_arguments():
    board = tavli.Board("backgammon")
    with pytest.raises(ValueError, match="portes has no doubling cube"):
        tavli.Board("portes").rollout(36, cube=CubeState(2, 0))
    with pytest.raises(ValueError, match="portes has no doubling cube"):
        tavli.Board("portes").rollout(36, match=MatchState(5, (1, 2)))
    with pytest.raises(ValueError, match="tavla has no doubling cube"):
        tavli.Board("tavla").cube_decision(rollout=True)
    with pytest.raises(ValueError, match="random"):
        board.rollout(36, "random", cube=CubeState())
    with pytest.raises(ValueError, match="trials"):
        decide(board, trials=0)
    with pytest.raises(ValueError, match="rollout: a cube decision by rollout takes no plies"):
        board.cube_decision(plies=1, rollout=True)
    with pytest.raises(ValueError, match="unknown option"):
        board.cube_decision(rollout={"trails": 36})
    with pytest.raises(ValueError, match="rollout must be"):
        board.cube_decision(rollout=36)
    with pytest.raises(ValueError, match="time_limit"):  # on Ray as on the cubeless rollouts' Ray path
        board.rollout(36, cube=CubeState(), backend="ray", time_limit=5)
    with pytest.raises(TypeError, match="shard"):
        decide(board, trials=36, shard=144)  # for backend="ray" only
    with pytest.raises(ValueError, match="covers matches up to"):
        decide(board, None, MatchState(40, (0, 0)), 36)
    with pytest.raises(ValueError):
        decide(board, CubeState(2, 0), MatchState(3, (0, 2)), 36)  # a cube the score cannot have
    over = make_board("backgammon", {23: 1}, {18: 1})
    over.push(over.legal_plays((6, 6))[0])
    assert over.is_game_over()
    with pytest.raises(ValueError, match="game is over"):
        decide(over, trials=36)


@pytest.mark.parametrize("state", [STATES[0], STATES[4]], ids=[STATES[0][2], STATES[4][2]])
def test_truncated_trials_are_valued_by_the_cubeful_search(state):
    """Cut after one play and valued by the exact player's own search (full width, as deep as the
    game), for the side then on roll with his cube action: still the solution."""
    (m, o, _), (cube, match, _) = ENDGAMES[1], state
    board = make_board("backgammon", m, o)
    dp = solver_for(match, cube)
    pos, me, c, own = oracle_pos(board), board.turn, cube.value, owner_of(cube)
    d = decide(board, cube, match, 144, exact_player(m, o), truncate=1, seed=8)
    assert 0 < d.truncated <= 2 * 144
    nd, dt = dp.play_on(pos, me, c, own), dp.play_on(pos, me, 2 * c, 1 - me)
    got_nd, se_nd = (d.nd * c, d.nd_std_error * c) if match.money else (d.nd_mwc, d.nd_mwc_std_error)
    got_dt, se_dt = (d.dt * c, d.dt_std_error * c) if match.money else (d.dt_mwc, d.dt_mwc_std_error)
    assert abs(got_nd - nd) <= 3 * se_nd + 1e-9 and abs(got_dt - dt) <= 3 * se_dt + 1e-9, (got_nd, nd, got_dt, dt)


# --- variance reduction (cubeful_rollout.h: the luck in the cubeful value at the trial's cube) ----
VR_CASES = [(ENDGAMES[1], STATES[0]), (ENDGAMES[3], STATES[4])]


@pytest.mark.parametrize("endgame,state", VR_CASES, ids=[f"{e[2]}, {s[2]}" for e, s in VR_CASES])
def test_variance_reduction_on_the_exact_solution(endgame, state):
    """With the exact players every roll's lookahead value is the solution's value after it (the
    next cube action included) and the mean over the rolls the value before it: a trial less its
    lucks telescopes to the solution (doubles, passes and the match's scores on the way), so the
    reduced standard errors vanish where the plain ones do not, and the means are the solution."""
    (m, o, _), (cube, match, _) = endgame, state
    plain = decide(make_board("backgammon", m, o), cube, match, 36, exact_player(m, o), seed=11)
    reduced = check_against_solution(m, o, cube, match, 36, variance_reduction=True)
    pairs = [("nd", 1.0), ("dt", 1.0)] if match.money else [("nd_mwc", 1.0), ("dt_mwc", 1.0)]
    for name, _ in pairs:
        se_plain, se_reduced = getattr(plain, f"{name}_std_error"), getattr(reduced, f"{name}_std_error")
        assert se_plain > 0.01 and se_reduced < 1e-3 * se_plain, (name, se_plain, se_reduced)


def test_variance_reduction_shrinks_the_cubeful_errors():
    """The shipped net's greedy cube player, money, trials truncated after 6 plies: the same dice
    and games with and without the adjustment. Measured (seed 3, 144 trials): ND 0.054 -> 0.012,
    DT 0.086 -> 0.018, DT - ND 0.037 -> 0.008. The means against an independent plain rollout of
    9 times the trials."""
    board = tavli.Board("backgammon")
    for dice in ((6, 2), (4, 1), (5, 3), (6, 6)):
        board.push(board.legal_plays(dice)[3])
    plain = decide(board, None, None, 144, seed=3, truncate=6)
    reduced = decide(board, None, None, 144, seed=3, truncate=6, variance_reduction=True)
    reference = decide(board, None, None, 1296, seed=99, truncate=6)
    for name in ("nd", "dt", "difference"):
        assert getattr(reduced, f"{name}_std_error") < 0.45 * getattr(plain, f"{name}_std_error"), name
    for name in ("nd", "dt"):
        combined = (getattr(reduced, f"{name}_std_error") ** 2 + getattr(reference, f"{name}_std_error") ** 2) ** 0.5
        assert abs(getattr(reduced, name) - getattr(reference, name)) <= 3 * combined, name
    assert reduced == decide(board, None, None, 144, seed=3, truncate=6, variance_reduction=True, threads=2)


@pytest.mark.parametrize("decision", [False, True])
def test_shards_combine_to_the_cubeful_rollout_bit_for_bit(decision):
    """The shards of a cubeful rollout on Ray, without Ray: block-aligned ranges of its trials
    folded by the core in order give exactly the one-call result."""
    import numpy as np

    from tavli import _core
    from tavli.cube_rollout import _args

    board = tavli.Board("backgammon")
    for dice in ((6, 2), (4, 1), (5, 3)):
        board.push(board.legal_plays(dice)[2])
    match = MatchState(7, (3, 4))
    kw = {"seed": 3, "truncate": 5, "variance_reduction": True}
    whole = (decide if decision else rollout)(board, None, match, 300, "heuristic", **kw)
    args = _args(board, None, match, None, 300, "heuristic", kw)
    blocks = np.concatenate([_core._cubeful_rollout_blocks(board, decision, first, count, *args)
                             for first, count in ((0, 144), (144, 144), (288, 12))])
    assert blocks.shape == (3, 18) and blocks[:, 0].sum() == 300
    r = _core._cubeful_rollout_combine(board, decision, blocks, *args)
    if decision:
        assert (r[1], r[2], r[10], r[11], r[14], r[15]) == (whole.nd, whole.dt, whole.nd_std_error,
                                                              whole.dt_std_error, whole.difference_std_error,
                                                              whole.trials)
    else:
        assert r == (whole.equity, whole.equity_std_error, whole.mwc, whole.mwc_std_error, whole.trials,
                     whole.truncated)
    with pytest.raises(ValueError, match="hold 288 trials, not the 300"):
        _core._cubeful_rollout_combine(board, decision, blocks[:2], *args)


def test_luck_evaluator_in_cubeful_rollouts():
    """rollout.h's luck_evaluator judges the cubeful luck at 0 plies (the 0-ply cubeful value of
    each roll's best play by it): the greedy player's own evaluator gives its own lookahead bit for
    bit; for a search:1 player the net's 0-ply judge keeps the means (against an independent plain
    rollout of 8 times the trials) and most of the reduction. Measured (seed 3, 144 trials): equity
    error 0.044 plain, 0.0085 with the 0-ply luck."""
    from tavli import nn

    board = tavli.Board("backgammon")
    for dice in ((6, 2), (4, 1), (5, 3), (6, 6)):
        board.push(board.legal_plays(dice)[3])
    net = nn.shipped_stage("backgammon", "td")
    own = decide(board, None, None, 144, net, seed=3, truncate=4, variance_reduction=True)
    assert decide(board, None, None, 144, net, seed=3, truncate=4, variance_reduction=True, luck_evaluator=net) == own
    player = {"search": 1, "evaluator": net}
    plain = rollout(board, None, None, 144, player, seed=3, truncate=4)
    judged = rollout(board, None, None, 144, player, seed=3, truncate=4, variance_reduction=True, luck_evaluator=net)
    reference = rollout(board, None, None, 1152, player, seed=31, truncate=4, threads=2)
    assert judged.equity_std_error < 0.5 * plain.equity_std_error
    combined = (judged.equity_std_error ** 2 + reference.equity_std_error ** 2) ** 0.5
    assert abs(judged.equity - reference.equity) <= 3 * combined
    with pytest.raises(ValueError, match="needs variance_reduction"):
        rollout(board, None, None, 36, luck_evaluator=net)
