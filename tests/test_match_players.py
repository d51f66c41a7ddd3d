"""Score-aware and n-ply cube players inside C++ self-play (tavli.match_players,
cpp/include/tavli/match_player.h): the grammar and its refusals, a hand-checked double-match-point
play, today's players unchanged, seeds and thread counts, and the cubeful search on many threads."""

from __future__ import annotations

import pytest

import tavli
from tavli import cube_search, match_play
from tavli.match_players import core_players
from tavli.players import player_arg, player_options

# X (White) to move, 5-2, no cube: X has 14 checkers in his home board (6:2 5:4 4:2 3:3 2:3, one
# off), O a blot on X's 1-point and his others far from home (one on X's 10, one on O's 7).
#   5/off 3/1*  hits: O goes to the bar, more gammons, but X's checker on the 1-point is a blot
#               that O hits from the bar with any 1 (11 rolls of 36);
#   5/off 2/off leaves X no blot (6:2 5:3 4:2 3:3 2:2): no shot this turn.
# At double match point a gammon counts nothing, so only the chance to win matters: the safe play
# (hand-checked: no shot against 11 shots, nothing to gain from the gammon). The money ranking of
# the backgammon net's TD stage goes for the gammon (the hit); so the players below use that net.
DMP_POSITION = "backgammon:AQAAAAAAAAAAAABCMgMQAQAAABAAAAAQAEIzAA"
# Steps as trajectories record them, mover-relative: point p is 24 - p, off is 24.
HIT = [[19, 24], [21, 23]]  # 5/off 3/1*
SAFE = [[19, 24], [22, 24]]  # 5/off 2/off


def first_play(players, seed_for_roll=(2, 5)):
    """The first play of the players' White from DMP_POSITION at double match point for 5-2."""
    row = tavli.Board.from_id(DMP_POSITION).to_array()
    for seed in range(200):
        r = tavli.simulate("backgammon", 1, players, start=row, trajectories=True, max_plies=1, seed=seed,
                           cube={"match": {"length": 1}})
        if sorted(r["dice"][0].tolist()) == sorted(seed_for_roll):
            return [s for s in r["steps"][0].tolist() if s != [-2, -2]]
    raise AssertionError("no seed below 200 rolls 5-2")


TD_NET = tavli.nn.shipped_stage("backgammon", "td")
TD = {"search": 0, "evaluator": TD_NET}  # "greedy" with the TD net


def test_dmp_score_aware_play_saves_the_win():
    assert first_play(({**TD, "score_aware": True}, "greedy")) == SAFE
    assert first_play((TD, "greedy")) == HIT  # the money ranking goes for the gammon
    assert first_play(({"search": 1, "evaluator": TD_NET, "score_aware": True}, "greedy")) == SAFE


def test_dmp_cubeful_play_saves_the_win():
    # Cubeful play at double match point ranks by the match winning chance too (the cube is dead
    # in a one-point match): the safe play, at 0 and 1 ply.
    assert first_play(("greedy+cubeful", "greedy")) == SAFE
    assert first_play(("search:1+cubeful", "greedy")) == SAFE


def test_dmp_agrees_with_match_play():
    # Python's score-aware ranking (tavli.match_play) makes the same choice as the C++ player.
    b = tavli.Board.from_id(DMP_POSITION)
    assert str(match_play.best_play(b, (5, 2), 1, (0, 0), 0)) == "5/off 2/off"


def test_grammar():
    assert player_options("search:1+score+cube:2") == ("search:1", True, 2, False)
    assert player_options("greedy+cube:1") == ("greedy", False, 1, False)
    assert player_options("greedy+cubeful+cube:1") == ("greedy", False, 1, True)
    assert player_options({"search": 1, "score_aware": True}) == ({"search": 1}, True, 0, False)
    assert player_options({"search": 1, "cubeful_play": True}) == ({"search": 1}, False, 0, True)
    assert player_options("greedy") == ("greedy", False, 0, False)
    assert core_players(["heuristic+score", "greedy"])[1] == [(True, 0, False), (False, 0, False)]


@pytest.mark.parametrize("spec", ["greedy+scores", "greedy+cube:5", "greedy+score+score", "greedy+cube:x",
                                  "greedy+cubeful+cubeful", {"search": 1, "score_aware": 1},
                                  {"search": 1, "cube_plies": 9}, {"search": 1, "cubeful_play": "yes"}])
def test_bad_specs_are_named(spec):
    with pytest.raises(ValueError, match="player"):
        player_options(spec)


def test_match_options_refused_where_unused():
    with pytest.raises(ValueError, match=r"\+score"):
        player_arg("greedy+score")  # Board.rollout, the frontends: not for them
    with pytest.raises(ValueError, match="need the cube"):
        tavli.simulate("backgammon", 1, ("greedy+score", "greedy"))
    with pytest.raises(ValueError, match="match score"):
        tavli.simulate("backgammon", 1, ("greedy+score", "greedy"), cube=True)
    with pytest.raises(ValueError, match="needs the cube"):
        tavli.simulate_matches("tavla", 1, ("greedy+cube:1", "greedy"))
    with pytest.raises(ValueError, match="scored by checkers"):
        tavli.simulate_matches("tawla31", 1, ("greedy+score", "greedy"))
    with pytest.raises(ValueError, match="64 points"):
        tavli.simulate_matches("tavla", 1, ("greedy+score", "greedy"), target=65)
    with pytest.raises(ValueError, match=r"\+cubeful"):
        player_arg("greedy+cubeful")
    with pytest.raises(ValueError, match="need the cube"):
        tavli.simulate("backgammon", 1, ("greedy+cubeful", "greedy"))
    with pytest.raises(ValueError, match="needs the cube"):
        tavli.simulate_matches("backgammon", 1, ("greedy+cubeful", "greedy"))
    with pytest.raises(ValueError, match="random player"):
        tavli.simulate("backgammon", 1, ("random+cubeful", "greedy"), cube=True)


def test_cube_plies_zero_is_todays_cube_player():
    kw = dict(seed=4, target=3, cube=True)
    a = tavli.simulate_matches("backgammon", 4, ("greedy", "greedy"), **kw)
    b = tavli.simulate_matches("backgammon", 4, ("greedy+cube:0", "greedy"), **kw)
    assert {k: v.tolist() for k, v in a.items()} == {k: v.tolist() for k, v in b.items()}


@pytest.mark.parametrize("kind,players,cube", [
    ("backgammon", ("heuristic+score+cube:1", "heuristic"), True),
    ("backgammon", ("greedy+cubeful", "greedy+cube:1"), True),
    ("backgammon", ("heuristic+score", "heuristic"), False),
    ("tavla", ("heuristic+score", "heuristic"), False),
    ("tavli", ("heuristic", "heuristic+score"), False),
])
def test_seeded_and_thread_independent(kind, players, cube):
    kw = dict(target=3, cube=cube, seed=11)
    one = tavli.simulate_matches(kind, 6, players, threads=1, **kw)
    two = tavli.simulate_matches(kind, 6, players, threads=2, **kw)
    again = tavli.simulate_matches(kind, 6, players, threads=1, **kw)
    part = tavli.simulate_matches(kind, 3, players, threads=1, first_match=3, **kw)
    assert {k: v.tolist() for k, v in one.items()} == {k: v.tolist() for k, v in two.items()}
    assert {k: v.tolist() for k, v in one.items()} == {k: v.tolist() for k, v in again.items()}
    assert {k: v[3:].tolist() for k, v in one.items()} == {k: v.tolist() for k, v in part.items()}
    assert (one["winner"] >= 0).all()


@pytest.mark.parametrize("threads", [1, 2])
def test_cubeful_money_play_is_seeded_and_plays_differently(threads):
    # With the cube in money play a cubeful player plays some play differently from the cubeless
    # one over a few games (the cube's state changes what a gammon is worth), and the same with
    # any thread count. (The shipped net's gammon chances make the difference; the heuristic's
    # rankings do not change with the cube.)
    kw = dict(cube=True, seed=5, threads=threads)
    a = tavli.simulate("backgammon", 12, ("greedy", "greedy"), trajectories=True, **kw)
    b = tavli.simulate("backgammon", 12, ("greedy+cubeful", "greedy"), trajectories=True, **kw)
    c = tavli.simulate("backgammon", 12, ("greedy+cubeful", "greedy"), trajectories=True,
                       **{**kw, "threads": 1})
    assert a["steps"].shape != b["steps"].shape or a["steps"].tolist() != b["steps"].tolist()
    assert {k: v.tolist() for k, v in b.items()} == {k: v.tolist() for k, v in c.items()}


def test_score_aware_plays_differently_in_a_cubeless_match():
    # Tavla's doubles and triples make the score matter: over a few matches some play differs.
    kw = dict(target=5, seed=2)
    a = tavli.simulate_matches("tavla", 8, ("heuristic", "heuristic"), **kw)
    b = tavli.simulate_matches("tavla", 8, ("heuristic+score", "heuristic"), **kw)
    assert a["score"].tolist() != b["score"].tolist() or a["games"].tolist() != b["games"].tolist()


def test_cubeful_search_thread_count_independent():
    b = tavli.Board.from_id(DMP_POSITION)
    match = tavli.MatchState(5, (2, 1))
    for plies in (1, 2):
        d1 = cube_search.decide(b, None, match, plies, threads=1)
        d2 = cube_search.decide(b, None, match, plies, threads=2)
        assert (d1.nd, d1.dt, d1.dp, d1.action, d1.take) == (d2.nd, d2.dt, d2.dp, d2.action, d2.take)
    start = tavli.Board("backgammon")
    a1 = cube_search.analyze(start, (3, 1), None, None, 2, threads=1)
    a3 = cube_search.analyze(start, (3, 1), None, None, 2, threads=3)
    assert [(str(p.play), p.equity, p.plies) for p in a1.plays] == [(str(p.play), p.equity, p.plies) for p in a3.plays]
    assert a1.nodes == a3.nodes
    with pytest.raises(ValueError, match="threads"):
        cube_search.decide(b, None, match, 1, threads=0)


def test_the_ray_shards_forward_the_options():
    # Each Ray shard is the local call on its matches (tavli.backends.ray): the same arrays.
    import numpy as np

    from tavli.backends import ray as on_ray

    kw = dict(kind="tavla", players=("heuristic+score", "heuristic"), target=3, seed=8)
    local = tavli.simulate_matches(matches=6, **kw)
    shard = on_ray._counted_shard((tavli.simulate_matches, "matches", "first_match", dict(first_match=0, **kw)), 2, 4)
    assert all(np.array_equal(local[k][2:], shard[k]) for k in local)


def test_searched_cube_decision_in_a_certain_win():
    # White has two checkers on his ace point (any roll bears both off) and Black one checker
    # off: a certain single win. No double +1, double/take +2, double/pass +1 at any depth, so a
    # '+cube:1' player doubles and the '+cube:1' opponent passes: one point, by a pass.
    b = tavli.Board.from_dict({"variant": "backgammon", "mover": [0] * 23 + [2],
                               "opponent": [0] * 5 + [14] + [0] * 18, "off": [13, 1]})
    for threads in (1, 2):
        r = tavli.simulate("backgammon", 2, ("heuristic+cube:1", "heuristic+cube:1"), start=b.to_array(), cube=True,
                           seed=1, threads=threads)
        assert r["passed"].tolist() == [True, True] and r["scored"].tolist() == [1, 1]
        assert r["cube"].tolist() == [1, 1] and r["winner"].tolist() == [0, 0]


# Recorded at 1ff5d71, before the options existed (the cubeful search then single-threaded), with
# the TD net then shipped ("greedy"; since then the backgammon net's TD stage, named explicitly):
# today's players and the search's values must stay as they were.
BEFORE_CUBE_MATCHES = {  # simulate_matches("backgammon", 30, (TD, "heuristic"), target=5, seed=3, cube=True)
    "winner": [0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
    "score": [[16, 0], [5, 0], [4, 5], [4, 5], [8, 0], [8, 0], [6, 1], [10, 0], [10, 0], [16, 0], [16, 0], [5, 4], [9, 0], [0, 5], [2, 8], [8, 1], [0, 8], [5, 0], [5, 0], [8, 0], [6, 1], [7, 0], [4, 6], [16, 0], [8, 2], [18, 0], [10, 0], [16, 0], [9, 0], [16, 0]],
    "games": [1, 2, 5, 4, 1, 1, 3, 2, 2, 1, 1, 6, 2, 2, 2, 3, 1, 2, 2, 1, 4, 2, 3, 1, 2, 2, 2, 1, 2, 1],
}
# cube_search.decide(DMP_POSITION's board, None, MatchState(7, (2, 4)), 2, evaluator=TD_NET): nd, dt, dp, nd_mwc
BEFORE_DECISION = (1.0950275052460106, 2.099269211804894, 1.0, 0.436676641688893)
# Since 2026-12-07 the evaluator adds each occupied point's units as one precomputed column (nnet.h,
# "Point columns"): its sums round differently, by a few 1e-7 in a probability at most, and these
# values moved by up to 3e-8 (the matches above did not change).
DECISION_TOLERANCE = 1e-6


def test_todays_players_and_search_unchanged():
    m = tavli.simulate_matches("backgammon", 30, (TD, "heuristic"), target=5, seed=3, cube=True)
    assert {k: m[k].tolist() for k in BEFORE_CUBE_MATCHES} == BEFORE_CUBE_MATCHES
    b = tavli.Board.from_id(DMP_POSITION)
    for threads in (1, 2):
        d = cube_search.decide(b, None, tavli.MatchState(7, (2, 4)), 2, threads=threads, evaluator=TD_NET)
        assert (d.nd, d.dt, d.dp, d.nd_mwc) == pytest.approx(BEFORE_DECISION, abs=DECISION_TOLERANCE)
        assert (d.action, d.take) == ("too good to double, pass", "pass")


def test_met_is_a_score_aware_players_table_in_a_cubeless_match():
    kw = dict(target=3, seed=6)
    a = tavli.simulate_matches("backgammon", 3, ("greedy+score", "greedy"), met="Kazaross-XG2", **kw)
    b = tavli.simulate_matches("backgammon", 3, ("greedy+score", "greedy"), **kw)  # Kazaross-XG2 by default
    assert {k: v.tolist() for k, v in a.items()} == {k: v.tolist() for k, v in b.items()}
    with pytest.raises(ValueError, match="met is for a match with the cube"):
        tavli.simulate_matches("backgammon", 3, ("greedy", "greedy"), met="Kazaross-XG2", **kw)
    with pytest.raises(ValueError, match="expected two player specs"):
        tavli.simulate_matches("backgammon", 3, "greedy+score", **kw)


def test_board_cube_decision_forwards_threads_and_filters():
    # Board.cube_decision at 1 and 2 plies is the cubeful search's decision for any thread count,
    # with the caller's filters; a bad thread count is named.
    b = tavli.Board.from_id(DMP_POSITION)
    match = tavli.MatchState(5, (2, 1))
    for plies in (1, 2):
        want = cube_search.decide(b, None, match, plies, threads=1)
        got = b.cube_decision(match=match, plies=plies, threads=2)
        assert (got.nd, got.dt, got.dp, got.action) == (want.nd, want.dt, want.dp, want.action)
    narrow = cube_search.decide(b, None, match, 1, filters=[(0, 0, 0.0)])
    got = b.cube_decision(match=match, plies=1, filters=[(0, 0, 0.0)])
    assert (got.nd, got.dt, got.dp) == (narrow.nd, narrow.dt, narrow.dp)
    with pytest.raises(ValueError, match="threads"):
        b.cube_decision(match=match, plies=1, threads=0)
