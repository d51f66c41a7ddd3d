"""Validation of the search's narrowing filters (cpp/include/tavli/search.h: gnubg's move filters
between the root's plies)."""

from __future__ import annotations

from typing import Any


def narrowing_arg(narrowing: Any) -> list[tuple[int, int, float]]:
    """(accept, extra, threshold) triples, accept -1..10000 (-1: keep every play after that ply);
    None: the defaults."""
    if narrowing is None:
        return []
    if isinstance(narrowing, (str, bytes)) or not hasattr(narrowing, "__iter__"):
        raise ValueError("narrowing: expected a list of (accept, extra, threshold)")
    out = []
    for i, f in enumerate(narrowing):
        try:
            accept, extra, threshold = f
        except (TypeError, ValueError):
            raise ValueError(f"narrowing[{i}]: expected (accept, extra, threshold)") from None
        for name, v, low in (("accept", accept, -1), ("extra", extra, 0)):
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= 10000:
                raise ValueError(f"narrowing[{i}].{name}: expected an integer {low}..10000, got {v!r}")
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not threshold >= 0:
            raise ValueError(f"narrowing[{i}].threshold: expected a number >= 0, got {threshold!r}")
        out.append((accept, extra, float(threshold)))
    if len(out) > 64:
        raise ValueError("narrowing: at most 64 levels")
    return out
