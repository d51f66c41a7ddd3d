"""Self-play in C++ threads: whole games between two players, results as numpy arrays."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from . import _core
from ._options import to_pairs
from .analysis import filters_arg

KINDS = {0: "unfinished", 1: "single", 2: "double", 3: "triple", 4: "mother", 5: "draw"}


def _player(spec: Any) -> tuple[str, int, list]:
    """'random', 'greedy' (0-ply with the heuristic evaluator), 'search:N' or 'Nply' (N-ply search
    with the default filters), or a dict {"search": N, "filters": [...]}."""
    if isinstance(spec, dict):
        plies = spec.get("search")
        if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= 4:
            raise ValueError(f"player {spec!r}: 'search' must be plies 0..4")
        return ("search", plies, filters_arg(spec.get("filters")))
    if not isinstance(spec, str):
        raise ValueError(f"player must be a string or a dict, got {type(spec).__name__}")
    s = spec.strip().lower()
    if s == "random":
        return ("random", 0, [])
    if s in ("greedy", "heuristic", "0ply", "0-ply"):
        return ("greedy", 0, [])
    for prefix in ("search:", "ply:"):
        if s.startswith(prefix) and s[len(prefix):].isdigit():
            n = int(s[len(prefix):])
            break
    else:
        n = int(s[:-3].rstrip("-")) if s.endswith("ply") and s[:-3].rstrip("-").isdigit() else -1
    if not 0 <= n <= 4:
        raise ValueError(f"unknown player {spec!r}: use 'random', 'greedy', 'search:N' or 'Nply' (N = 0..4)")
    return ("greedy", 0, []) if n == 0 else ("search", n, [])


def simulate(
    variant: str = "fevga",
    games: int = 1000,
    players: Sequence[Any] = ("greedy", "random"),
    *,
    seed: int = 0,
    threads: int = 1,
    max_plies: int = 10_000,
    **options: Any,
) -> dict[str, np.ndarray]:
    """Plays `games` games, players[0] as White and players[1] as Black, and returns arrays:
    winner (0, 1; -1 for a draw or an unfinished game), points, kind (see KINDS), starter, plies.
    Game i uses dice seeded by (seed, i): the same games whatever the thread count."""
    if not isinstance(variant, str):
        raise ValueError("variant must be a string")
    for name, v, lo, hi in (("games", games, 0, 100_000_000), ("threads", threads, 1, 1024), ("max_plies", max_plies, 1, 10**7)):
        if isinstance(v, bool) or not hasattr(v, "__index__") or not lo <= int(v) <= hi:
            raise ValueError(f"{name} must be an integer {lo}..{hi}, got {v!r}")
    if isinstance(seed, bool) or not hasattr(seed, "__index__") or not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed must be an integer 0..2**64-1, got {seed!r}")
    if isinstance(players, (str, bytes)) or len(players) != 2:
        raise ValueError("players: expected two player specs, e.g. ('greedy', 'random')")
    specs = [_player(p) for p in players]
    return _core._simulate(variant, to_pairs(options), specs, int(games), int(seed), int(threads), int(max_plies))


def win_rate(result: dict[str, np.ndarray], player: int = 0) -> tuple[float, float]:
    """Share of decided games won by `player`, with a 95% normal-approximation half-width."""
    decided = result["winner"] >= 0
    n = int(decided.sum())
    if n == 0:
        return float("nan"), float("nan")
    p = float((result["winner"][decided] == player).mean())
    return p, 1.96 * (p * (1 - p) / n) ** 0.5
