"""The Ray backend against the local call in the same run: Fevga greedy-vs-random games per second
on one local thread and on a local Ray cluster of two workers (tavli.distributed, shards of
games / 8). A short version of bench/ray_scaling.py, which runs the million-game comparison.

Run: python -m pytest bench/test_bench_ray.py --benchmark-only"""

from __future__ import annotations

import pytest

import tavli
from conftest import RESULTS, record
from tavli import distributed

ray = pytest.importorskip("ray")

GAMES = 20_000
WORKERS = 2


def games(benchmark) -> int:
    return 1000 if benchmark.disabled else GAMES  # --benchmark-disable (CI): one quick pass


@pytest.fixture(scope="module")
def cluster():
    # Workers at niceness 0 like the local run (Ray's default is 15: see bench/ray_scaling.py).
    ray.init(num_cpus=WORKERS, include_dashboard=False, log_to_driver=False,
             _system_config={"worker_niceness": 0})
    distributed.simulate("fevga", 400, seed=1, shard=100)  # every worker started, tavli imported
    tavli.simulate("fevga", 200, seed=1)
    yield
    ray.shutdown()


def test_local_one_thread(benchmark, cluster):
    n = games(benchmark)
    benchmark.pedantic(tavli.simulate, args=("fevga", n, ("greedy", "random")), kwargs={"seed": 1},
                       rounds=2, iterations=1)
    record("fevga greedy-random, local 1 thread", benchmark, n, "games")


def test_ray_two_workers(benchmark, cluster):
    n = games(benchmark)
    kwargs = {"seed": 1, "shard": n // (4 * WORKERS)}
    benchmark.pedantic(distributed.simulate, args=("fevga", n, ("greedy", "random")), kwargs=kwargs,
                       rounds=2, iterations=1)
    record(f"fevga greedy-random, Ray {WORKERS} workers", benchmark, n, "games")
    one = RESULTS.get("fevga greedy-random, local 1 thread")
    many = RESULTS.get(f"fevga greedy-random, Ray {WORKERS} workers")
    if one and many:
        RESULTS[f"Ray {WORKERS} workers / local 1 thread"] = {
            "rate": many["rate"] / one["rate"], "mean_rate": 0, "unit": "x", "seconds": 0}
