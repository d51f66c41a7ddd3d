"""The pure-Python kin-games reference (tests/oracle/kin.py) against every case of RULES-KIN.md §7
(JQ01-JQ09, TW01-TW09, NK01-NK04, HG01-HG08 as given there).  No engine: this checks the oracle
itself.  Expected sets are written as in the rule book: net movements in X's frame."""

from __future__ import annotations

import base64

import pytest

from oracle import kin

OFF = kin.OFF


def board(d):
    b = [0] * 24
    for r, c in d.items():
        b[r] += c
    return tuple(b)


def pos(x, o, n=15, x_bar=0, o_bar=0):
    return kin.Pos(board(x), board(o), x_bar, o_bar, n - sum(x.values()) - x_bar,
                   n - sum(o.values()) - o_bar)


def after(p: kin.Pos, moves) -> kin.Pos:
    """p after net movements (from, to[, count]) with no hits (none of §7's cases hits)."""
    m = list(p.mover)
    off = p.mover_off
    for mv in moves:
        frm, to = mv[0], mv[1]
        for _ in range(mv[2] if len(mv) > 2 else 1):
            assert m[frm] > 0
            m[frm] -= 1
            if to >= OFF:
                off += 1
            else:
                m[to] += 1
    return kin.Pos(tuple(m), p.opp, p.mover_bar, p.opp_bar, off, p.opp_off)


def check(variant, p, dice, plays, dice_used, **options):
    got = kin.legal_plays(variant, p, dice, options)
    want = {after(p, play) for play in plays}
    assert set(got) == want
    assert {len(s) for s in got.values()} == {dice_used}


JQ_START = pos({0: 15}, {0: 15})
TW_START = JQ_START
NK = {0: 2, 1: 2, 11: 4, 16: 3, 18: 4}


# --- Jacquet ---------------------------------------------------------------------------------

def test_JQ01_6_6_only_the_runner_one_die():
    check("jacquet", JQ_START, (6, 6), [[(0, 6)]], 1)


def test_JQ02_6_5_one_checker_both_dice():
    check("jacquet", JQ_START, (6, 5), [[(0, 11)]], 2)


def test_JQ03_runner_past_talon_not_yet_home():
    p = pos({0: 14, 13: 1}, {0: 15})
    check("jacquet", p, (3, 1), [[(13, 17)]], 2)


def test_JQ03_fevga_like_threshold_is_not_jacquet():
    # Fevga (threshold 13) would allow 5 plays; Jacquet's 19 flag behaves like 18 here.
    p = pos({0: 14, 13: 1}, {0: 15})
    check("jacquet", p, (3, 1), [[(13, 17)]], 2, runner_threshold=19)


def test_JQ05_3_3_three_dice():
    check("jacquet", JQ_START, (3, 3), [[(0, 9)]], 3)


def test_JQ07_2_2_four_times_or_n_times():
    check("jacquet", JQ_START, (2, 2), [[(0, 8)]], 4)
    check("jacquet", JQ_START, (2, 2), [[(0, 4)]], 2, doubles="n_times")


def test_JQ07_n_times_extremes():
    # 1-1 is one step; 6-6 six steps, but the runner stops before O's talon (r12).
    check("jacquet", JQ_START, (1, 1), [[(0, 1)]], 1, doubles="n_times")
    check("jacquet", JQ_START, (6, 6), [[(0, 6)]], 1, doubles="n_times")


def test_JQ08_runner_released_only_on_arrival():
    p = pos({0: 14, 9: 1}, {0: 15})
    check("jacquet", p, (5, 4), [[(9, 18)]], 2)


@pytest.mark.parametrize("o_off, points, kind", [(0, 2, "double"), (1, 1, "single")])
def test_JQ09_scoring(o_off, points, kind):
    o = {12: 15 - o_off}
    p = pos({}, o)  # X has just borne off his 15th
    assert kin.outcome("jacquet", p) == ("mover", points, kind)
    assert kin.outcome("jacquet", p, {"double_win": False}) == ("mover", 1, "single")
    # seen from the other side the same game is the opponent's win
    assert kin.outcome("jacquet", p.flipped())[0] == "opponent"


# --- Tawla 31 --------------------------------------------------------------------------------

def test_TW01_6_6_runner_released_fourth_six_frees_talon():
    check("tawla31", TW_START, (6, 6), [[(0, 18), (0, 6)]], 4)


def test_TW02_5_5_all_four_to_the_runner():
    check("tawla31", TW_START, (5, 5), [[(0, 20)]], 4)


def test_TW03_6_5_runner_only():
    check("tawla31", TW_START, (6, 5), [[(0, 11)]], 2)


TW04 = pos({0: 14, 15: 1}, {0: 12, 3: 1, 5: 1, 19: 1})


def test_TW04_only_the_smaller_die():
    check("tawla31", TW04, (3, 2), [[(15, 17)]], 1)


def test_TW06_release_mid_turn():
    check("tawla31", TW04, (6, 1), [[(15, 21), (0, 1)], [(15, 22)]], 2)


def test_TW06_release_turn_keeps_the_runner():
    # runner_release = "turn": the 1 may not leave the talon after 15->21
    check("tawla31", TW04, (6, 1), [[(15, 22)]], 2, runner_release="turn")


@pytest.mark.parametrize("dice", [(6, 6), (2, 1)])
def test_TW07_complete_block_passes(dice):
    p = pos({0: 14, 15: 1}, {0: 8, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 19: 1})
    assert kin.legal_plays("tawla31", p, dice) == {p: []}


def test_TW09_checkers_left():
    p = pos({}, {0: 5, 3: 6})  # O has 11 on the board, 4 off
    assert kin.outcome("tawla31", p) == ("mover", 11, "checkers")


# --- Nackgammon ------------------------------------------------------------------------------

def gnubg_position_id(on_roll: kin.Pos) -> str:
    """gnubg's Position ID: for the side not on roll, then the side on roll, for each of its
    points 1..24 and the bar the count in unary (ones, then a zero), bits packed little-endian,
    base64 without padding.  gnubg point i (0-based, 0 = ace point) is route index 23 - i."""
    bits = []
    for board, bar in ((on_roll.opp, on_roll.opp_bar), (on_roll.mover, on_roll.mover_bar)):
        for i in range(24):
            bits += [1] * board[23 - i] + [0]
        bits += [1] * bar + [0]
    key = bytearray(10)
    for k, b in enumerate(bits):
        if b:
            key[k // 8] |= 1 << (k % 8)
    return base64.b64encode(bytes(key)).decode()[:14]


def test_NK01_start():
    p = kin.start_position("nackgammon")
    assert p == pos(NK, NK)
    assert gnubg_position_id(p) == "4Dl4ADbgOXgANg"


def test_NK02_6_6():
    p = pos(NK, NK)
    check("nackgammon", p, (6, 6),
          [[(0, 6, 2), (11, 17, 2)], [(0, 6), (11, 17, 3)], [(11, 17, 4)]], 4)


def test_NK04_6_4():
    p = pos(NK, NK)
    check("nackgammon", p, (6, 4), [
        [(0, 6), (0, 4)], [(0, 6), (11, 15)], [(0, 6), (16, 20)], [(0, 10)],
        [(11, 17), (0, 4)], [(11, 17), (11, 15)], [(11, 17), (16, 20)], [(11, 21)],
    ], 2)


# --- Hypergammon -----------------------------------------------------------------------------

@pytest.mark.parametrize("k, start, gid", [
    (3, {0: 1, 1: 1, 2: 1}, "AACgAgAAKgAAAA"),
    (2, {0: 1, 1: 1}, "AABAAQAACgAAAA"),
    (1, {0: 1}, "AACAAAAAAgAAAA"),
])
def test_HG01_start(k, start, gid):
    p = kin.start_position("hypergammon", {"checkers": k})
    assert p == pos(start, start, n=k)
    assert gnubg_position_id(p) == gid


def test_HG02_k3_2_1():
    s = {0: 1, 1: 1, 2: 1}
    p = pos(s, s, n=3)
    check("hypergammon", p, (2, 1), [
        [(0, 2), (1, 2)], [(0, 3)], [(0, 1), (2, 4)], [(1, 4)], [(1, 3), (2, 3)], [(2, 5)],
    ], 2, checkers=3)


def test_HG04_k2_6_6():
    s = {0: 1, 1: 1}
    p = pos(s, s, n=2)
    check("hypergammon", p, (6, 6),
          [[(0, 18), (1, 7)], [(0, 12), (1, 13)], [(0, 6), (1, 19)]], 4, checkers=2)


def test_HG05_k2_1_1():
    s = {0: 1, 1: 1}
    p = pos(s, s, n=2)
    check("hypergammon", p, (1, 1), [[(0, 3), (1, 2)], [(0, 4)], [(1, 5)]], 4, checkers=2)


def test_HG06_k1_6_6_bears_off():
    p = pos({0: 1}, {0: 1}, n=1)
    check("hypergammon", p, (6, 6), [[(0, OFF)]], 4, checkers=1)
    (res,) = kin.legal_plays("hypergammon", p, (6, 6), {"checkers": 1})
    assert kin.outcome("hypergammon", res, {"checkers": 1}) == ("mover", 3, "triple")


def test_HG08_scoring_k1():
    opts = {"checkers": 1}
    # every win is at least a gammon; a backgammon with the loser on the bar or on his r0..r5
    assert kin.outcome("hypergammon", pos({}, {10: 1}, n=1), opts) == ("mover", 2, "double")
    assert kin.outcome("hypergammon", pos({}, {20: 1}, n=1), opts) == ("mover", 2, "double")
    assert kin.outcome("hypergammon", pos({}, {5: 1}, n=1), opts) == ("mover", 3, "triple")
    assert kin.outcome("hypergammon", pos({}, {}, n=1, o_bar=1), opts) == ("mover", 3, "triple")
    # Jacoby always: every win single
    opts_j = {"checkers": 1, "jacoby_always": True}
    assert kin.outcome("hypergammon", pos({}, {5: 1}, n=1), opts_j) == ("mover", 1, "single")


def test_HG08_scoring_k3():
    opts = {"checkers": 3}
    out = kin.outcome
    assert out("hypergammon", pos({}, {20: 1, 21: 1, 22: 1}, n=3), opts) == ("mover", 2, "double")
    assert out("hypergammon", pos({}, {20: 1, 21: 1}, n=3), opts) == ("mover", 1, "single")
    assert out("hypergammon", pos({}, {3: 1, 21: 1, 22: 1}, n=3), opts) == ("mover", 3, "triple")
    assert out("hypergammon", pos({}, {20: 1, 22: 1}, n=3, o_bar=1), opts) == ("mover", 3, "triple")
    # the game goes on while both have checkers left
    assert out("hypergammon", pos({20: 1}, {20: 1, 22: 1}, n=3), opts) is None


# --- extra oracle checks beyond §7 -----------------------------------------------------------

def test_runner_release_turn_start_of_tawla():
    # TW01 with runner_release = "turn": after 0->18 the fourth six may not leave the talon, and
    # 18->24 is no bear-off, so three dice only.
    check("tawla31", TW_START, (6, 6), [[(0, 18)]], 3, runner_release="turn")


def test_six_prime_needs_last_two():
    # X holds r12..r16 (O's r0..r4) and may add r17 with a 1: a six-block along O's route.
    x = {12: 1, 13: 1, 14: 1, 15: 1, 16: 2, 18: 9}
    o = {20: 10, 21: 5}  # O's r20, r21 are X's r8, r9
    p = pos(x, o)
    free = kin.legal_plays("jacquet", p, (1, 1), {"doubles": "n_times"})
    assert after(p, [(16, 17)]) in free
    strict = kin.legal_plays("jacquet", p, (1, 1), {"doubles": "n_times", "six_prime": "needs_last_two"})
    assert after(p, [(16, 17)]) not in strict and strict


def test_perft_depth_one_starts():
    # one play per roll from Jacquet's start (only the runner moves, parallel: no contrary
    # release with the fourth die before O's talon)
    assert kin.perft("jacquet", JQ_START, 1) == 21
    assert kin.perft("tawla31", TW_START, 0) == 1
