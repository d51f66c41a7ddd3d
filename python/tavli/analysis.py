"""Analysis results: probabilities, evaluations and ranked plays (the search is the core's)."""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from . import _core


class Probabilities(NamedTuple):
    """GNU Backgammon's cumulative probabilities for one side, plus the chance of a draw (Plakoto).
    A double is a gammon, a mars or a mother win; a triple a backgammon (or Narde's koks).
    `margin`: expected points beyond one per decided game where results vary in size (Tawla 31
    scores the loser's checkers left); 0 in the other games."""

    win: float
    win_double: float
    win_triple: float
    lose_double: float
    lose_triple: float
    draw: float = 0.0
    margin: float = 0.0

    @property
    def lose(self) -> float:
        return 1.0 - self.win - self.draw

    @property
    def equity(self) -> float:
        """Expected points (cubeless): win - lose + doubles + triples, each counted once more, + margin."""
        return (
            self.win - self.lose + (self.win_double - self.lose_double) + (self.win_triple - self.lose_triple)
            + self.margin
        )


class Evaluation(NamedTuple):
    """A position before the roll, for the side to move."""

    probabilities: Probabilities
    equity: float
    plies: int  # depth completed
    nodes: int  # static evaluations made
    interrupted: bool  # the time or node limit stopped a deeper iteration


class AnalyzedPlay(NamedTuple):
    """One legal play with its value for the side that plays it."""

    play: _core.Play
    probabilities: Probabilities
    equity: float
    plies: int  # depth this play was searched to (plays cut by the root filter keep 0)

    def __str__(self) -> str:
        return f"{self.play!s:<28} {self.equity:+.3f}  ({self.plies}-ply)"


class Analysis(list):
    """The legal plays of a roll, best first (a list of AnalyzedPlay), with the search's totals."""

    def __init__(self, plays: Sequence[AnalyzedPlay], plies: int, nodes: int, interrupted: bool) -> None:
        super().__init__(plays)
        self.plies = plies
        self.nodes = nodes
        self.interrupted = interrupted

    @property
    def best(self) -> AnalyzedPlay:
        return self[0]


class Rollout(NamedTuple):
    """A rollout's estimate of a position before the roll, for its side to move (the original
    mover): the means of the trials' outcomes and their standard errors (sample standard
    deviation / sqrt(trials); conservative with stratified rolls, see cpp/include/tavli/rollout.h)."""

    probabilities: Probabilities  # mean outcome vector
    equity: float  # mean equity (cubeless points)
    std_errors: Probabilities  # standard error of each field's mean (its lose and equity mean nothing)
    equity_std_error: float
    trials: int
    truncated: int  # trials valued by the evaluator instead of played to the end


def evaluator_arg(evaluator: Any) -> Any:
    """The core evaluator for a search's leaves or a player: None or "nets" (the default: the
    shipped nets, tavli.nn.default_evaluator(), the heuristic for games without one), "heuristic"
    (the hand-written evaluator; None to the core) or a tavli.nn.Net (passed as a snapshot:
    changing the net later does not touch a running search)."""
    from .nn import Net, default_evaluator

    if evaluator is None or (isinstance(evaluator, str) and evaluator == "nets"):
        return default_evaluator()
    if isinstance(evaluator, str) and evaluator == "heuristic":
        return None
    from .classnets import ClassNets

    if isinstance(evaluator, (Net, ClassNets)):
        return evaluator._evaluator()
    raise ValueError(f"evaluator: expected None or 'nets' (the shipped nets), 'heuristic', a tavli.nn.Net or ClassNets, "
                     f"got {evaluator!r}")


def filters_arg(filters: Any) -> list[tuple[int, int, float]]:
    """Move filters as (accept, extra, threshold) triples, validated."""
    if filters is None:
        return []
    if isinstance(filters, (str, bytes)) or not hasattr(filters, "__iter__"):
        raise ValueError("filters: expected a list of (accept, extra, threshold)")
    out = []
    for i, f in enumerate(filters):
        try:
            accept, extra, threshold = f
        except (TypeError, ValueError):
            raise ValueError(f"filters[{i}]: expected (accept, extra, threshold)") from None
        for name, v in (("accept", accept), ("extra", extra)):
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10_000:
                raise ValueError(f"filters[{i}].{name}: expected an integer 0..10000, got {v!r}")
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold < 1e6:
            raise ValueError(f"filters[{i}].threshold: expected a number >= 0, got {threshold!r}")
        out.append((int(accept), int(extra), float(threshold)))
    if len(out) > 64:
        raise ValueError("filters: at most 64 levels")
    return out


def search_args(plies: Any, threads: Any, time_limit: Any, node_limit: Any, max_plies: int = 32):
    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= max_plies:
        raise ValueError(f"plies must be an integer 0..{max_plies}, got {plies!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 1024:
        raise ValueError(f"threads must be an integer 1..1024, got {threads!r}")
    if time_limit is None:
        time_limit = 0.0
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 <= time_limit <= 86400:
        raise ValueError(f"time_limit must be seconds in 0..86400 (or None), got {time_limit!r}")
    if node_limit is None:
        node_limit = 0
    if isinstance(node_limit, bool) or not isinstance(node_limit, int) or not 0 <= node_limit <= 2**62:
        raise ValueError(f"node_limit must be a non-negative integer (or None), got {node_limit!r}")
    return plies, threads, float(time_limit), int(node_limit)
