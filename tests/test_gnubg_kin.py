"""Nackgammon and Hypergammon legal plays against GNU Backgammon's own move generator (PyPI
`gnubg-nn`, a binding of gnubg's GenerateMoves).

gnubg plays both with the standard generator: `GenerateMoves` takes no variation argument
(RULES-KIN.md G1), and with fewer than 15 checkers the ones missing from its board count as borne
off, so its bear-off test ("all on the board are home") is the k-checker rule. The board
conventions are those of tests/test_gnubg_backgammon.py: ``[[opponent 25], [on roll 25]]``, index
i = that side's point i + 1 = route index 23 - i, index 24 the bar.

Skipped when gnubg-nn is not installed (``pip install gnubg-nn``).
"""

from __future__ import annotations

import pytest

try:
    import gnubg_nn as gnubg
except ImportError as e:
    pytest.skip(f"gnubg-nn not usable ({e}); pip install gnubg-nn", allow_module_level=True)

import tavli  # noqa: E402

SETTINGS = [("nackgammon", {}, 15), ("hypergammon", {}, 3), ("hypergammon", {"checkers": 2}, 2),
            ("hypergammon", {"checkers": 1}, 1)]
PAIRS = 2000


def row_to_gnubg(row) -> list[list[int]]:
    r = [int(x) for x in row]
    mover = [r[23 - i] for i in range(24)] + [r[48]]
    opp = [r[24 + 23 - i] for i in range(24)] + [r[49]]
    return [opp, mover]


def canon_of_gnubg(board, k: int) -> tuple:
    """(mover counts by route index, bar, off, opponent counts, bar, off) of a gnubg board, from
    board[1] (the side that was on roll)."""
    def side(s):
        return tuple(int(s[23 - r]) for r in range(24)), int(s[24]), k - sum(int(x) for x in s[:25])

    return side(board[1]) + side(board[0])


def canon_of_result_row(row) -> tuple:
    """The same from a tavli result row (the other side to move)."""
    r = [int(x) for x in row]
    return (tuple(r[24:48]), r[49], r[51], tuple(r[0:24]), r[48], r[50])


def gnubg_results(row, dice, k: int) -> set:
    board = row_to_gnubg(row)
    keys = gnubg.moves(board, int(dice[0]), int(dice[1]))
    if not keys:  # no legal play: the position itself
        return {canon_of_gnubg(board, k)}
    return {canon_of_gnubg(gnubg.board_from_position_key(key), k) for key in keys}


@pytest.mark.parametrize("variant, options, k", SETTINGS, ids=[f"{v}-{o}" for v, o, _ in SETTINGS])
def test_random_positions_agree_with_gnubg(variant, options, k):
    rows, dice = tavli.random_positions(variant, PAIRS, seed=20261130, **options)
    counts, offsets, out = tavli.batch_legal_plays(rows, dice, variant, return_positions=True, **options)
    bad = []
    for i, row in enumerate(rows):
        mine = {canon_of_result_row(r) for r in out[offsets[i] : offsets[i + 1]]}
        theirs = gnubg_results(row, dice[i], k)
        if mine != theirs:
            bad.append((i, gnubg.position_id(row_to_gnubg(row)), tuple(dice[i]), len(mine), len(theirs)))
    assert not bad, f"{len(bad)} of {len(rows)} differ from gnubg; first: {bad[:3]}"
    # The sample reaches what makes these games differ: hits, the bar, bear-offs.
    assert (rows[:, 48] > 0).any() and (out[:, 51] > 0).any()


@pytest.mark.parametrize("variant, options, k", SETTINGS, ids=[f"{v}-{o}" for v, o, _ in SETTINGS])
def test_start_position_ids_and_opening_rolls_agree_with_gnubg(variant, options, k):
    board = tavli.Board(variant, **options)
    row = board.to_array()
    assert gnubg.position_id(row_to_gnubg(row)) == board.gnubg_id()
    for a in range(1, 7):
        for b in range(1, 7):
            mine = {canon_of_result_row(p.to_array()) for p in (board.play(q) for q in board.legal_plays((a, b)))}
            assert mine == gnubg_results(row, (a, b), k), (variant, options, a, b)
