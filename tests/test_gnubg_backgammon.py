"""Backgammon legal plays against GNU Backgammon's own move generator (PyPI package `gnubg-nn`,
a binding of gnubg's GenerateMoves).

Skipped when gnubg-nn is not installed (``pip install gnubg-nn``) and, for the comparisons, when
the engine has no "backgammon" variant.

gnubg-nn facts this file relies on (checked by the conversion tests below):

* A board is ``[[25 ints], [25 ints]]`` (gnubg's anBoard[2][25]); ``board[1]`` is the side ON ROLL,
  ``board[0]`` its opponent. Each side counts in its own frame: index i is that side's point i + 1
  (index 0 = its 1-point, 23 = its 24-point), index 24 its bar. Borne-off checkers are not stored
  (15 minus the rest). In tavli's route index r (RULES.md §1.1, n = 24 - r): i = 23 - r for
  either side, each in its own frame.
* ``moves(board, d1, d2)`` returns a tuple of position keys (20-char strings), one per distinct
  resulting position (gnubg's SaveMoves drops a play whose key is already in the list), NOT swapped:
  ``board_from_position_key(key)`` gives ``(board[0], board[1])`` after the play, ``[1]`` still the
  side that just moved, a hit checker on ``[0][24]``. With ``verbose=1`` each entry is
  ``(key, ((from, to), ...))`` in gnubg's 1-based points (25 = bar, 0 = off).
* When the roll cannot be played at all, ``moves`` returns ``()``; tavli returns one empty play
  (the unchanged position), so an empty gnubg answer stands for {the position itself}.

Common representation of a position (``Canon``), from the side that was on roll:
``(mover counts by r, mover bar, mover off, opponent counts by its r', opponent bar, opponent off)``.
"""

from __future__ import annotations

import numpy as np
import pytest

try:  # a missing or unloadable gnubg-nn (ImportError, not only ModuleNotFoundError) skips
    import gnubg_nn as gnubg
except ImportError as e:
    pytest.skip(f"gnubg-nn not usable ({e}); pip install gnubg-nn", allow_module_level=True)

import tavli  # noqa: E402

HAS_BACKGAMMON = "backgammon" in tavli.variants()
needs_backgammon = pytest.mark.skipif(not HAS_BACKGAMMON, reason='tavli has no "backgammon" variant yet')

START_ID = "4HPwATDgc/ABMA"
SEEDS = (20261130, 7, 424242)  # random_positions seeds
PAIRS_PER_SEED = 1000  # 3,000 (position, roll) pairs in all
ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]

Canon = tuple


# --- conversions ---------------------------------------------------------------------------------
def row_to_gnubg(row) -> list[list[int]]:
    """gnubg board [[opponent], [mover]] of a tavli row (the row's mover is on roll)."""
    r = [int(x) for x in row]
    mover = [r[23 - i] for i in range(24)] + [r[48]]
    opp = [r[24 + 23 - i] for i in range(24)] + [r[49]]
    return [opp, mover]


def row_canon(row) -> Canon:
    """Canon of a tavli row, from its side to move."""
    r = [int(x) for x in row]
    return (tuple(r[0:24]), r[48], r[50], tuple(r[24:48]), r[49], r[51])


def result_row_canon(row) -> Canon:
    """Canon of a tavli RESULT row (other side to move), from the side that just moved."""
    r = [int(x) for x in row]
    return (tuple(r[24:48]), r[49], r[51], tuple(r[0:24]), r[48], r[50])


def gnubg_canon(board) -> Canon:
    """Canon of a gnubg board, from board[1] (the side on roll / that just moved)."""
    opp, mover = board

    def side(s):
        counts = tuple(int(s[23 - r]) for r in range(24))
        return counts, int(s[24]), 15 - sum(int(x) for x in s[:25])

    m, mb, mo = side(mover)
    o, ob, oo = side(opp)
    return (m, mb, mo, o, ob, oo)


def gnubg_results(board, d1: int, d2: int) -> set:
    keys = gnubg.moves(board, d1, d2)
    assert len(set(keys)) == len(keys), "gnubg-nn returned a position twice"
    if not keys:
        return {gnubg_canon(board)}
    return {gnubg_canon(gnubg.board_from_position_key(k)) for k in keys}


def make_row(mover: dict, opp: dict, mover_bar: int = 0, opp_bar: int = 0, turn: int = 0) -> np.ndarray:
    """A tavli row from {route index: count} maps in each side's own frame; the rest is off."""
    row = np.zeros(tavli.ROW_BYTES, dtype=np.uint8)
    for r, n in mover.items():
        row[r] += n
    for r, n in opp.items():
        row[24 + r] += n
    row[48], row[49] = mover_bar, opp_bar
    row[50] = 15 - sum(mover.values()) - mover_bar
    row[51] = 15 - sum(opp.values()) - opp_bar
    assert row[50] <= 15 and row[51] <= 15
    row[52] = turn
    return row


def describe(c: Canon) -> str:
    """A Canon in backgammon point numbers (point = 24 - r), from the side that was on roll."""
    m, mb, mo, o, ob, oo = c
    mine = " ".join(f"{24 - r}:{n}" for r, n in enumerate(m) if n)
    theirs = " ".join(f"{24 - (23 - r)}:{n}" for r, n in enumerate(o) if n)  # their r' -> my point
    gid = gnubg.position_id(canon_to_gnubg(c))
    return f"[{gid}] mover {mine} bar {mb} off {mo} | opponent (my points) {theirs} bar {ob} off {oo}"


def canon_to_gnubg(c: Canon) -> list[list[int]]:
    m, mb, _, o, ob, _ = c
    return [[o[23 - i] for i in range(24)] + [ob], [m[23 - i] for i in range(24)] + [mb]]


# Hand-made positions: (name, mover {r: n}, opponent {r': n}, mover bar, opponent bar).
# Reminder: I enter from the bar with die d on my r = d - 1, which is the opponent's r' = 24 - d.
HANDMADE = [
    ("start", {0: 2, 11: 5, 16: 3, 18: 5}, {0: 2, 11: 5, 16: 3, 18: 5}, 0, 0),
    ("two on the bar, 1-4 points closed", {11: 5, 16: 2, 18: 6}, {20: 3, 21: 3, 22: 3, 23: 3, 11: 3}, 2, 0),
    ("one on the bar, 5 and 6 closed", {11: 5, 16: 4, 18: 5}, {18: 2, 19: 2, 4: 6, 11: 5}, 1, 0),
    ("closed board, on the bar", {11: 5, 16: 4, 18: 4}, {18: 2, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 4: 3}, 2, 0),
    ("enter and hit a blot", {11: 6, 16: 4, 18: 4}, {23: 1, 21: 1, 18: 4, 19: 4, 20: 4, 4: 1}, 1, 0),
    ("bear-off, high dice", {18: 1, 20: 3, 22: 4, 23: 2}, {12: 5, 16: 4, 18: 6}, 0, 0),
    ("bear-off, gap on the high points", {21: 2, 22: 3, 23: 5}, {18: 5, 19: 5, 20: 5}, 0, 0),
    ("bear-off with contact", {18: 3, 19: 3, 20: 3, 21: 2, 22: 2}, {0: 1, 12: 7, 18: 7}, 0, 0),
    ("bear-off, opponent on the bar", {19: 4, 20: 4, 23: 4}, {18: 5, 20: 5, 21: 4}, 0, 1),
    ("last checker outside", {15: 1, 18: 4, 20: 5, 22: 5}, {10: 2, 18: 13}, 0, 0),
    ("only one die playable", {0: 1, 23: 14}, {17: 2, 18: 2, 14: 2, 15: 2, 5: 7}, 0, 0),
    ("either die but not both (6-5)", {0: 1, 23: 14}, {12: 2, 5: 13}, 0, 0),
    ("prime in front", {0: 2, 4: 2, 23: 11}, {12: 2, 13: 2, 14: 2, 15: 2, 16: 2, 17: 2, 2: 3}, 0, 0),
    ("hit-and-run chances", {0: 2, 3: 1, 11: 4, 16: 3, 18: 5}, {0: 2, 11: 4, 16: 3, 18: 4, 17: 1, 19: 1}, 0, 0),
    ("one checker each", {5: 1}, {6: 1}, 0, 0),
    ("both on the bar", {11: 5, 18: 5, 19: 4}, {11: 5, 18: 5, 19: 4}, 1, 1),
]


def handmade_rows() -> list[tuple[str, np.ndarray]]:
    return [(name, make_row(m, o, mb, ob)) for name, m, o, mb, ob in HANDMADE]


# --- the conversion checked against gnubg itself (no tavli backgammon needed) -------------------
def test_start_position_id():
    row = make_row(*HANDMADE[0][1:])
    board = row_to_gnubg(row)
    assert gnubg.position_id(board) == START_ID
    assert [list(s) for s in gnubg.board_from_position_id(START_ID)] == board


@pytest.mark.parametrize("name,row", handmade_rows(), ids=[h[0] for h in HANDMADE])
def test_conversion_round_trip(name, row):
    board = row_to_gnubg(row)
    assert gnubg_canon(board) == row_canon(row)
    assert canon_to_gnubg(row_canon(row)) == board
    # gnubg's own ID and key encodings give the same board back
    assert [list(s) for s in gnubg.board_from_position_id(gnubg.position_id(board))] == board
    assert [list(s) for s in gnubg.board_from_position_key(gnubg.key_of_board(board))] == board


def test_gnubg_moves_direction():
    """board[1] is on roll and moves from its high indices down: with 6-5 my r=0 checker runs to
    r=11, via r=5 or via r=6, where it hits the opponent's blot (their r'=17)."""
    row = make_row({0: 1, 23: 14}, {17: 1, 5: 14})
    mover = [0] * 24
    mover[11], mover[23] = 1, 14
    opp = [0] * 24
    opp[17], opp[5] = 1, 14
    opp_hit = list(opp)
    opp_hit[17] = 0
    assert gnubg_results(row_to_gnubg(row), 6, 5) == {
        (tuple(mover), 0, 0, tuple(opp), 0, 0),
        (tuple(mover), 0, 0, tuple(opp_hit), 1, 0),
    }
    # from the bar, die d enters on my r = d - 1: 3-3 takes the checker 2 -> 5 -> 8 -> 11
    row = make_row({23: 14}, {5: 15}, mover_bar=1)
    opp = [0] * 24
    opp[5] = 15
    assert gnubg_results(row_to_gnubg(row), 3, 3) == {(tuple(mover), 0, 0, tuple(opp), 0, 0)}


def test_gnubg_pass_is_empty():
    closed = HANDMADE[3]
    row = make_row(*closed[1:])
    assert gnubg.moves(row_to_gnubg(row), 6, 6) == ()


# --- tavli against gnubg -------------------------------------------------------------------------
def compare(rows: np.ndarray, dice: np.ndarray, labels=None) -> tuple[list[str], dict]:
    """Mismatch reports (empty when the two agree) and some counts for the record."""
    rows = np.ascontiguousarray(rows, dtype=np.uint8)
    dice = np.ascontiguousarray(dice, dtype=np.int64)
    counts, offsets, res = tavli.batch_legal_plays(rows, dice, "backgammon", return_positions=True)
    report: list[str] = []
    stats = {"pairs": len(rows), "results": 0, "passes": 0, "max": 0}
    for i in range(len(rows)):
        row, (d1, d2) = rows[i], (int(dice[i][0]), int(dice[i][1]))
        mine = [result_row_canon(r) for r in res[offsets[i] : offsets[i + 1]]]
        assert int(counts[i]) == len(mine)
        board = row_to_gnubg(row)
        assert gnubg_canon(board) == row_canon(row), f"row {i}: not 15 checkers a side? {list(row)}"
        theirs = gnubg_results(board, d1, d2)
        stats["results"] += len(theirs)
        stats["max"] = max(stats["max"], len(theirs))
        stats["passes"] += theirs == {row_canon(row)}
        dup = len(mine) != len(set(mine))
        mine_set = set(mine)
        if dup or mine_set != theirs:
            label = labels[i] if labels else f"pair {i}"
            lines = [
                f"{label}: dice {d1}-{d2}, row {[int(x) for x in row]}",
                f"  position {describe(row_canon(row))}",
                f"  tavli {len(mine)} results{' (DUPLICATES)' if dup else ''}, gnubg {len(theirs)}",
            ]
            for c in sorted(mine_set - theirs)[:6]:
                lines.append(f"  only tavli: {describe(c)}")
            for c in sorted(theirs - mine_set)[:6]:
                lines.append(f"  only gnubg: {describe(c)}")
            report.append("\n".join(lines))
    return report, stats


def fail_with(report: list[str], stats: dict) -> None:
    if report:
        pytest.fail(f"{len(report)} of {stats['pairs']} pairs differ from gnubg-nn:\n" + "\n".join(report[:8]))


@needs_backgammon
def test_tavli_start_row_is_gnubg_start():
    row = tavli.Board("backgammon").to_array()
    assert gnubg.position_id(row_to_gnubg(row)) == START_ID


@needs_backgammon
def test_start_position_all_rolls():
    row = tavli.Board("backgammon").to_array()
    rows = np.repeat(row[None, :], len(ALL_ROLLS), axis=0)
    report, stats = compare(rows, np.array(ALL_ROLLS), [f"start {a}-{b}" for a, b in ALL_ROLLS])
    fail_with(report, stats)
    # the well-known opening counts (distinct resulting positions)
    counts = tavli.batch_legal_plays(rows, np.array(ALL_ROLLS), "backgammon")
    assert int(counts.sum()) == sum(len(gnubg.moves(row_to_gnubg(row), a, b)) for a, b in ALL_ROLLS)


@needs_backgammon
def test_handmade_positions_all_rolls():
    rows, dice, labels = [], [], []
    for name, row in handmade_rows():
        tavli.Board.from_array(row, "backgammon")  # the engine accepts the position
        for a, b in ALL_ROLLS:
            rows.append(row)
            dice.append((a, b))
            labels.append(f"{name!r} {a}-{b}")
    report, stats = compare(np.array(rows), np.array(dice), labels)
    fail_with(report, stats)
    assert stats["passes"] > 0  # the closed board is a pass for every roll


@needs_backgammon
@pytest.mark.parametrize("seed", SEEDS)
def test_random_game_positions(seed):
    rows, dice = tavli.random_positions("backgammon", PAIRS_PER_SEED, seed=seed)
    assert len(rows) == PAIRS_PER_SEED
    report, stats = compare(rows, dice)
    fail_with(report, stats)
    assert stats["results"] > PAIRS_PER_SEED  # not a set of passes


def test_position_ids_match_gnubg():
    """tavli's Board.gnubg_id() against gnubg's own position_id on random positions."""
    if "backgammon" not in tavli.variants():
        pytest.skip("no backgammon variant")
    rows, _ = tavli.random_positions("backgammon", 2000, seed=8)
    for row in rows:
        board = tavli.Board.from_array(row, "backgammon")
        assert board.gnubg_id() == gnubg.position_id(row_to_gnubg(row))
