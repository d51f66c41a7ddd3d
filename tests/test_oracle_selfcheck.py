"""Self-checks of the pure-Python reference generator (tests/oracle/fevga.py).

Every expected set below was worked out by hand from shared/RULES.md (§1, §6, §7.1, §10), never
copied from the oracle's output.  Notation (as in RULES.md §10): positions are {route index: count}
in each player's own frame; a play is the set of net checker movements in the mover's frame,
written "a>b" (b may be "off"), with "*k" for k checkers making the same movement.
Reminder of the geometry: O's point r' is the mover's point (r' + 12) % 24, so O's start is the
mover's r12 and O's r5 is the mover's r17.
"""

import pytest

from tests.oracle.fevga import (
    FEVGA_DEFAULTS,
    MOULTEZIM_DEFAULTS,
    apply_steps,
    legal_plays,
    perft,
    resolve_options,
)


# ------------------------------------------------------------------------------------------------
# helpers (independent of the oracle)
# ------------------------------------------------------------------------------------------------

def board(d):
    b = [0] * 24
    for r, c in d.items():
        b[r] += c
    return tuple(b)


def off_of(d):
    return 15 - sum(d.values())


def result_of(start, start_off, moves):
    """Resulting (board, off) of a set of net movements like ["0>6", "13>17*4", "19>off"]."""
    b = list(start)
    off = start_off
    for m in moves:
        times = 1
        if "*" in m:
            m, k = m.split("*")
            times = int(k)
        a, t = m.split(">")
        for _ in range(times):
            b[int(a)] -= 1
            assert b[int(a)] >= 0, m
            if t == "off":
                off += 1
            else:
                b[int(t)] += 1
    return tuple(b), off


def check(x, o, dice, expected, dice_used=None, variant="fevga", options=None):
    """expected: list of plays (each a list of movements); [[]] means 'no legal play (pass)'."""
    xb, ob = board(x), board(o)
    xoff, ooff = off_of(x), off_of(o)
    got = legal_plays(xb, ob, xoff, ooff, dice, variant, options)
    want = {result_of(xb, xoff, play) for play in expected}
    assert len(want) == len(expected), "duplicate expected plays in the test itself"
    assert set(got) == want
    for key, steps in got.items():
        assert apply_steps(xb, xoff, steps) == key
        if dice_used is not None:
            assert len(steps) == dice_used, (key, steps)
    return got


START = {0: 15}


# ------------------------------------------------------------------------------------------------
# RULES.md §10, Fevga (defaults).  The table has no F04, F10, F16, F18.
# ------------------------------------------------------------------------------------------------

def test_F01_opening_66():
    check(START, START, (6, 6), [["0>6"]], dice_used=1)


def test_F02_opening_44():
    check(START, START, (4, 4), [["0>8"]], dice_used=2)


def test_F03_opening_33():
    check(START, START, (3, 3), [["0>9"]], dice_used=3)


def test_F05_opening_65():
    check(START, START, (6, 5), [["0>11"]], dice_used=2)
    check(START, START, (5, 6), [["0>11"]], dice_used=2)


def test_F06_opening_11():
    check(START, START, (1, 1), [["0>4"]], dice_used=4)


def test_F07_second_player_66():
    check(START, {0: 14, 11: 1}, (6, 6), [["0>6"]], dice_used=1)


F08_X = {0: 14, 10: 1}
F08_O = {0: 14, 3: 1}  # O's r3 = X's r15


def test_F08():
    check(F08_X, F08_O, (4, 1), [["10>14", "0>1"]], dice_used=2)


def test_F09():
    check(F08_X, F08_O, (3, 1), [["10>13", "0>1"], ["10>14"]], dice_used=2)


F11_X = {0: 14, 8: 1}
F11_O = {0: 13, 4: 1, 15: 1}  # O on X's r12, r16, r3


def test_F11_no_legal_play():
    check(F11_X, F11_O, (4, 4), [[]], dice_used=0)


def test_F12():
    check(F11_X, F11_O, (2, 2), [["8>10"]], dice_used=1)


def test_F13_higher_die():
    check(F11_X, F11_O, (5, 3), [["8>13"]], dice_used=1)
    check(F11_X, F11_O, (3, 5), [["8>13"]], dice_used=1)


def test_F14():
    check(F11_X, F11_O, (6, 2), [["8>14", "0>2"]], dice_used=2)


def test_F15():
    check(F11_X, F11_O, (6, 5),
          [["8>13", "0>6"], ["8>14", "0>5"], ["8>19"]], dice_used=2)


F17_X = {0: 9, 13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1}
F17_O = {0: 15}
# Hand derivation of F17 (roll 2-1, nothing closed but X's r12; no bear-off; no runner phase).
# Single-checker plays (a>a+3) from each occupied point: 7.
# Two-checker plays "a>a+2, b>b+1" with a != b (or a = b = 0, the only multi-checker point),
# leaving out b = a+2 and a = b+1 (those equal a single-checker play): 34.
F17_ALL = [
    ["0>3"], ["13>16"], ["14>17"], ["15>18"], ["16>19"], ["17>20"], ["18>21"],
    ["0>2", "0>1"], ["0>2", "13>14"], ["0>2", "14>15"], ["0>2", "15>16"],
    ["0>2", "16>17"], ["0>2", "17>18"], ["0>2", "18>19"],
    ["13>15", "0>1"], ["13>15", "14>15"], ["13>15", "16>17"], ["13>15", "17>18"], ["13>15", "18>19"],
    ["14>16", "0>1"], ["14>16", "15>16"], ["14>16", "17>18"], ["14>16", "18>19"],
    ["15>17", "0>1"], ["15>17", "13>14"], ["15>17", "16>17"], ["15>17", "18>19"],
    ["16>18", "0>1"], ["16>18", "13>14"], ["16>18", "14>15"], ["16>18", "17>18"],
    ["17>19", "0>1"], ["17>19", "13>14"], ["17>19", "14>15"], ["17>19", "15>16"], ["17>19", "18>19"],
    ["18>20", "0>1"], ["18>20", "13>14"], ["18>20", "14>15"], ["18>20", "15>16"], ["18>20", "16>17"],
]
F17_WALL_KEEPERS = [["0>2", "0>1"], ["0>3"]]


def test_F17_rule_off():
    assert len(F17_ALL) == 41
    check(F17_X, F17_O, (2, 1), F17_ALL, dice_used=2, options={"unblock": "none"})


@pytest.mark.parametrize("unblock", ["R4_result", "R3_bkgm_start_of_turn"])
def test_F17_must_open_wall(unblock):
    expected = [p for p in F17_ALL if p not in F17_WALL_KEEPERS]
    assert len(expected) == 39
    check(F17_X, F17_O, (2, 1), expected, dice_used=2, options={"unblock": unblock})


def test_F17_default_is_R4():
    got = legal_plays(board(F17_X), board(F17_O), 0, 0, (2, 1))
    assert len(got) == 39


def test_F19_bear_off():
    check({19: 2, 22: 1}, {0: 12, 5: 3}, (6, 4), [["19>off", "19>23"]], dice_used=2)


# ------------------------------------------------------------------------------------------------
# Own hand-checked cases
# ------------------------------------------------------------------------------------------------

def test_start_perft_depth1():
    # Non-doubles: one runner play each (15). 1-1, 2-2, 3-3, 4-4, 6-6: one play each (5).
    # 5-5: 0>5>10>15 ends the runner phase, the 4th five is 15>20 or 0>5: two plays.
    assert perft(board(START), board(START), 0, 0, 1) == 22
    assert perft(board(START), board(START), 0, 0, 1, "moultezim") == 22
    assert perft(board(START), board(START), 0, 0, 0) == 1


def test_last_checker_overshoot_counts_both_dice():
    # Last checker on r22, 6-1: 22>off with the 6 uses one die; 22>23>off uses two and is the
    # play that survives max-dice.  Same resulting position, representative must use 2 dice.
    got = check({22: 1}, {0: 15}, (6, 1), [["22>off"]], dice_used=2)
    (key,) = got
    assert key[1] == 15


def test_bear_off_overshoot_only_from_farthest():
    # X {20:1, 23:1}, 6-5: 6 bears off the farthest (20); then 5 bears off 23 (farthest now).
    # 5 first: 20>off (overshoot, farthest) then 23>off.  Only result: both off.
    check({20: 1, 23: 1}, {0: 15}, (6, 5), [["20>off", "23>off"]], dice_used=2)
    # X {18:1, 23:1}, 2-1: no overshoot possible from 23 (+2 >24 but 18 is farther);
    # 23>off exact with the 1; 18>20 / 18>19 / 18>21.
    check({18: 1, 23: 1}, {0: 15}, (2, 1),
          [["18>21"], ["18>20", "23>off"]], dice_used=2)


# runner_threshold -----------------------------------------------------------------------------
# X {0:14, 9:1}; O {3:15} (O's start is empty; O's r3 = X's r15).  3-1.
RUN_X = {0: 14, 9: 1}
RUN_O = {3: 15}


def test_runner_threshold_13():
    # 9>12 does not end the runner phase (12 < 13), start stays frozen: only 9>13.
    check(RUN_X, RUN_O, (3, 1), [["9>13"]], dice_used=2, options={"runner_threshold": 13})


def test_runner_threshold_12():
    # 9>12 reaches 12 >= 12: the 1 may then move a start checker.
    check(RUN_X, RUN_O, (3, 1), [["9>13"], ["9>12", "0>1"]], dice_used=2,
          options={"runner_threshold": 12})


def test_runner_threshold_irrelevant_when_r12_closed():
    for thr in (12, 13):
        check(F08_X, F08_O, (4, 1), [["10>14", "0>1"]], dice_used=2,
              options={"runner_threshold": thr})
        check(F08_X, F08_O, (3, 1), [["10>13", "0>1"], ["10>14"]], dice_used=2,
              options={"runner_threshold": thr})


# startq_check (R1) -----------------------------------------------------------------------------
# X {0:10, 1:1, 2:1, 3:1, 4:1, 20:1}; O {0:11, 18:1, 19:1, 20:1, 21:1} (O on X's 12, 6, 7, 8, 9).
# Roll 5-5: the only steps are 0>5, 5>10, 10>15, 15>20 (1..4 +5 land on O; 20 can't bear off).
R1_X = {0: 10, 1: 1, 2: 1, 3: 1, 4: 1, 20: 1}
R1_O = {0: 11, 18: 1, 19: 1, 20: 1, 21: 1}
R1_ALL_FOUR_DICE = [["0>20"], ["0>15", "0>5"], ["0>10*2"], ["0>10", "0>5*2"], ["0>5*4"]]


def test_startq_play():
    # End of play: r5 must end empty -> one checker 0>20, or two checkers 0>10 each.
    check(R1_X, R1_O, (5, 5), [["0>20"], ["0>10*2"]], dice_used=4,
          options={"startq_check": "play"})


def test_startq_step():
    # Per step: 0>5 would make r0..r5 all held -> illegal; nothing else can move: pass.
    check(R1_X, R1_O, (5, 5), [[]], dice_used=0, options={"startq_check": "step"})


def test_startq_off():
    check(R1_X, R1_O, (5, 5), R1_ALL_FOUR_DICE, dice_used=4,
          options={"startq_check": "off", "unblock": "none"})


def test_startq_play_with_r15_closed():
    # Same X, O {0:10, 3:1, 18..21:1} (O also on X's r15), 5-5: steps 0>5 and 5>10 only.
    # Four-dice plays: 0>10*2, 0>10 + 0>5*2, 0>5*4; only 0>10*2 leaves r5 empty.
    o = {0: 10, 3: 1, 18: 1, 19: 1, 20: 1, 21: 1}
    check(R1_X, o, (5, 5), [["0>10*2"]], dice_used=4)
    check(R1_X, o, (5, 5), [["0>10*2"], ["0>10", "0>5*2"], ["0>5*4"]], dice_used=4,
          options={"startq_check": "off"})


# opp_start_quarter (R2) -----------------------------------------------------------------------
# R2a: X {11:10, 12:1, 13:1, 14:1, 15:1, 16:1}; O {6:3, 7:3, 8:3, 9:2, 10:2, 11:2}
# (O on X's 18..23; O's start r12 is empty).  6-6: 12..16 +6 land on O; 11>17 open; 17>23
# closed.  Only steps: 11>17.  Any such step makes X hold r12..r17.
R2A_X = {11: 10, 12: 1, 13: 1, 14: 1, 15: 1, 16: 1}
R2A_O = {6: 3, 7: 3, 8: 3, 9: 2, 10: 2, 11: 2}


def test_R2a():
    check(R2A_X, R2A_O, (6, 6), [["11>17*4"]], dice_used=4)  # default: R2 off
    check(R2A_X, R2A_O, (6, 6), [[]], dice_used=0, options={"opp_start_quarter": "R2a"})
    # R2b does not apply: O has no checker on his start.
    check(R2A_X, R2A_O, (6, 6), [["11>17*4"]], dice_used=4,
          options={"opp_start_quarter": "R2b"})


def test_R2a_shorter_play():
    # X {10:1, 11:1, 12:8, 13:3, 14:1, 15:1}; same O.  6-6: steps 10>16 and 11>17 only
    # (12..15 +6 land on O; 16>22, 17>23 closed).  Both together make r12..r17 all held, so
    # under R2a the legal plays are the one-die plays.
    x = {10: 1, 11: 1, 12: 8, 13: 3, 14: 1, 15: 1}
    check(x, R2A_O, (6, 6), [["10>16", "11>17"]], dice_used=2)
    check(x, R2A_O, (6, 6), [["10>16"], ["11>17"]], dice_used=1,
          options={"opp_start_quarter": "R2a"})


# R2b: X {13:11, 14:1, 15:1, 16:1, 17:1}; O {0:10, 7:1, 8:1, 9:1, 10:1, 11:1}
# (O on X's 12, 19..23).  5-5: only 13>18 (14..17 +5 closed; 18>23 closed).
R2B_X = {13: 11, 14: 1, 15: 1, 16: 1, 17: 1}
R2B_O = {0: 10, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1}


def test_R2b():
    check(R2B_X, R2B_O, (5, 5), [["13>18*4"]], dice_used=4)
    check(R2B_X, R2B_O, (5, 5), [[]], dice_used=0, options={"opp_start_quarter": "R2b"})
    # R2a: r12 is not X's, so no violation.
    check(R2B_X, R2B_O, (5, 5), [["13>18*4"]], dice_used=4,
          options={"opp_start_quarter": "R2a"})


# R2c: X {13:12, 14:1, 15:1, 16:1}; O {0:9, 6:1, 7:1, 8:1, 9:1, 10:1, 11:1}
# (O on X's 12, 18..23).  4-4: only 13>17 (14..17 +4 closed); it makes 5 points of r12..r17.
R2C_X = {13: 12, 14: 1, 15: 1, 16: 1}
R2C_O = {0: 9, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1}


def test_R2c():
    check(R2C_X, R2C_O, (4, 4), [["13>17*4"]], dice_used=4)
    check(R2C_X, R2C_O, (4, 4), [[]], dice_used=0, options={"opp_start_quarter": "R2c"})
    for r2 in ("R2a", "R2b"):
        check(R2C_X, R2C_O, (4, 4), [["13>17*4"]], dice_used=4,
              options={"opp_start_quarter": r2})


def test_R2c_four_points_allowed():
    # X {13:13, 14:1, 15:1}; same O.  4-4: 13>17 (4th point, allowed), 14>18 (O's r6) closed,
    # 15>19 closed, 17>21 closed.  13>17*k gives 4 points of r12..r17 -> legal.
    check({13: 13, 14: 1, 15: 1}, R2C_O, (4, 4), [["13>17*4"]], dice_used=4,
          options={"opp_start_quarter": "R2c"})


# unblock ---------------------------------------------------------------------------------------
# R3 trigger: O {5:15} (all on O's r5 = X's r17); X holds X's 18..23 (= O's 6..11).
# X {18:3, 19..23:1}, 7 off.  6-5: 6 only bears off from 18 (exact); 5: 18>23 or 19>off.
R3_X = {18: 3, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1}
R3_O = {5: 15}


def test_R3_triggered():
    both = [["18>off", "18>23"], ["18>off", "19>off"]]
    check(R3_X, R3_O, (6, 5), both, dice_used=2, options={"unblock": "none"})
    # {18>off, 18>23} keeps all of 18..23 -> removed under R3 and R4.
    for ub in ("R3_bkgm_start_of_turn", "R4_result"):
        check(R3_X, R3_O, (6, 5), [["18>off", "19>off"]], dice_used=2, options={"unblock": ub})


def test_R3_lapses_when_no_play_opens():
    # X {18:3, 19:2, 20..23:1}: both plays keep the wall -> obligation lapses.
    x = {18: 3, 19: 2, 20: 1, 21: 1, 22: 1, 23: 1}
    both = [["18>off", "18>23"], ["18>off", "19>off"]]
    for ub in ("none", "R3_bkgm_start_of_turn", "R4_result"):
        check(x, R3_O, (6, 5), both, dice_used=2, options={"unblock": ub})


# Creating a block (R4 only; R3 is not triggered since X does not hold r18 at the start):
# X {11:1, 12:1, 19..23:1}, 8 off; O {5:15} (X's r17).
BLK_X = {11: 1, 12: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1}


def test_R4_prevents_creating_block_65():
    # 6: 12>18 (11>17 closed, no bear-off: 11 and 12 are out).  5: 11>16 (12>17 closed).
    # 6 then 5: {12>18, 11>16}, {12>23}.  5 then 6: {11>16, 12>18} again, {11>22}.
    a = ["12>18", "11>16"]  # X holds 18..23 -> O completely blocked
    b = ["12>23"]
    c = ["11>22"]
    for ub in ("none", "R3_bkgm_start_of_turn"):
        check(BLK_X, R3_O, (6, 5), [a, b, c], dice_used=2, options={"unblock": ub})
    check(BLK_X, R3_O, (6, 5), [b, c], dice_used=2, options={"unblock": "R4_result"})
    check(BLK_X, R3_O, (6, 5), [b, c], dice_used=2,
          options={"unblock": "R4_result", "unblock_priority": "before_max_dice"})


def test_unblock_priority_66():
    # 6-6: only 12>18 (11>17 closed; nobody may bear off with 11 still out).  It blocks O.
    # after_max_dice: the only 1-die play stays (no alternative).  before_max_dice: the
    # non-blocking candidates are only the empty sequence -> X passes.
    check(BLK_X, R3_O, (6, 6), [["12>18"]], dice_used=1)
    check(BLK_X, R3_O, (6, 6), [["12>18"]], dice_used=1,
          options={"unblock": "R3_bkgm_start_of_turn", "unblock_priority": "before_max_dice"})
    check(BLK_X, R3_O, (6, 6), [[]], dice_used=0,
          options={"unblock": "R4_result", "unblock_priority": "before_max_dice"})


def test_R4_runner_boxed():
    # O {0:14, 1:1}: O's runner on O's r1 (X's r13); O's start (X's r12) is frozen by O's own
    # runner rule, so O is completely blocked iff X holds X's 14..19 (O's 2..7) - which X does
    # at the start.  R3 never triggers (O is on two points).
    # X {11:7, 14..19:1, 20:1, 23:1}, 2-1: the 11-stack is frozen (12 and 13 are O's), 23 can't
    # bear off (11 is out); movers are 14..19 and 20, landings 15..22 all open.
    # Single-checker plays a>a+3: a in 14..20 -> 7.  Two-checker plays a>a+2, b>b+1 over the
    # seven single-checker points 14..20 (a != b): 42, minus b = a+2 (a = 14..18: 5) and
    # a = b+1 (b = 14..19: 6) which equal single-checker plays: 31.  Total 38.
    # Keeping 14..19 all held needs the wall untouched: only {20>23}.  R4 removes exactly it.
    x = {11: 7, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1, 19: 1, 20: 1, 23: 1}
    o = {0: 14, 1: 1}
    xb, ob = board(x), board(o)
    none = legal_plays(xb, ob, 0, 0, (2, 1), options={"unblock": "none"})
    r3 = legal_plays(xb, ob, 0, 0, (2, 1), options={"unblock": "R3_bkgm_start_of_turn"})
    r4 = legal_plays(xb, ob, 0, 0, (2, 1), options={"unblock": "R4_result"})
    keep_wall = result_of(xb, 0, ["20>23"])
    assert len(none) == 38
    assert set(r3) == set(none)
    assert set(r4) == set(none) - {keep_wall}
    assert keep_wall in none
    for p in (["14>17"], ["19>22"], ["14>16", "20>21"], ["20>22", "14>15"], ["18>20", "19>20"]):
        assert result_of(xb, 0, p) in r4


# Moultezim primes -------------------------------------------------------------------------------

def test_moultezim_primes():
    # R2c (default): as test_R2c.
    check(R2C_X, R2C_O, (4, 4), [[]], dice_used=0, variant="moultezim")
    check(R2C_X, R2C_O, (4, 4), [["13>17*4"]], dice_used=4, variant="moultezim",
          options={"primes": "none"})
    check(R2C_X, R2C_O, (4, 4), [["13>17*4"]], dice_used=4, variant="moultezim",
          options={"primes": "R1"})
    # R1 position: R2c and "none" allow all five 4-dice plays (at most 1 point in r12..r17).
    for primes in ("R2c", "none"):
        check(R1_X, R1_O, (5, 5), R1_ALL_FOUR_DICE, dice_used=4, variant="moultezim",
              options={"primes": primes})
    check(R1_X, R1_O, (5, 5), [["0>20"], ["0>10*2"]], dice_used=4, variant="moultezim",
          options={"primes": "R1"})
    check(R1_X, R1_O, (5, 5), [[]], dice_used=0, variant="moultezim",
          options={"primes": "R1", "startq_check": "step"})


def test_moultezim_has_no_unblock_by_default():
    # F17 with Moultezim primes "none": no unblock rule by default -> the 41 plays of F17 "rule off".
    check(F17_X, F17_O, (2, 1), F17_ALL, dice_used=2, variant="moultezim",
          options={"primes": "none"})


# resolve_options --------------------------------------------------------------------------------

def test_resolve_options():
    assert resolve_options("fevga", None) == FEVGA_DEFAULTS
    assert resolve_options("moultezim", None) == {
        "runner_threshold": 13, "startq_check": "off", "opp_start_quarter": "R2c",
        "unblock": "none", "unblock_priority": "after_max_dice"}
    assert resolve_options("moultezim", {"primes": "R1", "startq_check": "step"}) == {
        "runner_threshold": 13, "startq_check": "step", "opp_start_quarter": "off",
        "unblock": "none", "unblock_priority": "after_max_dice"}
    assert resolve_options("moultezim", {"primes": "none"})["opp_start_quarter"] == "off"
    assert resolve_options("moultezim", {"primes": "none"})["startq_check"] == "off"
    assert set(MOULTEZIM_DEFAULTS) - {"primes"} <= set(FEVGA_DEFAULTS)
    with pytest.raises(ValueError):
        resolve_options("plakoto", None)
    with pytest.raises(ValueError):
        resolve_options("fevga", {"primes": "R1"})
    with pytest.raises(ValueError):
        resolve_options("moultezim", {"opp_start_quarter": "R2a"})
    with pytest.raises(ValueError):
        resolve_options("fevga", {"runner_threshold": 14})
    with pytest.raises(ValueError):
        resolve_options("fevga", {"unblock": "R5"})
    with pytest.raises(ValueError):
        resolve_options("moultezim", {"primes": "R1", "startq_check": "off"})


def test_invalid_positions_rejected():
    s = board(START)
    with pytest.raises(ValueError):
        legal_plays(s, s, 1, 0, (1, 2))  # 16 checkers
    with pytest.raises(ValueError):
        legal_plays(board({12: 15}), s, 0, 0, (1, 2))  # both sides on X's r12


def test_r3_trigger_helper():
    from tests.oracle.fevga import r3_trap_points
    # O all on O's r17 (X's r5), X holds O's 18..23 = X's 6..11: triggered (17 + 6 <= 23).
    x = board({6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 10})
    assert r3_trap_points(x, board({17: 15})) == [6, 7, 8, 9, 10, 11]
    # O all on O's r18 (X's r6): 18 + 6 > 23, never triggered.
    x = board({7: 1, 8: 1, 9: 1, 10: 1, 11: 1, 12: 10})
    assert r3_trap_points(x, board({18: 15})) is None
    # O on two points: not triggered even if blocked.
    assert r3_trap_points(board(F17_X), board({0: 14, 1: 1})) is None
    assert r3_trap_points(board(F17_X), board({0: 15})) == [13, 14, 15, 16, 17, 18]


def test_completely_blocked_helper():
    from tests.oracle.fevga import completely_blocked
    # F17: O's untouched stack walled in by X's 13..18.
    assert completely_blocked(board({0: 15}), 0, board(F17_X), 13)
    assert not completely_blocked(board({0: 15}), 0, board({0: 15}), 13)
    # O runner on O's r1 boxed by X's 14..19, O's start frozen by O's runner rule.
    x = board({11: 9, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1, 19: 1})
    assert completely_blocked(board({0: 14, 1: 1}), 0, x, 13)
    # Same but O has borne off one checker: no runner phase -> the start stack may move to
    # O's r1 (its own point) -> not blocked.
    assert not completely_blocked(board({0: 13, 1: 1}), 1, x, 13)
    # O allowed to bear off is never blocked.
    assert not completely_blocked(board({23: 1}), 14, board({10: 15}), 13)


def test_perft_fixture_is_current():
    # Regression guard: the committed fixture must match the oracle (cheap cases only).
    import json
    import os
    path = os.path.join(os.path.dirname(__file__), "data", "perft_fevga.json")
    if not os.path.exists(path):
        pytest.skip("fixture not generated yet (python tests/oracle/make_perft.py)")
    with open(path) as f:
        data = json.load(f)
    assert data["generated_by"] == "tests/oracle/make_perft.py"
    assert len(data["cases"]) >= 8
    for c in data["cases"]:
        if c["nodes"] > 50000:
            continue
        got = perft(c["mover"], c["opp"], c["mover_off"], c["opp_off"], c["depth"],
                    c["variant"], c["options"])
        assert got == c["nodes"], c.get("name")
