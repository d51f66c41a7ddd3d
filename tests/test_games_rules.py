"""RULES.md §10 cases for Backgammon, Portes, Tavla (B01-B14), Plakoto (P01-P13) and Long Narde
(N01-N07), expected sets written out from the table, plus hand-worked cases for the flags."""

import pytest

import tavli
from helpers import BAR, OFF, dice_used, expected, make_board, results

HITTING = ["backgammon", "portes", "tavla"]


def check(board, dice, plays, ndice=None):
    assert results(board, dice) == expected(board, plays)
    if ndice is not None:
        assert dice_used(board, dice) == {ndice}


# --- Backgammon, Portes, Tavla -------------------------------------------------------------------

B01_O = {11: 7, 19: 2, 20: 2, 21: 2, 22: 2}  # O closes my r1..r4 (his 22..19)


@pytest.mark.parametrize("variant", HITTING)
def test_B01_enter_with_the_six_then_the_two_is_free(variant):
    b = make_board(variant, {BAR: 1, 11: 5, 16: 4, 18: 5}, B01_O)
    check(b, (6, 2), [[(BAR, 5), (5, 7)], [(BAR, 5), (11, 13)], [(BAR, 5), (16, 18)], [(BAR, 5), (18, 20)]], 2)


@pytest.mark.parametrize("variant", HITTING)
def test_B02_both_entry_points_closed(variant):
    b = make_board(variant, {BAR: 1, 11: 5, 16: 4, 18: 5}, B01_O)
    plays = b.legal_plays((3, 2))
    assert len(plays) == 1 and plays[0].steps == []


@pytest.mark.parametrize("variant", HITTING)
def test_B04_second_bar_checker_cannot_enter(variant):
    b = make_board(variant, {BAR: 2, 11: 5, 16: 3, 18: 5}, B01_O)
    check(b, (6, 2), [[(BAR, 5)]], 1)


B06 = ({0: 1, 23: 14}, {8: 7, 16: 2, 17: 2, 18: 2, 19: 2})  # my r4..r7 closed


@pytest.mark.parametrize("variant", HITTING)
def test_B06_either_die_but_not_both_plays_the_larger(variant):
    check(make_board(variant, *B06), (3, 1), [[(0, 3)]], 1)


@pytest.mark.parametrize("variant", HITTING)
def test_B07_both_dice_in_one_checker(variant):
    check(make_board(variant, *B06), (2, 1), [[(0, 3)]], 2)


@pytest.mark.parametrize("variant", HITTING)
def test_B08_only_the_smaller_die_can_be_played(variant):
    b = make_board(variant, {0: 1, 23: 14}, {8: 3, 15: 2, 17: 2, 18: 2, 19: 2, 20: 2, 21: 2})
    check(b, (5, 1), [[(0, 1)]], 1)


@pytest.mark.parametrize("variant", HITTING)
def test_B10_bear_off_with_both_dice(variant):
    b = make_board(variant, {19: 1, 22: 1}, {20: 15})
    check(b, (6, 1), [[(19, OFF), (22, 23)], [(19, OFF)]], 2)


@pytest.mark.parametrize("variant", HITTING)
def test_B11(variant):
    b = make_board(variant, {19: 2, 20: 1}, {20: 15})
    check(b, (6, 4), [[(19, OFF), (19, 23)], [(19, OFF), (20, OFF)]], 2)


@pytest.mark.parametrize("variant", HITTING)
def test_B12_five_may_not_bear_off_a_lower_checker(variant):
    b = make_board(variant, {18: 1, 23: 1}, {20: 15})
    check(b, (5, 2), [[(18, 23), (23, OFF)]], 2)


@pytest.mark.parametrize("variant, points, kind", [("backgammon", 3, "triple"), ("portes", 2, "double"), ("tavla", 2, "double")])
def test_B13_loser_with_nothing_off_and_a_checker_on_the_bar(variant, points, kind):
    # X bears off his last checker; O has borne off none and has a checker on the bar.
    b = make_board(variant, {22: 1}, {BAR: 1, 2: 2, 11: 5, 16: 2, 18: 5})
    play = b.legal_plays((2, 1))[0]
    nxt = b.play(play)
    assert nxt.outcome() == (0, points, kind)


@pytest.mark.parametrize("variant", HITTING)
def test_last_checker_hit_then_borne_off(variant):
    # RULES.md §1.4: X's last checker on r22, an O blot on my r23, 6-1: 22->23* then 23->off.
    b = make_board(variant, {22: 1}, {0: 1, 5: 14})
    plays = b.legal_plays((6, 1))
    assert [p.steps for p in plays] == [[(22, 23), (23, OFF)]]
    nxt = b.play(plays[0])
    assert nxt.mover[0] == 0 and nxt.bar == [1, 0]


def test_gammon_and_backgammon_scoring():
    # O has borne off none: with a checker in X's home (his r0..r5) it is a backgammon.
    bg = make_board("backgammon", {23: 1}, {3: 1, 12: 14})
    assert bg.play(bg.legal_plays((1, 1))[0]).outcome() == (0, 3, "triple")
    gammon = make_board("backgammon", {23: 1}, {12: 15})
    assert gammon.play(gammon.legal_plays((1, 1))[0]).outcome() == (0, 2, "double")
    single = make_board("backgammon", {23: 1}, {12: 14})
    assert single.play(single.legal_plays((1, 1))[0]).outcome() == (0, 1, "single")
    mars = make_board("tavla", {23: 1}, {3: 1, 12: 14})
    assert mars.play(mars.legal_plays((1, 1))[0]).outcome() == (0, 2, "double")


def test_a_hit_sends_the_blot_to_the_bar_and_is_marked():
    # An O blot on my r7 (his r16): 24/17* with 6-1 hits it, through r6 or r1.
    b = make_board("backgammon", {0: 2, 11: 5, 16: 3, 18: 5}, {0: 2, 11: 5, 16: 1, 18: 5, 15: 2})
    plays = b.legal_plays((6, 1))
    hitting = [p for p in plays if any(to == 7 for _, to in p.steps)]
    assert {str(p) for p in hitting} >= {"24/17*"}
    assert all("*" in str(p) for p in hitting)
    for p in hitting:
        assert b.play(p).bar == [1, 0]  # the opponent, now to move, has a checker on the bar
    assert all(b.play(p).bar == [0, 0] for p in plays if p not in hitting)


# --- Plakoto -------------------------------------------------------------------------------------

START = {0: 15}


@pytest.mark.parametrize(
    "case, dice, plays",
    [
        ("P01", (6, 6), [[(0, 6, 4)], [(0, 6, 2), (0, 12)], [(0, 12, 2)], [(0, 6), (0, 18)]]),
        ("P02", (6, 5), [[(0, 6), (0, 5)], [(0, 11)]]),
        ("P03", (1, 1), [[(0, 1, 4)], [(0, 1, 2), (0, 2)], [(0, 2, 2)], [(0, 1), (0, 3)], [(0, 4)]]),
    ],
)
def test_plakoto_opening(case, dice, plays):
    check(make_board("plakoto", START, START), dice, plays)


P05 = ({0: 13, 5: 1, 6: 1}, {0: 14, 17: 1})  # O's checker on my r6 pins mine


def test_P05_pinned_checker_cannot_move():
    b = make_board("plakoto", *P05, pinned=([6], []))
    check(b, (1, 2), [[(0, 1), (0, 2)], [(0, 3)], [(0, 1), (5, 7)], [(5, 8)]])


def test_P06():
    b = make_board("plakoto", *P05, pinned=([6], []))
    check(b, (6, 5), [[(5, 11), (0, 5)], [(5, 16)]])


def test_P07_two_pinners():
    b = make_board("plakoto", {0: 12, 6: 1, 12: 2}, {0: 13, 17: 2}, pinned=([6], []))
    check(b, (6, 3), [[(0, 9)], [(12, 18), (0, 3)], [(12, 18), (12, 15)], [(12, 21)]])


P09 = ({18: 3, 19: 4, 20: 1, 21: 4, 22: 3}, {0: 14, 3: 1})


def test_P09_no_bear_off_while_pinned():
    b = make_board("plakoto", *P09, pinned=([20], []))
    plays = b.legal_plays((6, 5))
    assert len(plays) == 1 and plays[0].steps == []
    flag = make_board("plakoto", *P09, pinned=([20], []), bearoff_with_pinned=True)
    check(flag, (6, 5), [[(18, OFF), (19, OFF)]], 2)


def test_P10():
    b = make_board("plakoto", {0: 14, 10: 1}, {0: 11, 7: 2, 8: 2})
    check(b, (6, 5), [[(0, 6), (0, 5)], [(0, 11)]])


def test_pinning_and_release():
    # An O blot on my r5 (his r18): landing pins it; moving on with the other die releases it.
    b = make_board("plakoto", {0: 15}, {0: 14, 18: 1})
    after = {str(p): p for p in b.legal_plays((5, 1))}
    pin = b.play(after["24/23 24/19"])
    assert pin.pinned == [[18], []]  # now O to move: his checker on his r18 is pinned
    through = b.play(after["24/18"])
    assert through.pinned == [[], []]


# Mother rule: X's checker on r17 can reach r23, O's start (his r0), where O's last start checker is.
def mother_board(x_start, **options):
    x = {17: 1, 20: 14 - x_start}
    if x_start:
        x[0] = x_start
    return make_board("plakoto", x, {0: 1, 12: 14}, **options)


def test_P11_mother_pinned_wins_two():
    b = mother_board(0)
    play = next(p for p in b.legal_plays((6, 1)) if (17, 23) in p.steps)
    assert b.play(play).outcome() == (0, 2, "mother")


def test_P11_mother_points_flag():
    b = mother_board(0, mother_points=3)
    play = next(p for p in b.legal_plays((6, 1)) if (17, 23) in p.steps)
    assert b.play(play).outcome() == (0, 3, "mother")


def test_P12_mother_exception_then_win_when_the_start_empties():
    b = mother_board(1)
    play = next(p for p in b.legal_plays((6, 2)) if (17, 23) in p.steps and (0, 2) not in p.steps)
    b = b.play(play)
    assert b.outcome() is None  # X still has a checker on his start: an ordinary pin
    # O (to move) plays something that keeps the pin; then X moves his start checker away.
    o_play = next(p for p in b.legal_plays((1, 1)))
    b = b.play(o_play)
    assert b.outcome() is None
    x_play = next(p for p in b.legal_plays((6, 5)) if any(s[0] == 0 for s in p.steps))
    assert b.play(x_play).outcome() == (0, 2, "mother")


def test_P12_at_pin_only_never_fires_later():
    b = mother_board(1, mother="at_pin_only")
    play = next(p for p in b.legal_plays((6, 2)) if (17, 23) in p.steps and (0, 2) not in p.steps)
    b = b.play(play)
    b = b.play(b.legal_plays((1, 1))[0])
    x_play = next(p for p in b.legal_plays((6, 5)) if any(s[0] == 0 for s in p.steps))
    assert b.play(x_play).outcome() is None


def test_mother_rule_off():
    b = mother_board(0, mother="off")
    play = next(p for p in b.legal_plays((6, 1)) if (17, 23) in p.steps)
    assert b.play(play).outcome() is None


def test_P13_both_mothers_pinned_is_a_draw():
    # X's mother (his r0, one checker) is pinned by O (O's checker on his r23); X pins O's mother.
    b = make_board("plakoto", {0: 1, 17: 1, 20: 13}, {23: 1, 0: 1, 12: 13}, pinned=([0], []))
    play = next(p for p in b.legal_plays((6, 1)) if (17, 23) in p.steps)
    out = b.play(play).outcome()
    assert out == (None, 0, "draw")


# --- Long Narde ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "case, dice, plays, ndice",
    [
        ("N01", (6, 6), [[(0, 6, 2)]], 2),
        ("N02", (4, 4), [[(0, 8, 2)]], 4),
        ("N04", (2, 2), [[(0, 8)]], 4),
    ],
)
def test_narde_first_turn(case, dice, plays, ndice):
    b = make_board("narde", START, START, first_turn=(True, True))
    check(b, dice, plays, ndice)


def test_narde_start_board_is_on_the_first_turn():
    b = tavli.Board("narde")
    assert b.first_turn == [True, True]
    check(b, (6, 6), [[(0, 6, 2)]], 2)
    assert b.play(b.legal_plays((6, 6))[0]).first_turn == [True, False]


def test_N03_three_three_first_turn_and_the_64_flag():
    b = make_board("narde", START, START, first_turn=(True, True))
    # 3-3 on the first turn: two checkers may leave; 0->3->6->9->12 is closed at r12.
    got = results(b, (3, 3))
    assert expected(b, [[(0, 6, 2)], [(0, 9), (0, 3)]]) == got
    only64 = make_board("narde", START, START, first_turn=(True, True), head_doubles="64")
    check(only64, (3, 3), [[(0, 9)]], 3)


def test_N05_head_rule_after_the_first_turn():
    check(make_board("narde", START, START), (6, 6), [[(0, 6)]], 1)


def test_N06_second_players_first_turn():
    b = make_board("narde", START, {0: 14, 11: 1}, first_turn=(True, False))
    check(b, (6, 6), [[(0, 6, 2)]], 2)


N07 = ({0: 10, 2: 1, 3: 1, 4: 1, 5: 1, 13: 1}, {0: 15})


def test_N07_six_prime_needs_an_opponent_checker_ahead():
    b = make_board("narde", *N07)
    got = results(b, (4, 1))
    assert len(got) == 31
    assert not expected(b, [[(13, 17), (0, 1)]]) & got
    for key in got:
        assert not all(key[0][r] for r in range(6))


def test_narde_prime_allowed_with_an_opponent_checker_ahead():
    # O's checker on his r18 (my r6) has passed my r0..r5 (his r12..r17): the wall is allowed.
    b = make_board("narde", {0: 10, 2: 1, 3: 1, 4: 1, 5: 1, 13: 1}, {0: 14, 18: 1})
    assert expected(b, [[(13, 17), (0, 1)]]) <= results(b, (4, 1))


# RULES.md §6.5/§7.2: a wall counts along the route of the player it blocks. The mover's r10..r15
# are the opponent's r22, r23, r0..r3: two short runs at the two ends of his route, no prime.
ACROSS_HIS_START = {"variant": "narde", "mover": [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 9, 0, 0, 0],
                    "opponent": [0] * 18 + [5, 5, 5, 0, 0, 0], "bar": [0, 0], "off": [0, 0],
                    "first_turn": [False, False]}


def test_narde_run_across_the_opponents_start_is_no_prime():
    b = tavli.Board.from_dict(ACROSS_HIS_START)
    b.find_play([(9, 10), (20, 23)], (1, 3))  # closes the mover's r10..r15: legal
    # 42 distinct plays, as the independent reference of issue 18 and tests/oracle count them (the
    # reading along the mover's route left out the one above: 41).
    assert len(b.legal_plays((1, 3))) == 42


def test_narde_run_across_the_mover_route_end_is_a_prime():
    # The mover's r21, r22, r23, r0, r1, r2 are the opponent's r9..r14: a wall for him. With all his
    # checkers on his r0..r8 (none past it) it may not be closed; one on his r15 lets it.
    mover = [2, 1, 0] + [0] * 15 + [0, 0, 10, 1, 1, 0]  # r0 (2), r1, r20 (10), r21, r22; r2, r23 empty
    behind = [5, 5, 5] + [0] * 21
    b = tavli.Board.from_dict({"variant": "narde", "mover": mover, "opponent": behind})
    closing = [(20, 23), (0, 2)]  # 3 and 2: r21, r22, r23, r0, r1, r2 all held after it
    with pytest.raises(tavli.IllegalMove):
        b.find_play(closing, (3, 2))
    ahead = [5, 5, 4] + [0] * 12 + [1] + [0] * 8
    b2 = tavli.Board.from_dict({"variant": "narde", "mover": mover, "opponent": ahead})
    b2.find_play(closing, (3, 2))


def test_narde_mars():
    b = make_board("narde", {23: 1}, {12: 15})
    assert b.play(b.legal_plays((1, 1))[0]).outcome() == (0, 2, "double")


def test_narde_koks_flag():
    # The loser bore off none and still has a checker in the winner's home (his r6..r11): with the
    # koks house rule that is 3 points, otherwise a mars (2).
    pos = ({23: 1}, {8: 1, 12: 14})
    for koks, want in ((False, (0, 2, "double")), (True, (0, 3, "triple"))):
        b = make_board("narde", *pos, koks=koks)
        assert b.play(b.legal_plays((1, 1))[0]).outcome() == want
    b = make_board("narde", {23: 1}, {12: 15}, koks=True)
    assert b.play(b.legal_plays((1, 1))[0]).outcome() == (0, 2, "double")


def test_play_hits_marks_the_step_that_hit():
    # My checker on r5, his blot on his r17 = my r6: the 1 hits there, the 2 after it does not.
    b = make_board("backgammon", {5: 1, 18: 14}, {17: 1, 0: 14})
    through = b.find_play([(5, 6), (6, 8)], (1, 2))
    assert through.hits == [True, False] and str(through) == "19/18*/16"
    past = b.find_play([(5, 7), (7, 8)], (2, 1))
    assert past.hits == [False, False]
    assert all(h == [False] * len(p.steps) for p in make_board("plakoto", {5: 1, 18: 14}, {17: 1, 0: 14}).legal_plays((1, 2))
               for h in [p.hits])  # a pin is not a hit
