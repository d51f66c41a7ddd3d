"""Widen a net to another encoding and more hidden units (tavli.nn.widen: the same outputs); the
first runs of stop 43 started from files made this way, which `python -m tavli.train --init NET
--encoding E --hidden H` now makes itself.

    python nets-work/games/widen.py IN.tnet ENCODING HIDDEN OUT.tnet [SEED]
"""
import sys

sys.path.insert(0, "python")
from tavli.nn import Net  # noqa: E402
from tavli.nn.widen import widen  # noqa: E402

src, enc, hidden, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
wide = widen(Net.load(src), enc, hidden, seed=seed)
wide.save(out, f"widened from {src} to {enc}, {hidden} hidden (seed {seed})")
print(out, wide.inputs, wide.hidden)
