"""Shared helpers for the tests: building positions from RULES.md §10 notation and comparing
expected play sets written as net checker movements."""

from __future__ import annotations

from typing import Iterable, Mapping

import numpy as np

import tavli

OFF = 24


BAR = -1


def make_board(
    variant: str,
    mover: Mapping[int, int],
    opp: Mapping[int, int],
    turn: int = 0,
    pinned=((), ()),
    first_turn=(False, False),
    **options,
) -> tavli.Board:
    """A board from {route index: count} maps in each side's own frame (key -1: the bar); the
    rest (of 15, or Hypergammon's k) is borne off. `pinned`: (mover points, opponent points), each in its own frame."""
    total = int(options.get("checkers", 3)) if variant == "hypergammon" else 15  # RULES-KIN.md §5
    m, o, bar = [0] * 24, [0] * 24, [0, 0]
    for side, counts in ((0, mover), (1, opp)):
        for r, n in counts.items():
            if r == BAR:
                bar[side] += n
            else:
                (m if side == 0 else o)[r] += n
    d = {
        "variant": variant,
        "turn": turn,
        "mover": m,
        "opponent": o,
        "bar": bar,
        "off": [total - sum(m) - bar[0], total - sum(o) - bar[1]],
        "options": options,
    }
    if any(pinned):
        d["pinned"] = [list(pinned[0]), list(pinned[1])]
    if any(first_turn):
        d["first_turn"] = list(first_turn)
    return tavli.Board.from_dict(d)


def perft_case_board(case: Mapping) -> tavli.Board:
    """The board of a perft fixture case (tests/data/perft_*.json): counts by route index in each
    side's frame, and where given the bars, pins and Narde's first-turn flags."""
    mover = {r: n for r, n in enumerate(case["mover"]) if n}
    opp = {r: n for r, n in enumerate(case["opp"]) if n}
    if case.get("mover_bar"):
        mover[BAR] = case["mover_bar"]
    if case.get("opp_bar"):
        opp[BAR] = case["opp_bar"]
    board = make_board(
        case["variant"],
        mover,
        opp,
        pinned=(case.get("mover_pinned", []), case.get("opp_pinned", [])),
        first_turn=(case.get("mover_first_turn", False), case.get("opp_first_turn", False)),
        **case["options"],
    )
    assert board.off == [case["mover_off"], case["opp_off"]]
    return board


def result_of(board: tavli.Board, moves: Iterable[tuple]) -> tuple:
    """Mover counts and off after net movements (from, to[, count]); to == 24 bears off."""
    counts = board.mover
    off = board.off[0]
    bar = board.bar[0]
    for mv in moves:
        frm, to = mv[0], mv[1]
        k = mv[2] if len(mv) > 2 else 1
        for _ in range(k):
            if frm == BAR:
                assert bar > 0, "test position has no checker on the bar"
                bar -= 1
            else:
                assert counts[frm] > 0, f"test position has no checker on {frm}"
                counts[frm] -= 1
            if to >= OFF:
                off += 1
            else:
                counts[to] += 1
    return (tuple(counts), off) if bar == 0 else (tuple(counts), off, bar)


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


def mover_row(me: dict[int, int], op: dict[int, int], *, me_bar: int = 0, op_bar: int = 0,
              checkers: int = 15) -> np.ndarray:
    """A mover-relative position row (position.h): counts by each side's own route index r (r = 23
    is its 1-point), the rest of its `checkers` borne off."""
    r = np.zeros(tavli.ROW_BYTES, np.uint8)
    for k, v in me.items():
        r[k] = v
    for k, v in op.items():
        r[24 + k] = v
    r[48], r[49] = me_bar, op_bar
    r[50] = checkers - sum(me.values()) - me_bar
    r[51] = checkers - sum(op.values()) - op_bar
    return r


def roll_reach(sources: Iterable[int], shut: set[int], targets: set[int]) -> list[tuple[set[int], int]]:
    """For each of the 21 rolls, the `targets` some checker on `sources` (route indices of the
    moving side; -1 the bar) lands on with one die, or with both (a double: up to four steps)
    through points not in `shut`, never past 23; with the roll's weight (2 for a non-double). A
    reference walk written from the rules, for the shot counts of the encodings."""
    out = []
    for a in range(1, 7):
        for b in range(a, 7):
            paths = [[a] * k for k in range(1, 5)] if a == b else [[a], [b], [a, b], [b, a]]
            hit = set()
            for q in sources:
                for path in paths:
                    at = q
                    for step in path:
                        at += step
                        if at > 23 or at in shut:
                            break
                        if at in targets:
                            hit.add(at)
            out.append((hit, 1 if a == b else 2))
    return out
