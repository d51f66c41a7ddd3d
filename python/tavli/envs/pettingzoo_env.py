"""PettingZoo AEC environment: two agents, "player_0" (White) and "player_1" (Black), a checker
step per action (the same action space, observation and mask as tavli.envs.TavliEnv)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .actions import NUM_ACTIONS, action_step, describe
from .game import Game, illegal_action_args
from .observation import HIGH

AGENTS = ("player_0", "player_1")  # colours 0 (White) and 1 (Black)


class TavliAECEnv(AECEnv):
    """A game of `variant` (rule options as keyword arguments, as tavli.Board takes them) between
    two agents. The agent selected is the side to move, one step per action; rolls without a legal
    play pass by themselves. Observations are dicts: "observation" (Box float32, from the
    observing agent's side) and "action_mask" (int8, 150); ``infos`` hold the mask and the legal
    plays of the agent to act. At the end both get their points: + for the winner, - for the loser,
    0 each for a draw. An action the mask does not allow raises tavli.IllegalMove, or with
    ``illegal_action="penalize"`` changes nothing and costs the agent ``illegal_penalty``."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "tavli_v0", "is_parallelizable": False,
                                "render_fps": 4}

    def __init__(
        self,
        variant: str = "fevga",
        *,
        illegal_action: str = "raise",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = Game(variant, options)
        self.illegal_action, self.illegal_penalty = illegal_action_args(illegal_action, illegal_penalty)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.variant = self.game.variant
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        box = spaces.Box(0.0, HIGH, shape=(self.game.observe.size,), dtype=np.float32)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)})
            for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self.np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        color = AGENTS.index(agent)
        return {"observation": self.game.observation(color), "action_mask": self.game.mask(color)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``options={"position": ID or tavli.Board}`` starts from that position."""
        if seed is not None or self.np_random is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        position = options.get("position") if isinstance(options, dict) else None
        self.game.start(self.np_random, position)
        self.game.pass_while_no_play(self.np_random)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self._after_move()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        turn = self.game.turn
        assert turn is not None and self.np_random is not None  # an agent to act: reset() started a game
        action_step(action)  # an index 0..149, else ValueError
        if self.illegal_action == "penalize" and not turn.mask()[int(action)]:
            self.rewards[agent] = -self.illegal_penalty
            self.infos[agent] = dict(self.game.info(AGENTS.index(agent)), illegal_action=describe(action))
            self._accumulate_rewards()
            return
        turn.step(action)  # raises tavli.IllegalMove for a step the mask does not allow
        if turn.done:
            self.game.finish_turn(self.np_random)
            self.game.pass_while_no_play(self.np_random)
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _after_move(self) -> None:
        """Selects the side to move, or ends the game with its points."""
        game = self.game
        if game.turn is None:
            for color, a in enumerate(AGENTS):
                self.rewards[a] = game.points_for(color)
                self.terminations[a] = not game.stuck
                self.truncations[a] = game.stuck
        self.agent_selection = AGENTS[game.board.turn]
        self.infos = {a: game.info(color) for color, a in enumerate(AGENTS)}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.game.render_in(self.render_mode)

    def close(self) -> None:
        pass


def raw_aec_env(variant: str = "fevga", **kwargs: Any) -> TavliAECEnv:
    return TavliAECEnv(variant, **kwargs)


def aec_env(variant: str = "fevga", **kwargs: Any) -> AECEnv:
    """The AEC environment inside PettingZoo's order-enforcing wrapper (the usual way to use it)."""
    return wrappers.OrderEnforcingWrapper(TavliAECEnv(variant, **kwargs))
