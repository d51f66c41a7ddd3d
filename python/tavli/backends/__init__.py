"""Where a job's shards run: `backend="local"` (this process, C++ threads: tavli.backends.local) or
`backend="ray"` (a Ray cluster: tavli.backends.ray). The executors take a job's shard function and
import no feature module; the jobs (tavli.jobs, Board.rollout) validate, then hand them the work."""

from __future__ import annotations

from typing import Any

BACKENDS = ("local", "ray")


def backend_arg(backend: Any, ray_address: Any) -> str:
    """`backend`, checked, with `ray_address` only for backend="ray"."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if ray_address is not None and backend != "ray":
        raise ValueError("ray_address is for backend='ray'")
    return str(backend)


def local_only_time_limit(time_limit: Any) -> None:
    if time_limit is not None:
        raise ValueError("time_limit is for backend='local' (a Ray run is stopped with Ctrl-C)")
