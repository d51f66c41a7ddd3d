"""The "expert" encoding of the hitting games (cpp/include/tavli/hit_features.h): tesauro's 198
units, then per side pips / 167, shots / 36, trapping prime / 6, and the contact unit.

Expected values: the well-known table of direct and indirect shots at a single blot, hand-built
positions, and a plain reference (loops over points and rolls, written from the header's text)
on random positions of every hitting game."""

from __future__ import annotations

import numpy as np
import pytest

import tavli
from helpers import BAR, make_board, roll_reach
from test_encode import read_row

HIT_GAMES = [("backgammon", {}), ("portes", {}), ("tavla", {}), ("nackgammon", {}), ("hypergammon", {"checkers": 3})]


def expert(board: tavli.Board) -> np.ndarray:
    x = tavli.encode(board.to_array()[None, :], board.variant, encoding="expert", **board.options)[0]
    assert x.shape == (205,)
    return x[198:]


# Rolls of 36 that hit a lone blot d pips in front of a lone enemy checker, nothing in between:
# the standard table (e.g. Magriel, "Backgammon", 1976, the shots chart).
SHOTS_AT_DISTANCE = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3,
                     15: 1, 16: 1, 18: 1, 20: 1, 24: 1}


@pytest.mark.parametrize("d", sorted(SHOTS_AT_DISTANCE))
def test_shots_at_a_single_blot_follow_the_standard_table(d):
    # The opponent's checker on the bar (index -1) or at its r0; the mover's blot at the
    # opponent's index d - 1 or d, i.e. the mover's own 23 - that. Everything else is borne off.
    opp_at = BAR if d == 24 else 0
    blot_opp_index = opp_at + d
    board = make_board("backgammon", {23 - blot_opp_index: 1}, {opp_at: 1})
    assert round(expert(board)[1] * 36) == SHOTS_AT_DISTANCE[d]


def test_made_points_block_indirect_shots():
    # Blot 6 away (17 shots); the mover holds the points 2 and 4 pips in front of the attacker:
    # 2-4, 4-2 and 2-2 pass only through blocked points; 1-5/5-1 (via 1 or 5) and 3-3 still hit.
    board = make_board("backgammon", {23 - 6: 1, 23 - 2: 2, 23 - 4: 2}, {0: 1})
    assert round(expert(board)[1] * 36) == 17 - 2 - 1


def test_pips_trap_and_contact_by_hand():
    start = tavli.Board("backgammon")
    u = expert(start)
    assert u[0] == pytest.approx(1.0) and u[3] == pytest.approx(1.0)  # 167 pips each
    assert u[1] == 0 and u[4] == 0                                      # no blots
    assert u[2] == pytest.approx(1 / 6) and u[5] == pytest.approx(1 / 6)  # no two made points adjoin
    assert u[6] == 1
    # A full prime in front of the mover's back checkers on its r0: the opponent made its own
    # r12..r17, the mover's r11..r6.
    primed = make_board("backgammon", {0: 2, 23: 13}, {r: 2 for r in range(12, 18)} | {22: 3})
    u = expert(primed)
    assert u[2] == pytest.approx(1.0)              # a 6-point prime ahead of the mover's rearmost
    assert u[5] == pytest.approx(1 / 6)             # ahead of their r12: the mover's r0 (their r23)
    assert u[0] == pytest.approx((2 * 24 + 13 * 1) / 167)
    # A pure race: every checker of each side past every checker of the other.
    race = make_board("backgammon", {12: 5, 20: 10}, {12: 5, 22: 10})
    assert expert(race)[6] == 0
    # The bar is behind everything: a checker there is in contact with anything on the board.
    barred = make_board("backgammon", {BAR: 1, 20: 14}, {22: 15})
    assert expert(barred)[6] == 1


def ref_expert(row) -> list[float]:
    pos = read_row(row)
    me, them = pos["sides"]
    out: list[float] = []
    for a, b in ((me, them), (them, me)):
        pips = 25 * a["bar"] + sum(a["n"][r] * (24 - r) for r in range(24))
        # In b's route index: a's blots and made points are at 23 - r.
        blots = {23 - r for r in range(24) if a["n"][r] == 1}
        made = {23 - r for r in range(24) if a["n"][r] >= 2}
        sources = [q for q in range(24) if b["n"][q]] + ([-1] if b["bar"] else [])
        hits = sum(w for hit, w in roll_reach(sources, made, blots) if hit)
        # Trapping prime: b's made points, in a's route index, ahead of a's rearmost checker.
        if a["bar"]:
            rear = -1
        else:
            rear = min((r for r in range(24) if a["n"][r]), default=24)
        ahead = [rear < 23 - q and b["n"][q] >= 2 for q in range(23, -1, -1)]  # a's index 0..23
        longest = run = 0
        for x in ahead:
            run = run + 1 if x else 0
            longest = max(longest, run)
        if rear == 24:
            longest = 0
        out += [pips / 167, hits / 36, longest / 6]
    rear_me = -1 if me["bar"] else min((r for r in range(24) if me["n"][r]), default=24)
    rear_them = -1 if them["bar"] else min((r for r in range(24) if them["n"][r]), default=24)
    contact = rear_me < 24 and rear_them < 24 and rear_me + rear_them < 23
    return out + [float(contact)]


@pytest.mark.parametrize("cfg", HIT_GAMES, ids=lambda c: c[0])
def test_matches_reference_on_random_positions(cfg):
    variant, opts = cfg
    rows, _ = tavli.random_positions(variant, 600, 7, **opts)
    got = tavli.encode(rows, variant, encoding="expert", **opts)
    tes = tavli.encode(rows, variant, encoding="tesauro", **opts)
    assert np.array_equal(got[:, :198], tes)
    expected = np.array([ref_expert(r) for r in rows])
    bad = np.argwhere(np.abs(got[:, 198:] - expected) > 1e-6)
    assert not len(bad), f"row {bad[0][0]} unit {198 + bad[0][1]}: {got[bad[0][0], 198:]} vs {expected[bad[0][0]]}"
    # The sample reaches the features: some blots shot at, some primes, races and contact.
    assert (expected[:, 1] > 0).mean() > 0.2
    if variant != "hypergammon":  # three checkers make no two-point prime
        assert (expected[:, 2] >= 2 / 6).mean() > 0.1
    assert 0.02 < expected[:, 6].mean() < 0.98


def test_expert_is_only_for_the_hitting_games():
    rows, _ = tavli.random_positions("fevga", 3, 1)
    with pytest.raises(ValueError, match="hitting games"):
        tavli.encode(rows, "fevga", encoding="expert")
    with pytest.raises(ValueError, match="'expert'"):
        tavli.nn.Net("fevga", hidden=4, encoding="expert")
    net = tavli.nn.Net("backgammon", hidden=4, encoding="expert")
    assert net.inputs == 205 and net.encoding == "expert"
