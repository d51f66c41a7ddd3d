"""The "expert4" encoding's mobility units (cpp/include/tavli/mobility_features.h): escapes within
the 12 pips a roll reaches, hand-counted on a few positions and checked on seeded random positions
against a walk over the 21 rolls written from the header's definition (not from the C++), plus the
encoding's frame: its first 239 units are "expert3"'s, and an "expert3" net widens to it unchanged."""

from __future__ import annotations

import numpy as np
import pytest

import tavli
from helpers import mover_row as row
from tavli import supervised as S

BG = "backgammon"


def units(r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = S.net_inputs(r[None], BG, "expert4")[0]
    assert x.shape == (251,)
    np.testing.assert_array_equal(x[:239], S.net_inputs(r[None], BG, "expert3")[0])
    return x[239:245], x[245:251]  # the mover's six units, then the opponent's


def escapes(start: int, blocks: set[int], past: bool = False) -> int:
    """Rolls of 36 that move a checker on `start` (-1: the bar) its whole roll: (a, b), a >= b, lands
    on start + a + b open through start + a or start + b open; a double counts two steps. With
    `past`, only those landing beyond the nearest block within 12 pips (36 if there is none)."""
    near = [d for d in range(1, 13) if start + d in blocks]
    if past and not near:
        return 36
    count = 0
    for a in range(1, 7):
        for b in range(1, a + 1):
            land = start + a + b
            if land in blocks or (start + a in blocks and start + b in blocks):
                continue
            if past and a + b <= near[0]:
                continue
            count += 1 if a == b else 2
    return count


def reference(r: np.ndarray) -> np.ndarray:
    out = []
    for s in (0, 1):
        me, them = (r[:24], r[24:48]) if s == 0 else (r[24:48], r[:24])
        me_bar, them_bar = int(r[48 + s]), int(r[49 - s])
        blocks = {23 - k for k in range(24) if them[k] >= 2}    # them's points, in my route
        mine = {23 - k for k in range(24) if me[k] >= 2}        # mine, in them's route
        points = [-1] * me_bar + [k for k in range(24) for _ in range(int(me[k]))]
        rear = min(points) if points else None
        out += [escapes(rear, blocks) / 36 if rear is not None else 0.0,
                escapes(rear, blocks, past=True) / 36 if rear is not None else 0.0]
        starts = range(-1, 10)
        fewest = min(escapes(q, mine) for q in starts)
        out += [(36 - fewest) / 36, ((36 - fewest) / 36) ** 2]
        held = [escapes(q, mine) for q in starts if (them_bar if q < 0 else them[q]) > 0]
        out.append((36 - min(held)) / 36 if held else 0.0)
        outside = [p for p in points if p < 18]
        out.append(np.mean([escapes(p, blocks) for p in outside]) / 36 if outside else 1.0)
    return np.array(out)


def test_the_opening_position():
    # From my 24-point (r 0) their points lie 5, 7 and 12 pips ahead (their 6-, 8- and mid point):
    # sums 5 (4-1, 3-2), 7 (6-1, 5-2, 4-3) and 12 (6-6) land on them, 5-5 cannot start: 12 of 36.
    me, op = units(tavli.Board(BG).to_array())
    assert me[0] == pytest.approx(24 / 36) and op[0] == pytest.approx(24 / 36)
    # Past the nearest block (5 pips): sums of 6 and more that land open: 6-5, 6-4, 6-3, 6-2 (8),
    # 5-4, 5-3 (4), 3-3, 4-4 (2), 5-1, 4-2 (4), but 6-6 lands on the mid point: 18.
    assert me[1] == pytest.approx(18 / 36)


def test_a_wall_in_front_holds_the_checker_and_a_far_point_costs_one_roll():
    # Their six-point prime on my r 1..6 right in front of my checker on r 0: no roll moves it.
    prime = {22 - k: 2 for k in range(6)}  # their r 22..17 = my r 1..6
    me, op = units(row({0: 1, 18: 14}, {**prime, 12: 3}))
    assert me[0] == 0 and me[1] == 0
    assert op[2] == 1.0 and op[3] == 1.0 and op[4] == 1.0  # they contain my checker completely
    # A single point of theirs 12 pips ahead of my rearmost: only 6-6 lands there.
    me, _ = units(row({0: 2, 23: 13}, {11: 2}))
    assert me[0] == pytest.approx(35 / 36)
    # The bar against a closed board: nothing enters.
    me, _ = units(row({23: 14}, {18 + k: 2 for k in range(6)} | {12: 3}, me_bar=1))
    assert me[0] == 0


def test_units_match_a_walk_over_the_rolls():
    rows, _ = tavli.random_positions(BG, 300, seed=23)
    x = S.net_inputs(rows, BG, "expert4")[:, 239:]
    assert len(np.unique(x[:, 2])) > 5  # containment takes many values ("expert3"'s is mostly 1)
    for r, u in zip(rows, x):
        np.testing.assert_allclose(u, reference(r), atol=1e-6)


def test_an_expert3_net_widens_to_expert4_unchanged():
    net = tavli.nn.shipped(BG)
    wide = S.widen(net, "expert4")
    assert wide.encoding == "expert4" and wide.inputs == 251
    rows, _ = tavli.random_positions(BG, 200, seed=6)
    np.testing.assert_allclose(tavli.evaluate_batch(rows, BG, evaluator=wide),
                               tavli.evaluate_batch(rows, BG, evaluator=net), atol=1e-6)
