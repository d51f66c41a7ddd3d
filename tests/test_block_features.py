"""The "block2" encoding's units (cpp/include/tavli/block_features.h) for the blocking games:
hand-counted on a few positions and checked on seeded random positions of every game that uses
"block" against a reference written from the header's definitions (not from the C++), plus the
encoding's frame: its first 152 units are "block"'s, and a "block" net widens to it unchanged."""

from __future__ import annotations

import numpy as np
import pytest

import tavli
from helpers import mover_row as row
from tavli import supervised as S
from tavli.nn import Net

SCALE = np.array([360, 6, 12, 6, 36, 15, 15] * 2 + [1], np.float64)  # the units' divisors


def units(r: np.ndarray, variant: str = "fevga") -> np.ndarray:
    """The 15 block2 units of one row, times their divisors (counts again)."""
    x = S.net_inputs(r[None], variant, "block2")[0]
    assert x.shape == (167,)
    np.testing.assert_array_equal(x[:152], S.net_inputs(r[None], variant, "block")[0])
    return np.round(x[152:].astype(np.float64) * SCALE, 4)


def facing(parallel: bool, r: int) -> int:
    return (r + 12) % 24 if parallel else 23 - r


def side_units(me: np.ndarray, them: np.ndarray, parallel: bool) -> list[float]:
    blocked = {facing(parallel, k) for k in range(24) if them[k] > 0}
    on = [r for r in range(24) if me[r] > 0]
    pips = sum(int(me[r]) * (24 - r) for r in on)
    if not on:
        return [0, 0, 0, 0, 0, 0, 0]
    rear = min(on)
    ahead = sorted(r for r in blocked if r > rear)
    wall = run = 0
    for r in range(24):
        run = run + 1 if r in ahead else 0
        wall = max(wall, run)
    home_only = all(r >= 18 for r in on)
    opens = {r: [d for d in range(1, 7) if r + d <= 23 and r + d not in blocked] for r in on}
    dead = 0 if home_only else sum(all(d not in opens[r] for r in on) for d in range(1, 7))
    steps = sum(len(opens[r]) for r in on if r < 18)
    frozen = 0 if home_only else sum(int(me[r]) for r in on if not opens[r])
    home = sum(int(me[r]) for r in range(18, 24))
    return [pips, wall, len(ahead), dead, steps, frozen, home]


def reference(r: np.ndarray, parallel: bool) -> np.ndarray:
    me, them = r[:24], r[24:48]
    out = side_units(me, them, parallel) + side_units(them, me, parallel)
    mine = [k for k in range(24) if me[k]]
    theirs = [k for k in range(24) if them[k]]
    contact = bool(mine and theirs) and any(facing(parallel, p) >= min(theirs) for p in range(min(mine), 24))
    return np.array(out + [int(contact)], np.float64)


def test_the_start_of_fevga():
    # Each side: 360 pips, the other's stack is one point ahead (my r12), six open steps from r0.
    r = row({0: 15}, {0: 15})
    np.testing.assert_array_equal(units(r), [360, 1, 1, 0, 6, 0, 0] * 2 + [1])


def test_a_wall_ahead_and_the_points_behind_it():
    # Fevga: mine on r3 (2) and r22 (13); theirs on their r4..r9 = my r16..r21 (a six-point wall
    # in front of my r3) and their r23 (my r11).
    r = row({3: 2, 22: 13}, {4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 23: 9})
    u = units(r)
    # Mine: pips 2*21 + 13*2 = 68; ahead of r3 the wall r16..r21 (6) and r11: 7 points. r3 steps
    # to r4..r9, all open: 6 steps, no die value dead, nothing frozen; 13 home.
    np.testing.assert_array_equal(u[:7], [68, 6, 7, 0, 6, 0, 13])
    # Theirs, by their route: my r3 and r22 are their r15 and r10, both ahead of their rearmost r4
    # (2 points, the longest run 1). Pips 6 checkers on r4..r9: 20+19+18+17+16+15 = 105, 9 * 1.
    # Steps: r4 -> r5..r10 without r10: 5; r5: 5; r6: 5; r7: 5 (r10 shut); r8: 5; r9: 5 (r15 shut;
    # r10 too): r9 -> r10..r15 loses two: 4. 5+5+5+5+5+4 = 29. The 9 on r23 are home, and frozen:
    # no step from r23 stays on the board, and they may not bear off while r4..r9 are out.
    np.testing.assert_array_equal(u[7:14], [114, 1, 2, 0, 29, 9, 9])
    np.testing.assert_array_equal(u, reference(r, True))


def test_frozen_checkers_and_dead_die_values():
    # Tawla 31 (contrary movement: their r = my 23 - r): their r14..r20 are my r9..r3, so my lone
    # r2 has every step r3..r8 shut: frozen.
    r = row({2: 1, 19: 14}, {14: 2, 15: 2, 16: 2, 17: 2, 18: 2, 19: 2, 20: 3})
    u = units(r, "tawla31")
    # Mine: r2 frozen (1); dead die values: d lands r2 + d (shut for d <= 6) or r19 + d (open for
    # d <= 4: r20..r23; their r0..r3 hold nothing): 5 and 6 dead. Steps: only r2 counts (r19 is
    # home): 0. Wall ahead of r2: r3..r9, 7 points in a row.
    assert u[1] == 7 and u[2] == 7 and u[3] == 2 and u[4] == 0 and u[5] == 1
    np.testing.assert_array_equal(u, reference(r, False))


def test_a_race_has_no_contact():
    # Narde: every checker of mine past every one of theirs and the other way round (their r20..23
    # are my r8..11, behind my rearmost r14; my r14.. are their r2.., behind their rearmost r20).
    r = row({14: 5, 20: 10}, {20: 7, 23: 8})
    assert units(r, "narde")[-1] == 0
    assert reference(r, True)[-1] == 0
    r2 = row({10: 5, 20: 10}, {20: 7, 23: 8})  # my r10 still has their r22 ahead (my r10 <-> their r22)
    assert units(r2, "narde")[-1] == 1


@pytest.mark.parametrize("variant, parallel", [("fevga", True), ("moultezim", True), ("narde", True),
                                               ("jacquet", True), ("tawla31", False)])
def test_random_positions_match_the_reference(variant, parallel):
    rows, _ = tavli.random_positions(variant, 1500, seed=11)
    x = S.net_inputs(rows, variant, "block2")
    for i in range(0, len(rows), 7):
        np.testing.assert_allclose(np.round(x[i, 152:].astype(np.float64) * SCALE, 4), reference(rows[i], parallel),
                                   atol=1e-3, err_msg=f"{variant} row {i}: {rows[i].tolist()}")


def test_a_block_net_widens_to_block2_unchanged():
    net = Net("fevga", 24, seed=5, encoding="block")  # a net on the game's own units
    wide = S.widen(net, "block2")
    assert wide.encoding == "block2" and wide.inputs == 167
    rows, _ = tavli.random_positions("fevga", 400, seed=3)
    np.testing.assert_array_equal(wide.evaluate_positions(rows, "fevga"), net.evaluate_positions(rows, "fevga"))


def test_block2_is_refused_where_it_does_not_fit():
    with pytest.raises(ValueError, match="block2"):
        S.net_inputs(row({0: 15}, {0: 15})[None], "backgammon", "block2")
    with pytest.raises(ValueError):
        Net("fevga", 16, encoding="block3")
