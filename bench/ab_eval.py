"""A/B of the static evaluator between two C++ tool builds, in one session (issue 19).

Runs each build's ``tavli_bench_eval`` (shipped net, encoding included, distinct shuffled
positions in calls of 21; and one roll's siblings a call, the best case) alternately, RUNS times
each, under ``nice``; prints the median over runs of each build's median-of-rounds rate (CPU time),
their ratio, and the hashes of every output's bits, which must agree (a faster forward pass must
not change a value).

  python bench/ab_eval.py BASE_BUILD NEW_BUILD [runs] [net.tnet] [game]

(the game defaults to backgammon; give the net's own, e.g. ``python/tavli/nets/fevga.tnet fevga``)

where a build is ``cmake -S <tree> -B <tree>/build/tools -DTAVLI_BUILD_TOOLS=ON
-DTAVLI_BUILD_PYTHON=OFF && cmake --build <tree>/build/tools`` (e.g. a ``git archive`` of the
base commit for BASE_BUILD)."""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
from pathlib import Path


def main() -> None:
    base, new = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    net = sys.argv[4] if len(sys.argv) > 4 else str(Path(__file__).parent.parent / "python/tavli/nets/backgammon.tnet")
    game = sys.argv[5] if len(sys.argv) > 5 else "backgammon"
    rates: dict[str, list[tuple[float, float]]] = {base: [], new: []}
    bits = set()
    for _ in range(runs):
        for build in (base, new):
            out = subprocess.run(["nice", "-n", "5", f"{build}/tavli_bench_eval", net, game, "1500", "5"],
                                 capture_output=True, text=True, check=True).stdout
            m = re.search(r"calls of 21: ([0-9.]+) M.*calls: ([0-9.]+) M.*bits ([0-9a-f]+)", out)
            if not m:
                raise SystemExit(f"{build}: unexpected output {out!r}")
            rates[build].append((float(m[1]), float(m[2])))
            bits.add(m[3])
    med = {b: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v)) for b, v in rates.items()}
    for b in (base, new):
        print(f"{b}: distinct {med[b][0]:.3f} M/s, siblings (best case) {med[b][1]:.3f} M/s")
    print(f"new / base: distinct {med[new][0] / med[base][0]:.2f}x, siblings {med[new][1] / med[base][1]:.2f}x; "
          f"output bits {'identical' if len(bits) == 1 else 'DIFFER'} ({', '.join(sorted(bits))})")


if __name__ == "__main__":
    main()
