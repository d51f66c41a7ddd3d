"""The expectiminimax search (cpp/include/tavli/search.h) against independent references.

1. Exact endgames: a memoised brute-force solver written here, over the 21 rolls, with the legal
   plays of the pure-Python oracle (tests/oracle, written from RULES.md) and the rule book's
   scoring, gives the exact cubeless probabilities of small no-contact positions; the engine's
   full-width search (filters [(1000, 0, 0)]) at least as deep as the longest possible remaining
   game must reproduce them (no static evaluation is then left at a leaf).
2. A plain recursive expectiminimax in Python over the engine's own legal_plays / play / static
   evaluation (Board.evaluate(plies=0)) on middle-game positions with contact (hits, pins,
   blocks), for analyze at 1 ply, evaluate at 1 and 2 plies full width, and the documented
   default move filters at 2 plies.
3. One legal play / a forced pass.  4. Determinism over threads and repeated calls.
5. Node and time limits.  6. Bad arguments.

The references here are the plain search: where the default filters would let the shipped
backgammon net's pruning net prune (search.h, "Pruning"), the calls say prune=0;
tests/test_search_pruning.py checks pruning against a reference of its own.

Selections inside the Python references copy the engine's float32 arithmetic (equity and
inversion) so that ties between plays are broken the same way (first in generation order); where
two plays are worth the same to within rounding but have different probabilities, and the engine
may choose either, only the equity is compared (flagged "ambiguous" below).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tavli
from helpers import make_board
from oracle import games as ref

ROLLS = [((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(1, a + 1)]
FULL = [(1000, 0, 0)]
F = np.float32


# ---------------------------------------------------------------------------------------------
# Probability tuples (win, win_double, win_triple, lose_double, lose_triple, draw)
# ---------------------------------------------------------------------------------------------


def inv(p):
    return (1.0 - p[0] - p[5], p[3], p[4], p[1], p[2], p[5])


def equity(p):
    return p[0] - (1.0 - p[0] - p[5]) + (p[1] - p[3]) + (p[2] - p[4])


def f32_inv(p):
    w, wd, wt, ld, lt, dr = (F(x) for x in p[:6])  # margin (index 6) is 0 in these games
    return (F(F(F(1) - w) - dr), ld, lt, wd, wt, dr)


def f32_equity(p):
    """Probabilities::equity() in float32, operation by operation."""
    w, wd, wt, ld, lt, dr = (F(x) for x in p[:6])  # margin (index 6) is 0 in these games
    lose = F(F(F(1) - w) - dr)
    return F(F(F(w - lose) + F(wd - ld)) + F(wt - lt))


def close(a, b, tol):
    return max(abs(x - y) for x, y in zip(a, b)) <= tol


def assert_probs(got, want, tol, ambiguous=False, what=""):
    got = tuple(float(x) for x in got)
    assert abs(equity(got) - equity(want)) <= 2 * tol, f"{what}: equity {equity(got)} != {equity(want)}"
    if not ambiguous:
        assert close(got, want, tol), f"{what}: {got} != {want}"


# ---------------------------------------------------------------------------------------------
# 1. Exact endgames
# ---------------------------------------------------------------------------------------------


def rulebook_points(variant, loser_board, loser_bar, loser_off):
    """RULES.md §2, §3, §4, §5.5, §6.7, §7.1, §7.2: 1, or 2 when the loser bore off none; in
    backgammon 3 when moreover he has a checker on the bar or in the winner's home (his r0..5)."""
    if loser_off > 0:
        return 1
    if variant == "backgammon" and (loser_bar > 0 or any(loser_board[:6])):
        return 3
    return 2


def exact_terminal(variant, pos):
    """Probabilities for the side that has just played into `pos` (seen from it), or None."""
    assert pos.opp_off < 15, "the other side had already won"
    if pos.mover_off < 15:
        return None
    k = rulebook_points(variant, pos.opp, pos.opp_bar, pos.opp_off)
    return (1.0, float(k >= 2), float(k >= 3), 0.0, 0.0, 0.0)


class ExactSolver:
    """Cubeless expectiminimax to the end of the game (no evaluator at all), over the oracle's
    legal plays. value(pos) -> (probabilities for the side to move, ambiguous, longest game in
    plies over every line of play)."""

    def __init__(self, variant, options=None):
        self.variant = variant
        self.options = dict(options or {})
        self.memo = {}

    def play_value(self, child):
        """`child`: the result of a play, still seen from the side that made it."""
        if self.variant == "plakoto":  # no contact: no pins, so no mother rule
            assert not child.mover_pinned and not child.opp_pinned
        t = exact_terminal(self.variant, child)
        if t is not None:
            return t, False, 1
        p, amb, length = self.value(child.flipped())
        return inv(p), amb, length + 1

    def value(self, pos):
        got = self.memo.get(pos)
        if got is not None:
            return got
        acc = [0.0] * 6
        ambiguous = False
        longest = 0
        for dice, w in ROLLS:
            cands = [self.play_value(c) for c in ref.legal_plays(self.variant, pos, dice, self.options)]
            longest = max(longest, max(c[2] for c in cands))
            best = max(equity(c[0]) for c in cands)
            tops = [c for c in cands if equity(c[0]) > best - 1e-7]
            chosen = tops[0][0]
            if any(c[1] for c in tops) or any(not close(c[0], chosen, 1e-7) for c in tops):
                ambiguous = True  # equally good plays that differ in gammons: either may be chosen
            for i in range(6):
                acc[i] += w * chosen[i]
        got = (tuple(acc), ambiguous, longest)
        self.memo[pos] = got
        return got


def oracle_pos(board):
    d = board.to_dict()
    pins = d.get("pinned", [[], []])
    first = d.get("first_turn", [False, False])
    return ref.Pos(tuple(d["mover"]), tuple(d["opponent"]), d["bar"][0], d["bar"][1], d["off"][0], d["off"][1],
                   frozenset(pins[0]), frozenset(pins[1]), first[0], first[1])


# (variant, mover {r: n}, opponent {r: n}, what it exercises); -1 is the bar, the rest is off.
ENDGAMES = [
    ("backgammon", {20: 1, 22: 1}, {19: 1, 21: 1}, "race 2 v 2"),
    ("backgammon", {18: 1, 20: 1, 21: 1}, {19: 1, 20: 1, 22: 1}, "race 3 v 3"),
    # O: 14 immobile on his 1-point, one on his r5 (my home): gammon and backgammon chances.
    ("backgammon", {19: 1, 20: 1}, {5: 1, 23: 14}, "gammon + backgammon chance"),
    # I am on the bar (1-1 cannot enter: pass) with 14 on my 1-point; O bears off next turn: I
    # lose a backgammon unless I enter and get out of his home at once.
    ("backgammon", {-1: 1, 23: 14}, {23: 2}, "bar, pass, backgammon loss"),
    ("portes", {19: 1, 21: 1}, {5: 1, 23: 14}, "double, no triple"),
    ("portes", {19: 1, 21: 1, 22: 1}, {20: 2, 23: 1}, "race 3 v 3"),
    ("tavla", {17: 1, 22: 1}, {16: 1, 23: 14}, "mars chance"),
    ("tavla", {18: 2}, {20: 1, 22: 1}, "race, underdog"),
    ("plakoto", {19: 1, 22: 1}, {21: 1, 20: 1}, "race 2 v 2"),
    ("plakoto", {19: 1, 20: 1}, {5: 1, 23: 14}, "double chance"),
    ("fevga", {19: 1, 22: 1}, {21: 1, 20: 1}, "race 2 v 2"),
    ("fevga", {18: 1, 20: 1}, {17: 1, 23: 14}, "double chance"),
    ("narde", {16: 1, 22: 1}, {21: 1, 19: 1}, "race from outside home"),
    ("narde", {18: 1, 20: 1}, {15: 1, 23: 14}, "mars chance"),
    ("moultezim", {20: 1, 22: 1}, {21: 1, 19: 1}, "race 2 v 2"),
]


@pytest.fixture(scope="module")
def solved():
    """Each endgame solved once: (board, solver, exact probabilities, ambiguous, longest game)."""
    out = {}
    for variant, m, o, what in ENDGAMES:
        board = make_board(variant, m, o)
        solver = ExactSolver(variant)
        p, amb, longest = solver.value(oracle_pos(board))
        out[(variant, what)] = (board, solver, p, amb, longest)
    return out


@pytest.mark.parametrize("variant,m,o,what", ENDGAMES, ids=[f"{v}-{w}" for v, _, _, w in ENDGAMES])
def test_exact_endgame(solved, variant, m, o, what):
    board, _solver, p, amb, longest = solved[(variant, what)]
    assert 1 <= longest <= 8
    e = board.evaluate(longest, filters=FULL)
    assert e.plies == longest and not e.interrupted
    assert abs(e.equity - equity(p)) <= 1e-4, (e, p)
    assert abs(e.probabilities.win - p[0]) <= 1e-4
    assert abs(e.equity - equity(tuple(e.probabilities))) <= 1e-5
    if not amb:
        assert close(tuple(e.probabilities), p, 1e-4), (e.probabilities, p)


def test_exact_endgames_cover_the_scores(solved):
    """The set exercises what it says: gammons/doubles, a backgammon win and a backgammon loss,
    a pass, races either side is favourite in, and no ambiguous maximum hides a probability."""
    vals = {k: v[2] for k, v in solved.items()}
    assert 0.2 < vals[("backgammon", "gammon + backgammon chance")][2] < 0.5  # win_triple
    assert vals[("backgammon", "bar, pass, backgammon loss")][4] > 0.3  # lose_triple
    for key in [("portes", "double, no triple"), ("plakoto", "double chance"), ("fevga", "double chance"),
                ("narde", "mars chance"), ("tavla", "mars chance")]:
        assert 0.2 < vals[key][1] < 1 and vals[key][2] == 0, key
    assert vals[("tavla", "race, underdog")][0] < 0.5 < vals[("backgammon", "race 3 v 3")][0] < 1
    assert not any(v[3] for v in solved.values())


@pytest.mark.parametrize("key", [("backgammon", "gammon + backgammon chance"), ("portes", "race 3 v 3"),
                                 ("narde", "race from outside home"), ("fevga", "double chance")])
def test_exact_endgame_deeper_and_every_play(solved, key):
    """Searching deeper than the game can last changes nothing, and a full-width analysis of each
    roll at (longest - 1) plies values every legal play exactly (same plays as the oracle's)."""
    board, solver, p, amb, longest = solved[key]
    e = board.evaluate(longest + 2, filters=FULL)
    assert abs(e.equity - equity(p)) <= 1e-4
    if not amb:
        assert close(tuple(e.probabilities), p, 1e-4)
    pos = oracle_pos(board)
    for dice in [(2, 1), (6, 6), (5, 3)]:
        a = board.analyze(dice, longest - 1, filters=FULL)
        assert a.plies == longest - 1 and not a.interrupted
        oracle_children = set(ref.legal_plays(board.variant, pos, dice))
        engine_children = set()
        for ap in a:
            child = oracle_pos(board.play(ap.play)).flipped()
            engine_children.add(child)
            want, amb_play, _ = solver.play_value(child)
            assert ap.plies == longest - 1
            assert_probs(ap.probabilities, want, 1e-4, amb_play, f"{dice} {ap.play}")
        assert engine_children == oracle_children
        eqs = [ap.equity for ap in a]
        assert eqs == sorted(eqs, reverse=True)


# ---------------------------------------------------------------------------------------------
# 2. A plain expectiminimax over the engine's own moves and static evaluator
# ---------------------------------------------------------------------------------------------


def terminal_probs(outcome, player):
    """Exact probabilities of a finished game for `player` (points 2 = double, 3 = triple)."""
    winner, points, _kind = outcome
    if winner is None:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    dbl, tpl = float(points >= 2), float(points >= 3)
    if winner == player:
        return (1.0, dbl, tpl, 0.0, 0.0, 0.0)
    return (0.0, 0.0, 0.0, dbl, tpl, 0.0)


def static(board):
    return tuple(board.evaluate(0).probabilities)


def static_play(board, play):
    """0-ply value of a play for the side that makes it (float32 as the engine has it), and the
    board after it (None if the game ended)."""
    nb = board.play(play)
    o = nb.outcome()
    if o is not None:
        return terminal_probs(o, board.turn), None
    return f32_inv(static(nb)), nb


def first_max(vals):
    """Index of the first play of greatest float32 equity (std::max_element, a stable sort)."""
    eqs = [f32_equity(v) for v in vals]
    return eqs.index(max(eqs))


def pick(cands):
    """Best of (probs, ambiguous) candidates by double equity; ambiguous when a play within
    rounding of the best has other probabilities (the engine, in float32, may take either)."""
    best = max(equity(c[0]) for c in cands)
    tops = [c for c in cands if equity(c[0]) > best - 2e-6]
    chosen = max(tops, key=lambda c: equity(c[0]))
    amb = any(c[1] for c in tops) or any(not close(c[0], chosen[0], 2e-6) for c in tops)
    return chosen[0], amb


def one_ply_value(board):
    """evaluate(1): the average over my rolls of my statically best play (chosen as the engine
    does), for the side to move."""
    acc = [0.0] * 6
    for dice, w in ROLLS:
        vals = [static_play(board, p)[0] for p in board.legal_plays(dice)]
        v = vals[first_max(vals)]
        for i in range(6):
            acc[i] += w * float(v[i])
    return tuple(acc)


def full_value(board, depth):
    """Full-width expectiminimax, `depth` plies, for the side to move: (probs, ambiguous)."""
    if depth == 1:
        return one_ply_value(board), False
    acc = [0.0] * 6
    amb = False
    for dice, w in ROLLS:
        cands = [full_play_value(board, p, depth - 1) for p in board.legal_plays(dice)]
        v, a = pick(cands)
        amb |= a
        for i in range(6):
            acc[i] += w * v[i]
    return tuple(acc), amb


def full_play_value(board, play, depth):
    """A play searched `depth` plies after it, for the side that makes it: (probs, ambiguous)."""
    v, nb = static_play(board, play)
    if nb is None or depth == 0:
        return tuple(float(x) for x in v), False
    p, amb = full_value(nb, depth)
    return inv(p), amb


# Middle-game positions with contact (from seeded random play): a backgammon position with the
# mover on the bar and blots to hit, Portes with the opponent on the bar, Plakoto with pins on
# both sides, Fevga / Narde / Moultezim with blocks.
MIDGAMES = {
    "backgammon": {"variant": "backgammon", "turn": 0,
                   "mover": [0, 1, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 5, 2],
                   "opponent": [0, 0, 0, 2, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 3, 0, 2, 3, 0, 0, 0, 1],
                   "bar": [1, 0], "off": [0, 0], "options": {}},
    "portes": {"variant": "portes", "turn": 0,
               "mover": [0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 3, 6, 0],
               "opponent": [6, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 1],
               "bar": [0, 1], "off": [0, 0], "options": {}},
    "plakoto": {"variant": "plakoto", "turn": 0,
                "mover": [6, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 1, 1, 0],
                "opponent": [3, 0, 0, 1, 0, 2, 0, 1, 1, 0, 0, 0, 2, 0, 0, 1, 0, 1, 0, 0, 0, 1, 2, 0],
                "bar": [0, 0], "off": [0, 0], "options": {}, "pinned": [[1, 8], [3, 8, 17]]},
    "fevga": {"variant": "fevga", "turn": 0,
              "mover": [6, 0, 1, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0],
              "opponent": [3, 0, 0, 0, 0, 0, 2, 1, 2, 0, 1, 2, 0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 0, 0],
              "bar": [0, 0], "off": [0, 0], "options": {}},
    "narde": {"variant": "narde", "turn": 0,
              "mover": [7, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 2, 2],
              "opponent": [4, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1, 3, 0, 1, 0],
              "bar": [0, 0], "off": [0, 0], "options": {}, "first_turn": [False, False]},
    "moultezim": {"variant": "moultezim", "turn": 0,
                  "mover": [8, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1],
                  "opponent": [6, 0, 0, 1, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1],
                  "bar": [0, 0], "off": [0, 0], "options": {}},
}


def midgame(name):
    return tavli.Board.from_dict(MIDGAMES[name])


def hits_or_pins(board, dice):
    """Whether some play of the roll hits (bar count grows) or pins (pinned sets grow)."""
    before = board.to_dict()
    for p in board.legal_plays(dice):
        after = board.play(p).to_dict()  # the other side to move now
        if after["bar"][0] > before["bar"][1]:
            return True
        if "pinned" in after and len(after["pinned"][0]) > len(before["pinned"][1]):
            return True
    return False


ANALYZE_CASES = [("backgammon", (6, 4)), ("backgammon", (2, 2)), ("portes", (4, 1)), ("plakoto", (6, 1)),
                 ("plakoto", (1, 1)), ("fevga", (6, 2)), ("narde", (5, 4)), ("moultezim", (3, 1))]


@pytest.mark.parametrize("name,dice", ANALYZE_CASES, ids=[f"{n}-{a}{b}" for n, (a, b) in ANALYZE_CASES])
def test_analyze_one_ply_matches_python(name, dice):
    board = midgame(name)
    plays = board.legal_plays(dice)
    assert len(plays) >= 2
    default = board.analyze(dice, 1, prune=0)
    assert default.plies == 1 and not default.interrupted
    assert len(default) == len(plays)
    assert {str(ap.play) for ap in default} == {str(p) for p in plays}
    for ap in default:
        want, amb = full_play_value(board, ap.play, 1)
        assert not amb  # at 1 ply every choice is a first maximum of float32 static values
        assert ap.plies == 1
        assert close(tuple(ap.probabilities), want, 1e-5), (ap, want)
        assert abs(ap.equity - equity(want)) <= 2e-5
    eqs = [ap.equity for ap in default]
    assert eqs == sorted(eqs, reverse=True)
    # At one ply the inner filters cannot matter, and the root is full width by default.
    other = board.analyze(dice, 1, filters=[(1000, 0, 0), (0, 0, 0)], prune=0)
    assert [(str(a.play), tuple(a.probabilities)) for a in other] == \
        [(str(a.play), tuple(a.probabilities)) for a in default]


def test_midgames_have_contact():
    assert hits_or_pins(midgame("backgammon"), (6, 4)) or hits_or_pins(midgame("backgammon"), (2, 2))
    assert hits_or_pins(midgame("portes"), (4, 1))
    assert hits_or_pins(midgame("plakoto"), (6, 1)) and midgame("plakoto").pinned[0]


@pytest.mark.parametrize("name", list(MIDGAMES))
def test_evaluate_one_ply_matches_python(name):
    board = midgame(name)
    want = one_ply_value(board)
    for filters in (None, FULL):
        e = board.evaluate(1, filters=filters, prune=0)
        assert e.plies == 1 and not e.interrupted
        assert close(tuple(e.probabilities), want, 1e-5), (e, want)
    assert board.evaluate(0).probabilities == board.evaluate(0, filters=FULL).probabilities


# Small contact positions for two full-width plies (the Python side is quadratic in the plays).
SMALL = [
    # backgammon: my blots on r16 and r20 in front of O's back checker on his r2 (my r21).
    make_board("backgammon", {16: 1, 20: 1, 22: 2}, {2: 1, 20: 1, 22: 1}),
    # plakoto: O's checker pinned under mine on my r20, and blots either side can pin.
    make_board("plakoto", {14: 1, 20: 1, 22: 1}, {3: 1, 7: 1, 21: 1}, pinned=((), (3,))),
    # fevga: blocks in both directions.
    make_board("fevga", {8: 1, 14: 1, 21: 1}, {3: 1, 10: 1, 19: 1}),
    # narde
    make_board("narde", {10: 1, 17: 1, 20: 1}, {4: 1, 12: 1, 19: 1}),
    # and one real middle game (on the bar, blots to hit; ~2 s in Python)
    tavli.Board.from_dict(MIDGAMES["backgammon"]),
]


@pytest.mark.parametrize("board", SMALL, ids=[b.variant for b in SMALL])
def test_evaluate_two_plies_full_width_matches_python(board):
    want, amb = full_value(board, 2)
    e = board.evaluate(2, filters=FULL)
    assert e.plies == 2 and not e.interrupted
    assert_probs(e.probabilities, want, 1e-5, amb, "evaluate(2)")
    # evaluate(n) = the average over my rolls of my best play at n - 1 (analyze is full width at
    # the root at one ply).
    acc = [0.0] * 6
    for dice, w in ROLLS:
        best = board.analyze(dice, 1, prune=0)[0].probabilities
        for i in range(6):
            acc[i] += w * best[i]
    assert_probs(e.probabilities, tuple(acc), 1e-5, amb, "evaluate(2) vs analyze(1)")


def test_small_positions_have_contact():
    assert any(hits_or_pins(SMALL[0], d) for d, _ in ROLLS)
    assert any(hits_or_pins(SMALL[1], d) for d, _ in ROLLS)


# --- the default filters at two plies --------------------------------------------------------


def inner_two_ply_value(board):
    """value(pos, 2) under the default inner filter, for the side to move: for each roll only
    the statically best play (first in generation order among equals) is searched one more ply."""
    acc = [0.0] * 6
    for dice, w in ROLLS:
        plays = board.legal_plays(dice)
        stat = [static_play(board, p) for p in plays]
        i = first_max([s[0] for s in stat])
        v, nb = stat[i]
        if nb is not None:
            v = f32_inv(one_ply_value(nb))
        for k in range(6):
            acc[k] += w * float(v[k])
    return tuple(acc)


_DEFAULT_MEMO: dict = {}


def default_two_ply(name, dice, full_depth=False):
    """default_two_ply_analysis of a middle game, computed once per module."""
    if (name, dice, full_depth) not in _DEFAULT_MEMO:
        _DEFAULT_MEMO[(name, dice, full_depth)] = default_two_ply_analysis(midgame(name), dice, full_depth)
    return _DEFAULT_MEMO[(name, dice, full_depth)]


def default_two_ply_analysis(board, dice, full_depth=False):
    """The documented defaults at two plies: at the root, the statically best play and up to 8
    more within 0.16 go to 2 plies (the rest keep their static value and 0 plies); inside, only
    the statically best reply is searched deeper. A lone play (the filter keeps one of several)
    stops the search: it keeps its static value and 0 plies, unless full_depth. Returns
    ({play text: (probs, plies)}, how many plays the root filter kept)."""
    plays = board.legal_plays(dice)
    stat = [static_play(board, p) for p in plays]
    eqs = [f32_equity(s[0]) for s in stat]
    order = sorted(range(len(plays)), key=lambda i: -eqs[i])  # stable: generation order on ties
    keep = [order[0]]
    for i in order[1:]:
        if len(keep) < 9 and F(eqs[order[0]] - eqs[i]) <= F(0.16):
            keep.append(i)
    out = {}
    lone = len(keep) == 1 < len(plays) and not full_depth
    for i, p in enumerate(plays):
        v, nb = stat[i]
        if i in keep and not lone:
            out[str(p)] = (v if nb is None else inv(inner_two_ply_value(nb)), 2)
        else:
            out[str(p)] = (v, 0)
    return out, len(keep)


# Which plays fall within the root filter's window depends on the evaluator (the shipped nets by
# default): test_default_filters_cut_something checks that these cases still cut some plays and
# reach the cap of 9 (re-pick the rolls if a retrained net moves them).
DEFAULT_CASES = [("backgammon", (1, 1)), ("fevga", (4, 2)), ("plakoto", (4, 2)), ("narde", (5, 4))]


@pytest.mark.parametrize("full_depth", [False, True], ids=["lone-stops", "full-depth"])
@pytest.mark.parametrize("name,dice", DEFAULT_CASES, ids=[n for n, _ in DEFAULT_CASES])
def test_default_filters_two_plies_match_python(name, dice, full_depth):
    board = midgame(name)
    want, kept = default_two_ply(name, dice, full_depth)
    a = board.analyze(dice, 2, full_depth=full_depth, prune=0)
    assert a.plies == 2 and not a.interrupted
    assert len(a) == len(want)
    assert sum(ap.plies == 2 for ap in a) == (0 if kept == 1 and not full_depth else kept)
    for ap in a:
        probs, plies = want[str(ap.play)]
        assert ap.plies == plies, ap
        assert close(tuple(ap.probabilities), tuple(float(x) for x in probs), 1e-5), (ap, probs)
    # Best first: the plays searched to 2 plies, by equity, then the filtered-out ones.
    keys = [(-ap.plies, -ap.equity) for ap in a]
    assert keys == sorted(keys)


def test_default_filters_cut_something():
    """The cases above do exercise the root filter (some plays cut, more than one kept)."""
    counts = []
    for name, dice in DEFAULT_CASES:
        want, kept = default_two_ply(name, dice)
        counts.append((kept, len(want)))
    assert any(1 < k < n for k, n in counts) and any(k == 9 < n for k, n in counts), counts
    assert any(k == 1 < n for k, n in counts), counts  # and a lone play (plakoto, narde today)


@pytest.mark.parametrize("name", ["backgammon", "plakoto", "fevga"])
def test_evaluate_two_plies_default_filters(name):
    """evaluate(2) with the default filters: for each roll only the statically best play of the
    side to move is searched deeper (search.h: as gnubg's evaluation does)."""
    board = midgame(name)
    assert close(tuple(board.evaluate(2, prune=0).probabilities), inner_two_ply_value(board), 1e-5)
    e = board.evaluate(2)  # evaluate_batch searches as evaluate does by default (pruning where it can)
    assert tavli.evaluate_batch(board.to_array()[None, :], board.variant, plies=2)[0].tolist() == \
        pytest.approx(list(e.probabilities) + [e.equity], abs=1e-6)


# ---------------------------------------------------------------------------------------------
# 3. One legal play, a forced pass
# ---------------------------------------------------------------------------------------------


def entering_board():
    # I am on the bar; O holds my r0..r4 (his home) with two each: only a 6 enters.
    return make_board("backgammon", {-1: 1, 23: 14}, {23: 2, 22: 2, 21: 2, 20: 2, 19: 2, 10: 5})


@pytest.mark.parametrize("dice", [(6, 5), (6, 6), (5, 5)])
@pytest.mark.parametrize("plies", [0, 1, 2])
def test_single_play_and_pass(dice, plies):
    board = entering_board()
    plays = board.legal_plays(dice)
    assert len(plays) == 1
    a = board.analyze(dice, plies, prune=0)
    assert len(a) == 1 and a.plies == plies and not a.interrupted
    assert a[0].play == plays[0] and a[0].plies == plies
    if dice == (5, 5):
        assert list(a[0].play.steps) == [] and len(a[0].play) == 0
    if plies == 1:
        want, amb = full_play_value(board, plays[0], 1)
        assert not amb and close(tuple(a[0].probabilities), want, 1e-5)
    if plies == 0:
        assert close(tuple(a[0].probabilities), tuple(float(x) for x in static_play(board, plays[0])[0]), 0)


# ---------------------------------------------------------------------------------------------
# 4. Determinism
# ---------------------------------------------------------------------------------------------


def snapshot(a):
    return (a.plies, a.interrupted, [(str(x.play), tuple(x.probabilities), x.equity, x.plies) for x in a])


THREAD_CASES = [("backgammon", (6, 4), None, 2), ("fevga", (6, 2), None, 2), ("plakoto", (4, 2), FULL, 2),
                ("portes", (4, 1), None, 1)]


@pytest.mark.parametrize("name,dice,filters,plies", THREAD_CASES, ids=[c[0] for c in THREAD_CASES])
def test_evaluate_threads_and_repeats_agree(name, dice, filters, plies):
    board = midgame(name)
    ref_e = board.evaluate(2, filters=filters)
    for threads in (1, 2, 3):
        for _ in range(2):
            e = board.evaluate(2, filters=filters, threads=threads)
            assert (e.probabilities, e.equity, e.plies, e.interrupted) == \
                (ref_e.probabilities, ref_e.equity, ref_e.plies, ref_e.interrupted), threads
    assert board.evaluate(2, filters=filters).nodes == ref_e.nodes  # same work, to the node
    a = board.analyze(dice, plies, filters=filters)
    again = board.analyze(dice, plies, filters=filters)
    assert snapshot(again) == snapshot(a) and again.nodes == a.nodes


# analyze with threads > 1 is run in a child process: it has crashed the interpreter (SIGSEGV).
_THREADS_CHILD = r"""
import json, sys
import tavli
d, dice, filters, plies = json.loads(sys.argv[1])
b = tavli.Board.from_dict(d)
out = []
for threads in (1, 2, 3):
    for _ in range(2):
        a = b.analyze(tuple(dice), plies, filters=filters, threads=threads)
        out.append([threads, a.plies, a.interrupted,
                    [[str(x.play), list(x.probabilities), x.equity, x.plies] for x in a]])
print(json.dumps(out))
"""


@pytest.mark.parametrize("name,dice,filters,plies", THREAD_CASES, ids=[c[0] for c in THREAD_CASES])
def test_analyze_threads_agree(name, dice, filters, plies):
    board = midgame(name)
    kept = sum(x.plies == plies for x in board.analyze(dice, plies, filters=filters))
    arg = json.dumps([MIDGAMES[name], list(dice), filters, plies])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(tavli.__file__).parents[1]),
                                                         os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-c", _THREADS_CHILD, arg], capture_output=True, text=True, timeout=300,
                       env=env)
    assert r.returncode == 0, (f"analyze({dice}, {plies}, threads=2/3) on {name} ({kept} root plays searched) "
                               f"died with return code {r.returncode}: {r.stderr[-500:]}")
    runs = json.loads(r.stdout)
    for run in runs[1:]:
        assert run[1:] == runs[0][1:], f"threads={run[0]} differs from threads=1"


def test_evaluate_batch_matches_evaluate_for_any_thread_count():
    boards = [midgame(n) for n in ("backgammon", "portes", "narde")]
    rows = np.stack([b.to_array() for b in boards])
    for variant in {b.variant for b in boards}:
        sel = [i for i, b in enumerate(boards) if b.variant == variant]
        outs = [tavli.evaluate_batch(rows[sel], variant, plies=2, threads=t) for t in (1, 2, 3)]
        for o in outs[1:]:
            assert np.array_equal(o, outs[0])
        for k, i in enumerate(sel):
            e = boards[i].evaluate(2)
            assert np.array_equal(outs[0][k], np.array(list(e.probabilities) + [e.equity], dtype=np.float32))


# ---------------------------------------------------------------------------------------------
# 5. Limits
# ---------------------------------------------------------------------------------------------


def test_node_limit_interrupts_analyze():
    board = tavli.Board("backgammon")
    dice = (6, 4)
    n = len(board.legal_plays(dice))
    a = board.analyze(dice, 3, node_limit=50)
    assert a.interrupted and a.plies == 0  # 50 nodes: not even one 1-ply iteration
    assert len(a) == n and {str(x.play) for x in a} == {str(p) for p in board.legal_plays(dice)}
    assert all(x.plies == a.plies or x.plies == 0 for x in a)
    # The completed depth is the same as an unlimited search of that depth.
    full = board.analyze(dice, a.plies)
    assert snapshot(full)[2] == snapshot(a)[2]


def test_node_limit_interrupts_evaluate():
    board = tavli.Board("backgammon")
    e = board.evaluate(3, node_limit=1000)
    assert e.interrupted and e.plies < 3
    done = board.evaluate(e.plies)
    assert e.probabilities == done.probabilities


def test_tiny_time_limit_interrupts():
    board = tavli.Board("backgammon")
    dice = (3, 1)
    a = board.analyze(dice, 4, time_limit=1e-6, full_depth=True)  # 8/5 6/5 would be a lone play
    assert a.interrupted and a.plies < 4 and len(a) == len(board.legal_plays(dice))
    e = board.evaluate(4, time_limit=1e-6)
    assert e.interrupted and e.plies < 4


def test_generous_limits_do_not_interrupt():
    board = midgame("fevga")
    plain = board.analyze((6, 2), 2)
    limited = board.analyze((6, 2), 2, time_limit=3600.0, node_limit=10**12)
    assert not limited.interrupted and snapshot(limited) == snapshot(plain)
    e = board.evaluate(2, time_limit=3600.0, node_limit=10**12)
    assert not e.interrupted and e.plies == 2 and e.probabilities == board.evaluate(2).probabilities


# ---------------------------------------------------------------------------------------------
# 6. Bad input
# ---------------------------------------------------------------------------------------------

BAD_SEARCH_ARGS = [
    {"plies": -1}, {"plies": 33}, {"plies": 1.5}, {"plies": True}, {"plies": "2"}, {"plies": None},
    {"threads": 0}, {"threads": -2}, {"threads": True}, {"threads": 1.0},
    {"filters": "abc"}, {"filters": 5}, {"filters": [(1, 2)]}, {"filters": [(1, 2, 3, 4)]},
    {"filters": [(-1, 0, 0.0)]}, {"filters": [(0, -1, 0.0)]}, {"filters": [(0, 0, -0.1)]},
    {"filters": [(0, 0, float("nan"))]}, {"filters": [(True, 0, 0.0)]}, {"filters": [(0.5, 0, 0.0)]},
    {"filters": [(0, 0, "0.1")]}, {"filters": [(0, 8, 0.16)] * 65}, {"filters": [None]},
    {"time_limit": -1.0}, {"time_limit": float("nan")}, {"time_limit": "1"},
    {"node_limit": -1}, {"node_limit": 1.5},
]


@pytest.mark.parametrize("kwargs", BAD_SEARCH_ARGS, ids=[repr(k)[:40] for k in BAD_SEARCH_ARGS])
def test_bad_search_arguments(kwargs):
    board = midgame("fevga")
    with pytest.raises(ValueError):
        board.analyze((6, 2), **kwargs)
    with pytest.raises(ValueError):
        board.evaluate(**kwargs)


@pytest.mark.parametrize("dice", [(0, 1), (7, 1), (1, 2, 3), "ab", "7-1", {1, 2}, None, (1.0, 2.0), (True, 2)])
def test_bad_dice_for_analyze(dice):
    with pytest.raises(ValueError):
        midgame("fevga").analyze(dice)


def test_analyze_a_finished_game():
    over = make_board("backgammon", {23: 1}, {})  # O has just borne off his last checker
    assert over.outcome() is not None
    with pytest.raises(ValueError):
        over.analyze((3, 1))
    e = over.evaluate(2)  # evaluate is exact on a finished game (for the side to move: a loss)
    assert e.probabilities.win == 0 and e.equity < 0


@pytest.mark.parametrize("kwargs", [{"plies": -1}, {"plies": 9}, {"plies": 33}, {"plies": True}, {"plies": 1.0},
                                    {"threads": 0}, {"threads": -1}])
def test_bad_evaluate_batch_arguments(kwargs):
    rows = midgame("fevga").to_array()[None, :]
    with pytest.raises(ValueError):
        tavli.evaluate_batch(rows, "fevga", **kwargs)


@pytest.mark.parametrize("rows", [np.zeros((1, 3), dtype=np.uint8), np.zeros((2, 64), dtype=np.float32),
                                  np.full((1, 64), 300), "nonsense"])
def test_bad_evaluate_batch_positions(rows):
    with pytest.raises(ValueError):
        tavli.evaluate_batch(rows, "fevga")


# ---------------------------------------------------------------------------------------------
# Questionable: a mother win worth 3 points (option mother_points=3) is valued as a double (2).
# ---------------------------------------------------------------------------------------------


def test_mother_win_with_three_points_is_worth_three():
    board = make_board("plakoto", {17: 1, 10: 14}, {0: 1, 12: 14}, mother_points=3)
    best = board.analyze((6, 2), 1)[0]
    assert board.play(best.play).outcome() == (0, 3, "mother")
    assert best.equity == pytest.approx(3.0)


# ---------------------------------------------------------------------------------------------
# The race part of the static evaluator: with every checker home, the one-sided bear-off table
# (cpp/include/tavli/bearoff.h) values the race; it must match the exact solver.
# ---------------------------------------------------------------------------------------------

ALL_HOME_RACES = [
    ("backgammon", {18: 1, 20: 1}, {19: 1, 21: 1}),
    ("backgammon", {18: 2, 22: 1}, {20: 2}),
    ("backgammon", {18: 3}, {23: 2, 21: 1}),
    ("portes", {19: 1, 23: 1}, {18: 1}),
    ("fevga", {18: 1, 19: 1, 20: 1}, {18: 2}),
    ("narde", {21: 2, 18: 1}, {19: 1, 22: 1}),
]


@pytest.mark.parametrize("variant,m,o", ALL_HOME_RACES, ids=[f"{v}-{i}" for i, (v, _, _) in enumerate(ALL_HOME_RACES)])
def test_static_race_evaluation_is_exact_when_all_home(variant, m, o):
    board = make_board(variant, m, o)
    p, _amb, _longest = ExactSolver(variant).value(oracle_pos(board))
    got = board.evaluate(0).probabilities
    assert abs(got.win - p[0]) <= 2e-3, (got, p)
    assert abs(got.equity - equity(p)) <= 5e-3, (got, p)
