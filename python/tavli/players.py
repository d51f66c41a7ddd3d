"""The one player grammar of simulations, self-play, rollouts and the frontends: a player spec
('random', 'greedy', 'heuristic', 'search:N', 'Nply', 'heuristic:N', a tavli.nn.Net or a dict) as
the core takes it."""

from __future__ import annotations

from typing import Any

from . import _core
from .evaluators import CoreEvaluator, evaluator_arg, filters_arg
from .nn import Net


# The bounds are the core's (cpp/include/tavli/sim.h: check_player).
MAX_PLIES = _core.MAX_PLAYER_PLIES
MAX_CUBE_PLIES = _core.MAX_CUBE_PLAYER_PLIES
_MATCH_KEYS = ("score_aware", "cube_plies", "cubeful_play")


def player_options(spec: Any) -> tuple[Any, bool, int, bool]:
    """(spec without its match-play options, score_aware, cube_plies, cubeful_play). The options,
    for tavli.simulate_matches and tavli.simulate with the cube (tavli.match_players): a string spec
    may end in '+score' (rank the plays by match winning chance at the score), '+cube:N' (cube
    decisions by the cubeful search N plies deep, N = 0..MAX_CUBE_PLIES) and '+cubeful' (rank the
    plays by cubeful equity in the cube's state, at the player's depth, as gnubg's cubeful chequer
    play does: money play and match scores), e.g. 'search:1+cubeful+cube:1'; a dict spec takes the
    keys "score_aware" (bool), "cube_plies" (int) and "cubeful_play" (bool)."""
    if isinstance(spec, dict):
        sa, cp, cf = spec.get("score_aware", False), spec.get("cube_plies", 0), spec.get("cubeful_play", False)
        if not isinstance(sa, bool):
            raise ValueError(f"player {spec!r}: 'score_aware' must be True or False")
        if isinstance(cp, bool) or not isinstance(cp, int) or not 0 <= cp <= MAX_CUBE_PLIES:
            raise ValueError(f"player {spec!r}: 'cube_plies' must be plies 0..{MAX_CUBE_PLIES}")
        if not isinstance(cf, bool):
            raise ValueError(f"player {spec!r}: 'cubeful_play' must be True or False")
        return {k: v for k, v in spec.items() if k not in _MATCH_KEYS}, sa, cp, cf
    if not isinstance(spec, str) or "+" not in spec:
        return spec, False, 0, False
    base, *opts = (part.strip().lower() for part in spec.split("+"))
    score_aware, cube_plies, cubeful = False, 0, False
    for o in opts:
        if o == "score" and not score_aware:
            score_aware = True
        elif o == "cubeful" and not cubeful:
            cubeful = True
        elif o.startswith("cube:") and o[5:].isdigit() and 0 <= int(o[5:]) <= MAX_CUBE_PLIES and not cube_plies:
            cube_plies = int(o[5:])
        else:
            raise ValueError(f"player {spec!r}: unknown option {o!r} (known: '+score', '+cubeful', '+cube:N' with "
                             f"N = 0..{MAX_CUBE_PLIES}, each once)")
    return base, score_aware, cube_plies, cubeful


def player_arg(spec: Any) -> tuple[str, int, list[tuple[int, int, float]], CoreEvaluator]:
    """A player as the core takes it; match-play options (player_options) are refused here: they
    are for tavli.simulate_matches and tavli.simulate with the cube."""
    base, score_aware, cube_plies, cubeful = player_options(spec)
    if score_aware or cube_plies or cubeful:
        raise ValueError(f"player {spec!r}: score-aware play (+score), cubeful play (+cubeful) and n-ply cube "
                         f"decisions (+cube:N) are "
                         f"for tavli.simulate_matches and tavli.simulate with the cube")
    return core_player(base)


def core_player(spec: Any) -> tuple[str, int, list[tuple[int, int, float]], CoreEvaluator]:
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
        unknown = set(spec) - {"search", "filters", "evaluator", *_MATCH_KEYS}
        if unknown:
            raise ValueError(f"player {spec!r}: unknown keys {sorted(unknown)} (known: search, filters, evaluator, "
                             f"score_aware, cube_plies, cubeful_play)")
        plies = spec.get("search")
        if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= MAX_PLIES:
            raise ValueError(f"player {spec!r}: 'search' must be plies 0..{MAX_PLIES}")
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
    if not 0 <= n <= MAX_PLIES:
        raise ValueError(f"unknown player {spec!r}: use 'random', 'greedy', 'heuristic', 'search:N', 'Nply' or "
                         f"'heuristic:N' (N = 0..{MAX_PLIES}), a tavli.nn.Net or a dict")
    return ("greedy", 0, [], evaluator_arg(evaluator)) if n == 0 else ("search", n, [], evaluator_arg(evaluator))
