"""A trained net carried over to a wider shape: more input units (a longer encoding that begins with
all of the net's units) and more hidden units. The new inputs' weights are zero and the new hidden
units' output weights are zero, so the wider net evaluates every position exactly as the narrow
one did; training then learns what the new units add (a warm start instead of training from
scratch)."""

from __future__ import annotations

import numpy as np

from . import Net

__all__ = ["WIDENS", "widen"]

# Encodings that begin with all of another's units: (narrow, wide) -> the narrow one's units.
WIDENS = {("expert", "expert2"): 205, ("expert", "expert3"): 205, ("expert2", "expert3"): 219,
          ("expert", "expert4"): 205, ("expert2", "expert4"): 219, ("expert3", "expert4"): 239,
          ("block", "block2"): 152, ("plakoto", "plakoto2"): 198}

NEW_UNIT_SCALE = 0.05  # standard deviation of the new hidden units' input weights


def widen(net: Net, encoding: str, hidden: int | None = None, seed: int = 1) -> Net:
    """`net` on `encoding` (a WIDENS pair, or its own) with `hidden` hidden units (default its own;
    not fewer). The new hidden units' input weights are drawn from N(0, 0.05^2) by numpy's
    default_rng(seed); every new output weight is zero, so the outputs are unchanged."""
    hidden = net.hidden if hidden is None else hidden
    if hidden < net.hidden:
        raise ValueError(f"cannot narrow a net of {net.hidden} hidden units to {hidden}")
    if net.encoding != encoding and (net.encoding, encoding) not in WIDENS:
        raise ValueError(f"a net on {net.encoding!r} cannot be widened to {encoding!r} "
                         f"(known: {', '.join(f'{a} -> {b}' for a, b in WIDENS)})")
    if net.encoding == encoding and hidden == net.hidden:
        return net.copy()
    wide = Net(net.family, hidden, seed=0, encoding=encoding)
    w1 = np.zeros((wide.inputs, hidden), np.float32)
    if hidden > net.hidden:
        rng = np.random.default_rng(seed)
        w1[:] = (rng.standard_normal((wide.inputs, hidden)) * NEW_UNIT_SCALE).astype(np.float32)
        w1[:, :net.hidden] = 0
    w1[:net.inputs, :net.hidden] = net.w1
    b1 = np.zeros(hidden, np.float32)
    b1[:net.hidden] = net.b1
    w2 = np.zeros((5, hidden), np.float32)
    w2[:, :net.hidden] = net.w2
    wide.w1, wide.b1, wide.w2, wide.b2 = w1, b1, w2, net.b2
    wide.metadata = net.metadata
    return wide
