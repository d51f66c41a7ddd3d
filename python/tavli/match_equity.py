"""Match equity tables for games played to a score without a doubling cube.

Under equal players with per-game point distributions ``p`` (our wins: points -> probability)
and ``q`` (the opponent's), the chance of winning the match when we need ``a`` points and the
opponent needs ``b`` is

    M(a, b) = sum_k p_k * M(a - k, b) + sum_k q_k * M(a, b - k),  M(<=0, .) = 1, M(., <=0) = 0.

Games that score nothing (a draw, ``p_0``/``q_0``) are replayed: their probability is
divided out. No cube, so no Crawford rule.
"""
from __future__ import annotations

from typing import Callable, Mapping


def _check(name: str, dist: Mapping[int, float]) -> None:
    for k, v in dist.items():
        if not isinstance(k, int) or k < 0:
            raise ValueError(f"{name}: points must be non-negative integers, got {k!r}")
        if v < 0:
            raise ValueError(f"{name}: probability for {k} points is negative ({v})")


def _lookup(table: list[list[float]], a: int, b: int) -> float:
    """M(a, b) with the boundary: we have won (a <= 0) or the opponent has (b <= 0)."""
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    return table[a][b]


def match_equity_table(p: Mapping[int, float], q: Mapping[int, float],
                       max_away: int) -> list[list[float]]:
    """Table ``T[a][b]`` = our match winning chance at a-away, b-away (1 <= a, b <= max_away).

    Row/column 0 are unused padding so that ``T[a][b]`` indexes by points still needed.
    """
    if max_away < 1:
        raise ValueError(f"max_away must be >= 1, got {max_away}")
    _check("p", p)
    _check("q", q)
    total = sum(p.values()) + sum(q.values())
    if abs(total - 1.0) > 1e-9:
        raise ValueError(f"p and q must sum to 1, got {total}")
    replay = p.get(0, 0.0) + q.get(0, 0.0)
    if replay >= 1.0:
        raise ValueError("every game scores nothing: the match never ends")
    scale = 1.0 / (1.0 - replay)
    t = [[0.0] * (max_away + 1) for _ in range(max_away + 1)]

    m: Callable[[int, int], float] = lambda a, b: _lookup(t, a, b)  # noqa: E731

    for a in range(1, max_away + 1):
        for b in range(1, max_away + 1):
            s = sum(v * m(a - k, b) for k, v in p.items() if k > 0)
            s += sum(v * m(a, b - k) for k, v in q.items() if k > 0)
            t[a][b] = s * scale
    return t


def outcome_weights(table: list[list[float]], a: int, b: int,
                    points: Mapping[str, int]) -> dict[str, float]:
    """Match winning chance after each outcome at a-away, b-away.

    ``points`` maps an outcome name to signed points (positive: we score, negative: the
    opponent scores), e.g. ``{"win": 1, "win_double": 2, "lose": -1, "lose_double": -2}``.
    MWC is linear in the outcome probabilities with these weights.
    """
    n = len(table) - 1
    if not (1 <= a <= n and 1 <= b <= n):
        raise ValueError(f"score {a}-away, {b}-away outside the table (1..{n})")

    return {name: (_lookup(table, a - k, b) if k >= 0 else _lookup(table, a, b + k)) for name, k in points.items()}
