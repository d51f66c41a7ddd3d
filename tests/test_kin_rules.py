"""RULES-KIN.md §7 cases for the kin games (Jacquet JQ, Tawla 31 TW, Nackgammon NK, Hypergammon
HG), with the expected sets written out from the rule book's table, plus hand-worked cases for the
flags of §8 (runner release per turn, doubles played n times, Jacquet's six-point rule, the double
win, Jacoby always) and the forms every game has (IDs, dicts, GNU Position IDs)."""

import pytest

import tavli
from helpers import BAR, OFF, dice_used, expected, make_board, results


def check(board, dice, plays, ndice=None):
    assert results(board, dice) == expected(board, plays)
    if ndice is not None:
        assert dice_used(board, dice) == {ndice}


def passes(board, dice):
    plays = board.legal_plays(dice)
    return len(plays) == 1 and plays[0].steps == []


START = ({0: 15}, {0: 15})


# --- Jacquet (parallel, one checker blocks, runner threshold 18) ---------------------------------


def test_JQ01_six_six_moves_the_runner_once():
    b = make_board("jacquet", *START)
    check(b, (6, 6), [[(0, 6)]], 1)  # 6->12 is O's talon; nothing else may leave r0


def test_JQ02_only_one_checker_moves():
    check(make_board("jacquet", *START), (6, 5), [[(0, 11)]], 2)


def test_JQ03_runner_past_the_talon_but_not_home_moves_alone():
    b = make_board("jacquet", {0: 14, 13: 1}, {0: 15})
    check(b, (3, 1), [[(13, 17)]], 2)
    # Fevga (threshold 13) releases the runner on r13: the rule book's five plays.
    f = make_board("fevga", {0: 14, 13: 1}, {0: 15})
    check(f, (3, 1), [[(0, 3), (0, 1)], [(0, 3), (13, 14)], [(0, 4)], [(13, 16), (0, 1)], [(13, 17)]], 2)


def test_JQ05_three_threes():
    check(make_board("jacquet", *START), (3, 3), [[(0, 9)]], 3)


def test_JQ07_two_two_four_times_or_twice_in_versailles():
    check(make_board("jacquet", *START), (2, 2), [[(0, 8)]], 4)
    check(make_board("jacquet", *START, doubles="n_times"), (2, 2), [[(0, 4)]], 2)


def test_JQ08_runner_released_only_on_arrival():
    b = make_board("jacquet", {0: 14, 9: 1}, {0: 15})
    check(b, (5, 4), [[(9, 18)]], 2)


@pytest.mark.parametrize("o_off, double_win, want", [(0, True, (0, 2, "double")), (1, True, (0, 1, "single")),
                                                     (0, False, (0, 1, "single")), (1, False, (0, 1, "single"))])
def test_JQ09_double_win(o_off, double_win, want):
    b = make_board("jacquet", {23: 1}, {0: 15 - o_off}, double_win=double_win)
    (play,) = b.legal_plays((1, 1))
    assert play.steps == [(23, OFF)]
    assert b.play(play).outcome() == want


def test_JQ04_runner_release_per_turn_keeps_the_roll_on_the_runner():
    # Hand-worked (the rule book names JQ04 without its row): the 5 takes the runner 13 -> 18, in
    # the last quarter. Per step the 1 is then free for any checker; per turn it stays on the runner.
    b = make_board("jacquet", {0: 14, 13: 1}, {0: 15})
    check(b, (5, 1), [[(13, 19)], [(13, 18), (0, 1)]], 2)
    bt = make_board("jacquet", {0: 14, 13: 1}, {0: 15}, runner_release="turn")
    check(bt, (5, 1), [[(13, 19)]], 2)
    # Next turn the others are free (the runner is on r19 now).
    nxt = make_board("jacquet", {0: 14, 19: 1}, {0: 15}, runner_release="turn")
    check(nxt, (2, 1), [[(0, 2), (0, 1)], [(0, 3)], [(0, 2), (19, 20)], [(19, 21), (0, 1)], [(19, 22)]], 2)


def test_versailles_doubles_one_one_is_one_step_and_six_six_six_steps():
    check(make_board("jacquet", *START, doubles="n_times"), (1, 1), [[(0, 1)]], 1)
    # Runner on r18 (phase over). Sixes: 0 -> 6 only (6 -> 12 is O's talon, 18 -> off needs all home).
    b = make_board("jacquet", {0: 14, 18: 1}, {0: 15}, doubles="n_times")
    check(b, (6, 6), [[(0, 6, 6)]], 6)
    four = make_board("jacquet", {0: 14, 18: 1}, {0: 15})
    check(four, (6, 6), [[(0, 6, 4)]], 4)
    assert len(b.legal_plays((6, 6))[0].steps) == 6
    assert str(b.legal_plays((6, 6))[0]) == "24/18(6)"


def test_versailles_six_steps_are_validated_as_a_roll_of_six():
    b = make_board("jacquet", {0: 14, 18: 1}, {0: 15}, doubles="n_times")
    play = b.find_play([(0, 6)] * 6, (6, 6))
    assert len(play.steps) == 6
    with pytest.raises(tavli.IllegalMove, match="at most 6 steps"):
        b.find_play([(0, 6)] * 7, (6, 6))
    with pytest.raises(tavli.IllegalMove, match="at most 4 steps"):
        make_board("jacquet", {0: 14, 18: 1}, {0: 15}).find_play([(0, 6)] * 6, (6, 6))


def wall_along_opponents_route(mover_counts) -> bool:
    """Six consecutive points held by the mover counted along the opponent's route (his s..s+5,
    0 <= s <= 18), RULES-KIN.md §2.5: my point p is his (p + 12) % 24 in Jacquet."""
    held = {(p + 12) % 24 for p in range(24) if mover_counts[p]}
    return any(all(s + k in held for k in range(6)) for s in range(19))


@pytest.mark.parametrize(
    "mover, dice, wall_play",
    [
        # 17 -> 18 closes r13..r18 (his 1..6).
        ({0: 8, 13: 1, 14: 1, 15: 1, 16: 1, 17: 2, 19: 1}, (6, 1), [(17, 18), (0, 6)]),
        # 17 -> 23 closes r23, r0..r4: his 11..16, a run across my r23 -> r0 (K4's example).
        ({0: 9, 1: 1, 2: 1, 3: 1, 4: 1, 17: 1, 18: 1}, (6, 5), [(17, 23), (0, 5)]),
    ],
)
def test_six_prime_needs_last_two(mover, dice, wall_play):
    opp = {0: 15}
    free = make_board("jacquet", mover, opp)
    strict = make_board("jacquet", mover, opp, six_prime="needs_last_two")
    free_results = results(free, dice)
    assert expected(free, [wall_play]) <= free_results  # the wall is a legal play by default
    # needs_last_two removes exactly the plays that build a six-point wall (the maximum number of
    # dice is two either way here).
    keep = {r for r in free_results if not wall_along_opponents_route(r[0])}
    assert keep and keep != free_results
    assert results(strict, dice) == keep


def test_six_prime_is_free_while_holding_the_last_two_points():
    mover = {0: 6, 13: 1, 14: 1, 15: 1, 16: 1, 17: 2, 19: 1, 22: 1, 23: 1}
    strict = make_board("jacquet", mover, {0: 15}, six_prime="needs_last_two")
    assert expected(strict, [[(17, 18), (0, 6)]]) <= results(strict, (6, 1))


def test_a_wall_across_my_r11_r12_is_not_a_six_point_block():
    """My r11 -> r12 is his r23 -> r0: r8..r13 held is no six-point block along his route."""
    mover = {0: 8, 6: 1, 8: 1, 9: 1, 10: 1, 11: 1, 13: 1, 19: 1}
    opp = {2: 15}  # he has left his talon (my r12) for his r2 (my r14)
    strict = make_board("jacquet", mover, opp, six_prime="needs_last_two")
    assert expected(strict, [[(6, 12), (0, 1)]]) <= results(strict, (6, 1))


# --- Tawla 31 (contrary, one checker blocks, runner threshold 18) ---------------------------------


def test_TW01_six_six_frees_a_second_checker():
    b = make_board("tawla31", *START)
    check(b, (6, 6), [[(0, 18), (0, 6)]], 4)
    # runner_release=turn: the fourth six stays on the runner, which cannot bear off: three dice.
    check(make_board("tawla31", *START, runner_release="turn"), (6, 6), [[(0, 18)]], 3)


def test_TW02_five_five_all_on_the_runner():
    check(make_board("tawla31", *START), (5, 5), [[(0, 20)]], 4)


def test_TW03_runner_only():
    check(make_board("tawla31", *START), (6, 5), [[(0, 11)]], 2)


TW04_X = {0: 14, 15: 1}
TW04_O = {0: 12, 3: 1, 5: 1, 19: 1}  # on my r23 x12, r20, r18, r4


def test_TW04_only_the_smaller_die_plays():
    check(make_board("tawla31", TW04_X, TW04_O), (3, 2), [[(15, 17)]], 1)


def test_TW06_runner_released_mid_roll():
    check(make_board("tawla31", TW04_X, TW04_O), (6, 1), [[(15, 21), (0, 1)], [(15, 22)]], 2)


def test_TW07_blocked_runner_passes_and_the_game_goes_on():
    b = make_board("tawla31", {0: 14, 15: 1}, {0: 8, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 19: 1})
    assert passes(b, (6, 6)) and passes(b, (2, 1))
    assert b.outcome() is None  # the opponent can move: not a dead position
    assert b.play(b.legal_plays((2, 1))[0]).outcome() is None


def test_TW09_winner_scores_the_checkers_left():
    b = make_board("tawla31", {23: 1}, {5: 11})  # O has 4 off, 11 on the board (his r5, my r18)
    (play,) = b.legal_plays((1, 2))
    assert b.play(play).outcome() == (0, 11, "checkers")
    # nobody off: 15 points (the maximum-dice rule plays 22 -> 23 -> off, not 22 -> off)
    b15 = make_board("tawla31", {22: 1}, {5: 15})
    (play,) = b15.legal_plays((2, 1))
    assert play.steps == [(22, 23), (23, OFF)]
    assert b15.play(play).outcome() == (0, 15, "checkers")


def test_TW09_match_to_31_previous_winner_starts():
    """A Tawla 31 match played out with seeded random plays: every game scores the loser's
    checkers left, the winner starts the next game without an opening roll, and the match ends
    when a total reaches 31 (overshooting allowed)."""
    rng = tavli.Rng(31)
    m = tavli.Match("tawla31")
    assert m.target == 31
    games = 0
    while m.phase != "over":
        if m.phase == "opening":
            assert games == 0, "only the first game starts with an opening roll"
            m.roll_opening(rng.die(), rng.die())
            continue
        board = m.board
        plays = board.legal_plays(m.forced_dice or rng.roll())
        before = len(m.results)
        m.play(plays[rng.below(len(plays))])
        if len(m.results) > before:
            games += 1
            r = m.results[-1]
            after_game = m.to_record()["games"][games - 1]
            assert r["kind"] == "checkers" and 1 <= r["points"] <= 15
            if m.phase != "over":
                assert m.phase == "playing" and m.board.turn == r["winner"]
    assert max(m.score) >= 31 and min(m.score) < 31
    assert sum(r["points"] for r in m.results) == sum(m.score)
    assert tavli.Match.from_json(m.to_json()).to_record() == m.to_record()
    assert after_game["result"]["points"] == m.results[-1]["points"]


def test_tawla31_parallel_reading_uses_the_fevga_geometry():
    # movement=parallel: O's talon is on my r12, so 6-6 from the start is one die (as JQ01).
    b = make_board("tawla31", *START, movement="parallel")
    check(b, (6, 6), [[(0, 6)]], 1)


def test_runner_threshold_19_is_the_literal_reading():
    # The runner reaches r18: with threshold 19 it is still the only checker that may move.
    b = make_board("tawla31", {0: 14, 15: 1}, {0: 15}, runner_threshold=19)
    check(b, (3, 1), [[(15, 19)]], 2)
    check(make_board("tawla31", {0: 14, 15: 1}, {0: 15}), (3, 1), [[(15, 19)], [(15, 18), (0, 1)]], 2)


# --- Nackgammon -----------------------------------------------------------------------------------

NACK = {0: 2, 1: 2, 11: 4, 16: 3, 18: 4}


def test_NK01_start():
    b = tavli.Board("nackgammon")
    assert b.mover == [NACK.get(r, 0) for r in range(24)] and b.opponent == b.mover
    assert b.gnubg_id() == "4Dl4ADbgOXgANg"
    assert tavli.Board.from_gnubg_id("4Dl4ADbgOXgANg", "nackgammon") == b


def test_NK02_six_six():
    b = make_board("nackgammon", NACK, NACK)
    check(b, (6, 6), [[(0, 6, 2), (11, 17, 2)], [(0, 6), (11, 17, 3)], [(11, 17, 4)]], 4)


def test_NK04_six_four():
    b = make_board("nackgammon", NACK, NACK)
    check(b, (6, 4), [[(0, 6), (0, 4)], [(0, 6), (11, 15)], [(0, 6), (16, 20)], [(0, 10)], [(11, 17), (0, 4)],
                      [(11, 17), (11, 15)], [(11, 17), (16, 20)], [(11, 21)]], 2)


# --- Hypergammon ----------------------------------------------------------------------------------


@pytest.mark.parametrize("k, gid", [(3, "AACgAgAAKgAAAA"), (2, "AABAAQAACgAAAA"), (1, "AACAAAAAAgAAAA")])
def test_HG01_start(k, gid):
    b = tavli.Board("hypergammon", checkers=k)
    assert b.checkers == k
    assert b.mover == [1 if r < k else 0 for r in range(24)] and b.opponent == b.mover
    assert b.off == [0, 0]
    assert b.gnubg_id() == gid
    assert tavli.Board.from_gnubg_id(gid, "hypergammon", checkers=k) == b


def test_HG02_two_one():
    b = make_board("hypergammon", {0: 1, 1: 1, 2: 1}, {0: 1, 1: 1, 2: 1})
    check(b, (2, 1), [[(0, 2), (1, 2)], [(0, 3)], [(0, 1), (2, 4)], [(1, 4)], [(1, 3), (2, 3)], [(2, 5)]], 2)


def test_HG04_six_six_two_checkers():
    b = make_board("hypergammon", {0: 1, 1: 1}, {0: 1, 1: 1}, checkers=2)
    check(b, (6, 6), [[(0, 18), (1, 7)], [(0, 12), (1, 13)], [(0, 6), (1, 19)]], 4)


def test_HG05_one_one_two_checkers():
    b = make_board("hypergammon", {0: 1, 1: 1}, {0: 1, 1: 1}, checkers=2)
    check(b, (1, 1), [[(0, 3), (1, 2)], [(0, 4)], [(1, 5)]], 4)


def test_HG06_one_checker_bears_off_in_one_turn():
    b = make_board("hypergammon", {0: 1}, {0: 1}, checkers=1)
    check(b, (6, 6), [[(0, OFF)]], 4)
    assert b.play(b.legal_plays((6, 6))[0]).outcome() == (0, 3, "triple")  # his checker is in my home


@pytest.mark.parametrize(
    "k, mover, opp, opp_bar, want",
    [
        # k = 1: every win is at least a gammon; a backgammon with his checker on the bar or in my home.
        (1, {23: 1}, {10: 1}, 0, (0, 2, "double")),
        (1, {23: 1}, {3: 1}, 0, (0, 3, "triple")),  # his r3 is in my home board (his r0..r5)
        (1, {23: 1}, {}, 1, (0, 3, "triple")),
        # k = 3: a gammon only while he has all three on the board.
        (3, {23: 1}, {10: 3}, 0, (0, 2, "double")),
        (3, {23: 1}, {10: 2}, 0, (0, 1, "single")),
        (3, {23: 1}, {10: 2, 2: 1}, 0, (0, 3, "triple")),
    ],
)
def test_HG08_gammons_with_k_checkers(k, mover, opp, opp_bar, want):
    o = dict(opp)
    if opp_bar:
        o[BAR] = opp_bar
    b = make_board("hypergammon", mover, o, checkers=k)
    (play,) = b.legal_plays((1, 1))
    assert play.steps == [(23, OFF)]
    assert b.play(play).outcome() == want
    always = make_board("hypergammon", mover, o, checkers=k, jacoby_always=True)
    assert always.play(always.legal_plays((1, 1))[0]).outcome() == (0, 1, "single")


# --- forms, options, errors -----------------------------------------------------------------------

KIN_SETTINGS = [
    ("jacquet", {}),
    ("jacquet", {"doubles": "n_times", "six_prime": "needs_last_two", "runner_release": "turn", "double_win": False}),
    ("tawla31", {}),
    ("tawla31", {"movement": "parallel", "runner_threshold": 19}),
    ("nackgammon", {}),
    ("hypergammon", {}),
    ("hypergammon", {"checkers": 1}),
    ("hypergammon", {"checkers": 2, "jacoby_always": True}),
]


@pytest.mark.parametrize("variant, options", KIN_SETTINGS, ids=str)
def test_ids_dicts_and_arrays_round_trip(variant, options):
    rows, _ = tavli.random_positions(variant, 60, seed=3, **options)
    for row in rows[::7]:
        b = tavli.Board.from_array(row, variant, **options)
        assert tavli.Board.from_id(b.id()) == b
        assert tavli.Board.from_dict(b.to_dict()) == b
        if variant in ("nackgammon", "hypergammon"):
            assert tavli.Board.from_gnubg_id(b.gnubg_id(), variant, turn=b.turn, **options) == b
            assert tavli.Board.from_xgid(b.xgid(), variant, **options) == b


def test_kin_games_are_listed_with_their_options():
    assert {"jacquet", "tawla31", "nackgammon", "hypergammon"} <= set(tavli.variants())
    names = {o["name"]: o for o in tavli.variant_options("jacquet")}
    assert names["runner_threshold"]["default"] == 18 and names["doubles"]["choices"] == ["four", "n_times"]
    assert {o["name"]: o["default"] for o in tavli.variant_options("hypergammon")}["checkers"] == 3
    assert {o["name"]: o["default"] for o in tavli.variant_options("tawla31")}["movement"] == "contrary"


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: tavli.Board("hypergammon", checkers=4), r"checkers.*allowed: 3, 2, 1"),
        (lambda: tavli.Board("jacquet", ruleset="moulidars"), r"unknown option 'ruleset'"),
        (lambda: tavli.Board("tawla31", movement="sideways"), r"movement"),
        (lambda: tavli.Board.from_dict({"variant": "hypergammon", "options": {"checkers": 2}, "turn": 0,
                                        "mover": [1, 1, 1] + [0] * 21, "opponent": [2] + [0] * 23}),
         r"has 3 checkers .*exactly 2 in hypergammon"),
        (lambda: tavli.Board.from_gnubg_id("4HPwATDgc/ABMA", "hypergammon"), r"more than 3 checkers"),
    ],
)
def test_bad_kin_input_is_refused_clearly(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_openings_follow_the_rule_book():
    # Nackgammon and Hypergammon play the opening dice; Jacquet and Tawla 31 roll again.
    for kind, forced in (("nackgammon", True), ("hypergammon", True), ("jacquet", False), ("tawla31", False)):
        m = tavli.Match(kind)
        m.roll_opening(5, 2)
        assert (m.forced_dice == (5, 2)) is forced, kind
