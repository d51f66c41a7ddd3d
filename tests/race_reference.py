"""An independent reference for one-sided races, from RULES.md §1.4-1.5 alone (used by
test_bearoff.py and test_race_db.py): a side moves alone, a die moves a checker that many points,
and a checker bears off only once every checker is home, by the exact die or - the farthest one -
a larger die. A state is a tuple: state[k] = checkers k + 1 pips from off."""

from __future__ import annotations

import tavli
from helpers import make_board

ROLLS = [((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(1, a + 1)]


def steps(state: tuple[int, ...], d: int) -> set[tuple[int, ...]]:
    """The states one die can lead to."""
    out = set()
    occupied = [k + 1 for k in range(len(state)) if state[k]]
    home = max(occupied) <= 6
    for k in range(len(state)):
        if not state[k]:
            continue
        p = k + 1
        s = list(state)
        s[k] -= 1
        if p > d:
            s[k - d] += 1
        elif not (home and (p == d or p == max(occupied))):
            continue
        out.add(tuple(s))
    return out


def plays(state: tuple[int, ...], dice: tuple[int, int]) -> set[tuple[int, ...]]:
    """Resulting states of a roll: every die is played (in either order) until nothing is left
    (alone on the board, a side can always play every die)."""
    a, b = dice
    orders = [[a] * 4] if a == b else [[a, b], [b, a]]
    results = set()
    for seq in orders:
        frontier = {state}
        for d in seq:
            frontier = {t for s in frontier for t in (steps(s, d) if any(s) else {s})}
        results |= frontier
    return results


def board_of(mine, theirs, variant="backgammon") -> tavli.Board:
    # k + 1 pips from off is route index 23 - k, for either side in its own frame.
    return make_board(variant, {23 - k: c for k, c in enumerate(mine) if c},
                      {23 - k: c for k, c in enumerate(theirs) if c})
