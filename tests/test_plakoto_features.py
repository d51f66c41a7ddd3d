"""The "plakoto2" encoding's units (cpp/include/tavli/plakoto_features.h): pin shots, double pin
shots, the pips a pin costs, shots at the mother and the wall ahead, hand-counted on a few
positions and checked on seeded random Plakoto positions against a walk over the 21 rolls written
from RULES.md 5.2 and the header (not from the C++); its first 198 units are "plakoto"'s, and a
"plakoto" net widens to it unchanged."""

from __future__ import annotations

import numpy as np

import tavli
from helpers import mover_row, roll_reach
from tavli import supervised as S
from tavli.nn import Net

PK = "plakoto"
SCALE = np.array([360, 36, 36, 36 * 24, 36, 6] * 2 + [1], np.float64)


def row(me: dict[int, int], op: dict[int, int], me_pinned: tuple[int, ...] = (), op_pinned: tuple[int, ...] = ()):
    r = mover_row(me, op)
    for base, pins in ((54, me_pinned), (57, op_pinned)):
        m = sum(1 << p for p in pins)
        r[base:base + 3] = [m & 255, (m >> 8) & 255, m >> 16]
    return r


def units(r: np.ndarray) -> np.ndarray:
    x = S.net_inputs(r[None], PK, "plakoto2")[0]
    assert x.shape == (211,)
    np.testing.assert_array_equal(x[:198], S.net_inputs(r[None], PK, "plakoto")[0])
    return np.round(x[198:].astype(np.float64) * SCALE, 3)


def pins(r: np.ndarray, base: int) -> set[int]:
    m = int(r[base]) | int(r[base + 1]) << 8 | int(r[base + 2]) << 16
    return {p for p in range(24) if m >> p & 1}


def pin_walk(targets: set[int], shut: set[int], movers: list[int]) -> tuple[int, int, int]:
    """Over the 21 rolls of the side whose free checkers stand on `movers` (its own route), landing
    where it may (not on `shut`), through intermediate points it may land on (helpers.roll_reach):
    (rolls that reach a target, rolls that reach two or more, the sum over reaching rolls of weight
    x (r + 1) of the most advanced target reached, r by the target side's route)."""
    shots = double = loss = 0
    for hit, w in roll_reach(movers, shut, targets):
        if hit:
            shots += w
            double += w * (len(hit) >= 2)
            loss += w * (23 - min(hit) + 1)  # the target's own r = 23 - mover's r
    return shots, double, loss


def side_units(r: np.ndarray, s: int) -> list[float]:
    me, them = (r[:24], r[24:48]) if s == 0 else (r[24:48], r[:24])
    my_pins, their_pins = (pins(r, 54), pins(r, 57)) if s == 0 else (pins(r, 57), pins(r, 54))
    # In their route (k = 23 - my r): my free lone checkers are targets; points where I have two
    # or more, or sit on a pinned checker of theirs, are shut to them.
    targets = {23 - p for p in range(24) if me[p] == 1 and p not in my_pins and (23 - p) not in their_pins}
    shut = {23 - p for p in range(24) if p not in my_pins and (me[p] >= 2 or (me[p] >= 1 and (23 - p) in their_pins))}
    movers = [k for k in range(24) for _ in range(int(them[k]) - (k in their_pins))]
    shots, double, loss = pin_walk(targets, shut, movers)
    mother = 0
    if me[0] == 1 and 0 not in my_pins:
        mother = pin_walk({23}, shut, movers)[0]
    # Their wall in my route: every point they hold except a free lone checker I may pin.
    held = {23 - k for k in range(24) if them[k] and not (them[k] == 1 and k not in their_pins and (23 - k) not in my_pins)}
    on = [p for p in range(24) if me[p]]
    wall = run = 0
    for p in range(24):
        run = run + 1 if (on and p > min(on) and p in held) else 0
        wall = max(wall, run)
    pips = sum(int(me[p]) * (24 - p) for p in on)
    return [pips, shots, double, loss, mother, wall]


def reference(r: np.ndarray) -> np.ndarray:
    mine = [p for p in range(24) if r[p]]
    theirs = [k for k in range(24) if r[24 + k]]
    contact = bool(mine and theirs) and any(23 - p >= min(theirs) for p in range(min(mine), 24))
    return np.array(side_units(r, 0) + side_units(r, 1) + [int(contact)], np.float64)


def test_the_start_has_nothing_to_pin():
    np.testing.assert_array_equal(units(row({0: 15}, {0: 15})), [360, 0, 0, 0, 0, 1] * 2 + [1])


def test_a_lone_mother_in_reach():
    # My mother alone on r0 (their r23); theirs on their r17 (2) and r20 (13) and nothing of mine
    # in between shut: 6s and 3s reach it directly, and combinations summing to 6 from r17 or to 3
    # from r20 through open points: every roll with a 6 or a 3 (20 rolls), 1-2 / 2-1 (2), 1-1
    # (r20 -> 21 -> 22 -> 23: 1), 2-2 (r17 -> 19 -> 21 -> 23: 1), 4-2 (r17 -> 21 -> 23: 2),
    # 5-1 (r17 -> 22 -> 23: 2): 28 rolls. It is also my only lone checker: 28 shots.
    r = row({0: 1, 10: 14}, {17: 2, 20: 13})
    u = units(r)
    assert u[4] == 28 and u[1] == 28
    np.testing.assert_array_equal(u, reference(r))


def test_pinned_checkers_and_points_on_a_pin():
    # My r5 is pinned under their checker on their r18; their r4 is pinned under my two on my r19.
    r = row({0: 12, 5: 1, 19: 2}, {0: 13, 18: 1, 4: 1}, me_pinned=(5,), op_pinned=(4,))
    u = units(r)
    # Nothing of mine is a target (r5 is pinned, r0 and r19 have two or more): no pin shots.
    assert u[1] == 0 and u[4] == 0
    # Their r18 sits on my pin: part of their wall ahead of my r0 (my r5), as is their start
    # stack (my r23); their pinned r4 is not (it is under mine).
    assert u[5] == 1
    np.testing.assert_array_equal(u, reference(r))


def test_random_positions_match_the_reference():
    rows, _ = tavli.random_positions(PK, 1500, seed=13)
    x = S.net_inputs(rows, PK, "plakoto2")
    assert any(pins(r, 54) or pins(r, 57) for r in rows)
    for i in range(0, len(rows), 5):
        np.testing.assert_allclose(np.round(x[i, 198:].astype(np.float64) * SCALE, 3), reference(rows[i]),
                                   atol=1e-2, err_msg=f"row {i}: {rows[i].tolist()}")


def test_a_plakoto_net_widens_to_plakoto2_unchanged():
    net = Net("plakoto", 24, seed=5, encoding="plakoto")  # a net on the game's own units
    wide = S.widen(net, "plakoto2")
    assert wide.encoding == "plakoto2" and wide.inputs == 211
    rows, _ = tavli.random_positions(PK, 400, seed=3)
    np.testing.assert_array_equal(wide.evaluate_positions(rows, PK), net.evaluate_positions(rows, PK))
