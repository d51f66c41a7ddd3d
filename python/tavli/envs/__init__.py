"""Learning environments for every game (optional: ``pip install "tavli[rl]"``; docs/envs.md).

``import tavli.envs`` registers the Gymnasium ids ``tavli/<Game>-v0`` for each of
tavli.variants() (``tavli/Fevga-v0``, ``tavli/Backgammon-v0``, ...) and ``tavli/Game-v0``, which
takes ``variant=``; rule options pass through as keyword arguments::

    import gymnasium, tavli.envs
    env = gymnasium.make("tavli/Plakoto-v0", opponent="random", mother="at_pin_only")

``tavli.envs.aec_env(variant)`` is the PettingZoo AEC environment of two agents. ``import tavli``
alone imports neither Gymnasium nor PettingZoo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._core import variants
from .actions import BAR, NUM_ACTIONS, OFF, action_index, action_step, step_target
from .gymnasium_env import TavliEnv

if TYPE_CHECKING:  # loaded lazily by __getattr__: PettingZoo only when asked for
    from .pettingzoo_env import TavliAECEnv, aec_env, raw_aec_env

# Gymnasium ids: the variant's name as written in the README (Tawla31 for "tawla31").
ENV_IDS = {v: f"tavli/{v.capitalize()}-v0" for v in variants()}
GENERIC_ID = "tavli/Game-v0"


def _register() -> None:
    import gymnasium

    for variant, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="tavli.envs.gymnasium_env:TavliEnv", kwargs={"variant": variant})
    if GENERIC_ID not in gymnasium.registry:
        gymnasium.register(GENERIC_ID, entry_point="tavli.envs.gymnasium_env:TavliEnv")


_register()


def __getattr__(name: str) -> Any:
    # PettingZoo is imported only when its environment is asked for.
    if name in ("TavliAECEnv", "aec_env", "raw_aec_env"):
        from . import pettingzoo_env as module

        return getattr(module, name)
    raise AttributeError(f"module 'tavli.envs' has no attribute {name!r}")


__all__ = [
    "BAR",
    "ENV_IDS",
    "GENERIC_ID",
    "NUM_ACTIONS",
    "OFF",
    "TavliAECEnv",
    "TavliEnv",
    "action_index",
    "action_step",
    "aec_env",
    "raw_aec_env",
    "step_target",
]
