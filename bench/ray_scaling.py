"""Scaling of the Ray backend (issue 9's target: with 2 workers on a 2-core machine, at least 1.7x
the single-thread local games per second, results identical).

    PYTHONPATH=python python3 bench/ray_scaling.py --games 1000000 --workers 2
    PYTHONPATH=python python3 bench/ray_scaling.py --job labels --games 2000 --plies 2 --workers 2

`--job labels` times training labels instead: the shipped net's --plies search of --games
positions of tavli.random_positions("backgammon", seed) (tavli.evaluate_batch, which is what
`python -m tavli.supervised --backend ray` and tools/sibling_groups.py run), shards of rows.

Runs, back to back in one session: the local call on one thread, then the same call with
backend="ray" on a fresh local Ray cluster of `--workers` CPUs (one thread per task, shards of
games / (4 x workers) games, workers at niceness 0 like the local run), and checks the arrays
are equal. Ray's start and the workers'
first import of tavli are left out of the timing (a warm-up run), as they are paid once per
cluster, not per run. `--repeats N` alternates the two N times and reports each pair, since a
shared machine's load changes under a long run. Prints games per second and the ratio.

On a machine shared with other jobs the wall-clock ratio measures the scheduler's share as much
as tavli, so the script also counts CPU seconds (Linux /proc): the local run's, and the Ray run's
in every Ray process of the machine (workers, raylet, GCS; it assumes no other Ray cluster runs
there) plus the driver's. Their quotient is the Ray backend's cost per game against the local
call's, whatever the load; workers x that quotient is the ratio to expect on an idle machine."""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

import tavli
from tavli import distributed


def ray_cpu_seconds() -> float:
    """User + system CPU seconds of the machine's Ray processes (not this driver)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if b"ray" not in cmd:
            continue
        fields = stat.rsplit(")", 1)[1].split()  # after the command name: state is field 3
        total += (int(fields[11]) + int(fields[12])) / tick  # fields 14, 15: utime, stime
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--job", choices=("simulate", "labels"), default="simulate")
    ap.add_argument("--variant", default="fevga", help="simulate: the game (labels: backgammon)")
    ap.add_argument("--games", type=int, default=1_000_000, help="games (labels: positions)")
    ap.add_argument("--plies", type=int, default=2, help="labels: the search depth")
    ap.add_argument("--players", default="heuristic,random")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--shard", type=int, default=None, help="games per task (default games / (4 x workers))")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--threads-reference", action="store_true",
                    help="also time the local call with `workers` C++ threads")
    ap.add_argument("--niceness", type=int, default=0, help="of the Ray workers (Ray's default: 15)")
    args = ap.parse_args(argv)
    players = tuple(args.players.split(","))
    shard = args.shard or -(-args.games // (4 * args.workers))
    if args.job == "labels":
        args.variant, unit = "backgammon", "positions"
        rows, _ = tavli.random_positions("backgammon", args.games, seed=args.seed)

        def run(threads: int, ray: bool) -> dict[str, np.ndarray]:
            if ray:
                return {"values": distributed.evaluate_batch(rows, "backgammon", plies=args.plies, shard=shard)}
            return {"values": tavli.evaluate_batch(rows, "backgammon", plies=args.plies, threads=threads)}
    else:
        unit = "games"

        def run(threads: int, ray: bool) -> dict[str, np.ndarray]:
            if ray:
                return distributed.simulate(args.variant, args.games, players, seed=args.seed, shard=shard)
            return tavli.simulate(args.variant, args.games, players, seed=args.seed, threads=threads)

    import ray

    # Ray runs its workers at niceness 15 by default; the local baseline runs at 0, and on a
    # machine shared with other jobs that alone would decide the comparison.
    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False,
             _system_config={"worker_niceness": args.niceness})
    # Warm-up: every worker process started and tavli imported there (once per cluster).
    distributed.simulate(args.variant, 200 * args.workers, players, seed=args.seed, shard=100)
    tavli.simulate(args.variant, 200, players, seed=args.seed)
    if args.job == "labels":  # the workers' nets loaded too
        distributed.evaluate_batch(rows[:8 * args.workers], "backgammon", shard=8)

    what = f"{args.plies}-ply labels" if args.job == "labels" else args.players
    print(f"{args.variant}, {args.games:,} {unit}, {what}, seed {args.seed}; Ray {ray.__version__}, "
          f"{args.workers} workers, shards of {shard:,} {unit}")
    ratios = []
    for r in range(args.repeats):
        t, c = time.perf_counter(), time.process_time()
        local = run(1, False)
        t_local, c_local = time.perf_counter() - t, time.process_time() - c
        t, c, c_ray = time.perf_counter(), time.process_time(), ray_cpu_seconds()
        remote = run(1, True)
        t_ray = time.perf_counter() - t
        c_driver, c_ray = time.process_time() - c, ray_cpu_seconds() - c_ray
        same = all(np.array_equal(local[k], remote[k]) for k in local)
        ratios.append(t_local / t_ray)
        cost = (c_ray + c_driver) / c_local
        print(f"run {r + 1}: local 1 thread {args.games / t_local:,.0f} {unit}/s ({t_local:.1f} s, {c_local:.1f} CPU s); "
              f"Ray {args.workers} workers {args.games / t_ray:,.0f} {unit}/s ({t_ray:.1f} s, {c_ray:.1f} CPU s in Ray "
              f"processes + {c_driver:.1f} in the driver); wall-clock ratio {t_local / t_ray:.2f}x; "
              f"CPU per {unit[:-1]} Ray / local {cost:.3f} (idle-machine ratio about {args.workers / cost:.2f}x); "
              f"identical: {same}", flush=True)
        if args.threads_reference:
            # The same games in C++ threads of this process: parallelism without Ray, whose CPU
            # cost per game shows what running `workers` games at once costs on this machine.
            t, c = time.perf_counter(), time.process_time()
            run(args.workers, False)
            t_thr, c_thr = time.perf_counter() - t, time.process_time() - c
            print(f"run {r + 1}: local {args.workers} threads {args.games / t_thr:,.0f} {unit}/s ({t_thr:.1f} s, "
                  f"{c_thr:.1f} CPU s); CPU per {unit[:-1]} / 1 thread {c_thr / c_local:.3f}", flush=True)
        if not same:
            return 1
    if args.repeats > 1:
        print(f"ratios: {', '.join(f'{x:.2f}' for x in ratios)}; median {float(np.median(ratios)):.2f}x")
    ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
