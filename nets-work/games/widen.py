"""Widen a net to another encoding (new inputs' weights zero) and to more hidden units (their input
weights small random, output weights zero): it evaluates every position as the original did.

    python nets-work/games/widen.py IN.tnet ENCODING HIDDEN OUT.tnet [SEED]
"""
import sys

import numpy as np

sys.path.insert(0, "python")
from tavli.nn import Net  # noqa: E402
from tavli.supervised import widen  # noqa: E402

src, enc, hidden, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
net = widen(Net.load(src), enc)
rng = np.random.default_rng(seed)
wide = Net(net.family, hidden, seed=0, encoding=enc)
w1 = (rng.standard_normal((wide.inputs, hidden)) * 0.05).astype(np.float32)
w1[:, :net.hidden] = net.w1
b1 = np.zeros(hidden, np.float32); b1[:net.hidden] = net.b1
w2 = np.zeros((5, hidden), np.float32); w2[:, :net.hidden] = net.w2
wide.w1, wide.b1, wide.w2, wide.b2 = w1, b1, w2, net.b2
wide.save(out, f"widened from {src} to {enc}, {hidden} hidden (seed {seed})")
print(out, wide.inputs, wide.hidden)
