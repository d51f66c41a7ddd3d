"""Self-play in C++ threads: whole games between two players, results as numpy arrays."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .. import _core
from .._base.args import as_int_array, int_arg, require_bool
from .._base.deadline import Deadline
from .._base.options import to_pairs
from .._base.progress import reporter
from ..backends import backend_arg, local_only_time_limit
from ..backends import ray as on_ray
from ..backends.local import run_chunks
from ..match import KINDS as MATCHES, NEXT_STARTER, OPENING
from ..players import player_arg
from ..cube_sim import match_cube_arg, money_cube_arg
from ..match_players import core_players, match_play_arg, money_play_arg, score_aware

KINDS = {0: "unfinished", 1: "single", 2: "double", 3: "triple", 4: "mother", 5: "draw", 6: "checkers"}


_int_arg = int_arg  # the old private names
_player = player_arg


# The index of a run's first game or match: game i is seeded by (seed, i), any i below 2**62.
MAX_FIRST = 2**62


def simulate(
    variant: str = "fevga",
    games: int = 1000,
    players: Sequence[Any] = ("greedy", "random"),
    *,
    seed: int = 0,
    threads: int = 1,
    max_plies: int = 10_000,
    start: Any = None,
    trajectories: bool = False,
    progress: Callable[[int, int], Any] | bool | None = None,
    chunk: int = 2048,
    first_game: int = 0,
    time_limit: float | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    cube: Any = False,
    **options: Any,
) -> dict[str, np.ndarray]:
    """Plays `games` games, players[0] as White and players[1] as Black, in C++ threads with the
    GIL released, and returns numpy arrays: winner (0, 1; -1 for a draw or an unfinished game),
    points, kind (see KINDS), starter, plies.

    Game i uses dice seeded by (seed, i): the same games whatever `threads` and `chunk`.
    `start`: a position row (Board.to_array()) to start every game from, its side to move first.
    `trajectories=True` adds, one row per play: positions (M, 64) before the play, dice (M, 2),
    steps (M, 6, 2; unused -2) and game (M,), the index of the game.
    `progress(done, total)` is called after every chunk of games (True: a progress bar). Ctrl-C
    stops the games within milliseconds (KeyboardInterrupt); past `time_limit` seconds (None: no
    limit) the call raises TimeoutError (the games finished so far are not returned: a seeded run
    is reproducible only whole, or by `first_game` parts).
    `first_game`: play games first_game .. first_game + games - 1 of the seed's sequence (a part
    of a larger run, bit for bit).
    `backend="ray"` shards the games across a Ray cluster (tavli.distributed.simulate, the same
    arrays; `ray_address` or an already initialised Ray session; docs/distributed.md).
    `cube=True` (or a dict of options, tavli.cube_sim): money play with the doubling cube
    (backgammon, nackgammon, hypergammon), adding cube, cube_owner, passed and scored. With the
    cube, players ending in '+cube:N' decide it by the cubeful search N plies deep, and at a match
    score (cube={'match': ...}) players ending in '+score' rank their plays by match winning chance;
    '+cubeful' ones rank them by cubeful equity, money play or score (tavli.match_players)."""
    trajectories = require_bool("trajectories", trajectories)
    if backend_arg(backend, ray_address) == "ray":
        local_only_time_limit(time_limit)
        return simulate_on_ray(variant, games, players, seed=seed, threads=threads, max_plies=max_plies,
                               start=start, trajectories=trajectories, progress=progress,
                               first_game=first_game, address=ray_address, cube=cube, **options)
    if not isinstance(variant, str):
        raise ValueError("variant must be a string")
    games = _int_arg("games", games, 0, _core.MAX_GAMES)  # the core's bounds (cpp/include/tavli/sim.h)
    threads = _int_arg("threads", threads, 1, _core.MAX_THREADS)
    max_plies = _int_arg("max_plies", max_plies, 1, 10**7)
    chunk = _int_arg("chunk", chunk, 1, 10**7)
    seed = _int_arg("seed", seed, 0, 2**64 - 1)
    first_game = _int_arg("first_game", first_game, 0, MAX_FIRST)
    progress = reporter(progress)
    specs, play_options = core_players(players)
    row = None
    if start is not None:
        row = as_int_array(start, "start", "uint8")
    pairs = to_pairs(options)
    cube_arg = money_cube_arg(variant, cube)
    play = money_play_arg(play_options, cube_arg)
    deadline = Deadline(time_limit)
    return run_chunks(lambda first, n: _core._simulate(variant, pairs, specs, first_game + first, n, seed, threads,
                                                       max_plies, row, trajectories, deadline.remaining(),
                                                       cube_arg, play),
                      games, chunk, progress)


def simulate_matches(
    kind: str = "tavli",
    matches: int = 100,
    players: Sequence[Any] = ("greedy", "random"),
    *,
    target: int | None = None,
    seed: int = 0,
    threads: int = 1,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    opening: Any = None,
    next_starter: str | None = None,
    max_plies: int = 10_000,
    progress: Callable[[int, int], Any] | bool | None = None,
    chunk: int = 256,
    first_match: int = 0,
    time_limit: float | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    cube: Any = False,
    met: Any = None,
) -> dict[str, np.ndarray]:
    """Plays whole matches (tavli.Match kinds: "tavli", "tavla", "backgammon", ...) between the two
    players; returns winner (-1 unfinished), score (N, 2) and games (N,). Match i uses dice seeded
    by (seed, i); `first_match` plays matches first_match .. first_match + matches - 1.
    `time_limit` and Ctrl-C: as in simulate (TimeoutError, KeyboardInterrupt).
    `backend="ray"`: sharded on a Ray cluster, the same arrays (as in simulate).
    `cube=True` (tavli.cube_sim): backgammon-family matches with the cube and the Crawford rule,
    cube decisions at the score through `met` (None: Kazaross-XG2).
    Players ending in '+score' rank their plays by match winning chance at the score, in every game
    (a cubeless backgammon match through `met` too), '+cubeful' ones (with the cube) by cubeful
    match winning chance, and '+cube:N' ones make their cube decisions by the cubeful search N
    plies deep (tavli.match_players)."""
    if backend_arg(backend, ray_address) == "ray":
        local_only_time_limit(time_limit)
        return simulate_matches_on_ray(kind, matches, players, target=target, seed=seed, threads=threads,
                                       options=options, opening=opening, next_starter=next_starter,
                                       max_plies=max_plies, progress=progress, first_match=first_match,
                                       address=ray_address, cube=cube, met=met)

    if not isinstance(kind, str) or kind not in MATCHES:
        raise ValueError(f"unknown match kind {kind!r} (known: {', '.join(MATCHES)})")
    cycle, default_target = MATCHES[kind]
    target = _int_arg("target", default_target if target is None else target, 1, _core.MAX_MATCH_TARGET)
    matches = _int_arg("matches", matches, 0, _core.MAX_MATCHES)  # the core's bounds (sim.h, match.h)
    threads = _int_arg("threads", threads, 1, _core.MAX_THREADS)
    seed = _int_arg("seed", seed, 0, 2**64 - 1)
    chunk = _int_arg("chunk", chunk, 1, 10**6)
    first_match = _int_arg("first_match", first_match, 0, MAX_FIRST)
    progress = reporter(progress, "matches")
    options = dict(options or {})
    for name in options:
        if name not in cycle:
            raise ValueError(f"options for {name!r}, which is not a game of a {kind} match")
    if isinstance(opening, Mapping):
        openings = {g: opening.get(g, OPENING.get(g, "reroll")) for g in cycle}
    else:
        openings = {g: opening or OPENING.get(g, "reroll") for g in cycle}
    if next_starter is None:
        next_starter = NEXT_STARTER.get(cycle[0], "previous_winner") if len(cycle) == 1 else "previous_winner"
    specs, play_options = core_players(players)
    games = [(g, to_pairs(options.get(g, {})), openings[g]) for g in cycle]
    # met= is the cube's table; in a cubeless match a score-aware player's (else match_cube_arg refuses it).
    met_for_scores = (cube is None or cube is False) and score_aware(play_options)
    cube_arg = match_cube_arg(cube, None if met_for_scores else met, cycle, target, next_starter, openings)
    play = match_play_arg(play_options, cycle, target, cube_arg, met if met_for_scores else None)
    deadline = Deadline(time_limit)
    return run_chunks(lambda first, n: _core._simulate_matches(games, target, next_starter, specs, first_match + first,
                                                               n, seed, threads, max_plies, deadline.remaining(), cube_arg,
                                                               play),
                      matches, chunk, progress)


def win_rate(result: dict[str, np.ndarray], player: int = 0) -> tuple[float, float]:
    """Share of decided games won by `player`, with a 95% normal-approximation half-width."""
    decided = result["winner"] >= 0
    n = int(decided.sum())
    if n == 0:
        return float("nan"), float("nan")
    p = float((result["winner"][decided] == player).mean())
    return p, 1.96 * (p * (1 - p) / n) ** 0.5


# --- the same runs on a Ray cluster (tavli.distributed) ------------------------------------------
def simulate_on_ray(*args: Any, address: str | None = None, shard: int | None = None,
                    retries: int = on_ray.DEFAULT_RETRIES, **kwargs: Any) -> dict[str, np.ndarray]:
    """tavli.simulate on a Ray cluster (tavli.distributed.simulate): its arguments, and the same
    arrays (trajectories' `game` included: the global game index). Each task plays `shard`
    consecutive games (default: about games / (4 x the tasks the cluster runs at once)) in
    `threads` C++ threads on as many CPUs. `players` travel to the workers as given (a
    tavli.nn.Net pickles). `address`: the cluster; `retries`: re-runs of a task whose worker died."""
    return on_ray.counted(simulate, "games", "first_game", 100_000_000, args, kwargs, address=address, shard=shard,
                          retries=retries)


def simulate_matches_on_ray(*args: Any, address: str | None = None, shard: int | None = None,
                            retries: int = on_ray.DEFAULT_RETRIES, **kwargs: Any) -> dict[str, np.ndarray]:
    """tavli.simulate_matches on a Ray cluster (tavli.distributed.simulate_matches): its arguments
    but chunk and time_limit, the same arrays, match i seeded by (seed, i)."""
    return on_ray.counted(simulate_matches, "matches", "first_match", 10_000_000, args, kwargs, address=address,
                          shard=shard, retries=retries, refused=("chunk", "time_limit", "backend", "ray_address"))
