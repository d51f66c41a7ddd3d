"""CPU time (user + sys) and wall time of the issue-19 thread-scaling work at 1 and 2 threads
(bench/test_bench_speed.py's _scaling_work), best of 3 by CPU time. On a shared machine the wall
ratio is meaningless; CPU(2)/CPU(1) is the extra work that threads cost (1.0: none), and on an idle
2-core machine wall(1)/wall(2) is the scaling the issue asks >= 1.8 of.

  PYTHONPATH=python python bench/thread_cpu.py [kind ...]   (kinds: "analyze 2-ply",
  "batch_legal_plays positions", "cubeful decision 2-ply", "rollout", "simulate"; default all)"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from test_bench_speed import _scaling_work  # noqa: E402


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


kinds = sys.argv[1:] or ["analyze 2-ply", "batch_legal_plays positions", "cubeful decision 2-ply", "rollout", "simulate"]
for kind in kinds:
    work = _scaling_work(kind); work(1)
    row = []
    for t in (1, 2):
        best = None
        for _ in range(3):
            w0 = time.perf_counter(); c0 = cpu(); work(t); w = time.perf_counter() - w0; c = cpu() - c0
            best = (w, c) if best is None or c < best[1] else best
        row.append(best)
    print(f"{kind}: 1 thread wall {row[0][0]*1e3:.0f} ms cpu {row[0][1]*1e3:.0f} ms; 2 threads wall {row[1][0]*1e3:.0f} ms cpu {row[1][1]*1e3:.0f} ms; "
          f"cpu(2)/cpu(1) {row[1][1]/row[0][1]:.2f}; wall(1)/wall(2) {row[0][0]/row[1][0]:.2f}", flush=True)
