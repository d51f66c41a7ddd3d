"""The arguments that choose how a position is judged: the evaluator at a search's leaves (the
shipped nets, the heuristic or a tavli.nn.Net), the move filters and the search's limits.

`tavli.analysis`, the flat package's name of this module and of tavli.results, finds the result
types here too."""

from __future__ import annotations

from typing import Any, Union

from . import _core
from ._base.args import int_arg
from .nn import Net, default_evaluator
from .results import Analysis, AnalyzedPlay, Evaluation, Probabilities, Rollout

__all__ = ["evaluator_arg", "filters_arg", "search_args",
           "Analysis", "AnalyzedPlay", "Evaluation", "Probabilities", "Rollout"]


# A core evaluator as searches, rollouts and players take it (None: the hand-written heuristic).
CoreEvaluator = Union[_core.NeuralEvaluator, _core.NetSuite, _core.ClassNetEvaluator, None]


def evaluator_arg(evaluator: Any) -> CoreEvaluator:
    """The core evaluator for a search's leaves or a player: None or "nets" (the default: the
    shipped nets, tavli.nn.default_evaluator(), the heuristic for games without one), "heuristic"
    (the hand-written evaluator; None to the core), a tavli.nn.Net (passed as a snapshot:
    changing the net later does not touch a running search), ClassNets, RaceDb, or a
    tavli._core.NetSuite as it is."""
    if evaluator is None or (isinstance(evaluator, str) and evaluator == "nets"):
        return default_evaluator()
    if isinstance(evaluator, str) and evaluator == "heuristic":
        return None
    from .nn.classnets import ClassNets
    from .nn.race_db import RaceDb

    if isinstance(evaluator, (Net, ClassNets, RaceDb)):
        return evaluator._evaluator()
    if isinstance(evaluator, _core.NetSuite):  # a suite built by hand (e.g. with another pruning net)
        return evaluator
    raise ValueError(f"evaluator: expected None or 'nets' (the shipped nets), 'heuristic', a tavli.nn.Net, ClassNets, "
                     f"RaceDb or a tavli._core.NetSuite, got {evaluator!r}")


def filters_arg(filters: Any) -> list[tuple[int, int, float]]:
    """Move filters as (accept, extra, threshold) triples, validated."""
    return _filter_triples(filters, "filters", 0)


def narrowing_arg(narrowing: Any) -> list[tuple[int, int, float]]:
    """The search's narrowing between the root's plies (cpp/include/tavli/search.h: gnubg's move
    filters): (accept, extra, threshold) triples, accept -1..10000 (-1: keep every play after that
    ply); None: the defaults."""
    return _filter_triples(narrowing, "narrowing", -1)


def _filter_triples(value: Any, name: str, lowest_accept: int) -> list[tuple[int, int, float]]:
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ValueError(f"{name}: expected a list of (accept, extra, threshold)")
    out = []
    for i, f in enumerate(value):
        try:
            accept, extra, threshold = f
        except (TypeError, ValueError):
            raise ValueError(f"{name}[{i}]: expected (accept, extra, threshold)") from None
        for what, v, low in (("accept", accept, lowest_accept), ("extra", extra, 0)):
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= 10_000:
                raise ValueError(f"{name}[{i}].{what}: expected an integer {low}..10000, got {v!r}")
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold < 1e6:
            raise ValueError(f"{name}[{i}].threshold: expected a number >= 0, got {threshold!r}")
        out.append((int(accept), int(extra), float(threshold)))
    if len(out) > 64:
        raise ValueError(f"{name}: at most 64 levels")
    return out


def prune_arg(prune: Any) -> int:
    """The plays a pruned node values by the evaluator (search.h, "Pruning"): 0 (no pruning) ..
    the core's MAX_PRUNE."""
    return int_arg("prune", prune, 0, _core.MAX_PRUNE)


def search_args(plies: Any, threads: Any, time_limit: Any, node_limit: Any,
                max_plies: int = _core.MAX_SEARCH_PLIES) -> tuple[int, int, float, int]:
    # the bounds are the core's (cpp/include/tavli/search.h, parallel.h), named here for the message
    plies = int_arg("plies", plies, 0, max_plies)
    threads = int_arg("threads", threads, 1, _core.MAX_THREADS)
    if time_limit is None:
        time_limit = 0.0
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 <= time_limit <= 86400:
        raise ValueError(f"time_limit must be seconds in 0..86400 (or None), got {time_limit!r}")
    if node_limit is None:
        node_limit = 0
    if isinstance(node_limit, bool) or not isinstance(node_limit, int) or not 0 <= node_limit <= 2**62:
        raise ValueError(f"node_limit must be a non-negative integer (or None), got {node_limit!r}")
    return plies, threads, float(time_limit), int(node_limit)
