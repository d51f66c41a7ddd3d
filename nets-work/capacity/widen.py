"""A net widened to more hidden units with the same outputs: its units first, then new ones (seeded,
input weights halved, output weights zero), for fit_adam.py --init at the wider size (stop 45's
capacity check).

  PYTHONPATH=python python nets-work/capacity/widen.py IN.tnet OUT.tnet HIDDEN SEED
"""

import sys

import tavli.nn as nn


def main() -> None:
    src, out, hidden, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    s = nn.Net.load(src)
    h = s.hidden
    if hidden <= h:
        raise SystemExit(f"{src} has {h} hidden units already")
    w = nn.Net(s.family, hidden, seed=seed, encoding=s.encoding)
    w1, b1, w2 = w.w1, w.b1, w.w2
    w1[:, :h], w1[:, h:] = s.w1, 0.5 * w1[:, h:]
    b1[:h] = s.b1
    w2[:, :h], w2[:, h:] = s.w2, 0.0
    w.w1, w.b1, w.w2, w.b2 = w1, b1, w2, s.b2
    w.save(out, metadata=f"{src} widened to {hidden} hidden units (new units seed {seed}, input weights halved, "
                         "output weights 0)")


if __name__ == "__main__":
    main()
