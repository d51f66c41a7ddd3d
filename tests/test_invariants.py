"""Invariants under seeded random play (Fevga and Moultezim, defaults and flags).

Every expectation here comes from the rules (RULES.md §1, §6, §7.1) or from round-trip identities,
never from the engine's own output: 15 checkers a side, no point held by both sides (parallel
movement: my point r is the opponent's (r + 12) % 24), each step of a play moves one of the mover's
checkers forward by one die of the roll onto a point the opponent does not hold (bearing off only
from a full home board, overshooting only from the farthest checker), the text and array forms
round-trip, push/pop is exact, the turn alternates, and a finished game is scored 2 iff the loser
bore off nothing (§6.7).
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import tavli
from helpers import OFF, make_board

# (variant, options, games): 150 games in all.
CONFIGS = [
    ("fevga", {}, 40),
    ("fevga", {"runner_threshold": 12, "startq_check": "step"}, 10),
    ("fevga", {"opp_start_quarter": "R2a", "unblock": "R3_bkgm_start_of_turn"}, 10),
    ("fevga", {"opp_start_quarter": "R2b", "unblock_priority": "before_max_dice"}, 10),
    ("fevga", {"opp_start_quarter": "R2c", "unblock": "none", "startq_check": "off"}, 10),
    ("moultezim", {}, 20),
    ("moultezim", {"primes": "R1"}, 20),
    ("moultezim", {"primes": "none", "runner_threshold": 12}, 20),
]
MAX_PLIES = 2000  # random Fevga games last ~95 plies (RULES.md §12); far more means a loop


def _cfg_id(cfg):
    variant, options, games = cfg
    opts = ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"
    return f"{variant}[{opts}]x{games}"


# --- independent checks ------------------------------------------------------------------------


def opp_holds(opponent: list[int], r: int) -> bool:
    """Does the opponent hold my point r? (parallel movement: his index is (r + 12) % 24)"""
    return opponent[(r + 12) % 24] > 0


def assert_valid_counts(mover, opponent, bar, off, where=""):
    assert len(mover) == 24 and len(opponent) == 24, where
    assert min(mover) >= 0 and min(opponent) >= 0, f"{where}: negative count"
    assert max(mover) <= 15 and max(opponent) <= 15, f"{where}: count above 15"
    assert bar == [0, 0], f"{where}: nothing is ever hit in these games, bar = {bar}"
    assert sum(mover) + bar[0] + off[0] == 15, f"{where}: mover has {sum(mover) + off[0]} checkers"
    assert sum(opponent) + bar[1] + off[1] == 15, f"{where}: opponent has {sum(opponent) + off[1]} checkers"
    shared = [r for r in range(24) if mover[r] and opponent[(r + 12) % 24]]
    assert not shared, f"{where}: points {shared} (mover's frame) held by both sides"


def dice_list(dice):
    d1, d2 = dice
    return [d1] * 4 if d1 == d2 else [d1, d2]


def simulate(mover, opponent, off, steps, dice):
    """Applies the steps by the rules alone; returns (counts, off) or raises AssertionError.

    Each step must move one of the mover's checkers by a die still unused, forward, onto a point
    the opponent does not hold; a bear-off needs every checker in the home board r 18..23 and, with
    a die larger than needed, no checker farther from home (RULES.md §1.5). Dice are matched to
    steps by search, so an overshooting bear-off may use either of two large dice.
    """
    assert len(steps) <= len(dice_list(dice)), f"{len(steps)} steps for the roll {dice}"

    def go(i, counts, off, remaining):
        if i == len(steps):
            return counts, off
        f, t = steps[i]
        if not (0 <= f <= 23 and f < t <= OFF) or counts[f] == 0:
            return None
        candidates = []
        if t < OFF:
            if (t - f) in remaining and not opp_holds(opponent, t):
                candidates.append(t - f)
        elif sum(counts[:18]) == 0:  # bearing off: all checkers home
            need = OFF - f
            if need in remaining:
                candidates.append(need)
            if sum(counts[18:f]) == 0:  # f is the farthest checker: a larger die may remove it
                candidates += sorted({d for d in remaining if d > need})
        for d in candidates:
            c = list(counts)
            c[f] -= 1
            if t < OFF:
                c[t] += 1
            rest = list(remaining)
            rest.remove(d)
            out = go(i + 1, c, off + (t == OFF), rest)
            if out is not None:
                return out
        return None

    out = go(0, list(mover), off, dice_list(dice))
    assert out is not None, f"steps {steps} are not a rule-abiding sequence for {dice}"
    return out


def test_simulate_follows_the_rules():
    """The independent step checker itself, on hand-worked cases (RULES.md §1.5, §6.2, §10 F19)."""

    def c(d):
        out = [0] * 24
        for r, n in d.items():
            out[r] = n
        return out

    f19 = c({19: 2, 22: 1}), c({0: 12, 5: 3})  # O's r5 is X's r17
    assert simulate(*f19, 12, [(19, OFF), (19, 23)], (6, 4)) == (c({22: 1, 23: 1}), 13)
    with pytest.raises(AssertionError):  # 4 cannot bear off r22 while r19 is occupied
        simulate(*f19, 12, [(22, OFF)], (6, 4))
    with pytest.raises(AssertionError):  # no checker there
        simulate(*f19, 12, [(18, 22)], (6, 4))
    mid = c({0: 14, 4: 1}), c({0: 14, 5: 1})
    with pytest.raises(AssertionError):  # r12 is the opponent's start point
        simulate(*mid, 0, [(4, 10), (10, 12)], (6, 2))
    with pytest.raises(AssertionError):  # r17 holds the opponent's runner
        simulate(c({0: 14, 11: 1}), mid[1], 0, [(11, 17)], (6, 6))
    with pytest.raises(AssertionError):  # bearing off with a checker outside the home board
        simulate(c({17: 1, 23: 1}), c({0: 15}), 13, [(23, OFF)], (1, 2))
    with pytest.raises(AssertionError):  # a die the roll does not have
        simulate(*mid, 0, [(4, 7)], (6, 5))
    with pytest.raises(AssertionError):  # three steps for a non-double
        simulate(*mid, 0, [(4, 5), (5, 6), (6, 7)], (1, 2))
    assert simulate(*mid, 0, [(4, 5), (5, 6), (6, 7), (7, 8)], (1, 1)) == (c({0: 14, 8: 1}), 0)


def check_position(b: tavli.Board, variant: str, options: dict) -> None:
    d = b.to_dict()
    where = f"position {b.id()}"
    assert d["variant"] == variant and d["options"] == options and d["turn"] == b.turn
    assert_valid_counts(d["mover"], d["opponent"], d["bar"], d["off"], where)
    assert d["off"][0] < 15, f"{where}: the side to move has already borne off all its checkers"

    # Text and array forms round-trip.
    for label, other in (
        ("from_id", tavli.Board.from_id(b.id())),
        ("from_dict", tavli.Board.from_dict(d)),
        ("from_array", tavli.Board.from_array(b.to_array(), variant, **options)),
        ("pickle", pickle.loads(pickle.dumps(b))),
        ("repr", eval(repr(b), {"tavli": tavli})),
        ("copy", copy.copy(b)),
        ("deepcopy", copy.deepcopy(b)),
    ):
        assert isinstance(other, tavli.Board), label
        assert other == b, f"{label} of {where}"
        assert other.id() == b.id(), f"{label} of {where}"
        assert other.to_dict() == d, f"{label} of {where}"
        assert hash(other) == hash(b), f"{label} of {where}"
        assert np.array_equal(other.to_array(), b.to_array()), f"{label} of {where}"
    assert b.outcome() is None and not b.is_game_over()


def check_plays(b: tavli.Board, dice) -> tuple[list, set]:
    plays = b.legal_plays(dice)
    d = b.to_dict()
    where = f"{b.id()} {dice}"
    assert len(plays) >= 1, f"{where}: a side that cannot move gets one empty play"
    assert b.count_plays(dice) == len(plays), where
    nsteps = {len(p.steps) for p in plays}
    assert len(nsteps) == 1, f"{where}: plays use different numbers of steps {nsteps}"
    if nsteps == {0}:
        assert len(plays) == 1 and str(plays[0]) == "pass", where
    keys = [p.result_key for p in plays]
    assert len(set(keys)) == len(plays), f"{where}: two plays with the same result"

    results = []
    for p in plays:
        assert tuple(p.dice) == tuple(dice), where
        assert len(p) == len(p.steps)
        counts, off = simulate(d["mover"], d["opponent"], d["off"][0], p.steps, dice)
        assert_valid_counts(counts, d["opponent"], [0, 0], [off, d["off"][1]], f"{where} after {p}")
        results.append((tuple(counts), off))

        text = str(p)
        q = b.parse_play(text, dice)
        assert q.result_key == p.result_key, f"{where}: {text!r} parses to {q}"
        f = b.find_play(p.steps, dice)
        assert f == p and f.result_key == p.result_key, f"{where}: steps {p.steps} give {f}"
    assert len(set(results)) == len(plays), f"{where}: two plays lead to the same checkers"
    return plays, set(results)


def check_batch(variant, options, seen):
    """One batch call over every (position, roll) of a game finds, row by row, the positions the
    plays' steps lead to (seen: (board dict, row, dice, results from the steps))."""
    rows = np.array([row for _, row, _, _ in seen], np.uint8)
    dice = np.array([d for _, _, d, _ in seen], np.int64)
    counts, offsets, out = tavli.batch_legal_plays(rows, dice, variant, return_positions=True, threads=2, **options)
    assert counts.tolist() == [len(r) for _, _, _, r in seen]
    assert offsets[0] == 0 and offsets[-1] == len(out) and (np.diff(offsets) == counts).all()
    for i, (d, _, roll, results) in enumerate(seen):
        where = f"batch row {i} {roll}"
        batch = set()
        for row in out[offsets[i] : offsets[i + 1]]:
            assert int(row[52]) == 1 - d["turn"], where
            m, o = [int(x) for x in row[0:24]], [int(x) for x in row[24:48]]
            assert m == d["opponent"] and int(row[50]) == d["off"][1], f"{where}: the waiting side moved"
            assert_valid_counts(m, o, [int(row[48]), int(row[49])], [int(row[50]), int(row[51])], where)
            batch.add((tuple(o), int(row[51])))
        assert batch == results, f"{where}: batch results differ from the plays' steps"


def check_push_pop(b: tavli.Board, p, dice) -> None:
    before_id, before_dict, before_ply = b.id(), b.to_dict(), b.ply
    counts, off = simulate(before_dict["mover"], before_dict["opponent"], before_dict["off"][0], p.steps, dice)
    b.push(p)
    after = b.to_dict()
    assert b.turn == 1 - before_dict["turn"], "the turn alternates"
    assert b.ply == before_ply + 1 and b.move_stack[-1] == p
    assert after["mover"] == before_dict["opponent"], "the side that waited is to move, unchanged"
    assert after["opponent"] == list(counts) and after["off"] == [before_dict["off"][1], off]
    assert b.pop() == p
    assert b.id() == before_id and b.to_dict() == before_dict and b.ply == before_ply


def play_game(variant: str, options: dict, seed: int) -> int:
    rng = tavli.Rng(seed)
    b = tavli.Board(variant, **options)
    seen = []
    for ply in range(MAX_PLIES):
        check_position(b, variant, options)
        dice = rng.roll()
        plays, results = check_plays(b, dice)
        seen.append((b.to_dict(), b.to_array(), dice, results))
        p = plays[rng.below(len(plays))]
        check_push_pop(b, p, dice)
        mover_before, turn_before = b.to_dict(), b.turn
        b.push(p)
        assert b.turn == 1 - turn_before and b.ply == ply + 1 and len(b.move_stack) == ply + 1
        if b.off[1] == 15:  # the side that just moved bore off its 15th checker
            assert mover_before["off"][0] + sum(1 for _, t in p.steps if t == OFF) == 15
            out = b.outcome()
            loser_off = b.off[0]
            points = 2 if loser_off == 0 else 1
            assert out is not None and b.is_game_over(), f"seed {seed}: game over not seen"
            assert out.winner == turn_before, f"seed {seed}: winner {out.winner}, expected {turn_before}"
            assert out.points == points and out.kind == ("double" if points == 2 else "single"), out
            # The final position still round-trips.
            assert tavli.Board.from_id(b.id()).to_dict() == b.to_dict()
            assert tavli.Board.from_dict(b.to_dict()).id() == b.id()
            assert eval(repr(b), {"tavli": tavli}).id() == b.id()
            check_batch(variant, options, seen)
            return ply + 1
        assert b.outcome() is None
    pytest.fail(f"seed {seed}: no end after {MAX_PLIES} plies")


@pytest.mark.parametrize("cfg", CONFIGS, ids=_cfg_id)
def test_random_games(cfg):
    variant, options, games = cfg
    base = 1000 * (CONFIGS.index(cfg) + 1)
    lengths = [play_game(variant, options, base + g) for g in range(games)]
    assert all(n > 0 for n in lengths)


@pytest.mark.slow
@pytest.mark.parametrize("cfg", CONFIGS, ids=_cfg_id)
def test_random_games_more(cfg):
    variant, options, games = cfg
    base = 100000 * (CONFIGS.index(cfg) + 1)
    for g in range(2 * games):
        play_game(variant, options, base + g)


# --- passes --------------------------------------------------------------------------------------

F11 = ({0: 14, 8: 1}, {0: 13, 4: 1, 15: 1})  # RULES.md §10 F11: no legal play for 4-4


@pytest.mark.parametrize("variant", ["fevga", "moultezim"])
def test_pass_swaps_the_sides(variant):
    b = make_board(variant, *F11)
    before = b.to_dict()
    plays = b.legal_plays((4, 4))
    assert len(plays) == 1 and plays[0].steps == [] and len(plays[0]) == 0
    assert str(plays[0]) == "pass"
    assert b.parse_play("pass", (4, 4)).result_key == plays[0].result_key
    assert b.find_play([], (4, 4)) == plays[0]
    nxt = b.play(plays[0])
    after = nxt.to_dict()
    assert after["turn"] == 1 - before["turn"]
    assert after["mover"] == before["opponent"] and after["opponent"] == before["mover"]
    assert after["off"] == before["off"][::-1] and after["bar"] == before["bar"][::-1]
    assert b.to_dict() == before, "play() leaves the board unchanged"
    b.push(plays[0])
    assert b.to_dict() == after
    b.pop()
    assert b.to_dict() == before


@pytest.mark.parametrize("variant", ["fevga", "moultezim"])
@pytest.mark.parametrize("turn", [0, 1])
def test_flip_twice_is_identity(variant, turn):
    """Both runners sit four short of the other's start stack (X r8 + 4 = r12 is O's r0, and the
    same for O), and the runner rule freezes both stacks: with 4-4 each side must pass, and two
    passes give back the very same position."""
    b = make_board(variant, {0: 14, 8: 1}, {0: 14, 8: 1}, turn=turn)
    start_id, start = b.id(), b.to_dict()
    for _ in range(2):
        plays = b.legal_plays((4, 4))
        assert [p.steps for p in plays] == [[]], "both sides are blocked for 4-4"
        before = b.to_dict()
        b.push(plays[0])
        after = b.to_dict()
        assert after["mover"] == before["opponent"] and after["opponent"] == before["mover"]
        assert after["turn"] == 1 - before["turn"]
    assert b.id() == start_id and b.to_dict() == start
    assert b.ply == 2
    b.pop()
    b.pop()
    assert b.id() == start_id and b.ply == 0


# --- the random number generator -----------------------------------------------------------------


def test_rng_is_deterministic():
    a, b, c = tavli.Rng(12345), tavli.Rng(12345), tavli.Rng(12346)
    seq_a = [a.roll() for _ in range(200)]
    seq_b = [b.roll() for _ in range(200)]
    seq_c = [c.roll() for _ in range(200)]
    assert seq_a == seq_b
    assert seq_a != seq_c
    assert all(1 <= x <= 6 and 1 <= y <= 6 for x, y in seq_a)
    assert [tavli.Rng(7).below(1000) for _ in range(3)] == [tavli.Rng(7).below(1000)] * 3
    r1, r2 = tavli.Rng(99), tavli.Rng(99)
    assert [r1.below(n) for n in range(1, 300)] == [r2.below(n) for n in range(1, 300)]
    assert tavli.Rng().roll() == tavli.Rng(0).roll()  # the default seed is 0
    assert tavli.Rng.derive(1, 2) == tavli.Rng.derive(1, 2) != tavli.Rng.derive(1, 3)


def chi_square(counts, expected):
    return sum((o - e) ** 2 / e for o, e in zip(counts, expected))


@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1])
def test_rng_dice_are_uniform(seed):
    rng = tavli.Rng(seed)
    n = 60000
    first, second = [0] * 6, [0] * 6
    pairs = [0] * 36
    for _ in range(n):
        x, y = rng.roll()
        first[x - 1] += 1
        second[y - 1] += 1
        pairs[6 * (x - 1) + (y - 1)] += 1
    # 5 degrees of freedom: P(chi2 > 25) is about 1.4e-4.
    assert chi_square(first, [n / 6] * 6) < 25, first
    assert chi_square(second, [n / 6] * 6) < 25, second
    # The two dice are independent: 35 degrees of freedom, P(chi2 > 80) is about 2e-5.
    assert chi_square(pairs, [n / 36] * 36) < 80, pairs


def test_rng_below_is_in_range_and_uniform():
    rng = tavli.Rng(2024)
    n = 35000
    counts = [0] * 7
    for _ in range(n):
        v = rng.below(7)
        assert 0 <= v < 7
        counts[v] += 1
    assert chi_square(counts, [n / 7] * 7) < 28  # 6 degrees of freedom, P about 1e-4
    assert all(rng.below(1) == 0 for _ in range(100))
