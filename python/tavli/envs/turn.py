"""One roll of one side, played a checker step at a time.

The engine gives the legal plays of the roll (one per distinct resulting position, each with one
representative sequence of steps: RULES.md §1.4). A turn lets its side build one of them step by
step: an action (source, die) is allowed when some legal play that the steps so far belong to
still has the step ``source -> source + die`` (or off) left, its checker is there to move now, and
the play's other remaining steps can take the remaining dice. So every legal play is reached by
its own steps, in any order in which each step's checker is already there; the dice may bear
checkers off in any way that fits (a 6 or the exact 4 from the 4-point). The turn is over when the
steps make a whole play: all the legal plays of a roll have the same number of steps (the maximum
dice rule, RULES.md §1.4 step 3), so a whole play is never the start of another.
"""

from __future__ import annotations

import copy

import numpy as np

from .. import _core
from ..board import Board
from .actions import BAR, NUM_ACTIONS, OFF, action_index, action_step, describe, step_target
from .rows import flipped, same_checkers


def _die_fits(source: int, to: int, die: int) -> bool:
    """Whether `die` moves a checker from `source` to `to` (a bear-off may use a larger die)."""
    return step_target(source, die) == to if to != OFF else source + die >= OFF


def _dice_fit(steps: list[tuple[int, int]], dice: list[int]) -> bool:
    """Whether each step can take its own die of `dice` (tried exhaustively: at most six steps)."""
    if not steps:
        return True
    (source, to), rest = steps[0], steps[1:]
    for i, d in enumerate(dice):
        if (i == 0 or d != dice[i - 1]) and _die_fits(source, to, d) and _dice_fit(rest, dice[:i] + dice[i + 1:]):
            return True
    return False


class Turn:
    """The side to move of `board` playing the roll `dice` (`board` changes only in `finish`)."""

    def __init__(self, board: Board, dice: tuple[int, int]) -> None:
        self.board = board
        self.dice = dice
        self.plays: list[_core.Play] = board.legal_plays(dice)
        self.length = len(self.plays[0].steps)  # 0: no legal play, the side passes
        if any(len(p.steps) != self.length for p in self.plays):
            raise RuntimeError(f"legal plays of different lengths for {dice} in {board.id()}: the step "
                               "interface needs the maximum dice rule (RULES.md §1.4)")
        d1, d2 = dice
        self.dice_left = sorted([d1, d2] if d1 != d2 else [d1] * self.length)
        self.steps: list[tuple[int, int]] = []  # (from, to) taken so far
        self.dice_used: list[int] = []
        self.row = board.to_array().copy()  # the position after the steps so far
        # (play index, the play's steps not yet taken) for every play the steps so far belong to
        self._open = [(i, list(p.steps)) for i, p in enumerate(self.plays)]
        self._mask: np.ndarray | None = None

    def copy(self) -> "Turn":
        """An independent copy (sharing the board, which only `finish` changes), for look-ahead."""
        t = copy.copy(self)
        t.steps, t.dice_used, t.row = list(self.steps), list(self.dice_used), self.row.copy()
        return t  # _open and dice_left are replaced, never changed in place, by step()

    @property
    def is_pass(self) -> bool:
        return self.length == 0

    @property
    def done(self) -> bool:
        return len(self.steps) == self.length

    @property
    def open_plays(self) -> list[_core.Play]:
        """The legal plays that the steps so far can still complete."""
        return [self.plays[i] for i, _ in self._open]

    def _has_checker(self, source: int) -> bool:
        return bool(self.row[48 if source == BAR else source] > 0)

    def mask(self) -> np.ndarray:
        """int8 (NUM_ACTIONS,): 1 for the allowed actions (a copy)."""
        if self._mask is None:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
            for _, left in self._open:
                for k, (source, to) in enumerate(left):
                    if not self._has_checker(source):
                        continue
                    rest = left[:k] + left[k + 1:]
                    for j, d in enumerate(self.dice_left):
                        if (j == 0 or d != self.dice_left[j - 1]) and _die_fits(source, to, d):
                            if _dice_fit(rest, self.dice_left[:j] + self.dice_left[j + 1:]):
                                mask[action_index(source, d)] = 1
            self._mask = mask
        return self._mask.copy()

    def step(self, action: int) -> None:
        """Takes one step; raises tavli.IllegalMove naming it when the mask does not allow it."""
        source, die = action_step(action)
        if self.done:
            raise _core.IllegalMove("the turn is complete: no step is left to play")
        if not self.mask()[int(action)]:
            allowed = ", ".join(describe(int(a)) for a in np.flatnonzero(self.mask()))
            after = f"after the steps {self.steps}" if self.steps else "at the start of the turn"
            raise _core.IllegalMove(
                f"{describe(action)} is not a step of any legal play of {self.dice[0]}-{self.dice[1]} "
                f"{after}; allowed: {allowed}"
            )
        to = step_target(source, die)
        k = self.dice_left.index(die)
        dice_left = self.dice_left[:k] + self.dice_left[k + 1:]
        still = []
        for i, left in self._open:
            if (source, to) in left:
                rest = list(left)
                rest.remove((source, to))
                if _dice_fit(rest, dice_left):
                    still.append((i, rest))
        self._open, self.dice_left = still, dice_left
        self.steps.append((source, to))
        self.dice_used.append(die)
        self.row = self.board._after_steps(self.steps, *self.dice)  # the engine moves the checkers
        self._mask = None

    def play(self) -> _core.Play:
        """The legal play the steps made (the pass when there is none); only once `done`."""
        if not self.done:
            raise RuntimeError("the turn is not complete")
        return self.plays[self._open[0][0]]

    def finish(self) -> None:
        """Pushes the play onto the board and checks that the position the steps built is the
        engine's result, so the positions shown during the turn were the real ones."""
        self.board.push(self.play())
        if not same_checkers(flipped(self.board.to_array()), self.row):
            raise RuntimeError(f"internal error: the steps {self.steps} do not lead where the engine's "
                               f"play {self.play()} does ({self.board.id()})")
