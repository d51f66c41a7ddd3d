"""tavli's heavy jobs on a Ray cluster: simulations, matches, self-play training data, rollouts,
rollout training data (of positions, and of decisions' plays) and bulk evaluation (searches of many positions: training labels), split
into shards of consecutive games (or trials, or rows) and gathered as the local call's exact
arrays (docs/distributed.md). Each is its job's own Ray entry point (the local call with
backend="ray" runs it); the executor is tavli.backends.ray.

Why the results are identical: game i of a run is seeded by (seed, i) whatever process plays it
(`first_game` tells a worker where its shard starts), and the shards are gathered in game order;
a rollout's trials are reduced in fixed blocks that the driver folds in order
(cpp/include/tavli/rollout.h); a position's search value depends on that position alone. So
neither the number of workers, nor the shard size, nor a task that Ray re-runs after a worker died
changes a single bit.

Ray is imported only when one of these functions runs (`import tavli` stays free of it). The
cluster: an already initialised Ray session as it is; else ray.init(address) with `address`
(None: RAY_ADDRESS or a new local cluster; "auto": the cluster this machine joined). Every node
needs the same tavli installed."""

from __future__ import annotations

from ..backends.ray import DEFAULT_RETRIES
from ..board import rollout_on_ray as rollout
from .batch import evaluate_batch_on_ray as evaluate_batch
from .rollouts import rollout_data_on_ray as rollout_data
from .rollouts import rollout_plays_data_on_ray as rollout_plays_data
from .selfplay import self_play_data_on_ray as self_play_data
from .simulate import simulate_matches_on_ray as simulate_matches
from .simulate import simulate_on_ray as simulate

__all__ = ["simulate", "simulate_matches", "self_play_data", "rollout", "rollout_data", "rollout_plays_data",
           "evaluate_batch", "DEFAULT_RETRIES"]
