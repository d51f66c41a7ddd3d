"""Self-checks of the pure-Python reference for all games (tests/oracle/games.py).

Every expected set below was worked out by hand from shared/RULES.md (§1, §2, §3, §4, §5,
§7.2, §8, §9, §10), never copied from the oracle's output.  Notation (as in RULES.md §10):
positions are {route index: count} in each player's own frame; a play is a list of checker
movements in the mover's frame, applied in order:

    "a>b"      one checker from a to b ("bar" as a source, "off" as a target)
    "a>b*k"    k checkers
    "a>bx"     the landing on b hits O's blot there (it goes to O's bar; hitting games)
    "pin:b"    O's single checker on my point b is pinned after the play (Plakoto)
    "unpin:b"  O's checker on my point b is free again after the play (Plakoto)

Geometry reminders: contrary movement (Backgammon, Portes, Tavla, Plakoto): O's r' is my 23 - r',
so O's r0 is my r23 and O's home r18..23 is my r5..0.  Parallel (Narde, Fevga): O's r' is my
(r' + 12) % 24, so O's head is my r12.
"""

import pytest

from tests.oracle.games import (
    DEFAULTS,
    VARIANTS,
    Pos,
    apply_steps,
    legal_plays,
    outcome,
    perft,
    resolve_options,
    start_position,
)

HIT = ("backgammon", "portes", "tavla")


# ------------------------------------------------------------------------------------------------
# helpers (independent of the oracle's move logic)
# ------------------------------------------------------------------------------------------------

def counts(d):
    b = [0] * 24
    for r, c in d.items():
        b[r] += c
    return tuple(b)


def make(x, o, *, x_bar=0, o_bar=0, x_pinned=(), o_pinned=(), x_first=False, o_first=False):
    """A Pos from {r: count} maps; whatever is neither on the board nor on the bar is off."""
    return Pos(counts(x), counts(o), x_bar, o_bar,
               15 - sum(x.values()) - x_bar, 15 - sum(o.values()) - o_bar,
               frozenset(x_pinned), frozenset(o_pinned), x_first, o_first)


def result(p, play):
    """The Pos after a play written in the notation of the module docstring."""
    m, o = list(p.mover), list(p.opp)
    mbar, obar, moff = p.mover_bar, p.opp_bar, p.mover_off
    opins = set(p.opp_pinned)
    for tok in play:
        if tok.startswith("pin:"):
            opins.add(23 - int(tok[4:]))
            continue
        if tok.startswith("unpin:"):
            opins.remove(23 - int(tok[6:]))
            continue
        times = 1
        if "*" in tok:
            tok, k = tok.split("*")
            times = int(k)
        a, t = tok.split(">")
        hit = t.endswith("x")
        if hit:
            t = t[:-1]
        for _ in range(times):
            if a == "bar":
                assert mbar > 0, tok
                mbar -= 1
            else:
                m[int(a)] -= 1
                assert m[int(a)] >= 0, tok
            if t == "off":
                moff += 1
            else:
                m[int(t)] += 1
            if hit:
                assert o[23 - int(t)] == 1, tok
                o[23 - int(t)] = 0
                obar += 1
    return Pos(tuple(m), tuple(o), mbar, obar, moff, p.opp_off, p.mover_pinned,
               frozenset(opins), False, p.opp_first_turn)


def check(variant, p, dice, expected, dice_used=None, options=None):
    """expected: list of plays; [[]] means 'no legal play' (the turn passes)."""
    got = legal_plays(variant, p, dice, options)
    want = {result(p, play) for play in expected}
    assert len(want) == len(expected), "duplicate expected plays in the test itself"
    assert set(got) == want
    for key, steps in got.items():
        assert apply_steps(variant, p, steps) == key, (key, steps)
        if dice_used is not None:
            assert len(steps) == dice_used, (key, steps)
    return got


START = {0: 15}


# ================================================================================================
# Backgammon / Portes / Tavla: RULES.md §10 B01-B14 (movement identical in the three games)
# ================================================================================================

B01_O = {11: 7, 19: 2, 20: 2, 21: 2, 22: 2}  # O closes X's r1..r4; O's r11 = X's r12


@pytest.mark.parametrize("v", HIT)
def test_B01_enter_with_6_then_2_free(v):
    p = make({11: 5, 16: 4, 18: 5}, B01_O, x_bar=1)
    check(v, p, (6, 2), [["bar>5", "5>7"], ["bar>5", "11>13"], ["bar>5", "16>18"],
                         ["bar>5", "18>20"]], dice_used=2)
    check(v, p, (2, 6), [["bar>5", "5>7"], ["bar>5", "11>13"], ["bar>5", "16>18"],
                         ["bar>5", "18>20"]], dice_used=2)


@pytest.mark.parametrize("v", HIT)
def test_B02_both_entry_points_closed(v):
    p = make({11: 5, 16: 4, 18: 5}, B01_O, x_bar=1)
    check(v, p, (3, 2), [[]], dice_used=0)


@pytest.mark.parametrize("v", HIT)
def test_B04_second_bar_checker_cannot_enter(v):
    p = make({11: 5, 16: 3, 18: 5}, B01_O, x_bar=2)
    check(v, p, (6, 2), [["bar>5"]], dice_used=1)


B06_O = {8: 7, 16: 2, 17: 2, 18: 2, 19: 2}  # O closes X's r4..r7; O's r8 = X's r15


@pytest.mark.parametrize("v", HIT)
def test_B06_higher_die(v):
    # 0>3 then 3>4 closed; 0>1 then 1>4 closed; the 23s cannot bear off (r0 is out).
    check(v, make({0: 1, 23: 14}, B06_O), (3, 1), [["0>3"]], dice_used=1)


@pytest.mark.parametrize("v", HIT)
def test_B07_both_dice_one_checker(v):
    # 0>2>3 (and 0>1>3: r1, r2, r3 are all open); one resulting position.
    check(v, make({0: 1, 23: 14}, B06_O), (2, 1), [["0>3"]], dice_used=2)


@pytest.mark.parametrize("v", HIT)
def test_B08_only_smaller_die(v):
    # O closes X's r2..r6 and r8: 0>5 closed, 0>1 open, then 1>6 closed.
    o = {8: 3, 15: 2, 17: 2, 18: 2, 19: 2, 20: 2, 21: 2}
    check(v, make({0: 1, 23: 14}, o), (5, 1), [["0>1"]], dice_used=1)


B10_O = {20: 15}  # O's r20 = X's r3


@pytest.mark.parametrize("v", HIT)
def test_B10_bear_off(v):
    check(v, make({19: 1, 22: 1}, B10_O), (6, 1),
          [["19>off", "22>23"], ["19>20", "20>off"]], dice_used=2)


@pytest.mark.parametrize("v", HIT)
def test_B11_bear_off(v):
    check(v, make({19: 2, 20: 1}, B10_O), (6, 4),
          [["19>off", "19>23"], ["19>off", "20>off"]], dice_used=2)


@pytest.mark.parametrize("v", HIT)
def test_B12_no_overshoot_while_farther_checker(v):
    check(v, make({18: 1, 23: 1}, B10_O), (5, 2), [["18>23", "23>off"]], dice_used=2)


def test_B13_scoring_loser_on_bar():
    # X bore off his 15th checker; O bore off none and has a checker on the bar.
    p = make({}, {5: 14}, o_bar=1)
    assert outcome("backgammon", p) == ("mover", 3, "triple")
    assert outcome("portes", p) == ("mover", 2, "double")
    assert outcome("tavla", p) == ("mover", 2, "double")


@pytest.mark.parametrize("v", HIT)
def test_B14_opening_is_outside_the_generator(v):
    # D-OPENING is a rule about which dice the first play uses, not about movement: the
    # reference accepts any of the 21 rolls from the start position in all three games.
    # Start: X r0:2, r11:5, r16:3, r18:5; O's checkers on X's r23(2), r12(5), r7(3), r5(5).
    # 6-6: 0>6 (<= 2 checkers; 6>12 closed), 11>17 (<= 5; 17>23 closed), 16>22 (<= 3; no
    # bear-off), 18>off not allowed.  Distributions of four sixes: 4 + 4 + 3 = 11 plays.
    p = start_position(v)
    assert p == make({0: 2, 11: 5, 16: 3, 18: 5}, {0: 2, 11: 5, 16: 3, 18: 5})
    plays = []
    for a in range(3):
        for c in range(4):
            b = 4 - a - c
            if 0 <= b <= 5:
                plays.append([f"0>6*{a}", f"11>17*{b}", f"16>22*{c}"])
    assert len(plays) == 11
    check(v, p, (6, 6), plays, dice_used=4)


# ------------------------------------------------------------------------------------------------
# Hitting games: own hand-worked cases
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("v", HIT)
def test_same_mover_counts_different_hits_are_different_plays(v):
    # O blot on O's r22 = X's r1; O's 14 on O's r5 = X's r18.  The 23s cannot move (r0 out).
    # 3-1: 0>1x>4 hits, 0>3>4 does not: two plays with equal X counts.
    p = make({0: 1, 23: 14}, {22: 1, 5: 14})
    check(v, p, (3, 1), [["0>1x", "1>4"], ["0>3", "3>4"]], dice_used=2)


@pytest.mark.parametrize("v", HIT)
def test_entering_hit(v):
    # X on the bar; O blot on O's r23 = X's r0, O's 14 on X's r12.  2-1:
    # bar>0x then 0>2 or 18>20; bar>1 then 1>2 or 18>19.  0>2 (after the hit) and 1>2 (no
    # hit) leave the same X counts but differ in O's bar.
    p = make({18: 14}, {23: 1, 11: 14}, x_bar=1)
    check(v, p, (2, 1), [["bar>0x", "0>2"], ["bar>0x", "18>20"], ["bar>1", "1>2"],
                         ["bar>1", "18>19"]], dice_used=2)


@pytest.mark.parametrize("v", HIT)
def test_no_bear_off_until_the_entered_checker_is_home(v):
    # X {bar:1, 19:14}; O {11:15} (X's r12).  6-1: enter with 6 (r5) then 5>6 or 19>20;
    # enter with 1 (r0) then 0>6; 19>25 is never a bear-off (a checker is out of home).
    p = make({19: 14}, {11: 15}, x_bar=1)
    check(v, p, (6, 1), [["bar>6"], ["bar>5", "19>20"]], dice_used=2)


@pytest.mark.parametrize("v", HIT)
def test_last_checker_not_exempt_from_max_dice(v):
    # RULES.md §1.4 last bullet: last checker on r22, O blot on X's r23 (O's r0), 6-1:
    # 22>off with the 6 uses one die; 22>23x then 23>off uses both and is the only play.
    p = make({22: 1}, {0: 1, 12: 14})
    got = check(v, p, (6, 1), [["22>23x", "23>off"]], dice_used=2)
    (after,) = got
    assert after.opp_bar == 1 and after.mover_off == 15
    expected = {"backgammon": ("mover", 3, "triple"), "portes": ("mover", 2, "double"),
                "tavla": ("mover", 2, "double")}[v]
    assert outcome(v, after) == expected


def test_scoring_hitting_games():
    gammon = make({}, {6: 15})  # O: nothing off, nothing in X's home (O's r0..5), nothing on bar
    in_home = make({}, {5: 1, 6: 14})  # O's r5 = X's r18, the winner's home board
    single = make({}, {6: 14})  # O bore off one
    for v in HIT:
        assert outcome(v, single) == ("mover", 1, "single")
        assert outcome(v, gammon) == ("mover", 2, "double")
    assert outcome("backgammon", in_home) == ("mover", 3, "triple")
    assert outcome("portes", in_home) == ("mover", 2, "double")
    assert outcome("tavla", in_home) == ("mover", 2, "double")
    # game goes on; and a finished game judged from the other side
    assert outcome("backgammon", start_position("backgammon")) is None
    assert outcome("backgammon", gammon.flipped()) == ("opponent", 2, "double")


# ================================================================================================
# Plakoto: RULES.md §10 P01-P13
# ================================================================================================

def test_P01_opening_66():
    check("plakoto", make(START, START), (6, 6),
          [["0>6*4"], ["0>6*2", "0>12"], ["0>12*2"], ["0>6", "0>18"]], dice_used=4)


def test_P02_opening_65():
    check("plakoto", make(START, START), (6, 5), [["0>6", "0>5"], ["0>11"]], dice_used=2)


def test_P03_opening_11():
    check("plakoto", make(START, START), (1, 1),
          [["0>1*4"], ["0>1*2", "0>2"], ["0>2*2"], ["0>1", "0>3"], ["0>4"]], dice_used=4)


# X's checker on r6 is pinned by O's single checker on O's r17 (= X's r6).
P05 = make({0: 13, 5: 1, 6: 1}, {0: 14, 17: 1}, x_pinned={6})


def test_P05_pinned_cannot_move_and_pinned_point_closed():
    check("plakoto", P05, (1, 2),
          [["0>1", "0>2"], ["0>3"], ["0>1", "5>7"], ["5>8"]], dice_used=2)


def test_P06():
    check("plakoto", P05, (6, 5), [["5>11", "0>5"], ["5>16"]], dice_used=2)


def test_P07_two_pinners():
    p = make({0: 12, 6: 1, 12: 2}, {0: 13, 17: 2}, x_pinned={6})
    check("plakoto", p, (6, 3),
          [["0>9"], ["12>18", "0>3"], ["12>18", "12>15"], ["12>21"]], dice_used=2)


# X's checker on r20 is pinned by O's checker on O's r3; O's 14-stack on X's r23.
P09 = make({18: 3, 19: 4, 20: 1, 21: 4, 22: 3}, {0: 14, 3: 1}, x_pinned={20})


def test_P09_no_bear_off_while_pinned():
    check("plakoto", P09, (6, 5), [[]], dice_used=0)


def test_P09_flag_bearoff_with_pinned():
    check("plakoto", P09, (6, 5), [["18>off", "19>off"]], dice_used=2,
          options={"bearoff_with_pinned": True})


def test_P10_blocked_checker():
    # O pairs on O's r7, r8 = X's r16, r15: X's r10 cannot move at all.
    p = make({0: 14, 10: 1}, {0: 11, 7: 2, 8: 2})
    check("plakoto", p, (6, 5), [["0>6", "0>5"], ["0>11"]], dice_used=2)


# P11: X's 17 can reach X's r23 = O's r0, where O's last start checker (the mother) stands.
P11 = make({12: 14, 17: 1}, {0: 1, 5: 14})  # O's 14 on O's r5 = X's r18


def test_P11_mother_win():
    # 6: 17>23 pins (12>18 closed).  1: 12>13 (17>18 closed).  Plays: {17>23 pin, 12>13},
    # and 12>13>19.
    got = check("plakoto", P11, (6, 1), [["17>23", "12>13", "pin:23"], ["12>19"]], dice_used=2)
    pinned = result(P11, ["17>23", "12>13", "pin:23"])
    other = result(P11, ["12>19"])
    assert set(got) == {pinned, other}
    assert outcome("plakoto", pinned) == ("mover", 2, "mother")
    assert outcome("plakoto", other) is None
    assert outcome("plakoto", pinned, {"mother_points": 3}) == ("mover", 3, "mother")
    assert outcome("plakoto", pinned, {"mother": "off"}) is None
    assert outcome("plakoto", pinned, {"mother": "at_pin_only"}, before=P11) == \
        ("mover", 2, "mother")
    # at_pin_only without the position before the play: the rule cannot fire
    assert outcome("plakoto", pinned, {"mother": "at_pin_only"}) is None


def test_P12_mother_exception_then_later_win():
    before = make({0: 1, 12: 13, 17: 1}, {0: 1, 5: 14})
    after = result(before, ["17>23", "12>13", "pin:23"])  # X still has a checker on X's r0
    assert outcome("plakoto", after) is None
    assert outcome("plakoto", after, {"mother": "at_pin_only"}, before=before) is None
    # Later turn of X (O played elsewhere meanwhile): X's r0 empties, the pin still holds.
    later_before = make({0: 1, 12: 12, 13: 1, 23: 1}, {0: 1, 4: 1, 5: 13}, o_pinned={0})
    later_after = result(later_before, ["0>6"])
    assert outcome("plakoto", later_after) == ("mover", 2, "mother")
    # at_pin_only: the pin is an ordinary pin for good
    assert outcome("plakoto", later_after, {"mother": "at_pin_only"}, before=later_before) is None
    # ... and later X's r0 emptying with at_pin_only and no `before` changes nothing
    assert outcome("plakoto", later_after, {"mother": "at_pin_only"}) is None


def test_P13_both_mothers_pinned_draw():
    # X's mother pinned by O's checker on O's r23 (= X's r0); O's mother pinned by X's r23.
    p = make({0: 1, 12: 13, 23: 1}, {0: 1, 12: 13, 23: 1}, x_pinned={0}, o_pinned={0})
    assert outcome("plakoto", p) == ("draw", 0, "draw")
    before = make({0: 1, 12: 13, 17: 1}, {0: 1, 12: 13, 23: 1}, x_pinned={0})
    assert result(before, ["17>23", "pin:23"]) == p
    assert outcome("plakoto", p, {"mother": "at_pin_only"}, before=before) == ("draw", 0, "draw")
    assert outcome("plakoto", p, {"mother": "off"}) is None


# ------------------------------------------------------------------------------------------------
# Plakoto: own hand-worked cases
# ------------------------------------------------------------------------------------------------

def test_pin_on_intermediate_point_is_released():
    # O's single checker on O's r15 = X's r8; O's 14 on O's r2 = X's r21.  X's only movable
    # checker is on r5 (22+2, 22+3 would be bear-offs; r5 is out).  3-2: 5>8 pins, 8>10
    # releases; 5>7>10 never pins.  One play, nothing pinned afterwards.
    p = make({5: 1, 22: 14}, {15: 1, 2: 14})
    (after,) = check("plakoto", p, (3, 2), [["5>10"]], dice_used=2)
    assert after.opp_pinned == frozenset()


def test_pin_kept_and_landing_on_top_of_own_pin():
    # As above with a second movable X checker on r6.  3: 5>8 (pins), 6>9.  2: 5>7, 6>8 (pins).
    # Plays: {5>8, 6>8} (X on top of the pinned O, both orders), {5>10} (via 7, or via 8 and
    # released), {5>7, 6>9}, {6>11} (via 9, or via 8 and released).
    p = make({5: 1, 6: 1, 22: 13}, {15: 1, 2: 14})
    check("plakoto", p, (3, 2),
          [["5>8", "6>8", "pin:8"], ["5>10"], ["5>7", "6>9"], ["6>11"]], dice_used=2)


def test_release_existing_pin_by_leaving():
    # X's single checker on r8 pins O's checker (O's r15); O's 14 on X's r21.  3-2: the 22s
    # cannot move (22+2, 22+3 are bear-offs, r8 is out); 8>13 via 11 or 10 releases the pin.
    p = make({8: 1, 22: 14}, {15: 1, 2: 14}, o_pinned={15})
    (after,) = check("plakoto", p, (3, 2), [["8>13", "unpin:8"]], dice_used=2)
    assert after.opp_pinned == frozenset()
    # With two X checkers on r8 the pin holds while one of them stays.
    p2 = make({8: 2, 22: 13}, {15: 1, 2: 14}, o_pinned={15})
    check("plakoto", p2, (3, 2), [["8>13"], ["8>11", "8>10", "unpin:8"]], dice_used=2)


def test_bearoff_with_pinned_farthest_checker_decision():
    # X {18:1 pinned, 20:2}, 12 off; O's checker on O's r5 (= X's r18) on top of it, O's 14 on
    # X's r23.  Default: no bear-off while pinned, 20+4 would be one -> 4-4 passes; 2-2 plays
    # 20>22 twice (22+2 is a bear-off).  Flag on: 4-4 bears both off (exact).  Project
    # decision (RULES.md §1.5 literally): the pinned checker on r18 is "a checker on a farther
    # point", so 20+6 and 20+5 may not overshoot -> 6-5 passes even with the flag.
    p = make({18: 1, 20: 2}, {5: 1, 0: 14}, x_pinned={18})
    opt = {"bearoff_with_pinned": True}
    check("plakoto", p, (4, 4), [[]], dice_used=0)
    check("plakoto", p, (2, 2), [["20>22*2"]], dice_used=2)
    check("plakoto", p, (4, 4), [["20>off*2"]], dice_used=2, options=opt)
    check("plakoto", p, (2, 2), [["20>off*2"]], dice_used=4, options=opt)
    check("plakoto", p, (6, 5), [[]], dice_used=0, options=opt)


def test_mother_state_symmetric_and_scoring():
    # X's mother pinned under O's checker (O's r23), O's own start empty: O wins.
    p = make({0: 1, 12: 14}, {23: 1, 12: 14}, x_pinned={0})
    assert outcome("plakoto", p) == ("opponent", 2, "mother")
    assert outcome("plakoto", p, {"mother": "off"}) is None
    # Bear-off scoring: 2 if the loser bore off none, else 1; no triple.
    assert outcome("plakoto", make({}, {0: 1, 20: 14})) == ("mover", 2, "double")
    assert outcome("plakoto", make({}, {20: 14})) == ("mover", 1, "single")
    assert outcome("plakoto", make(START, START)) is None


def test_plakoto_start_perft_depth1():
    # Non-doubles: {0>a, 0>b} and {0>a+b}: 15 x 2.  Doubles: partitions of 4 steps among
    # checkers from r0 (5 each); 6-6 loses "0>24" (a bear-off): 5 x 5 + 4.  Total 59.
    assert perft("plakoto", make(START, START), 1) == 59


# ================================================================================================
# Narde: RULES.md §10 N01-N07
# ================================================================================================

def narde_start(x_first=True, o_first=True):
    return make(START, START, x_first=x_first, o_first=o_first)


@pytest.mark.parametrize("head", ["643", "64"])
def test_N01_first_turn_66(head):
    check("narde", narde_start(), (6, 6), [["0>6*2"]], dice_used=2,
          options={"head_doubles": head})


def test_N02_first_turn_44():
    check("narde", narde_start(), (4, 4), [["0>8*2"]], dice_used=4)


def test_N04_first_turn_22_no_exception():
    check("narde", narde_start(), (2, 2), [["0>8"]], dice_used=4)


def test_N05_not_first_turn_66():
    check("narde", narde_start(x_first=False), (6, 6), [["0>6"]], dice_used=1)


def test_N06_second_player_first_turn():
    # O moved its first checker to O's r11 = X's r23 (O is no longer on its first turn).
    p = make(START, {0: 14, 11: 1}, x_first=True)
    (after,) = check("narde", p, (6, 6), [["0>6*2"]], dice_used=2)
    assert not after.mover_first_turn


N07_X = {0: 10, 2: 1, 3: 1, 4: 1, 5: 1, 13: 1}
# 4-1, head rule (one checker may leave r0), O's head on X's r12 (nothing lands there).
# One checker using both dice (a>a+5; every intermediate is open): 6.  Two checkers a>a+4 and
# b>b+1 with a != b (only r0 has more than one checker, and two may not leave it): 30 pairs,
# minus those equal to a one-checker play (b = a+4: (0,4); a = b+1: (3,2), (4,3), (5,4)): 26.
# 32 distinct results; holding r0..r5 needs 0>1 while r2..r5 stay held: only {13>17, 0>1}.
N07_LEGAL = [
    ["0>5"], ["2>7"], ["3>8"], ["4>9"], ["5>10"], ["13>18"],
    ["0>4", "2>3"], ["0>4", "3>4"], ["0>4", "5>6"], ["0>4", "13>14"],
    ["2>6", "0>1"], ["2>6", "3>4"], ["2>6", "4>5"], ["2>6", "5>6"], ["2>6", "13>14"],
    ["3>7", "0>1"], ["3>7", "4>5"], ["3>7", "5>6"], ["3>7", "13>14"],
    ["4>8", "0>1"], ["4>8", "2>3"], ["4>8", "5>6"], ["4>8", "13>14"],
    ["5>9", "0>1"], ["5>9", "2>3"], ["5>9", "3>4"], ["5>9", "13>14"],
    ["13>17", "2>3"], ["13>17", "3>4"], ["13>17", "4>5"], ["13>17", "5>6"],
]
N07_WALL = ["13>17", "0>1"]


@pytest.mark.parametrize("mode", ["play", "step"])
def test_N07_six_prime(mode):
    # Per step the same 31: 0>1 first makes the wall unless a point of r2..r5 was emptied
    # first, and 0>5 can go 0>4>5.
    assert len(N07_LEGAL) == 31
    got = check("narde", make(N07_X, START), (4, 1), N07_LEGAL, dice_used=2,
                options={"prime_check": mode})
    assert result(make(N07_X, START), N07_WALL) not in got


def test_N07_opponent_ahead_of_the_wall():
    # The wall r0..r5 is O's r12..r17; an O checker on O's r18..r23 (X's r6..r11) is ahead.
    # O's checker on O's r23 = X's r11 (no X play lands there): the wall play becomes legal.
    got = check("narde", make(N07_X, {0: 14, 23: 1}), (4, 1), N07_LEGAL + [N07_WALL],
                dice_used=2)
    assert len(got) == 32
    # O's checker on O's r11 = X's r23 is not ahead: still 31.
    check("narde", make(N07_X, {0: 14, 11: 1}), (4, 1), N07_LEGAL, dice_used=2)


def test_N07_borne_off_counts_as_ahead_flag():
    # (Unreachable in a real game, but it isolates the flag.)  O has borne off one checker.
    p = make(N07_X, {0: 14})
    check("narde", p, (4, 1), N07_LEGAL + [N07_WALL], dice_used=2)
    check("narde", p, (4, 1), N07_LEGAL, dice_used=2, options={"prime_borne_off_ahead": False})


# ------------------------------------------------------------------------------------------------
# Narde: own hand-worked cases
# ------------------------------------------------------------------------------------------------

def test_narde_first_turn_33_head_doubles():
    # "643": two head checkers; each can go 0>3>6>9 (9>12 is O's head).  Four threes over at
    # most two checkers, at most three each: (3,1) or (2,2).  "64": one checker, 0>9 (3 dice).
    check("narde", narde_start(), (3, 3), [["0>9", "0>3"], ["0>6*2"]], dice_used=4)
    check("narde", narde_start(), (3, 3), [["0>9"]], dice_used=3,
          options={"head_doubles": "64"})
    check("narde", narde_start(x_first=False), (3, 3), [["0>9"]], dice_used=3)


def test_narde_first_turn_flag_cleared_on_pass_too():
    # X's first turn but nothing can move: O's singles on O's r13..r18 = X's r1..r6 close every
    # landing point of a head checker, and only the head holds X's checkers.  6-5: pass.
    p = make(START, {0: 9, 13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1}, x_first=True, o_first=True)
    (after,) = check("narde", p, (6, 5), [[]], dice_used=0)
    assert after.mover_first_turn is False and after.opp_first_turn is True
    assert after == Pos(p.mover, p.opp, mover_first_turn=False, opp_first_turn=True)


# Step-vs-play prime check.  X {4, 6, 7, 8, 10, 11: 1 each, 23: 9}; O's head (10) on X's r12,
# O singles on O's r1..r4 (X's r13..r16) and O's r17 (X's r5).  Wall r6..r11 = O's r18..r23:
# no O checker can be ahead of it (only a borne-off one).  5-1:
#   5s: 4>9, 6>11 (7>12, 8>13, 10>15, 11>16 closed);  1s: 6>7, 7>8, 8>9, 10>11 (4>5, 11>12
#   closed); the 23s cannot bear off.  Plays: 4>9>10, {4>9, b>b+1} for b in 6, 7, 8, 10,
#   {6>11, b>b+1} for b in 7, 8, 10.  No final position holds six consecutive points.
#   Per step, 4>9 from the start completes r6..r11 -> illegal; every {4>9, b>b+1} can play the
#   1 first (emptying a point of the wall); 4>9>10 cannot (4>5 is closed).
NS_X = {4: 1, 6: 1, 7: 1, 8: 1, 10: 1, 11: 1, 23: 9}
NS_O = {0: 10, 1: 1, 2: 1, 3: 1, 4: 1, 17: 1}
NS_STEP = [["4>9", "6>7"], ["4>9", "7>8"], ["4>9", "8>9"], ["4>9", "10>11"],
           ["6>11", "7>8"], ["6>11", "8>9"], ["6>11", "10>11"]]
NS_PLAY = NS_STEP + [["4>10"]]


def test_narde_prime_check_play_vs_step():
    p = make(NS_X, NS_O)
    check("narde", p, (5, 1), NS_PLAY, dice_used=2)
    check("narde", p, (5, 1), NS_STEP, dice_used=2, options={"prime_check": "step"})


def test_narde_prime_step_borne_off_flag():
    p = make(NS_X, {0: 9, 1: 1, 2: 1, 3: 1, 4: 1, 17: 1})  # O has borne off one
    check("narde", p, (5, 1), NS_PLAY, dice_used=2, options={"prime_check": "step"})
    check("narde", p, (5, 1), NS_STEP, dice_used=2,
          options={"prime_check": "step", "prime_borne_off_ahead": False})


def test_narde_scoring():
    assert outcome("narde", make({}, START)) == ("mover", 2, "double")  # mars
    assert outcome("narde", make({}, {20: 13})) == ("mover", 1, "single")
    assert outcome("narde", narde_start()) is None


def test_narde_start_perft_depth1():
    # First turn.  Non-doubles: one head checker, one play each (15).  6-6: 1 (N01), 4-4: 1
    # (N02), 3-3: 2 (above), 2-2: 1, 1-1: 1 (0>4), 5-5: 1 (0>20 via 5, 10, 15).  Total 22.
    assert perft("narde", narde_start(), 1) == 22


# ================================================================================================
# Fevga / Moultezim through the same API (delegated to fevga.py)
# ================================================================================================

def test_fevga_delegation():
    check("fevga", make(START, START), (6, 6), [["0>6"]], dice_used=1)  # F01
    check("fevga", make({19: 2, 22: 1}, {0: 12, 5: 3}), (6, 4),
          [["19>off", "19>23"]], dice_used=2)  # F19
    check("moultezim", make(START, START), (6, 5), [["0>11"]], dice_used=2)
    assert outcome("fevga", make({}, START)) == ("mover", 2, "double")
    assert perft("fevga", make(START, START), 1) == 22


# ================================================================================================
# perft conventions, options, validation
# ================================================================================================

def test_perft_finished_games_count_one():
    # X's last checker on r23: every roll bears it off (one play), the game ends.
    p = make({23: 1}, {5: 15})
    for v in HIT + ("plakoto",):
        assert perft(v, p, 1) == 21
        assert perft(v, p, 2) == 21
    assert perft("narde", make({23: 1}, {5: 15}), 2) == 21
    # Game already over (the previous mover bore off all): one leaf.
    assert perft("backgammon", make({5: 15}, {}), 3) == 1
    assert perft("backgammon", start_position("backgammon"), 0) == 1


def test_defaults_and_options():
    assert set(DEFAULTS) == set(VARIANTS)
    assert DEFAULTS["plakoto"] == {"bearoff_with_pinned": False, "mother": "state",
                                   "mother_points": 2}
    assert DEFAULTS["narde"] == {"head_doubles": "643", "prime_check": "play",
                                 "prime_borne_off_ahead": True}
    assert resolve_options("backgammon") == {}
    bad = [("backgammon", {"mother": "state"}), ("plakoto", {"mother": "always"}),
           ("plakoto", {"mother_points": 4}), ("plakoto", {"mother_points": True}),
           ("plakoto", {"bearoff_with_pinned": 1}), ("narde", {"head_doubles": "6"}),
           ("narde", {"prime_check": "off"}), ("chess", {})]
    for v, opt in bad:
        with pytest.raises(ValueError):
            resolve_options(v, opt)


def test_invalid_positions_rejected():
    s = counts(START)
    bad = [
        ("backgammon", Pos(s, s, mover_off=1)),  # 16 checkers
        ("plakoto", Pos(counts({0: 14}), s, mover_bar=1)),  # no bar in Plakoto
        ("plakoto", Pos(s, s, mover_first_turn=True)),  # first turn is Narde only
        ("narde", Pos(counts({12: 15}), s)),  # both sides on X's r12
        ("backgammon", Pos(counts({23: 15}), s)),  # both on X's r23 = O's r0
        ("plakoto", Pos(counts({23: 15}), s)),  # shared point without a pin
        ("plakoto", Pos(counts({0: 14, 23: 1}), counts({0: 14, 23: 1}),
                        mover_off=0, opp_off=0)),  # shared points, nobody pinned
        ("plakoto", Pos(counts({0: 14, 6: 1}), s, mover_pinned=frozenset({6}))),  # no pinner
        ("backgammon", Pos(s, s, mover_pinned=frozenset({0}))),
    ]
    for v, p in bad:
        with pytest.raises(ValueError):
            legal_plays(v, p, (1, 2))
    with pytest.raises(ValueError):
        legal_plays("backgammon", start_position("backgammon"), (0, 2))
    with pytest.raises(ValueError):
        legal_plays("backgammon", start_position("backgammon"), (7, 2))


def test_perft_fixture_is_current():
    # Regression guard: the committed fixture must match the oracle (cheap cases only).
    import json
    import os
    path = os.path.join(os.path.dirname(__file__), "data", "perft_games.json")
    if not os.path.exists(path):
        pytest.skip("fixture not generated yet (python tests/oracle/make_perft_games.py)")
    with open(path) as f:
        data = json.load(f)
    assert data["generated_by"] == "tests/oracle/make_perft_games.py"
    assert {c["variant"] for c in data["cases"]} == set(HIT) | {"plakoto", "narde"}
    for c in data["cases"]:
        if c["nodes"] > 50000:
            continue
        p = Pos(tuple(c["mover"]), tuple(c["opp"]), c["mover_bar"], c["opp_bar"],
                c["mover_off"], c["opp_off"], frozenset(c["mover_pinned"]),
                frozenset(c["opp_pinned"]), c["mover_first_turn"], c["opp_first_turn"])
        assert perft(c["variant"], p, c["depth"], c["options"]) == c["nodes"], c["name"]
