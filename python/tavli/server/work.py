"""The server's work pool: every engine call runs here, never on the event loop, so that the
loop (and /health) answers whatever the engine is doing.

A fixed number of worker threads (the engine releases the GIL while it searches) and a bounded
number of requests waiting for one; a request that finds the queue full is refused at once with
503 and a Retry-After estimated from the recent service times, rather than queued without end.
Each request runs under a CPU-time Budget (the worker thread's own CPU time, which is the
engine's too: the server's engine calls use one thread).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import math
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, TypeVar

_T = TypeVar("_T")


class Busy(Exception):
    """The work queue is full: retry after `retry_after` seconds."""

    def __init__(self, retry_after: int, waiting: int) -> None:
        super().__init__(f"the server is busy ({waiting} requests waiting): retry after {retry_after} s")
        self.retry_after = retry_after


class Budget:
    """A request's CPU-time allowance, counted from its creation on the worker thread."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._start = time.thread_time()

    def used(self) -> float:
        return time.thread_time() - self._start

    def left(self) -> float:
        return self.seconds - self.used()


def _takes_time_limit(fn: Callable[..., Any]) -> bool:
    # keyed by the plain function: a bound method is new for every board (and would keep it alive)
    return _function_takes_time_limit(getattr(fn, "__func__", fn))


@functools.lru_cache(maxsize=256)
def _function_takes_time_limit(fn: Callable[..., Any]) -> bool:
    try:
        return "time_limit" in inspect.signature(fn).parameters  # named: **options does not count
    except (TypeError, ValueError):  # a builtin without a signature
        return False


def call_within(fn: Callable[..., _T], budget: Budget, *args: Any, time_limit: float | None = None,
                **kwargs: Any) -> _T:
    """fn(*args, **kwargs), with time_limit=min(time_limit, the budget left) when fn takes one
    (so the engine itself stops at the budget; calls that take none are bounded by the admission
    estimate and the caller's checks between calls)."""
    if _takes_time_limit(fn):
        left = max(budget.left(), 0.001)
        kwargs["time_limit"] = left if time_limit is None else min(time_limit, left)
    return fn(*args, **kwargs)


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class WorkPool:
    """`workers` threads and at most `queue` requests waiting for one."""

    def __init__(self, workers: int, queue: int, budget: float) -> None:
        if workers < 1 or queue < 0 or not budget > 0:
            raise ValueError("the work pool needs workers >= 1, queue >= 0 and a budget over 0 s")
        self.workers, self.queue, self.budget = workers, queue, budget
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix="tavli-work")
        self._lock = threading.Lock()
        self._admitted = 0  # running or waiting
        self._mean_seconds = 0.05  # running mean of the service time, for Retry-After

    def retry_after(self) -> int:
        waiting = max(self._admitted - self.workers + 1, 1)
        return max(1, math.ceil(waiting * self._mean_seconds / self.workers))

    def _release(self, _: Any) -> None:
        with self._lock:
            self._admitted -= 1

    def _timed(self, fn: Callable[..., _T], args: tuple[Any, ...]) -> _T:
        start = time.perf_counter()
        try:
            return fn(*args, Budget(self.budget))
        finally:
            seconds = time.perf_counter() - start
            with self._lock:
                self._mean_seconds += 0.2 * (seconds - self._mean_seconds)

    def check(self) -> None:
        """Busy if the queue is full now (AdmitWhenRoom asks before a body is even read)."""
        with self._lock:
            self._check()

    def _check(self) -> None:
        if self._admitted >= self.workers + self.queue:
            raise Busy(self.retry_after(), self._admitted - self.workers)

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        """fn(*args, budget) on a worker; Busy when the queue is full. A request whose client went
        away before its turn is dropped from the queue (cancelling the await cancels the future)."""
        with self._lock:
            self._check()
            self._admitted += 1
        future = self._executor.submit(self._timed, fn, args)
        future.add_done_callback(self._release)
        return await asyncio.wrap_future(future)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


class AdmitWhenRoom:
    """ASGI middleware: a request for work (`is_work(scope)`) that finds the queue full is refused
    before its body is read and parsed, so that a flood of refusals costs the event loop little."""

    def __init__(self, app: Any, pool: WorkPool, is_work: Callable[[dict[str, Any]], bool],
                 refuse: Callable[[Busy], Any]) -> None:
        self.app, self.pool, self.is_work, self.refuse = app, pool, is_work, refuse

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and self.is_work(scope):
            try:
                self.pool.check()
            except Busy as busy:
                await self.refuse(busy)(scope, receive, send)
                return
        await self.app(scope, receive, send)
