"""The one player grammar of simulations, self-play, rollouts and the frontends: a player spec
('random', 'greedy', 'heuristic', 'search:N', 'Nply', 'heuristic:N', a tavli.nn.Net or a dict) as
the core takes it."""

from __future__ import annotations

from typing import Any

from .evaluators import evaluator_arg, filters_arg
from .nn import Net


def player_arg(spec: Any) -> tuple[str, int, list[tuple[int, int, float]], Any]:
    """A player as the core takes it: (kind, plies, filters, core evaluator or None for the
    heuristic). Specs: 'random'; 'greedy' or '0ply' (0-ply with the default evaluator: the shipped
    net of the game, tavli.nn.default_evaluator()); 'heuristic' (0-ply with the hand-written
    evaluator); 'search:N' or 'Nply' (N-ply search, default evaluator and filters); 'heuristic:N'
    (N-ply on the heuristic); a tavli.nn.Net (0-ply with that net); or a dict {"search": N,
    "filters": [...], "evaluator": None | "nets" | "heuristic" | Net}."""
    from .nn.classnets import ClassNets
    from .nn.race_db import RaceDb

    if isinstance(spec, (Net, ClassNets, RaceDb)):
        return ("greedy", 0, [], evaluator_arg(spec))
    if isinstance(spec, dict):
        unknown = set(spec) - {"search", "filters", "evaluator"}
        if unknown:
            raise ValueError(f"player {spec!r}: unknown keys {sorted(unknown)} (known: search, filters, evaluator)")
        plies = spec.get("search")
        if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= 4:
            raise ValueError(f"player {spec!r}: 'search' must be plies 0..4")
        ev = evaluator_arg(spec.get("evaluator"))
        if plies == 0 and not spec.get("filters"):
            return ("greedy", 0, [], ev)
        return ("search", plies, filters_arg(spec.get("filters")), ev)
    if not isinstance(spec, str):
        raise ValueError(f"player must be a string, a dict or a tavli.nn.Net, got {type(spec).__name__}")
    s = spec.strip().lower()
    if s == "random":
        return ("random", 0, [], None)
    if s == "heuristic":
        return ("greedy", 0, [], None)
    evaluator: Any = "nets"
    if s.startswith("heuristic:"):
        evaluator, s = "heuristic", "search:" + s[len("heuristic:"):]
    if s in ("greedy", "0ply", "0-ply"):
        return ("greedy", 0, [], evaluator_arg(evaluator))
    for prefix in ("search:", "ply:"):
        if s.startswith(prefix) and s[len(prefix):].isdigit():
            n = int(s[len(prefix):])
            break
    else:
        n = int(s[:-3].rstrip("-")) if s.endswith("ply") and s[:-3].rstrip("-").isdigit() else -1
    if not 0 <= n <= 4:
        raise ValueError(f"unknown player {spec!r}: use 'random', 'greedy', 'heuristic', 'search:N', 'Nply' or "
                         f"'heuristic:N' (N = 0..4), a tavli.nn.Net or a dict")
    return ("greedy", 0, [], evaluator_arg(evaluator)) if n == 0 else ("search", n, [], evaluator_arg(evaluator))
