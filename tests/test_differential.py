"""The C++ generator against the pure-Python reference of tests/oracle/ (written from RULES.md,
not from the C++), on seeded (position, roll) pairs, under the defaults and every flag setting.

Two position sources per setting: positions from seeded uniform-random games, and constructed
positions biased towards the situations the flags are about (stacks and walls in the starting
quarters, bear-offs, boxed runners), which random games rarely reach."""

from __future__ import annotations

import numpy as np
import pytest

import tavli
from oracle import fevga as ref

SETTINGS = [
    ("fevga", {}),
    ("fevga", {"runner_threshold": 12}),
    ("fevga", {"startq_check": "step"}),
    ("fevga", {"startq_check": "off"}),
    ("fevga", {"opp_start_quarter": "R2a"}),
    ("fevga", {"opp_start_quarter": "R2b"}),
    ("fevga", {"opp_start_quarter": "R2c"}),
    ("fevga", {"unblock": "R3_bkgm_start_of_turn"}),
    ("fevga", {"unblock": "none"}),
    ("fevga", {"unblock_priority": "before_max_dice"}),
    ("fevga", {"unblock": "R3_bkgm_start_of_turn", "unblock_priority": "before_max_dice"}),
    ("moultezim", {}),
    ("moultezim", {"primes": "R1"}),
    ("moultezim", {"primes": "R1", "startq_check": "step"}),
    ("moultezim", {"primes": "none", "runner_threshold": 12}),
    ("moultezim", {"unblock": "R4_result"}),
]

GAME_PAIRS = 1200
CONSTRUCTED_PAIRS = 1000


def constructed_rows(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Random legal positions (parallel movement, no shared points), biased to walls and stacks."""
    rng = np.random.default_rng(seed)
    rows = np.zeros((n, tavli.ROW_BYTES), dtype=np.uint8)
    dice = rng.integers(1, 7, size=(n, 2))
    hot = np.array([0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17, 18])
    for i in range(n):
        while True:
            m = np.zeros(24, dtype=int)
            o_mine = np.zeros(24, dtype=int)  # opponent's checkers, in the mover's frame
            kind = rng.integers(0, 4)
            m_off = 0 if kind < 3 else int(rng.integers(0, 15))
            o_off = 0 if kind != 2 else int(rng.integers(0, 15))
            if kind == 3:  # the mover is bearing off or nearly so
                pts_m = rng.choice(np.arange(14, 24), size=rng.integers(1, 6), replace=False)
            elif kind == 1:  # stacks and walls in the quarters the prime rules watch
                pts_m = rng.choice(hot, size=rng.integers(4, 9), replace=False)
            else:
                pts_m = rng.choice(24, size=rng.integers(1, 10), replace=False)
            if rng.random() < 0.5:
                pts_m = np.union1d(pts_m, [0])
            free = np.setdiff1d(np.arange(24), pts_m)
            pts_o = rng.choice(free, size=min(len(free), int(rng.integers(1, 9))), replace=False)
            if rng.random() < 0.5 and 12 in free:
                pts_o = np.union1d(pts_o, [12])  # the opponent's start stack
            for pts, arr, total in ((pts_m, m, 15 - m_off), (pts_o, o_mine, 15 - o_off)):
                if total == 0:
                    continue
                if total < len(pts):
                    pts = rng.choice(pts, size=total, replace=False)
                share = rng.multinomial(total - len(pts), np.ones(len(pts)) / len(pts)) + 1
                arr[pts] = share
            if (m > 15).any() or (o_mine > 15).any() or m.sum() + m_off != 15 or o_mine.sum() + o_off != 15:
                continue
            o = np.roll(o_mine, -12)  # opponent's own frame: his r' is my (r' + 12) % 24
            rows[i, 0:24] = m
            rows[i, 24:48] = o
            rows[i, 50] = m_off
            rows[i, 51] = o_off
            break
    return rows, dice


def engine_results(variant, options, rows, dice):
    counts, offsets, out = tavli.batch_legal_plays(rows, dice, variant, return_positions=True, **options)
    res = []
    for i in range(len(rows)):
        chunk = out[offsets[i] : offsets[i + 1]]
        # Result rows have the other side to move: the old mover is now the opponent.
        res.append({(tuple(int(x) for x in r[24:48]), int(r[51])) for r in chunk})
        assert len(res[-1]) == counts[i], f"row {i}: duplicate results"
    return res


def compare(variant, options, rows, dice, label):
    got = engine_results(variant, options, rows, dice)
    mismatches = []
    for i, row in enumerate(rows):
        want = ref.legal_plays(
            [int(x) for x in row[0:24]],
            [int(x) for x in row[24:48]],
            int(row[50]),
            int(row[51]),
            (int(dice[i][0]), int(dice[i][1])),
            variant,
            options,
        )
        if set(want) != got[i]:
            mismatches.append((i, row, tuple(dice[i]), sorted(set(want) ^ got[i])[:3]))
    assert not mismatches, f"{label}: {len(mismatches)} of {len(rows)} differ; first: {mismatches[0]}"


def valid_rows(variant, options, rows, dice):
    """Drops constructed rows whose game is already over (the engine refuses them)."""
    keep = [i for i in range(len(rows)) if rows[i, 50] < 15 and rows[i, 51] < 15]
    return rows[keep], dice[keep]


@pytest.mark.parametrize("variant, options", SETTINGS, ids=[f"{v}-{o}" for v, o in SETTINGS])
def test_random_games_agree_with_reference(variant, options):
    rows, dice = tavli.random_positions(variant, GAME_PAIRS, seed=20261130, **options)
    compare(variant, options, rows, dice, "random games")


@pytest.mark.parametrize("variant, options", SETTINGS, ids=[f"{v}-{o}" for v, o in SETTINGS])
def test_constructed_positions_agree_with_reference(variant, options):
    rows, dice = valid_rows(variant, options, *constructed_rows(CONSTRUCTED_PAIRS, seed=7))
    assert len(rows) > 0.9 * CONSTRUCTED_PAIRS
    compare(variant, options, rows, dice, "constructed positions")
