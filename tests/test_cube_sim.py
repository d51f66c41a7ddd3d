"""Self-play with the doubling cube (tavli.cube_sim, cpp/include/tavli/cube_player.h): the cubeless
results unchanged, hand-worked endings (double/pass, take, Jacoby, too good), the match score's
cube (Crawford, post-Crawford, dead cubes), matches to a target, refusals by name, thread-count
independence and the Ray pass-through."""

from __future__ import annotations

import numpy as np
import pytest

import tavli
from helpers import make_board
from tavli.cube_sim import points_per_game

# Recorded at 8bdaf95, before the cube hook existed: cubeless self-play must stay bit-identical.
# "greedy" then played the TD net, which ships on as the backgammon net's TD stage.
TD_NET = tavli.nn.shipped_stage("backgammon", "td")
BEFORE_BACKGAMMON = {  # simulate("backgammon", 12, ("heuristic", TD_NET), seed=15)
    "winner": [0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 1, 0],
    "points": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2],
    "kind": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2],
    "starter": [0, 1, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0],
    "plies": [55, 39, 46, 56, 57, 52, 55, 62, 53, 55, 76, 43],
}
BEFORE_HYPERGAMMON = {  # simulate("hypergammon", 10, ("heuristic", "random"), seed=3)
    "winner": [0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
    "points": [1, 1, 2, 2, 1, 1, 2, 2, 3, 2],
    "plies": [25, 19, 19, 23, 17, 22, 16, 26, 26, 16],
}
BEFORE_MATCHES = {  # simulate_matches("backgammon", 4, ("heuristic", "heuristic"), seed=5, target=3)
    "winner": [0, 0, 0, 1],
    "score": [[3, 1], [3, 1], [3, 1], [1, 3]],
    "games": [4, 4, 4, 4],
}


def test_cubeless_results_unchanged():
    r = tavli.simulate("backgammon", 12, ("heuristic", TD_NET), seed=15)
    assert sorted(r) == ["kind", "plies", "points", "starter", "winner"]
    assert {k: r[k].tolist() for k in BEFORE_BACKGAMMON} == BEFORE_BACKGAMMON
    r = tavli.simulate("hypergammon", 10, ("heuristic", "random"), seed=3, cube=False)
    assert {k: r[k].tolist() for k in BEFORE_HYPERGAMMON} == BEFORE_HYPERGAMMON
    m = tavli.simulate_matches("backgammon", 4, ("heuristic", "heuristic"), seed=5, target=3)
    assert {k: m[k].tolist() for k in m} == BEFORE_MATCHES


def ending(black_checkers: int, black_off: int) -> np.ndarray:
    """White (on roll) has two checkers left on his ace point: any roll bears both off, a certain
    win. Black's checkers stand on White's 6-point (in White's home: a backgammon unless Black
    has borne one off, then a single)."""
    b = tavli.Board.from_dict({"variant": "backgammon", "mover": [0] * 23 + [2],
                               "opponent": [0] * 5 + [black_checkers] + [0] * 18, "off": [13, black_off]})
    return b.to_array()


BACKGAMMON_ENDING = ending(15, 0)
SINGLE_ENDING = ending(14, 1)


def play(start, cube, games=2):
    return tavli.simulate("backgammon", games, ("heuristic", "heuristic"), start=start, cube=cube, seed=1)


def test_certain_single_win_doubles_and_the_opponent_passes():
    # A certain single win: No double = +1, Double/take = +2, Double/pass = +1: double, pass.
    r = play(SINGLE_ENDING, True)
    assert r["passed"].all() and (r["plies"] == 0).all() and (r["winner"] == 0).all()
    assert (r["scored"] == 1).all() and (r["cube"] == 1).all() and (r["cube_owner"] == -1).all()


def test_a_player_without_the_cube_always_takes():
    r = play(SINGLE_ENDING, {"players": (True, False)})
    assert not r["passed"].any() and (r["winner"] == 0).all() and (r["plies"] == 1).all()
    assert (r["cube"] == 2).all() and (r["cube_owner"] == 1).all() and (r["scored"] == 2).all()
    r = play(SINGLE_ENDING, {"players": (False, True)})  # White never doubles
    assert (r["cube"] == 1).all() and (r["scored"] == 1).all()


def test_too_good_to_double_plays_on_for_the_backgammon():
    # A certain backgammon: No double = +3 beats Double/pass = +1: White plays on.
    r = play(BACKGAMMON_ENDING, True)
    assert not r["passed"].any() and (r["kind"] == 3).all() and (r["scored"] == 3).all()
    assert (r["cube"] == 1).all()


def test_jacoby_rule():
    # With the Jacoby rule a backgammon at a centred cube counts single, so White cashes instead.
    r = play(BACKGAMMON_ENDING, {"jacoby": True})
    assert r["passed"].all() and (r["scored"] == 1).all()
    r = play(BACKGAMMON_ENDING, {"jacoby": True, "players": (False, True)})
    assert (r["kind"] == 3).all() and (r["points"] == 3).all() and (r["scored"] == 1).all()
    r = play(SINGLE_ENDING, {"jacoby": True, "players": (True, False)})  # a turned cube: gammons count
    assert (r["scored"] == 2).all()


def test_at_a_match_score_the_cube_follows_the_score():
    # Crawford game: no doubling; 2-away 2-away is not dead before the roll but the leader at
    # one-away never doubles (his double gains nothing); at double match point nobody doubles.
    crawford = {"match": tavli.MatchState(3, (2, 0), crawford=True)}
    post = {"match": {"length": 3, "score": (2, 0)}}
    dmp = {"match": tavli.MatchState(3, (2, 2))}
    for cube in (crawford, dmp):
        r = play(SINGLE_ENDING, cube)
        assert (r["cube"] == 1).all() and not r["passed"].any() and (r["scored"] == 1).all()
    r = play(SINGLE_ENDING, post)  # White leads 2-0 at one-away: he may not double
    assert (r["cube"] == 1).all() and not r["passed"].any()
    r = tavli.simulate("backgammon", 30, ("heuristic", "heuristic"), seed=4, cube=post)
    turned = r["cube"] > 1
    assert turned.any()
    assert (r["cube_owner"][turned] == 0).all()  # only the trailer (Black) doubles
    assert (r["cube"] <= 2).all()  # White, needing one point, has no use for a redouble


def test_money_session_columns_are_consistent():
    r = tavli.simulate("backgammon", 40, ("greedy", "heuristic"), seed=2, cube=True)
    cube, owner, passed, scored = r["cube"], r["cube_owner"], r["passed"], r["scored"]
    assert ((cube & (cube - 1)) == 0).all() and (cube >= 1).all()
    assert ((owner == -1) == (cube == 1)).all()  # without beavers an owned cube has been turned once
    assert (scored[passed] == cube[passed]).all() and (r["points"][passed] == 1).all()
    assert (scored[~passed] == cube[~passed] * r["points"][~passed]).all()
    assert (cube > 1).any() and passed.any()


def test_max_cube_and_beavers():
    r = tavli.simulate("backgammon", 30, ("greedy", "heuristic"), seed=2, cube={"max_cube": 2})
    assert (r["cube"] <= 2).all() and (r["cube"] == 2).any()
    r = tavli.simulate("backgammon", 30, ("greedy", "heuristic"), seed=2, cube={"beavers": True})
    assert ((r["cube"] & (r["cube"] - 1)) == 0).all()


def test_same_results_whatever_the_threads():
    kw = dict(seed=9, cube={"players": (True, False)})
    one = tavli.simulate("backgammon", 24, ("greedy", "heuristic"), threads=1, **kw)
    three = tavli.simulate("backgammon", 24, ("greedy", "heuristic"), threads=3, chunk=5, **kw)
    assert all(np.array_equal(one[k], three[k]) for k in one)
    part = tavli.simulate("backgammon", 10, ("greedy", "heuristic"), first_game=14, **kw)
    assert all(np.array_equal(one[k][14:], part[k]) for k in one)
    m1 = tavli.simulate_matches("backgammon", 6, ("greedy", "heuristic"), target=5, seed=3, cube=True)
    m2 = tavli.simulate_matches("backgammon", 6, ("greedy", "heuristic"), target=5, seed=3, cube=True, threads=2,
                                chunk=4)
    assert all(np.array_equal(m1[k], m2[k]) for k in m1)


def test_matches_with_the_cube_end_at_the_target():
    m = tavli.simulate_matches("backgammon", 12, ("greedy", "greedy"), target=5, seed=11, cube=True)
    assert (m["winner"] >= 0).all()
    win = m["score"][np.arange(12), m["winner"]]
    lose = m["score"][np.arange(12), 1 - m["winner"]]
    assert (win >= 5).all() and (lose < 5).all()
    assert (m["games"] >= 1).all()
    # A one-point match: the cube is dead (each needs no more than its value), as cubeless scoring.
    m = tavli.simulate_matches("hypergammon", 10, ("heuristic", "heuristic"), target=1, seed=1, cube=True)
    assert (m["games"] == 1).all() and set(m["score"].max(axis=1).tolist()) <= {1, 2, 3}


@pytest.mark.parametrize("variant", ["fevga", "plakoto", "portes", "tavla", "narde"])
def test_games_without_the_cube_refuse_it_by_name(variant):
    with pytest.raises(ValueError, match=f"{variant} has no doubling cube"):
        tavli.simulate(variant, 2, cube=True)


def test_bad_cube_arguments():
    with pytest.raises(ValueError, match="tavla has no doubling cube"):
        tavli.simulate_matches("tavla", 2, cube=True)
    with pytest.raises(ValueError, match="one game"):
        tavli.simulate_matches("tavli", 2, cube=True)
    with pytest.raises(ValueError, match="money-play options"):
        tavli.simulate_matches("backgammon", 2, cube={"jacoby": True})
    with pytest.raises(ValueError, match="covers matches up to 25"):
        tavli.simulate_matches("backgammon", 2, target=31, cube=True)
    with pytest.raises(ValueError, match="roll_off"):
        tavli.simulate_matches("backgammon", 2, cube=True, next_starter="previous_winner")
    with pytest.raises(ValueError, match="met is for a match with the cube"):
        tavli.simulate_matches("backgammon", 2, met="Kazaross-XG2")
    with pytest.raises(ValueError, match="unknown keys"):
        tavli.simulate("backgammon", 2, cube={"jacobi": True})
    with pytest.raises(ValueError, match="centred at 1"):
        tavli.simulate("backgammon", 2, cube=tavli.CubeState(2, 0))
    with pytest.raises(ValueError, match="maximum cube"):
        tavli.simulate("backgammon", 2, cube={"max_cube": 3})
    with pytest.raises(ValueError, match="Jacoby"):
        tavli.simulate("backgammon", 2, cube={"jacoby": True, "match": tavli.MatchState(5)})
    with pytest.raises(TypeError, match="cube players"):
        tavli.simulate("backgammon", 2, cube={"players": (1, 0)})
    with pytest.raises(ValueError, match="cube must be"):
        tavli.simulate("backgammon", 2, cube="yes")


def test_a_match_equity_table_pickles_as_its_numbers():
    import pickle

    met = tavli.cube.default_met()
    back = pickle.loads(pickle.dumps(met))
    assert back.name == met.name and back.length == met.length
    assert back.pre_crawford_table == met.pre_crawford_table
    assert back.post_crawford_table == met.post_crawford_table


def test_points_per_game():
    r = {"winner": np.array([0, 1, 0, -1]), "scored": np.array([4, 2, 1, 0]), "points": np.array([1, 1, 1, 0])}
    mean, half = points_per_game(r, 0)
    assert mean == pytest.approx((4 - 2 + 1 + 0) / 4)
    assert half == pytest.approx(1.96 * np.std([4, -2, 1, 0], ddof=1) / 2)
    assert points_per_game(r, 1)[0] == pytest.approx(-0.75)
    del r["scored"]
    assert points_per_game(r, 0)[0] == pytest.approx(0.25)


def test_the_ray_entry_points_forward_the_cube():
    from tavli import distributed

    kw = dict(seed=5, cube={"players": (True, False)})
    local = tavli.simulate("backgammon", 6, ("greedy", "heuristic"), **kw)
    # The Ray functions' local part (each shard is the local call on its games): the same arrays.
    from tavli.backends import ray as on_ray

    shard = on_ray._counted_shard((tavli.simulate, "games", "first_game",
                                    dict(variant="backgammon", players=("greedy", "heuristic"), first_game=0,
                                         **kw)), 2, 4)
    assert all(np.array_equal(local[k][2:], shard[k]) for k in local)
    with pytest.raises(ValueError, match="fevga has no doubling cube"):
        distributed.simulate("fevga", 2, cube=True)
    with pytest.raises(ValueError, match="tavla has no doubling cube"):
        distributed.simulate_matches("tavla", 2, cube=True)


def hyper_gammon_ending() -> np.ndarray:
    """Hypergammon with jacoby_always: White (on roll) has his last checker on his ace point, a
    certain win; Black's three checkers stand on the mid-board, none borne off and none in White's
    home: on the board a gammon (RULES-KIN.md hypergammon)."""
    return make_board("hypergammon", {23: 1}, {12: 3}, jacoby_always=True).to_array()


def play_hyper(cube, players=("heuristic", "heuristic")):
    return tavli.simulate("hypergammon", 2, players, start=hyper_gammon_ending(), cube=cube, seed=1,
                          jacoby_always=True)


def test_hypergammon_jacoby_always_counts_gammons_once_the_cube_is_turned():
    # Without the cube every win is single (H-JACOBY).
    r = play_hyper(False)
    assert (r["kind"] == 1).all() and (r["points"] == 1).all()
    # With the cube centred (White never doubles) the gammon on the board counts single.
    r = play_hyper({"players": (False, True)})
    assert (r["kind"] == 2).all() and (r["points"] == 2).all()
    assert (r["cube"] == 1).all() and (r["scored"] == 1).all()
    # White doubles (No double +1 under the rule, Double/pass +1, Double/take +4) and Black, who
    # does not handle the cube, takes: the gammon with the cube turned counts 2 x the cube of 2.
    r = play_hyper({"players": (True, False)})
    assert (r["cube"] == 2).all() and (r["cube_owner"] == 1).all() and not r["passed"].any()
    assert (r["kind"] == 2).all() and (r["scored"] == 4).all()
    # In a match the rule holds too: a centred cube's gammon scores one point.
    r = play_hyper({"players": (False, True), "match": tavli.MatchState(5)})
    assert (r["kind"] == 2).all() and (r["scored"] == 1).all()
