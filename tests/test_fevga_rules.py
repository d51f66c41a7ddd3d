"""Every Fevga case of RULES.md §10 (F01-F19), with the expected sets written out from the table,
and hand-worked cases for each flag of RULES.md §8 (Fevga and Moultezim)."""

import pytest

import tavli
from helpers import OFF, dice_used, expected, make_board, results

START = {0: 15}


def check(board, dice, plays, ndice=None):
    assert results(board, dice) == expected(board, plays)
    if ndice is not None:
        assert dice_used(board, dice) == {ndice}


@pytest.mark.parametrize(
    "case, dice, plays, ndice",
    [
        ("F01", (6, 6), [[(0, 6)]], 1),
        ("F02", (4, 4), [[(0, 8)]], 2),
        ("F03", (3, 3), [[(0, 9)]], 3),
        ("F05", (6, 5), [[(0, 11)]], 2),
        ("F05", (5, 6), [[(0, 11)]], 2),
        ("F06", (1, 1), [[(0, 4)]], 4),
    ],
)
def test_opening_runner_rule(case, dice, plays, ndice):
    check(make_board("fevga", START, START), dice, plays, ndice)


def test_F07_second_player_opening_66():
    check(make_board("fevga", START, {0: 14, 11: 1}), (6, 6), [[(0, 6)]], 1)


def test_F08_runner_blocked_at_15():
    b = make_board("fevga", {0: 14, 10: 1}, {0: 14, 3: 1})
    check(b, (4, 1), [[(10, 14), (0, 1)]], 2)


def test_F09_runner_released_mid_turn():
    b = make_board("fevga", {0: 14, 10: 1}, {0: 14, 3: 1})
    check(b, (3, 1), [[(10, 13), (0, 1)], [(10, 14)]], 2)


F11 = ({0: 14, 8: 1}, {0: 13, 4: 1, 15: 1})


def test_F11_no_legal_play_is_a_pass():
    b = make_board("fevga", *F11)
    plays = b.legal_plays((4, 4))
    assert len(plays) == 1 and plays[0].steps == []
    assert str(plays[0]) == "pass"
    nxt = b.play(plays[0])
    assert nxt.turn == 1 and nxt.opponent == b.mover


@pytest.mark.parametrize(
    "case, dice, plays, ndice",
    [
        ("F12", (2, 2), [[(8, 10)]], 1),
        ("F13", (5, 3), [[(8, 13)]], 1),
        ("F13", (3, 5), [[(8, 13)]], 1),
        ("F14", (6, 2), [[(8, 14), (0, 2)]], 2),
        ("F15", (6, 5), [[(8, 13), (0, 6)], [(8, 14), (0, 5)], [(8, 19)]], 2),
    ],
)
def test_F11_position(case, dice, plays, ndice):
    check(make_board("fevga", *F11), dice, plays, ndice)


F17 = ({0: 9, 13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1}, {0: 15})


@pytest.mark.parametrize("unblock", ["R4_result", "R3_bkgm_start_of_turn"])
def test_F17_must_open_the_wall(unblock):
    off = make_board("fevga", *F17, unblock="none")
    on = make_board("fevga", *F17, unblock=unblock)
    all_plays = results(off, (2, 1))
    kept = results(on, (2, 1))
    assert len(all_plays) == 41
    assert len(kept) == 39
    assert all_plays - kept == expected(off, [[(0, 2), (0, 1)], [(0, 3)]])


def test_F19_bear_off_overshoot():
    b = make_board("fevga", {19: 2, 22: 1}, {0: 12, 5: 3})
    assert b.off == [12, 0]
    check(b, (6, 4), [[(19, OFF), (19, 23)]], 2)


# --- flags -------------------------------------------------------------------------------------


def test_runner_threshold_12_releases_on_the_empty_start_point():
    # O's start point (my r12) is empty, so the runner can stop there (RULES.md §6.4, D-RUNNER).
    pos = ({0: 14, 11: 1}, {1: 15})
    b13 = make_board("fevga", *pos)
    b12 = make_board("fevga", *pos, runner_threshold=12)
    check(b13, (1, 1), [[(11, 12)]], 1)  # 12->13 lands on O; still the runner phase
    check(b12, (1, 1), [[(11, 12), (0, 1, 3)], [(11, 12), (0, 2), (0, 1)], [(11, 12), (0, 3)]], 4)


# X holds r0..r4 and r13; an O checker sits on my r6 (his r18), so 6-5 can bring a start checker
# to r11 only through r5, touching down on the sixth point of the starting quarter.
R1_POS = ({0: 10, 1: 1, 2: 1, 3: 1, 4: 1, 13: 1}, {0: 14, 18: 1})


@pytest.mark.parametrize("variant, opts", [("fevga", {}), ("moultezim", {"primes": "R1"})])
def test_startq_check_play_vs_step(variant, opts):
    through_r5 = expected(make_board(variant, *R1_POS, **opts), [[(0, 11)]])
    at_end = make_board(variant, *R1_POS, **opts)
    per_step = make_board(variant, *R1_POS, startq_check="step", **opts)
    assert through_r5 <= results(at_end, (6, 5))
    assert not through_r5 & results(per_step, (6, 5))
    # Ending on r5 with r0..r4 still held is illegal under both timings.
    ends_on_r5 = expected(at_end, [[(0, 5), (13, 19)]])
    assert not ends_on_r5 & results(at_end, (6, 5))
    assert not ends_on_r5 & results(per_step, (6, 5))


def test_fevga_startq_check_off_allows_the_full_quarter():
    b = make_board("fevga", *R1_POS, startq_check="off")
    assert expected(b, [[(0, 5), (13, 19)]]) <= results(b, (6, 5))


def test_moultezim_default_has_no_R1():
    b = make_board("moultezim", *R1_POS)
    assert expected(b, [[(0, 5), (13, 19)]]) <= results(b, (6, 5))


# X holds four points of the opponent's starting quarter r12..r17 (his start is empty).
R2C_POS = ({10: 1, 13: 1, 14: 1, 15: 1, 16: 1, 23: 10}, {18: 15})


def test_moultezim_R2c_at_most_four_points_of_the_opponents_start_table():
    four = [(10, 12), (13, 14)]  # 12, 14, 15, 16
    five = [(10, 12), (16, 17)]  # 12, 13, 14, 15, 17
    r2c = make_board("moultezim", *R2C_POS)
    none = make_board("moultezim", *R2C_POS, primes="none")
    assert expected(r2c, [four]) <= results(r2c, (2, 1))
    assert not expected(r2c, [five]) & results(r2c, (2, 1))
    assert expected(none, [four, five]) <= results(none, (2, 1))
    for key in results(r2c, (2, 1)):
        assert sum(1 for r in range(12, 18) if key[0][r]) <= 4


def test_fevga_R2c_matches_moultezim_R2c():
    a = make_board("fevga", *R2C_POS, opp_start_quarter="R2c")
    b = make_board("moultezim", *R2C_POS)
    for dice in [(2, 1), (3, 3), (6, 4)]:
        assert results(a, dice) == results(b, dice)


def test_R2a_no_six_in_the_opponents_starting_quarter():
    # X holds r12 (two checkers) to r16; 6-1 can complete r12..r17 with 11->17 and 12->13.
    pos = ({11: 1, 12: 2, 13: 1, 14: 1, 15: 1, 16: 1, 23: 8}, {18: 15})
    off = make_board("fevga", *pos)
    r2a = make_board("fevga", *pos, opp_start_quarter="R2a")
    six = expected(off, [[(11, 17), (12, 13)]])
    assert six <= results(off, (6, 1))
    assert not six & results(r2a, (6, 1))
    assert expected(off, [[(11, 17), (13, 14)]]) <= results(r2a, (6, 1))  # r13 left open: fine
    for dice in [(6, 1), (6, 2), (6, 6)]:
        for key in results(r2a, dice):
            assert not all(key[0][r] for r in range(12, 18))


def test_R2b_only_while_the_opponent_has_a_start_stack():
    # X holds r13..r17 and can fill r18; with O still on his start the wall is forbidden.
    wall = ({13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 7: 1, 22: 9}, {0: 10, 20: 5})
    b = make_board("fevga", *wall, opp_start_quarter="R2b", unblock="none")
    for key in results(b, (6, 5)) | results(b, (5, 6)):
        assert not all(key[0][r] for r in range(13, 19))
    # Without the flag, 7->18 (with the 5 or 6 used elsewhere) completes it.
    free = make_board("fevga", *wall, unblock="none")
    assert any(all(k[0][r] for r in range(13, 19)) for k in results(free, (6, 5)))


def test_options_reach_to_dict_and_id():
    b = tavli.Board("moultezim", primes="R1", startq_check="step")
    assert b.to_dict()["options"] == {"primes": "R1", "startq_check": "step"}
    assert tavli.Board.from_id(b.id()).options == b.options
    assert tavli.Board("fevga", runner_threshold=12).options == {"runner_threshold": 12}


# X {11, 12, 19..23: one each}, O's 15 checkers on his r5 (my r17). O's targets are his r6..r11 =
# my r18..r23: X holds 19..23, so a checker on r18 walls O in completely (R4).
BLK = ({11: 1, 12: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1}, {5: 15})


@pytest.mark.parametrize("variant", ["fevga", "moultezim"])
def test_unblock_R4_removes_the_play_that_walls_the_opponent_in(variant):
    # 6-5: 6 is only 12->18 (11->17 closed, no bear-off with 11 and 12 out); 5 is only 11->16.
    # Plays: {12->18, 11->16} (walls O in), {12->23}, {11->22}.
    walls_in, a, b = [(12, 18), (11, 16)], [(12, 23)], [(11, 22)]
    off = make_board(variant, *BLK, unblock="none")
    r4 = make_board(variant, *BLK, unblock="R4_result")
    check(off, (6, 5), [walls_in, a, b], 2)
    check(r4, (6, 5), [a, b], 2)


def test_unblock_priority_before_max_dice_prefers_a_shorter_play():
    # 6-6: the only step is 12->18, and it walls O in. After the maximum-dice rule it is the only
    # play, so R4 lapses and it stands. Applied before (pawelsberg), the empty play, which leaves
    # O a step, is preferred: X passes.
    after = make_board("fevga", *BLK)
    before = make_board("fevga", *BLK, unblock_priority="before_max_dice")
    check(after, (6, 6), [[(12, 18)]], 1)
    check(before, (6, 6), [[]], 0)


def test_moultezim_runner_threshold_12():
    pos = ({0: 14, 11: 1}, {1: 15})
    check(make_board("moultezim", *pos), (1, 1), [[(11, 12)]], 1)
    check(
        make_board("moultezim", *pos, runner_threshold=12),
        (1, 1),
        [[(11, 12), (0, 1, 3)], [(11, 12), (0, 2), (0, 1)], [(11, 12), (0, 3)]],
        4,
    )


@pytest.mark.parametrize("variant", ["fevga", "backgammon", "plakoto", "narde"])
def test_last_checker_off_with_a_die_to_spare(variant):
    # Regression (found by UBSan): after the last checker is borne off in mid-play, the generator
    # asked for the farthest checker of an empty side. One play: the checker goes off.
    b = make_board(variant, {23: 1}, {12: 15} if variant != "plakoto" and variant != "backgammon" else {10: 15})
    plays = b.legal_plays((6, 5))
    assert len(plays) == 1 and plays[0].steps[-1][1] == OFF
    assert b.play(plays[0]).outcome().winner == 0
