"""A game as the environments run it: the board, the opening, seeded dice and the current turn."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from .._core import canonical_variant
from ..board import Board, Outcome
from ..match import Match
from .actions import NUM_ACTIONS
from .observation import Observer
from .turn import Turn


ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]  # the 21 rolls


def roll(np_random: np.random.Generator) -> tuple[int, int]:
    d1, d2 = np_random.integers(1, 7, size=2)
    return int(d1), int(d2)


def illegal_action_args(illegal_action: Any, illegal_penalty: Any) -> tuple[str, float]:
    """Checks what an environment does with an action its mask does not allow."""
    if illegal_action not in ("raise", "penalize"):
        raise ValueError(f"illegal_action must be 'raise' or 'penalize', got {illegal_action!r}")
    if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float)) or not illegal_penalty >= 0:
        raise ValueError(f"illegal_penalty must be a number >= 0, got {illegal_penalty!r}")
    return illegal_action, float(illegal_penalty)


class Game:
    """One game of `variant` with rule `options` (as tavli.Board takes them)."""

    def __init__(self, variant: str, options: dict[str, Any]) -> None:
        if not isinstance(variant, str):
            raise ValueError(f"variant must be a string (one of tavli.variants()), got {type(variant).__name__}")
        start = Board(variant, **options)  # validates the variant and the options
        self.variant = canonical_variant(variant)
        self.options = start.options
        self.observe = Observer(self.variant, self.options, start.to_array())
        self.board = start
        self.turn: Turn | None = None
        self.stuck = False  # neither side can ever move again, and the rules do not end the game

    def start(self, np_random: np.random.Generator, position: Any = None) -> None:
        """A new game from the game's opening (RULES.md §8 D-OPENING, as tavli.Match plays it):
        one die each until they differ; the higher starts, with those two dice where the game
        says so (Backgammon and kin), else with a new roll. Or from `position` (a position ID or
        a tavli.Board of this game, its side to move rolling first)."""
        self.stuck = False
        if position is not None:
            self.board = self._start_board(position)
            self.turn = Turn(self.board, roll(np_random))
            return
        match = Match(self.variant, target=1, options={self.variant: self.options})
        while not match.roll_opening(*roll(np_random)):
            pass
        self.board = match.board
        dice = match.forced_dice or roll(np_random)
        self.turn = Turn(self.board, dice)

    def _start_board(self, position: Any) -> Board:
        if isinstance(position, str):
            board = Board.from_id(position)
        elif isinstance(position, _core.Board):
            board = Board._from_core(position)
        else:
            raise ValueError(f"position: expected a position ID or a tavli.Board, got {type(position).__name__}")
        if board.variant != self.variant or board.options != self.options:
            raise ValueError(f"position: a game of {board.variant} {board.options}, not of this environment's "
                             f"{self.variant} {self.options}")
        if board.is_game_over():
            raise ValueError(f"position: the game is over there ({board.outcome()})")
        return board

    def finish_turn(self, np_random: np.random.Generator) -> None:
        """Pushes the completed turn's play; then the other side rolls (no turn once it is over)."""
        assert self.turn is not None  # a turn is in progress: the game is not over
        self.turn.finish()
        self._next_turn(np_random)

    def play(self, play: Any, np_random: np.random.Generator) -> None:
        """Plays a whole legal play of the current roll at once (an opponent's choice)."""
        t = self.turn
        assert t is not None  # a turn is in progress: the game is not over
        if not isinstance(play, _core.Play) or play.result_key not in {p.result_key for p in t.plays}:
            raise _core.IllegalMove(f"{play!r} is not a legal play of {t.dice[0]}-{t.dice[1]} in {self.board.id()}")
        self.board.push(play)
        self._next_turn(np_random)

    def pass_while_no_play(self, np_random: np.random.Generator) -> None:
        """A roll without a legal play passes by itself (RULES.md §1.4). After two passes in a row
        it checks whether either side can ever move again: where the rules leave such a position
        undecided (Plakoto with mother="off") the game is `stuck` instead of passing for ever."""
        passes = 0
        while self.turn is not None and self.turn.is_pass:
            self.finish_turn(np_random)
            passes += 1
            if passes >= 2 and self.turn is not None and self._nobody_can_move():
                self.stuck, self.turn = True, None

    def _nobody_can_move(self) -> bool:
        def no_roll_plays(board: Board) -> bool:
            return all(not board.legal_plays(r)[0].steps for r in ROLLS)

        board = self.board.copy()
        if not no_roll_plays(board):
            return False
        board.push(board.legal_plays(ROLLS[0])[0])  # its pass: the other side to move
        return board.is_game_over() or no_roll_plays(board)

    def _next_turn(self, np_random: np.random.Generator) -> None:
        self.turn = None if self.board.is_game_over() else Turn(self.board, roll(np_random))

    def outcome(self) -> Outcome | None:
        return self.board.outcome()

    def points_for(self, color: int) -> float:
        """The points `color` won (+) or lost (-) in the finished game; 0 for a draw."""
        o = self.board.outcome()
        if o is None or o.winner is None:
            return 0.0
        return float(o.points if o.winner == color else -o.points)

    def observation(self, color: int) -> np.ndarray:
        """What `color` sees now: with its roll and the steps so far when it is to act."""
        t = self.turn
        if t is not None and self.board.turn == color:
            return self.observe(t.row, dice=t.dice, dice_used=t.dice_used, steps_left=t.length - len(t.steps))
        return self.observe(self.board.to_array(), flip=self.board.turn != color)

    def mask(self, color: int) -> np.ndarray:
        t = self.turn
        if t is not None and self.board.turn == color:
            return t.mask()
        return np.zeros(NUM_ACTIONS, dtype=np.int8)

    def info(self, color: int) -> dict[str, Any]:
        """The natural list of plays for `color` when it is to act: the legal plays (move text and
        steps) that its steps so far can still complete, the roll, its steps so far and the mask."""
        t = self.turn
        info: dict[str, Any] = {"action_mask": self.mask(color)}
        if t is not None and self.board.turn == color:
            plays = t.open_plays
            info.update(
                dice=t.dice,
                plays=[str(p) for p in plays],
                play_steps=[list(p.steps) for p in plays],
                steps=list(t.steps),
            )
        o = self.board.outcome()
        if o is not None:
            info["outcome"] = o._asdict()
        return info

    def render(self) -> str:
        """The board diagram, the roll and the steps taken so far, or the result."""
        lines = [str(self.board)]
        t = self.turn
        if t is not None:
            steps = " ".join(f"{a}/{b}" for a, b in t.steps) or "none"
            lines.append(f"roll {t.dice[0]}-{t.dice[1]}; steps so far (route indices): {steps}")
        o = self.outcome()
        if o is not None:
            lines.append(f"game over: {o}")
        return "\n".join(lines)

    def render_in(self, mode: str) -> str | None:
        """What an environment's render() gives in `mode` (both environments' render modes):
        "ansi" returns the text, "human" prints it."""
        text = self.render()
        if mode == "ansi":
            return text
        print(text)
        return None
