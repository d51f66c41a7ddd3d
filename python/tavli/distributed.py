"""tavli's heavy jobs on a Ray cluster: simulations, matches, self-play training data, rollouts
and rollout training data, split into shards of consecutive games (or trials) and gathered as the local call's
exact arrays (docs/distributed.md).

Why the results are identical: game i of a run is seeded by (seed, i) whatever process plays it
(`first_game` tells a worker where its shard starts), and the shards are gathered in game order;
a rollout's trials are reduced in fixed blocks that the driver folds in order
(cpp/include/tavli/rollout.h). So neither the number of workers, nor the shard size, nor a task
that Ray re-runs after a worker died changes a single bit.

Ray is imported only here and only when one of these functions runs (`import tavli` stays free
of it). The cluster: an already initialised Ray session as it is; else ray.init(address) with
`address` (None: RAY_ADDRESS or a new local cluster; "auto": the cluster this machine joined).
Every node needs the same tavli installed."""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from . import _core
from ._progress import reporter

__all__ = ["simulate", "simulate_matches", "self_play_data", "rollout", "rollout_data", "DEFAULT_RETRIES"]

# Ray re-runs a task whose worker process or node died this many times before giving up.
DEFAULT_RETRIES = 3
# Shards per worker by default: enough to balance uneven machines and move the progress bar,
# few enough that a shard's fixed cost (a task, its arguments, its arrays) is negligible.
SHARDS_PER_WORKER = 4


def _ray() -> Any:
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError('the Ray backend needs Ray: pip install "tavli[ray]"') from e
    return ray


class _Settings:
    """The arguments every distributed call shares, checked before Ray is touched."""

    def __init__(self, progress: Any, unit: str, address: Any, shard: Any, retries: Any, threads: int,
                 align: int = 1) -> None:
        self.progress = reporter(progress, unit)
        if address is not None and not isinstance(address, str):
            raise ValueError(f"address must be a Ray address string (or None), got {type(address).__name__}")
        self.address = address
        if shard is not None:
            if isinstance(shard, bool) or not hasattr(shard, "__index__") or int(shard) < 1:
                raise ValueError(f"shard must be a positive integer ({unit} per task), got {shard!r}")
            if int(shard) % align:
                raise ValueError(f"shard must be a multiple of {align} {unit}, got {shard!r}")
        self.shard = None if shard is None else int(shard)
        if isinstance(retries, bool) or not hasattr(retries, "__index__") or not 0 <= int(retries) <= 100:
            raise ValueError(f"retries must be an integer 0..100, got {retries!r}")
        self.retries = int(retries)
        self.threads = threads
        self.align = align

    def connect(self) -> Any:
        """Ray, initialised: an existing session as it is, else ray.init(address)."""
        ray = _ray()
        if not ray.is_initialized():
            ray.init(address=self.address)
        return ray

    def shards(self, ray: Any, total: int) -> list[tuple[int, int]]:
        """(first, count) of consecutive shards covering 0 .. total - 1: `shard` each, or about
        total / (SHARDS_PER_WORKER x the tasks the cluster runs at once), rounded up to `align`."""
        size = self.shard
        if size is None:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)) // self.threads)
            size = max(1, math.ceil(total / (SHARDS_PER_WORKER * workers)))
            size = math.ceil(size / self.align) * self.align
        return [(first, min(size, total - first)) for first in range(0, total, size)]

    def run(self, fn: Callable[..., Any], args: Any, total: int) -> list[Any]:
        ray = self.connect()
        # A task needing more CPUs than any node has would wait forever.
        largest = max((n["Resources"].get("CPU", 0) for n in ray.nodes() if n.get("Alive")), default=0)
        if self.threads > largest:
            raise ValueError(f"threads={self.threads}: each task reserves that many CPUs, and the largest node of "
                             f"the cluster has {largest:g}")
        return _run(ray, fn, args, self.shards(ray, total), threads=self.threads, retries=self.retries,
                    progress=self.progress, total=total)


def _run(
    ray: Any,
    fn: Callable[..., Any],
    args: Any,
    shards: Sequence[tuple[int, int]],
    *,
    threads: int,
    retries: int,
    progress: Callable[[int, int], Any] | None,
    total: int,
) -> list[Any]:
    """fn(args, first, count) for every shard as Ray tasks; their results in shard order.

    A task whose worker dies is re-run by Ray (`retries` times); an exception raised by fn is not
    retried (it would be raised again) but re-raised here. Ctrl-C, or an exception from
    `progress`, cancels the outstanding tasks before it propagates."""
    task = _remote(ray, fn).options(num_cpus=threads, max_retries=retries, retry_exceptions=False)
    shared = ray.put(args)  # sent to each node once, not once per task
    refs = [task.remote(shared, first, count) for first, count in shards]
    index = {ref: k for k, ref in enumerate(refs)}
    results: list[Any] = [None] * len(refs)
    pending = list(refs)
    done = 0
    try:
        while pending:
            # A timeout keeps the driver responsive to Ctrl-C while the shards run.
            ready, pending = ray.wait(pending, num_returns=1, timeout=0.5)
            for ref in ready:
                k = index[ref]
                results[k] = ray.get(ref)
                done += shards[k][1]
                if progress is not None:
                    progress(done, total)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    return results


_REMOTE: dict[Any, Any] = {}


def _remote(ray: Any, fn: Callable[..., Any]) -> Any:
    """fn as a Ray remote function, made once per process (workers import it from tavli)."""
    if fn not in _REMOTE:
        _REMOTE[fn] = ray.remote(fn)
    return _REMOTE[fn]


def _concatenate(parts: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    # Always a copy: arrays from Ray's object store are read-only views.
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


# --- runs of consecutive games: simulations, matches, self-play data ------------------------------
def _shifted(kwargs: Mapping[str, Any], key: str, by: int) -> dict[str, Any]:
    """kwargs with kwargs[key] (a run's first game or match) moved on by a shard's offset."""
    return {**kwargs, key: kwargs[key] + by}


def _counted_shard(args: tuple[Callable[..., Any], str, str, dict[str, Any]], first: int,
                   count: int) -> dict[str, np.ndarray]:
    """Games (or matches) first .. first + count - 1 of a run: the local call on that part."""
    local, count_key, first_key, kwargs = args
    return local(**{count_key: count}, **_shifted(kwargs, first_key, first))


def _counted_run(local: Callable[..., Any], count_key: str, first_key: str, count: Any, limit: int,
                 kwargs: dict[str, Any], *, progress: Any, address: Any, shard: Any, retries: Any,
                 threads: Any) -> dict[str, np.ndarray]:
    """A run of `count` games (or matches) of local(**kwargs) sharded on the cluster: the local call
    on none checks every argument (and is the answer for none), the shards' arrays in order."""
    from .sim import _int_arg

    empty = local(**{count_key: 0}, **kwargs)
    count = _int_arg(count_key, count, 0, limit)
    settings = _Settings(progress, count_key, address, shard, retries, _int_arg("threads", threads, 1, 1024))
    if count == 0:
        return empty
    return _concatenate(settings.run(_counted_shard, (local, count_key, first_key, kwargs), count))


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
    first_game: int = 0,
    address: str | None = None,
    shard: int | None = None,
    retries: int = DEFAULT_RETRIES,
    cube: Any = False,
    **options: Any,
) -> dict[str, np.ndarray]:
    """tavli.simulate on a Ray cluster: the same arrays (trajectories' `game` included: the global
    game index). Each task plays `shard` consecutive games (default: about games / (4 x the tasks
    the cluster runs at once)) in `threads` C++ threads on as many CPUs. `players` travel to the
    workers as given (a tavli.nn.Net pickles). `retries`: re-runs of a task whose worker died."""
    from .sim import simulate as local

    kwargs = dict(variant=variant, players=players, seed=seed, threads=threads, max_plies=max_plies, start=start,
                  trajectories=trajectories, first_game=first_game, cube=cube, **options)
    return _counted_run(local, "games", "first_game", games, 100_000_000, kwargs, progress=progress,
                        address=address, shard=shard, retries=retries, threads=threads)


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
    first_match: int = 0,
    address: str | None = None,
    shard: int | None = None,
    retries: int = DEFAULT_RETRIES,
    cube: Any = False,
    met: Any = None,
) -> dict[str, np.ndarray]:
    """tavli.simulate_matches on a Ray cluster: the same arrays, match i seeded by (seed, i)."""
    from .sim import simulate_matches as local

    kwargs = dict(kind=kind, players=players, target=target, seed=seed, threads=threads, options=options,
                  opening=opening, next_starter=next_starter, max_plies=max_plies, first_match=first_match, cube=cube,
                  met=met)
    return _counted_run(local, "matches", "first_match", matches, 10_000_000, kwargs, progress=progress,
                        address=address, shard=shard, retries=retries, threads=threads)


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
    address: str | None = None,
    shard: int | None = None,
    retries: int = DEFAULT_RETRIES,
    **options: Any,
) -> dict[str, np.ndarray]:
    """tavli.selfplay.self_play_data on a Ray cluster: the same rows, encoded on the workers."""
    from .selfplay import self_play_data as local

    kwargs = dict(variant=variant, players=players, seed=seed, threads=threads, max_plies=max_plies, start=start,
                  features=features, encoding=encoding, roll_units=roll_units, first_game=first_game, **options)
    return _counted_run(local, "games", "first_game", games, 100_000_000, kwargs, progress=progress,
                        address=address, shard=shard, retries=retries, threads=threads)


# --- rollouts ------------------------------------------------------------------------------------
def _rollout_shard(args: tuple[Any, dict[str, Any]], first: int, count: int) -> np.ndarray:
    from .board import _rollout_blocks

    board, kwargs = args
    return _rollout_blocks(board, first, count, **kwargs)


def rollout(
    board: Any,
    trials: int = 1296,
    player: Any = "greedy",
    *,
    truncate: int | None = None,
    seed: int = 0,
    threads: int = 1,
    evaluator: Any = None,
    stratify: bool = True,
    progress: Callable[[int, int], Any] | bool | None = None,
    address: str | None = None,
    shard: int | None = None,
    retries: int = DEFAULT_RETRIES,
) -> Any:
    """Board.rollout on a Ray cluster: exactly the local Rollout (means and standard errors bit
    for bit). Shards are multiples of tavli._core.ROLLOUT_BLOCK (144) trials, so a rollout of at
    most that many trials runs as one task."""
    from .analysis import Probabilities, Rollout
    from .board import Board, _rollout_args

    if not isinstance(board, Board):
        raise ValueError(f"board: expected a tavli.Board, got {type(board).__name__}")
    trials, _, _, _, _, _, threads, _, _ = _rollout_args(board, trials, player, truncate, seed, threads, evaluator,
                                                        stratify)  # checks every argument
    settings = _Settings(progress, "trials", address, shard, retries, threads, align=_core.ROLLOUT_BLOCK)
    kwargs = dict(trials=trials, player=player, truncate=truncate, seed=seed, threads=threads, evaluator=evaluator,
                  stratify=stratify)
    blocks = np.concatenate(settings.run(_rollout_shard, (board, kwargs), trials))
    probs, equity, errors, equity_error, done, truncated = _core._rollout_combine(blocks)
    return Rollout(Probabilities(*probs), equity, Probabilities(*errors), equity_error, done, truncated)


# --- rollout training data -----------------------------------------------------------------------
def _rollout_data_shard(args: tuple[np.ndarray, dict[str, Any]], first: int, count: int) -> dict[str, np.ndarray]:
    from .rollout_data import _rollout_rows

    rows, kwargs = args
    return _rollout_rows(rows[first:first + count], first, **kwargs)


def rollout_data(
    positions: Any,
    variant: str = "backgammon",
    trials: int = 1296,
    player: Any = "greedy",
    *,
    truncate: int | None = None,
    seed: int = 0,
    threads: int = 1,
    evaluator: Any = None,
    stratify: bool = True,
    progress: Callable[[int, int], Any] | bool | None = None,
    address: str | None = None,
    shard: int | None = None,
    retries: int = DEFAULT_RETRIES,
    **options: Any,
) -> dict[str, np.ndarray]:
    """tavli.rollout_data.rollout_data on a Ray cluster: the same arrays, each task rolling out
    `shard` consecutive rows (row k with the seed Rng.derive(seed, k), wherever it runs)."""
    from .rollout_data import _rollout_rows, checked_rows
    from .sim import _int_arg

    rows = checked_rows(positions, variant, trials, player, truncate, seed, threads, evaluator, stratify, options)
    settings = _Settings(progress, "positions", address, shard, retries, _int_arg("threads", threads, 1, 1024))
    kwargs = dict(variant=variant, trials=trials, player=player, truncate=truncate, seed=seed, threads=threads,
                  evaluator=evaluator, stratify=stratify, options=options)
    if len(rows) == 0:
        return _rollout_rows(rows, 0, **kwargs)
    return _concatenate(settings.run(_rollout_data_shard, (rows, kwargs), len(rows)))
