"""Hypergammon with one checker a side is small enough to solve exactly (GNU Backgammon's
`makehyper` builds such databases, RULES-KIN.md §5). This file solves it from the rule book alone
— its own move rules for one checker, value iteration over all 625 positions, cubeless, each side
maximising its expected points — and checks the engine's full-depth search against it on race
positions, where the game ends within the search horizon whatever is played.

One-checker rules used here (RULES.md §1.4, §1.5, §2; RULES-KIN.md §5): a single opposing checker
never closes a point, so every step is legal; landing on it hits it to the bar; from the bar a die
d enters on r = d - 1; the checker is "all home" on r18..r23 and then any die at least as large as
its distance bears it off. Both dice must be played when possible (a bear-off with the first die
ends the play, so the other order wins when it plays both: that can hit on the way), else the
higher die. Every win is a gammon (the loser has borne off none); a backgammon if the loser's
checker is on the bar or in the winner's home board (his r0..r5).
"""

from __future__ import annotations

import numpy as np
import pytest

from helpers import BAR, make_board

FULL = [(1000, 0, 0)]
ROLLS = [((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(1, a + 1)]
SPOTS = list(range(-1, 24))  # bar, r0..r23
TERMINAL = -1


def index(x: int, o: int) -> int:
    return (x + 1) * 25 + (o + 1)


def step(x: int, o: int, d: int) -> tuple[int, int, bool]:
    """One die for the mover's checker at x (opponent's at o, his frame): (x', o', borne off)."""
    to = d - 1 if x == BAR else x + d
    if to >= 24:
        assert x >= 18
        return x, o, True
    if o != BAR and to == 23 - o:  # his checker stands on my point `to`: hit
        o = BAR
    return to, o, False


def plays(x: int, o: int, dice: tuple[int, int]) -> set:
    """Distinct results (x', o', off) of the legal plays."""
    a, b = dice
    orders = [[a] * 4] if a == b else [[a, b], [b, a]]
    cands = []
    for seq in orders:
        cx, co, used = x, o, 0
        for d in seq:
            cx, co, off = step(cx, co, d)
            used += 1
            if off:
                break
        cands.append(((cx, co, off), used, seq[0]))
    most = max(c[1] for c in cands)
    cands = [c for c in cands if c[1] == most]
    if a != b and most == 1 and any(c[2] == max(a, b) for c in cands):
        cands = [c for c in cands if c[2] == max(a, b)]
    return {c[0] for c in cands}


def terminal_value(o: int) -> np.ndarray:
    """(win, win_double, win_triple, lose_double, lose_triple) of the side that just bore off."""
    triple = o == BAR or 0 <= o <= 5
    return np.array([1.0, 1.0, float(triple), 0.0, 0.0])


def invert(v: np.ndarray) -> np.ndarray:
    return np.stack([1.0 - v[..., 0], v[..., 3], v[..., 4], v[..., 1], v[..., 2]], axis=-1)


def equity(v: np.ndarray) -> np.ndarray:
    return 2 * v[..., 0] - 1 + v[..., 1] - v[..., 3] + v[..., 2] - v[..., 4]


class Solver:
    def __init__(self):
        states = [(x, o) for x in SPOTS for o in SPOTS if x == BAR or o == BAR or x != 23 - o]
        self.states = states
        n = 25 * 25
        # Per state and roll, up to two candidate results: next state (opponent to move) or terminal.
        self.nxt = np.full((n, 21, 2), TERMINAL, dtype=np.int64)
        self.term = np.zeros((n, 21, 2, 5))
        self.valid = np.zeros((n, 21, 2), dtype=bool)
        for x, o in states:
            s = index(x, o)
            for k, (dice, _) in enumerate(ROLLS):
                for c, (nx, no, off) in enumerate(sorted(plays(x, o, dice))):
                    self.valid[s, k, c] = True
                    if off:
                        self.term[s, k, c] = terminal_value(no)
                    else:
                        self.nxt[s, k, c] = index(no, nx)  # the opponent's view
        self.weights = np.array([w for _, w in ROLLS])
        self.live = np.array(sorted(index(x, o) for x, o in states))
        self.value = self._solve()

    def _solve(self) -> np.ndarray:
        v = np.zeros((25 * 25, 5))
        v[:, 0] = 0.5
        for _ in range(5000):
            after = np.where((self.nxt >= 0)[..., None], invert(v[np.maximum(self.nxt, 0)]), self.term)
            eq = np.where(self.valid, equity(after), -np.inf)
            best = np.take_along_axis(after, eq.argmax(axis=2)[..., None, None], axis=2)[:, :, 0]
            new = np.einsum("k,skf->sf", self.weights, best)
            new[~np.isin(np.arange(len(new)), self.live)] = 0
            delta = np.abs(new - v).max()
            v = new
            if delta < 1e-13:
                return v
        raise AssertionError("value iteration did not converge")

    def longest(self, x: int, o: int) -> int:
        """Plies until the game ends along the longest line of play (None-safe only for races)."""
        memo = {}

        def go(x, o, depth):
            if depth > 40:
                raise AssertionError("not a bounded position")
            key = (x, o)
            if key in memo:
                return memo[key]
            worst = 0
            for dice, _ in ROLLS:
                for nx, no, off in plays(x, o, dice):
                    worst = max(worst, 1 if off else 1 + go(no, nx, depth + 1))
            memo[key] = worst
            return worst

        return go(x, o, 0)


@pytest.fixture(scope="module")
def solver():
    return Solver()


def test_solver_sanity(solver):
    v = solver.value
    # From the start (both on r0) the side on roll has the edge, and everything sums up.
    start = v[index(0, 0)]
    assert 0.5 < start[0] < 0.75
    assert start[1] == pytest.approx(start[0]) and start[3] == pytest.approx(1 - start[0])
    # The checker on r23 bears off with any roll: a certain win, a backgammon when his checker is
    # still in my home board (his r0..r5) or on the bar.
    assert v[index(23, 10)][:3] == pytest.approx([1.0, 1.0, 0.0])
    assert v[index(23, 3)][:3] == pytest.approx([1.0, 1.0, 1.0])
    assert v[index(23, BAR)][:3] == pytest.approx([1.0, 1.0, 1.0])


# Races: my checker has passed his (his checker is on my point 23 - o < x).
RACES = [(20, 4), (22, 2), (19, 15), (18, 20), (17, 12), (14, 18), (16, 16)]


@pytest.mark.parametrize("x, o", RACES)
def test_engine_full_depth_search_equals_the_exact_solution(solver, x, o):
    assert 23 - o < x
    longest = solver.longest(x, o)
    assert longest <= 6
    board = make_board("hypergammon", {x: 1}, {o: 1}, checkers=1)
    got = board.evaluate(longest, filters=FULL).probabilities
    want = solver.value[index(x, o)]
    assert [got.win, got.win_double, got.win_triple, got.lose_double, got.lose_triple] == pytest.approx(
        list(want), abs=2e-6
    )
    assert got.draw == 0 and got.margin == 0


@pytest.mark.parametrize("x, o", [(20, 4), (19, 15)])
def test_engine_best_play_is_the_exact_best(solver, x, o):
    """Every roll: the engine's first choice has the exact solution's best equity."""
    board = make_board("hypergammon", {x: 1}, {o: 1}, checkers=1)
    longest = solver.longest(x, o)
    for dice, _ in ROLLS:
        analysis = board.analyze(dice, max(longest - 1, 0), filters=FULL)
        best = max(
            float(equity(terminal_value(no) if off else invert(solver.value[index(no, nx)])))
            for nx, no, off in plays(x, o, dice)
        )
        assert analysis[0].equity == pytest.approx(best, abs=5e-6), dice
