"""Training data from self-play: every position a simulation's players met, with its roll, its
features and the final result of its game from the side to move's view, as numpy arrays.
tavli.distributed.self_play_data makes the same rows on a Ray cluster."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from .._base.args import require_bool
from ..backends import backend_arg
from ..backends import ray as on_ray
from .batch import encode
from .simulate import simulate


def self_play_data(
    variant: str = "fevga",
    games: int = 1000,
    players: Sequence[Any] = ("greedy", "greedy"),
    *,
    seed: int = 0,
    threads: int = 1,
    max_plies: int = 10_000,
    start: Any = None,
    features: bool = True,
    encoding: str | None = None,
    roll_units: bool = False,
    progress: Callable[[int, int], Any] | bool | None = None,
    first_game: int = 0,
    backend: str = "local",
    ray_address: str | None = None,
    **options: Any,
) -> dict[str, np.ndarray]:
    """Plays games first_game .. first_game + games - 1 as tavli.simulate does (game i seeded by
    (seed, i)) and returns one row per play, in game order:

    - positions (M, 64) uint8: the position before the play (Board.to_array rows, mover-relative:
      column 52 is the side to move);
    - dice (M, 2) int8: the roll played;
    - game (M,) int64: the game's index;
    - result (M,) float32: the game's points for the side to move (+ a win, - a loss; 0 for a
      draw or a game stopped at max_plies, which `finished` tells apart);
    - finished (M,) bool: the game ended by the rules;
    - features (M, F) float32 when `features`: tavli.encode of the positions (`encoding`: the
      game's own when None; `roll_units`: 21 one-hot roll units of the dice follow).

    `backend="ray"`: the same arrays from a Ray cluster (tavli.distributed.self_play_data)."""
    features, roll_units = require_bool("features", features), require_bool("roll_units", roll_units)
    if backend_arg(backend, ray_address) == "ray":
        return self_play_data_on_ray(variant, games, players, seed=seed, threads=threads, max_plies=max_plies,
                                     start=start, features=features, encoding=encoding, roll_units=roll_units,
                                     progress=progress, first_game=first_game, address=ray_address, **options)
    sim = simulate(variant, games, players, seed=seed, threads=threads, max_plies=max_plies, start=start,
                   trajectories=True, progress=progress, first_game=first_game, **options)
    positions, dice, game = sim["positions"], sim["dice"], sim["game"]
    of_row = game - first_game  # each row's game within this run
    winner = sim["winner"][of_row].astype(np.int64)
    points = sim["points"][of_row].astype(np.float32)
    mover = positions[:, 52].astype(np.int64)
    result = np.where(winner < 0, np.float32(0), np.where(winner == mover, points, -points)).astype(np.float32)
    out = {
        "positions": positions,
        "dice": dice,
        "game": game,
        "result": result,
        "finished": sim["kind"][of_row] != 0,  # KINDS[0]: unfinished
    }
    if features:
        out["features"] = encode(positions, variant, dice=dice if roll_units else None, encoding=encoding, **options)
    return out


def self_play_data_on_ray(*args: Any, address: str | None = None, shard: int | None = None,
                          retries: int = on_ray.DEFAULT_RETRIES, **kwargs: Any) -> dict[str, np.ndarray]:
    """tavli.selfplay.self_play_data on a Ray cluster (tavli.distributed.self_play_data): its
    arguments, the same rows, encoded on the workers."""
    return on_ray.counted(self_play_data, "games", "first_game", 100_000_000, args, kwargs, address=address,
                          shard=shard, retries=retries)
