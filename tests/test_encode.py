"""tavli.encode: feature encodings for learning, checked against an independent reference.

The reference encoder below is written only from the comment at the top of
cpp/include/tavli/encode.h (the spec) and the row layout at the top of
cpp/include/tavli/position.h; it is deliberately simple and slow (pure Python, one row at a time)
and does not look at the C++ implementation. Reading of the spec used here:

  * each side is encoded in its own frame (route index r = 0..23), mover first, then opponent;
  * "pinned" (plakoto) is bit r of that side's OWN pinned mask (its checker on r is pinned);
    "mother pinned" is bit 0 of that side's mask (with its one checker on r0);
  * "block": the runner-phase unit is 1 only in Fevga and Moultezim, for a side with no checker on
    r >= runner_threshold and none off; the first-turn unit is that side's first-turn flag (row
    byte 53, bit 0 mover, bit 1 opponent) in Narde only; both units are 0 in every other game;
  * "block" and "plakoto" have no bar units (bar checkers are simply not encoded there);
  * [white to move, black to move] comes from row byte 52 (0 white, 1 black);
  * the optional 21 roll units follow everything else: a one-hot at the index of the roll among
    1-1, 2-1, 2-2, 3-1, 3-2, 3-3, ..., 6-6 (high die first; (a, b) is the same roll as (b, a)).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import tavli
from helpers import make_board

ROW = tavli.ROW_BYTES
VARIANTS = ["backgammon", "portes", "tavla", "plakoto", "fevga", "moultezim", "narde",
            "jacquet", "tawla31", "nackgammon", "hypergammon"]
DEFAULT_ENCODING = {
    "backgammon": "tesauro",
    "portes": "tesauro",
    "tavla": "tesauro",
    "plakoto": "plakoto",
    "fevga": "block",
    "moultezim": "block",
    "narde": "block",
    "jacquet": "block",
    "tawla31": "block",
    "nackgammon": "tesauro",
    "hypergammon": "tesauro",
}
ENCODINGS = ["tesauro", "plakoto", "block"]
SIZE = {"tesauro": 198, "plakoto": 198, "block": 152}
RUNNER_GAMES = {"fevga", "moultezim", "jacquet", "tawla31"}
DEFAULT_THRESHOLD = {"jacquet": 18, "tawla31": 18}  # RULES-KIN.md K-RUNNER; Fevga/Moultezim 13
N_RANDOM = 600  # >= 500 positions per configuration
CONFIGS = [(v, {}) for v in VARIANTS] + [
    ("fevga", {"runner_threshold": 12}),
    ("moultezim", {"runner_threshold": 12}),
]


def _cfg_id(cfg):
    v, opts = cfg
    return v + "".join(f"-{k}={val}" for k, val in opts.items())


# --- the reference encoder (from the encode.h comment only) ------------------------------------


def ref_roll_index(d1: int, d2: int) -> int:
    """1-1 -> 0, 2-1 -> 1, 2-2 -> 2, 3-1 -> 3, ..., 6-5 -> 19, 6-6 -> 20."""
    hi, lo = max(d1, d2), min(d1, d2)
    index = 0
    for h in range(1, 7):
        for low in range(1, h + 1):
            if (h, low) == (hi, lo):
                return index
            index += 1
    raise AssertionError(f"not a roll: {d1}-{d2}")


def read_row(row) -> dict:
    """The fields of one 64-byte row (position.h)."""
    b = [int(x) for x in row]
    assert len(b) == ROW
    sides = []
    for s in (0, 1):
        pin_bytes = b[54 + 3 * s : 57 + 3 * s]
        pins = pin_bytes[0] | (pin_bytes[1] << 8) | (pin_bytes[2] << 16)
        sides.append(
            {
                "n": b[24 * s : 24 * s + 24],
                "bar": b[48 + s],
                "off": b[50 + s],
                "pinned": [bool((pins >> r) & 1) for r in range(24)],
                "first_turn": bool((b[53] >> s) & 1),
            }
        )
    return {"sides": sides, "to_move": b[52]}


def ref_encode(row, variant: str, encoding: str, dice=None, runner_threshold: int = 13) -> list[float]:
    pos = read_row(row)
    units: list[float] = []
    for side in pos["sides"]:
        n = side["n"]
        for r in range(24):
            c = n[r]
            if encoding == "tesauro":
                units += [c >= 1, c >= 2, c >= 3, (c - 3) / 2 if c > 3 else 0.0]
            elif encoding == "plakoto":
                units += [c >= 1, c >= 2, (c - 2) / 13 if c > 2 else 0.0, side["pinned"][r]]
            elif encoding == "block":
                units += [c >= 1, c >= 2, (c - 2) / 13 if c > 2 else 0.0]
            else:
                raise AssertionError(encoding)
        if encoding == "tesauro":
            units += [side["bar"] / 2, side["off"] / 15]
        elif encoding == "plakoto":
            units += [side["off"] / 15, side["pinned"][0] and n[0] == 1]
        else:
            in_runner_phase = (
                variant in RUNNER_GAMES
                and side["off"] == 0
                and all(n[r] == 0 for r in range(runner_threshold, 24))
            )
            first_turn = side["first_turn"] if variant == "narde" else False
            units += [side["off"] / 15, in_runner_phase, first_turn]
    units += [pos["to_move"] == 0, pos["to_move"] == 1]
    if dice is not None:
        one_hot = [0.0] * 21
        one_hot[ref_roll_index(int(dice[0]), int(dice[1]))] = 1.0
        units += one_hot
    return [float(u) for u in units]


def ref_encode_batch(rows, variant, encoding, dice=None, runner_threshold=13) -> np.ndarray:
    width = SIZE[encoding] + (21 if dice is not None else 0)
    out = np.empty((len(rows), width), np.float64)
    for i, row in enumerate(rows):
        out[i] = ref_encode(row, variant, encoding, None if dice is None else dice[i], runner_threshold)
    return out


def assert_matches(got: np.ndarray, expected: np.ndarray, rows=None, what=""):
    """float32 values equal to the reference within 1e-6 (they are in fact bit-exact); on failure,
    names the first differing row and units."""
    assert got.dtype == np.float32, got.dtype
    assert got.shape == expected.shape, (got.shape, expected.shape)
    bad = np.argwhere(np.abs(got.astype(np.float64) - expected) > 1e-6)
    if len(bad):
        i = int(bad[0][0])
        cols = [int(c) for c in bad[bad[:, 0] == i][:, 1]]
        detail = f"row bytes {list(map(int, rows[i]))}" if rows is not None else ""
        raise AssertionError(
            f"{what}: {len(set(bad[:, 0].tolist()))} rows differ; first row {i}, units {cols}: "
            f"got {got[i, cols].tolist()}, expected {expected[i, cols].tolist()} {detail}"
        )


# --- data --------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def sample(variant: str, opts: tuple = ()) -> tuple[np.ndarray, np.ndarray]:
    """N_RANDOM positions from seeded random games, plus (for Narde) extra game starts so that
    first-turn states are well represented. Read-only, shared between tests."""
    options = dict(opts)
    rows, dice = tavli.random_positions(variant, N_RANDOM, 20240611, **options)
    if variant == "narde":
        more_rows, more_dice = tavli.random_positions(variant, N_RANDOM, 99, **options)
        keep = (more_rows[:, 53] != 0)
        rows = np.concatenate([rows, more_rows[keep]])
        dice = np.concatenate([dice, more_dice[keep]])
    rows.setflags(write=False)
    dice.setflags(write=False)
    return rows, dice


def runner_threshold_rows(n: int = 400, seed: int = 5) -> np.ndarray:
    """Fevga/Moultezim-valid rows (no shared point; the opponent's r is the mover's (r + 12) % 24)
    whose furthest checker per side is on r11..r14, so that the runner-phase unit depends on the
    threshold (12 or 13). Random games practically never reach these: the opponent's start stack
    sits on the mover's r12."""
    rng = np.random.default_rng(seed)
    rows = np.zeros((n, ROW), np.uint8)
    i = 0
    while i < n:
        row = np.zeros(ROW, np.uint8)
        for s in (0, 1):
            top = int(rng.integers(11, 15))
            row[24 * s + top] += 1
            for r in rng.integers(0, top + 1, size=14):
                row[24 * s + int(r)] += 1
        if any(row[r] and row[24 + (r + 12) % 24] for r in range(24)):
            continue
        row[52] = rng.integers(0, 2)
        rows[i] = row
        i += 1
    return rows


# --- sizes and defaults ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_default_encoding_and_sizes(variant):
    rows, dice = sample(variant)
    default = DEFAULT_ENCODING[variant]
    plain = tavli.encode(rows, variant)
    assert plain.dtype == np.float32 and plain.shape == (len(rows), SIZE[default])
    assert plain.flags.c_contiguous
    np.testing.assert_array_equal(plain, tavli.encode(rows, variant, encoding=default))
    with_dice = tavli.encode(rows, variant, dice=dice)
    assert with_dice.shape == (len(rows), SIZE[default] + 21)
    np.testing.assert_array_equal(with_dice[:, : SIZE[default]], plain)
    for e in ENCODINGS:
        assert tavli.encode(rows[:3], variant, encoding=e).shape == (3, SIZE[e])
        assert tavli.encode(rows[:3], variant, encoding=e, dice=dice[:3]).shape == (3, SIZE[e] + 21)


# --- differential: random positions vs the reference -------------------------------------------


@pytest.mark.parametrize("with_dice", [False, True], ids=["no-dice", "dice"])
@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("cfg", CONFIGS, ids=_cfg_id)
def test_matches_reference_on_random_positions(cfg, encoding, with_dice):
    """Every encoding on every game's rows (the non-default ones too: "block" or "plakoto" on
    backgammon rows simply leave out the bar, "tesauro" on Fevga rows has an empty bar)."""
    variant, opts = cfg
    rows, dice = sample(variant, tuple(sorted(opts.items())))
    assert len(rows) >= 500
    d = dice if with_dice else None
    got = tavli.encode(rows, variant, encoding=encoding, dice=d, **opts)
    expected = ref_encode_batch(rows, variant, encoding, d, opts.get("runner_threshold", DEFAULT_THRESHOLD.get(variant, 13)))
    assert_matches(got, expected, rows, f"{variant} {opts} {encoding} dice={with_dice}")


@pytest.mark.parametrize("cfg", CONFIGS, ids=_cfg_id)
def test_random_samples_exercise_the_features(cfg):
    """The differential test above is only as good as its positions: check they reach the
    features the spec names."""
    variant, opts = cfg
    rows, dice = sample(variant, tuple(sorted(opts.items())))
    r = rows.astype(np.int64)
    assert set(r[:, 52].tolist()) == {0, 1}
    tall = 1 if variant == "hypergammon" else 3  # three checkers a side there: at most 3 on a point
    assert (r[:, :48] > tall).any() and (r[:, 50:52] > 0).any()
    assert len({(max(a, b), min(a, b)) for a, b in dice.tolist()}) == 21
    assert (dice[:, 0] < dice[:, 1]).any() and (dice[:, 0] > dice[:, 1]).any()
    if variant in ("backgammon", "portes", "tavla", "nackgammon", "hypergammon"):
        # (In Hypergammon a hit checker nearly always enters at once: the side NOT to move is
        # hardly ever on the bar.)
        assert (r[:, 48] > 0).any() and ((r[:, 49] > 0).any() or variant == "hypergammon"), "no checker on the bar"
    if variant == "plakoto":
        assert (r[:, 54:57] != 0).any() and (r[:, 57:60] != 0).any(), "no pins"
        assert (r[:, 54] & 1).any() and (r[:, 57] & 1).any(), "no pinned mother"
    if variant == "narde":
        assert (r[:, 53] & 1).any() and (r[:, 53] & 2).any(), "no first-turn states"
        assert (r[:, 53] == 0).any()
    if variant in RUNNER_GAMES:
        block = tavli.encode(rows, variant, **opts)
        for unit in (73, 148):
            assert set(block[:, unit].tolist()) == {0.0, 1.0}


@pytest.mark.parametrize("variant", ["fevga", "moultezim"])
@pytest.mark.parametrize("threshold", [13, 12])
def test_runner_threshold_on_built_positions(variant, threshold):
    rows = runner_threshold_rows()
    for e in ENCODINGS:
        got = tavli.encode(rows, variant, encoding=e, runner_threshold=threshold)
        assert_matches(got, ref_encode_batch(rows, variant, e, None, threshold), rows, f"{variant} {threshold} {e}")
    # The threshold must matter on these rows.
    other = 25 - threshold
    a = tavli.encode(rows, variant, runner_threshold=threshold)
    b = tavli.encode(rows, variant, runner_threshold=other)
    assert (a[:, 73] != b[:, 73]).any() and (a[:, 148] != b[:, 148]).any()


def test_rows_are_independent_and_inputs_untouched():
    rows, dice = sample("backgammon")
    rows_copy, dice_copy = rows.copy(), dice.copy()
    whole = tavli.encode(rows, "backgammon", dice=dice)
    for i in (0, 1, 17, len(rows) - 1):
        np.testing.assert_array_equal(tavli.encode(rows[i : i + 1], "backgammon", dice=dice[i : i + 1])[0], whole[i])
    # Non-contiguous input and Python lists are accepted and give the same values.
    np.testing.assert_array_equal(tavli.encode(rows[::3], "backgammon", dice=dice[::3]), whole[::3])
    np.testing.assert_array_equal(tavli.encode(rows[:5].tolist(), "backgammon", dice=dice[:5].tolist()), whole[:5])
    np.testing.assert_array_equal(rows, rows_copy)
    np.testing.assert_array_equal(dice, dice_copy)


# --- the roll one-hot --------------------------------------------------------------------------


def all_rolls_in_order():
    return [(h, low) for h in range(1, 7) for low in range(1, h + 1)]


def test_roll_one_hot_order():
    rolls = all_rolls_in_order()
    assert rolls[:6] == [(1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3)] and rolls[-1] == (6, 6)
    start = tavli.Board("backgammon").to_array()
    rows = np.repeat(start[None], 2 * len(rolls), axis=0)
    dice = np.array(rolls + [(b, a) for a, b in rolls], np.int64)
    for e in ENCODINGS:
        got = tavli.encode(rows, "backgammon", encoding=e, dice=dice)
        one_hot = got[:, SIZE[e] :]
        assert one_hot.shape == (42, 21)
        expected = np.vstack([np.eye(21, dtype=np.float32)] * 2)  # (a, b) and (b, a) alike
        np.testing.assert_array_equal(one_hot, expected)
        np.testing.assert_array_equal(got[:, : SIZE[e]], tavli.encode(rows, "backgammon", encoding=e))


@pytest.mark.parametrize("roll, index", [((1, 1), 0), ((2, 1), 1), ((1, 2), 1), ((6, 5), 19), ((5, 6), 19), ((6, 6), 20), ((4, 1), 6)])
def test_roll_index_by_hand(roll, index):
    assert ref_roll_index(*roll) == index
    row = tavli.Board("fevga").to_array()[None]
    got = tavli.encode(row, "fevga", dice=np.array([roll]))[0, 152:]
    assert got.sum() == 1.0 and got[index] == 1.0


# --- hand-built boards: facts derived from the spec by hand ------------------------------------


def test_backgammon_start_tesauro_by_hand():
    """Start: each side 2 on r0, 5 on r11, 3 on r16, 5 on r18 (its own frame); White to move."""
    row = tavli.Board("backgammon").to_array()
    assert list(row[:24]) == list(row[24:48])
    assert {r: int(row[r]) for r in range(24) if row[r]} == {0: 2, 11: 5, 16: 3, 18: 5}
    v = tavli.encode(row[None], "backgammon")[0]
    assert v.shape == (198,)
    for base in (0, 98):  # mover, then opponent
        assert v[base + 0 : base + 4].tolist() == [1, 1, 0, 0]  # r0: 2 checkers
        assert v[base + 4 : base + 8].tolist() == [0, 0, 0, 0]  # r1: empty
        assert v[base + 44 : base + 48].tolist() == [1, 1, 1, 1.0]  # r11: 5 -> (5 - 3) / 2
        assert v[base + 64 : base + 68].tolist() == [1, 1, 1, 0]  # r16: 3
        assert v[base + 72 : base + 76].tolist() == [1, 1, 1, 1.0]  # r18: 5
        assert v[base + 96 : base + 98].tolist() == [0, 0]  # bar / 2, off / 15
        assert v[base : base + 96].sum() == 2 + 4 + 3 + 4
    assert v[196:198].tolist() == [1, 0]  # White to move
    assert v.sum() == 2 * 13 + 1
    with_roll = tavli.encode(row[None], "backgammon", dice=np.array([[5, 6]]))[0]
    assert with_roll.shape == (219,)
    np.testing.assert_array_equal(with_roll[:198], v)
    assert np.flatnonzero(with_roll[198:]).tolist() == [19]


def test_backgammon_black_to_move_bar_and_off_by_hand():
    # Black to move; the mover (Black) has 3 on the bar and 2 off; White has 1 on the bar and 7 off.
    b = make_board("backgammon", {-1: 3, 0: 4, 18: 6}, {-1: 1, 20: 7}, turn=1)
    row = b.to_array()
    assert row[52] == 1 and list(row[48:52]) == [3, 1, 2, 7]
    v = tavli.encode(row[None], "backgammon")[0]
    assert v[0:4].tolist() == [1, 1, 1, 0.5]  # 4 checkers: (4 - 3) / 2
    assert v[72:76].tolist() == [1, 1, 1, 1.5]  # 6 checkers
    assert v[96] == 1.5 and v[97] == np.float32(2 / 15)  # bar / 2, off / 15
    assert v[98 + 80 : 98 + 84].tolist() == [1, 1, 1, 2.0]  # opponent's r20: 7 checkers
    assert v[98 + 96] == 0.5 and v[98 + 97] == np.float32(7 / 15)
    assert v[196:198].tolist() == [0, 1]  # Black to move
    block = tavli.encode(row[None], "backgammon", encoding="block")[0]  # accepted: no bar units
    assert block.shape == (152,)
    assert block[0:3].tolist() == [1, 1, np.float32(2 / 13)]
    assert block[72:75].tolist() == [np.float32(2 / 15), 0, 0]  # off, no runner phase, no first turn
    assert block[150:152].tolist() == [0, 1]


def test_fevga_start_block_by_hand():
    row = tavli.Board("fevga").to_array()
    v = tavli.encode(row[None], "fevga")[0]
    assert v.shape == (152,)
    for base in (0, 75):
        assert v[base : base + 3].tolist() == [1, 1, 1.0]  # 15 checkers: (15 - 2) / 13
        assert v[base + 3 : base + 72].sum() == 0
        assert v[base + 72 : base + 75].tolist() == [0, 1, 0]  # off, runner phase, first turn
    assert v[150:].tolist() == [1, 0]


@pytest.mark.parametrize("variant", ["fevga", "moultezim"])
def test_runner_phase_by_hand(variant):
    # Mover's runner on r12 (the opponent has left his start, the mover's r12); opponent on his r1.
    for threshold, expected in ((13, 1.0), (12, 0.0)):
        row = make_board(variant, {0: 14, 12: 1}, {1: 15}, runner_threshold=threshold).to_array()
        v = tavli.encode(row[None], variant, runner_threshold=threshold)[0]
        assert v[73] == expected, (threshold, v[72:75])
        assert v[148] == 1.0  # the opponent (all on his r1) is in the runner phase either way
    # A checker off ends the runner phase even with nothing on r >= 13.
    row = make_board(variant, {0: 13, 5: 1}, {1: 15}).to_array()
    assert row[50] == 1
    v = tavli.encode(row[None], variant)[0]
    assert v[72] == np.float32(1 / 15) and v[73] == 0.0


def test_narde_start_block_by_hand():
    row = tavli.Board("narde").to_array()
    assert row[53] == 3  # both sides on their first turn
    v = tavli.encode(row[None], "narde")[0]
    for base in (0, 75):
        assert v[base : base + 3].tolist() == [1, 1, 1.0]
        assert v[base + 72 : base + 75].tolist() == [0, 0, 1]  # off, no runner rule, first turn
    assert v[150:].tolist() == [1, 0]
    # Only the mover's first turn left; then only the opponent's.
    for first_turn, units in (((True, False), (1, 0)), ((False, True), (0, 1))):
        row = make_board("narde", {0: 15}, {0: 15}, first_turn=first_turn).to_array()
        v = tavli.encode(row[None], "narde")[0]
        assert (v[74], v[149]) == units


def test_plakoto_start_and_pins_by_hand():
    row = tavli.Board("plakoto").to_array()
    v = tavli.encode(row[None], "plakoto")[0]
    assert v.shape == (198,)
    for base in (0, 98):
        assert v[base : base + 4].tolist() == [1, 1, 1.0, 0]
        assert v[base + 96 : base + 98].tolist() == [0, 0]
    assert v[196:].tolist() == [1, 0]
    # The mover's mother (its one checker left on r0) is pinned by the opponent's checker on his
    # r23; the mover pins an opponent checker on the opponent's r10 (the mover's r13) with his own.
    b = make_board("plakoto", {0: 1, 13: 1, 5: 13}, {23: 1, 10: 1, 20: 13}, pinned=((0,), (10,)))
    row = b.to_array()
    assert row[54] == 1 and row[57:60].tolist() == [0, 4, 0]
    v = tavli.encode(row[None], "plakoto")[0]
    assert v[0:4].tolist() == [1, 0, 0, 1]  # mover r0: one checker, pinned
    assert v[52:56].tolist() == [1, 0, 0, 0]  # mover r13: the pinning checker is not pinned
    assert v[20:24].tolist() == [1, 1, np.float32(11 / 13), 0]  # mover r5: 13 checkers
    assert v[96:98].tolist() == [0, 1]  # off, mother pinned
    assert v[98 + 40 : 98 + 44].tolist() == [1, 0, 0, 1]  # opponent r10: pinned
    assert v[98 + 92 : 98 + 96].tolist() == [1, 0, 0, 0]  # opponent r23: the pinner
    assert v[98 + 96 : 98 + 98].tolist() == [0, 0]  # the opponent's mother is free
    assert v.sum() == pytest.approx((6 + 11 / 13) + (5 + 11 / 13) + 1, abs=1e-5)
    assert_matches(v[None], ref_encode_batch(row[None], "plakoto", "plakoto"))


@pytest.mark.parametrize("mother", ["state", "at_pin_only", "off"])
def test_plakoto_mother_unit_does_not_depend_on_the_mother_option(mother):
    b = make_board("plakoto", {0: 1, 5: 14}, {23: 1, 10: 13, 20: 1}, pinned=((0,), ()), mother=mother)
    v = tavli.encode(b.to_array()[None], "plakoto", mother=mother)[0]
    assert v[3] == 1.0 and v[97] == 1.0 and v[195] == 0.0


# --- out= --------------------------------------------------------------------------------------


@pytest.mark.parametrize("with_dice", [False, True])
@pytest.mark.parametrize("variant", ["backgammon", "plakoto", "narde"])
def test_out_is_filled_and_returned(variant, with_dice):
    rows, dice = sample(variant)
    rows, dice = rows[:50], dice[:50]
    d = dice if with_dice else None
    width = SIZE[DEFAULT_ENCODING[variant]] + (21 if with_dice else 0)
    out = np.full((50, width), np.nan, np.float32)
    result = tavli.encode(rows, variant, dice=d, out=out)
    assert result is out
    np.testing.assert_array_equal(out, tavli.encode(rows, variant, dice=d))
    # A non-default encoding into its own shape.
    out2 = np.full((50, SIZE["block"] + (21 if with_dice else 0)), -7.0, np.float32)
    assert tavli.encode(rows, variant, dice=d, encoding="block", out=out2) is out2
    np.testing.assert_array_equal(out2, tavli.encode(rows, variant, dice=d, encoding="block"))


def _bad_outs():
    n, f = 8, 198
    ro = np.zeros((n, f), np.float32)
    ro.setflags(write=False)
    return [
        ("float64", np.zeros((n, f))),
        ("float16", np.zeros((n, f), np.float16)),
        ("int32", np.zeros((n, f), np.int32)),
        ("too wide", np.zeros((n, f + 1), np.float32)),
        ("too narrow", np.zeros((n, f - 1), np.float32)),
        ("too many rows", np.zeros((n + 1, f), np.float32)),
        ("too few rows", np.zeros((n - 1, f), np.float32)),
        ("1-d", np.zeros(n * f, np.float32)),
        ("3-d", np.zeros((1, n, f), np.float32)),
        ("with-dice width without dice", np.zeros((n, f + 21), np.float32)),
        ("Fortran order", np.zeros((n, f), np.float32, order="F")),
        ("strided columns", np.zeros((n, 2 * f), np.float32)[:, ::2]),
        ("strided rows", np.zeros((2 * n, f), np.float32)[::2]),
        ("read-only", ro),
        ("a list", [[0.0] * f] * n),
    ]


@pytest.mark.parametrize("label, out", _bad_outs(), ids=[c[0] for c in _bad_outs()])
def test_bad_out_raises(label, out):
    rows, _ = sample("backgammon")
    with pytest.raises(ValueError, match=r"out"):
        tavli.encode(rows[:8], "backgammon", out=out)


def test_out_without_dice_width_when_dice_given_raises():
    rows, dice = sample("backgammon")
    with pytest.raises(ValueError, match=r"out"):
        tavli.encode(rows[:8], "backgammon", dice=dice[:8], out=np.zeros((8, 198), np.float32))


# --- bad input ---------------------------------------------------------------------------------


def _rows(n=8):
    return sample("backgammon")[0][:n].copy()


def _dice(n=8):
    return sample("backgammon")[1][:n].copy()


def _with(arr, idx, value):
    a = arr.astype(np.int64)
    a[idx] = value
    return a


BAD_DICE = [
    ("die 0", lambda: _with(_dice(), (2, 1), 0), r"dice|1\.\.6"),
    ("die 7", lambda: _with(_dice(), (5, 0), 7), r"dice|1\.\.6"),
    ("die -1", lambda: _with(_dice(), (0, 0), -1), r"dice|1\.\.6"),
    ("die 2**40", lambda: _with(_dice(), (1, 0), 2**40), r"dice|1\.\.6"),
    ("shape (8, 3)", lambda: np.ones((8, 3), np.int64), r"dice"),
    ("shape (8, 1)", lambda: np.ones((8, 1), np.int64), r"dice"),
    ("shape (8,)", lambda: np.ones(8, np.int64), r"dice"),
    ("shape (7, 2)", lambda: np.ones((7, 2), np.int64), r"dice"),
    ("shape (9, 2)", lambda: np.ones((9, 2), np.int64), r"dice"),
    ("shape (8, 2, 1)", lambda: np.ones((8, 2, 1), np.int64), r"dice"),
    ("floats", lambda: _dice() + 0.5, r"dice"),
    ("strings", lambda: np.full((8, 2), "3"), r"dice"),
]


@pytest.mark.parametrize("label, make, match", BAD_DICE, ids=[c[0] for c in BAD_DICE])
def test_bad_dice_raise(label, make, match):
    with pytest.raises(ValueError, match=match):
        tavli.encode(_rows(), "backgammon", dice=make())


@pytest.mark.parametrize("name", ["foo", "Tesauro", "BLOCK", "tesauro ", "gnubg"])
def test_bad_encoding_name_raises(name):
    with pytest.raises(ValueError, match=r"encoding"):
        tavli.encode(_rows(), "backgammon", encoding=name)


@pytest.mark.parametrize("name", [5, b"block", ["block"]])
def test_encoding_not_a_string_raises(name):
    with pytest.raises(ValueError, match=r"encoding"):
        tavli.encode(_rows(), "backgammon", encoding=name)


BAD_ROWS = [
    ("1-d", lambda: _rows()[0], r"positions"),
    ("63 columns", lambda: _rows()[:, :63], r"positions"),
    ("65 columns", lambda: np.zeros((8, 65), np.uint8), r"positions"),
    ("3-d", lambda: _rows()[None], r"positions"),
    ("floats", lambda: _rows() + 0.5, r"positions"),
    ("value 256", lambda: _with(_rows(), (0, 60), 256), r"positions|255"),
    ("value -1", lambda: _with(_rows(), (0, 60), -1), r"positions|255"),
    ("None", lambda: None, r"positions"),
    ("16 checkers in row 3", lambda: _with(_rows(), (3, 23), _rows()[3, 23] + 1), r"row 3"),
    ("turn 2 in row 6", lambda: _with(_rows(), (6, 52), 2), r"row 6"),
    ("reserved byte in row 1", lambda: _with(_rows(), (1, 61), 1), r"row 1"),
    ("pins in backgammon row 2", lambda: _with(_rows(), (2, 54), 1), r"row 2"),
    ("first-turn flag in backgammon row 4", lambda: _with(_rows(), (4, 53), 1), r"row 4"),
    ("unknown flag bit in row 5", lambda: _with(_rows(), (5, 53), 4), r"row 5"),
]


@pytest.mark.parametrize("label, make, match", BAD_ROWS, ids=[c[0] for c in BAD_ROWS])
@pytest.mark.parametrize("encoding", [None, "block"])
def test_bad_rows_raise(label, make, match, encoding):
    with pytest.raises(ValueError, match=match):
        tavli.encode(make(), "backgammon", encoding=encoding)
    with pytest.raises(ValueError, match=match):
        tavli.encode(make(), "backgammon", encoding=encoding, dice=_dice())


def _invalid_for_variant(variant, what):
    rows = sample(variant)[0][:4].copy()
    row = rows[2]
    if what == "bar":  # a checker of the mover's moved onto the bar
        r = int(np.flatnonzero(row[:24])[0])
        row[r] -= 1
        row[48] += 1
    elif what == "pins":
        row[54] = 1
    elif what == "first-turn flag":
        row[53] = 1
    return rows


@pytest.mark.parametrize(
    "variant, what, match",
    [
        ("fevga", "bar", r"row 2.*bar"),
        ("fevga", "pins", r"row 2.*pin"),
        ("fevga", "first-turn flag", r"row 2.*first"),
        ("moultezim", "bar", r"row 2.*bar"),
        ("narde", "pins", r"row 2.*pin"),
        ("plakoto", "bar", r"row 2.*bar"),
    ],
)
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_rows_invalid_for_the_variant_raise(variant, what, match, encoding):
    with pytest.raises(ValueError, match=match):
        tavli.encode(_invalid_for_variant(variant, what), variant, encoding=encoding)


def test_bad_variant_and_options_raise():
    with pytest.raises(ValueError, match=r"chess"):
        tavli.encode(_rows(), "chess")
    with pytest.raises(ValueError, match=r"variant"):
        tavli.encode(_rows(), None)
    with pytest.raises(ValueError, match=r"runner_threshold"):
        tavli.encode(_rows(), "backgammon", runner_threshold=12)  # no runner rule there
    fevga = sample("fevga")[0][:4]
    with pytest.raises(ValueError, match=r"runner_threshold"):
        tavli.encode(fevga, "fevga", runner_threshold=11)


# --- empty batches -----------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_empty_batch_without_dice(encoding):
    got = tavli.encode(np.zeros((0, ROW), np.uint8), "backgammon", encoding=encoding)
    assert got.shape == (0, SIZE[encoding]) and got.dtype == np.float32


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_empty_batch_with_dice_has_the_roll_units(encoding):
    """BUG: with dice of shape (0, 2) the result has F = SIZE (no roll units) instead of SIZE + 21,
    and a matching out=(0, SIZE + 21) array is refused; the width must not depend on N."""
    rows = np.zeros((0, ROW), np.uint8)
    dice = np.zeros((0, 2), np.int64)
    got = tavli.encode(rows, "backgammon", encoding=encoding, dice=dice)
    assert got.shape == (0, SIZE[encoding] + 21)
    out = np.zeros((0, SIZE[encoding] + 21), np.float32)
    assert tavli.encode(rows, "backgammon", encoding=encoding, dice=dice, out=out) is out
