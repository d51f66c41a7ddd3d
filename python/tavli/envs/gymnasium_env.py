"""Gymnasium environment: one agent against a built-in opponent, a checker step per action."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .actions import NUM_ACTIONS, action_step, describe
from .game import Game, illegal_action_args
from .observation import HIGH
from .opponents import make_opponent

COLORS = {0: 0, 1: 1, "white": 0, "black": 1}


class TavliEnv(gymnasium.Env):
    """A game of `variant` (any of tavli.variants(); rule options as keyword arguments, as
    tavli.Board takes them) played by the agent as `agent_color` (0/"white" or 1/"black") against
    `opponent` ("greedy": the engine's 0-ply choice; "random"; or a callable (board, dice) -> Play).

    Action: Discrete(150), one checker step (tavli.envs.actions: (route index + 1) * 6 + die - 1,
    bar -1); ``info["action_mask"]`` (and ``action_masks()``) marks the allowed ones. The turn ends
    when the steps make a legal play; then the opponent plays, and rolls without a legal play pass
    by themselves, until the agent has a roll to play or the game is over. Observation: Box float32
    (tavli.envs.observation). Reward: at the end only, the points the agent won (+) or lost (-).
    An action the mask does not allow changes nothing and costs ``illegal_penalty`` (1 point)
    with ``info["illegal_action"]`` naming it: Gymnasium's contract (and its env checker) lets
    every action of the space reach step(). ``illegal_action="raise"`` raises tavli.IllegalMove
    instead, to catch a masking bug early (docs/envs.md).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        variant: str = "fevga",
        *,
        opponent: Any = "greedy",
        agent_color: Any = 0,
        illegal_action: str = "penalize",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game = Game(variant, options)
        if isinstance(agent_color, bool) or agent_color not in tuple(COLORS):
            raise ValueError(f"agent_color must be 0, 1, 'white' or 'black', got {agent_color!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.variant = self.game.variant
        self.agent_color = COLORS[agent_color]
        self.opponent = make_opponent(opponent, lambda: self.np_random)
        self.illegal_action, self.illegal_penalty = illegal_action_args(illegal_action, illegal_penalty)
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(0.0, HIGH, shape=(self.game.observe.size,), dtype=np.float32)
        self._over = True

    # --- the game -------------------------------------------------------------------------------
    def _play_until_agent(self) -> None:
        """Passes and opponent turns until the agent has a roll with a legal play, or the end."""
        game = self.game
        game.pass_while_no_play(self.np_random)
        while game.turn is not None and game.board.turn != self.agent_color:
            game.play(self.opponent(game.board.copy(), game.turn.dice), self.np_random)
            game.pass_while_no_play(self.np_random)

    def _result(self, reward: float) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        c, stuck = self.agent_color, self.game.stuck
        return self.game.observation(c), reward, self._over and not stuck, stuck, self.game.info(c)

    # --- gymnasium API --------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; ``options={"position": ID or tavli.Board}`` starts from that position of
        this game (its side to move rolls first) instead of the opening."""
        super().reset(seed=seed)
        self.game.start(self.np_random, _start_position(options))
        self._play_until_agent()
        self._over = self.game.turn is None
        obs, _, _, _, info = self._result(0.0)
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("no game in progress (it is over, or never started): call reset()")
        action_step(action)  # an index 0..149, else ValueError
        turn = self.game.turn
        assert turn is not None  # not over: the agent has a roll to play
        if self.illegal_action == "penalize" and not turn.mask()[int(action)]:
            obs, reward, terminated, truncated, info = self._result(-self.illegal_penalty)
            info["illegal_action"] = describe(action)
            return obs, reward, terminated, truncated, info
        turn.step(action)  # raises tavli.IllegalMove for a step the mask does not allow
        if turn.done:
            self.game.finish_turn(self.np_random)
            self._play_until_agent()
        self._over = self.game.turn is None
        reward = self.game.points_for(self.agent_color) if self._over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._result(reward)

    def action_masks(self) -> np.ndarray:
        """The mask as a bool array (the name sb3-contrib's MaskablePPO looks for)."""
        return self.game.mask(self.agent_color).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: give render_mode='ansi' or 'human'")
            return None
        return self.game.render_in(self.render_mode)


def _start_position(options: Any) -> Any:
    """The "position" of reset's options (None: the opening); no other option is known."""
    if options is None:
        return None
    if not isinstance(options, dict) or set(options) - {"position"}:
        raise ValueError(f"reset options: only {{'position': ID or tavli.Board}} is known, got {options!r}")
    return options.get("position")
