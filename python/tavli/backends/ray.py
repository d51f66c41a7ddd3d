"""The Ray executor: a job's shard function run on a Ray cluster, over shards of consecutive games
(or trials, or rows), the shards' results gathered in order as the local call's exact arrays
(docs/distributed.md). The jobs (tavli.jobs: simulations, matches, self-play data, rollout data;
Board.rollout) hand it their own function; it imports none of them.

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

import inspect
import math
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .._base.args import int_arg
from .._base.progress import reporter
from .local import concatenate

__all__ = ["DEFAULT_RETRIES", "Settings", "counted", "counted_run", "forwarded"]

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


class Settings:
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
        self.retries = int_arg("retries", retries, 0, 100)
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


def forwarded(local: Callable[..., Any], args: Sequence[Any], kwargs: Mapping[str, Any], *,
              refused: Sequence[str] = (), flatten: bool = True) -> dict[str, Any]:
    """The call local(*args, **kwargs) as keyword arguments with local's defaults filled in: a Ray
    entry point takes its local twin's arguments without declaring them again. `refused`: local's
    keywords that make no sense on Ray (TypeError, as for an unknown keyword; left out of the
    result). `flatten`: local's **options spread among the others (else kept under their name)."""
    for name in refused:
        if name in kwargs:
            raise TypeError(f"{local.__qualname__} on Ray takes no argument {name!r}")
    signature = inspect.signature(local)
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    out: dict[str, Any] = {}
    for name, value in bound.arguments.items():
        if name in refused:
            continue
        if flatten and signature.parameters[name].kind is inspect.Parameter.VAR_KEYWORD:
            out.update(value)
        else:
            out[name] = value
    return out


# --- runs of consecutive games: simulations, matches, self-play data ------------------------------
def _shifted(kwargs: Mapping[str, Any], key: str, by: int) -> dict[str, Any]:
    """kwargs with kwargs[key] (a run's first game or match) moved on by a shard's offset."""
    return {**kwargs, key: kwargs[key] + by}


def _counted_shard(args: tuple[Callable[..., dict[str, np.ndarray]], str, str, dict[str, Any]], first: int,
                   count: int) -> dict[str, np.ndarray]:
    """Games (or matches) first .. first + count - 1 of a run: the local call on that part."""
    local, count_key, first_key, kwargs = args
    return local(**{count_key: count}, **_shifted(kwargs, first_key, first))


def counted_run(local: Callable[..., dict[str, np.ndarray]], count_key: str, first_key: str, count: Any, limit: int,
                kwargs: dict[str, Any], *, progress: Any, address: Any, shard: Any, retries: Any,
                threads: Any) -> dict[str, np.ndarray]:
    """A run of `count` games (or matches) of local(**kwargs) sharded on the cluster: the local call
    on none checks every argument (and is the answer for none), the shards' arrays in order."""
    empty = local(**{count_key: 0}, **kwargs)
    count = int_arg(count_key, count, 0, limit)
    settings = Settings(progress, count_key, address, shard, retries, int_arg("threads", threads, 1, 1024))
    if count == 0:
        return empty
    return concatenate(settings.run(_counted_shard, (local, count_key, first_key, kwargs), count))


def counted(local: Callable[..., dict[str, np.ndarray]], count_key: str, first_key: str, limit: int,
            args: Sequence[Any], kwargs: Mapping[str, Any], *, address: Any, shard: Any, retries: Any,
            refused: Sequence[str] = ()) -> dict[str, np.ndarray]:
    """The Ray entry point of a counted job: local(*args, **kwargs) as counted_run shards it."""
    kw = forwarded(local, args, kwargs, refused=refused)
    count, progress = kw.pop(count_key), kw.pop("progress")
    return counted_run(local, count_key, first_key, count, limit, kw, progress=progress, address=address,
                       shard=shard, retries=retries, threads=kw["threads"])
