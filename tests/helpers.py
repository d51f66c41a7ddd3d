"""Shared helpers for the tests: building positions from RULES.md §10 notation and comparing
expected play sets written as net checker movements."""

from __future__ import annotations

from typing import Iterable, Mapping

import tavli

OFF = 24


def make_board(variant: str, mover: Mapping[int, int], opp: Mapping[int, int], turn: int = 0, **options) -> tavli.Board:
    """A board from {route index: count} maps in each side's own frame; the rest is borne off."""
    m = [0] * 24
    o = [0] * 24
    for r, n in mover.items():
        m[r] += n
    for r, n in opp.items():
        o[r] += n
    return tavli.Board.from_dict(
        {
            "variant": variant,
            "turn": turn,
            "mover": m,
            "opponent": o,
            "bar": [0, 0],
            "off": [15 - sum(m), 15 - sum(o)],
            "options": options,
        }
    )


def result_of(board: tavli.Board, moves: Iterable[tuple]) -> tuple:
    """Mover counts and off after net movements (from, to[, count]); to == 24 bears off."""
    counts = board.mover
    off = board.off[0]
    for mv in moves:
        frm, to = mv[0], mv[1]
        k = mv[2] if len(mv) > 2 else 1
        for _ in range(k):
            assert counts[frm] > 0, f"test position has no checker on {frm}"
            counts[frm] -= 1
            if to >= OFF:
                off += 1
            else:
                counts[to] += 1
    return tuple(counts), off


def play_result(board: tavli.Board, play) -> tuple:
    return result_of(board, play.steps)


def results(board: tavli.Board, dice) -> set:
    plays = board.legal_plays(dice)
    out = {play_result(board, p) for p in plays}
    assert len(out) == len(plays), "legal_plays returned two plays with the same result"
    return out


def expected(board: tavli.Board, plays: Iterable[Iterable[tuple]]) -> set:
    return {result_of(board, p) for p in plays}


def dice_used(board: tavli.Board, dice) -> set:
    return {len(p.steps) for p in board.legal_plays(dice)}
