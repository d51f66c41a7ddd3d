"""Score-aware checker play (issue 15, item 5): at a match score, plays are ranked by match
winning chance (MWC) at every node of the search, not by money equity.

The MWC once this game ends is linear in its outcome probabilities, so it is a utility: seven
weights, the MWC of the side to move after he wins 1, 2 or 3 points, loses 1, 2 or 3, or draws
(search.h's MatchUtility; the search ranks by it as EMG, the opponent by its negation).

Where the weights come from:
- games with the doubling cube (backgammon, nackgammon, hypergammon): the Kazaross-XG2 match
  equity table (tavli.cube.default_met), post-Crawford once a side is at one-away;
- the cubeless games (Tavla, the Greek Tavli cycle, Narde, ...): each game's own table, computed
  by the recursion of tavli.match_equity over the game's per-game point distribution as measured
  in self-play with the shipped nets (tavli/met/game_rates.json, tools/measure_game_rates.py);
  for a match that cycles through several games (Portes, Plakoto, Fevga) the table follows the
  cycle: the game after this one is the next of the cycle. A drawn game scores nothing and the
  cycle moves on (RULES.md §7.3).
Tawla 31 scores by checkers left (1..15 points a game), which seven weights cannot express: it
keeps the money equity (utility() returns None for it).

>>> w = utility("portes", 1, (0, 0), 0)   # a 1-point match: any win wins the match
>>> w[:3], w[3:6]
((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from . import _core
from ._base.dice import parse_dice

if TYPE_CHECKING:
    from .results import Analysis, Probabilities
    from .board import Board
    from .match import Match

__all__ = ["ScoredPlay", "analyze", "best_play", "cycle_met", "evaluate", "game_rates", "utility"]

_RATES = os.path.join(os.path.dirname(__file__), "met", "game_rates.json")
MAX_AWAY = 64  # cubeless tables cover matches to 64 points (Tawla 31's 31 included)
NO_UTILITY = ("tawla31",)  # scored by checkers: no seven-weight utility


@functools.lru_cache(maxsize=None)
def game_rates() -> dict[str, dict[int, float]]:
    """Each game's per-game outcome distribution from self-play: {points: probability}, 0 for a
    draw (tavli/met/game_rates.json; the two sides pooled, as for equal players)."""
    with open(_RATES) as f:
        data = json.load(f)["games"]
    out = {}
    for variant, d in data.items():
        n = d["games"] - d["unfinished"]
        dist = {int(k): v / n for k, v in d["points"].items()}
        if d["draws"]:
            dist[0] = d["draws"] / n
        out[variant] = dist
    return out


@functools.lru_cache(maxsize=None)
def cycle_met(games: tuple[str, ...], max_away: int = MAX_AWAY) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """T[g][a][b]: the MWC of a side needing a points against one needing b (1..max_away; index 0
    unused) before game g of the cycle `games`, equal players with each game's measured
    distribution (game_rates). A draw moves the cycle on without points; with one game it is
    tavli.match_equity.match_equity_table of that game's distribution, split evenly."""
    rates = game_rates()
    missing = [g for g in games if g not in rates]
    if missing:
        raise ValueError(f"no measured rates for {missing} (known: {sorted(rates)})")
    n = len(games)
    t = [[[0.0] * (max_away + 1) for _ in range(max_away + 1)] for _ in range(n)]

    def m(g: int, a: int, b: int) -> float:
        return 1.0 if a <= 0 else 0.0 if b <= 0 else t[g % n][a][b]

    for total in range(2, 2 * max_away + 1):
        for a in range(max(1, total - max_away), min(max_away, total - 1) + 1):
            b = total - a
            # Wins and losses lead to smaller scores; draws to the same score at the next game,
            # a cycle of n linear equations solved by iterating (draws are rare: it converges fast).
            base = [sum(0.5 * v * (m(g + 1, a - k, b) + m(g + 1, a, b - k)) for k, v in rates[games[g]].items() if k)
                    for g in range(n)]
            draw = [rates[games[g]].get(0, 0.0) for g in range(n)]
            vals = [0.5] * n
            for _ in range(200):
                new = [base[g] + draw[g] * vals[(g + 1) % n] for g in range(n)]
                done = max(abs(x - y) for x, y in zip(new, vals)) < 1e-15
                vals = new
                if done:
                    break
            for g in range(n):
                t[g][a][b] = vals[g]
    return tuple(tuple(tuple(row) for row in tg) for tg in t)


def utility(variant: str, length: int, score: Sequence[int], mover: int, *, cycle: Sequence[str] | None = None,
            game_index: int = 0, met: Any = None, cube_value: int = 1) -> tuple[float, ...] | None:
    """The seven weights (MWC of `mover` after he wins 1, 2, 3 points, loses 1, 2, 3, a draw) for a
    game of `variant` in a match to `length` at `score` (points of players 0 and 1). `cycle`: the
    match's games in order (None: this game alone) and `game_index` this game's place in it; `met`
    for the games with the cube (None: Kazaross-XG2); `cube_value`: their cube, dead at that value
    (each result counts so many times). None for Tawla 31 (scored by checkers)."""
    from .cube import _met_arg

    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise ValueError(f"match length must be an integer >= 1, got {length!r}")
    s0, s1 = (int(x) for x in score)
    if not (0 <= s0 < length and 0 <= s1 < length):
        raise ValueError(f"score {s0}-{s1}: each must be 0..{length - 1} in a {length}-point match")
    if mover not in (0, 1):
        raise ValueError(f"mover must be player 0 or 1, got {mover!r}")
    if isinstance(cube_value, bool) or cube_value not in [2**k for k in range(16)]:
        raise ValueError(f"cube_value must be a power of two 1..32768, got {cube_value!r}")
    if cube_value != 1 and not _core._variant_takes_cube(variant):
        raise ValueError(f"{variant} has no doubling cube: cube_value must be 1")
    if variant in NO_UTILITY:
        return None
    away = [length - s0, length - s1]
    me, opp = away[mover], away[1 - mover]
    if _core._variant_takes_cube(variant):
        table = _met_arg(met)
        if length > table.length:
            raise ValueError(f"the match equity table {table.name} covers matches up to {table.length} points")
        one_away = 1 in away

        def after(winner: int, pts: int) -> float:
            return _core._met_after_game(table, away[0], away[1], one_away, mover, winner, pts * cube_value)

        wins = [after(mover, k) for k in (1, 2, 3)]
        losses = [after(1 - mover, k) for k in (1, 2, 3)]
        here = 0.5 * (wins[0] + losses[0])  # these games have no draws: any value in [0, 1] does
        return (*wins, *losses, here)
    games = tuple(cycle) if cycle else (variant,)
    if length > MAX_AWAY:
        raise ValueError(f"score-aware play covers matches up to {MAX_AWAY} points")
    t = cycle_met(games)
    nxt = (game_index + 1) % len(games)

    def m(g: int, a: int, b: int) -> float:
        return 1.0 if a <= 0 else 0.0 if b <= 0 else t[g][a][b]

    return (*(m(nxt, me - k, opp) for k in (1, 2, 3)), *(m(nxt, me, opp - k) for k in (1, 2, 3)), m(nxt, me, opp))


@dataclass(frozen=True)
class ScoredPlay:
    """A play ranked at the score: probabilities (cubeless, for the side that plays it), equity
    its MWC as EMG (+1 a single win, -1 a single loss), mwc his match winning chance."""

    play: _core.Play
    probabilities: "Probabilities"
    equity: float
    mwc: float
    plies: int


def _weights(board: "Board", length: int, score: Sequence[int], cycle: Sequence[str] | None, game_index: int,
             met: Any, cube_value: int = 1) -> tuple[float, ...]:
    w = utility(board.variant, length, score, board.turn, cycle=cycle, game_index=game_index, met=met,
                cube_value=cube_value)
    if w is None:
        raise ValueError(f"{board.variant} scores by checkers: no score-aware ranking (use Board.analyze)")
    return w


def _analyze(board: "Board", dice: Any, length: int, score: Sequence[int], plies: int, filters: Any, threads: int,
             evaluator: Any, cycle: Sequence[str] | None, game_index: int, met: Any, time_limit: Any = None,
             node_limit: Any = None, cube_value: int = 1) -> tuple[list[ScoredPlay], int, int, bool]:
    from .results import Probabilities
    from .evaluators import evaluator_arg, filters_arg, search_args

    plies, threads, seconds, nodes_max = search_args(plies, threads, time_limit, node_limit)
    w = _weights(board, length, score, cycle, game_index, met, cube_value)
    if board.is_game_over():
        raise ValueError("the game is over: there are no legal plays")
    plays, done, nodes, cut = _core._analyze_utility(board, parse_dice(dice), plies, filters_arg(filters), threads,
                                                     evaluator_arg(evaluator), w, seconds, nodes_max)
    return [ScoredPlay(p, Probabilities(*pr), eq, mwc, d) for p, pr, eq, mwc, d in plays], done, nodes, cut


def analyze(board: "Board", dice: Any, length: int, score: Sequence[int], plies: int = 1, *, filters: Any = None,
            threads: int = 1, evaluator: Any = None, cycle: Sequence[str] | None = None, game_index: int = 0,
            met: Any = None, time_limit: float | None = None, node_limit: int | None = None,
            cube_value: int = 1) -> list[ScoredPlay]:
    """The legal plays for the roll, best first by match winning chance at the score, the search
    ranking by it at every node (Board.analyze's plies, filters, threads, evaluator, time_limit and
    node_limit: a limit keeps the deepest iteration completed). `cube_value`: a game with the cube
    played at that value with the cube dead (tavli.cube_search ranks with a live cube)."""
    return _analyze(board, dice, length, score, plies, filters, threads, evaluator, cycle, game_index, met,
                    time_limit, node_limit, cube_value)[0]


def as_analysis(board: "Board", dice: Any, match: Any, plies: int = 1, **kwargs: Any) -> "Analysis":
    """analyze() at a tavli.MatchState's score as a tavli.Analysis (equity: the MWC as EMG), for
    the frontends that print Board.analyze's results; Board.analyze itself in money play and for
    games scored by checkers. kwargs: filters, threads, evaluator, met, time_limit, node_limit."""
    from .results import Analysis, AnalyzedPlay

    if match.money or board.variant in NO_UTILITY:
        kwargs.pop("met", None)
        return board.analyze(dice, plies, **kwargs)
    known = {"filters", "threads", "evaluator", "met", "time_limit", "node_limit"}
    if set(kwargs) - known:
        raise TypeError(f"as_analysis: unknown keyword {sorted(set(kwargs) - known)[0]!r}")
    plays, done, nodes, cut = _analyze(board, dice, match.length, match.score, plies, kwargs.get("filters"),
                                       kwargs.get("threads", 1), kwargs.get("evaluator"), None, 0, kwargs.get("met"),
                                       kwargs.get("time_limit"), kwargs.get("node_limit"))
    return Analysis([AnalyzedPlay(p.play, p.probabilities, p.equity, p.plies) for p in plays], done, nodes, cut)


def best_play(board: "Board", dice: Any, length: int, score: Sequence[int], plies: int = 0,
              **kwargs: Any) -> _core.Play:
    """The play a score-aware player makes (analyze's first)."""
    return analyze(board, dice, length, score, plies, **kwargs)[0].play


def _evaluate(board: "Board", length: int, score: Sequence[int], plies: int, filters: Any, threads: int,
              evaluator: Any, cycle: Sequence[str] | None, game_index: int, met: Any, time_limit: Any = None,
              node_limit: Any = None, cube_value: int = 1) -> tuple["Probabilities", float, float, int, int, bool]:
    """evaluate()'s (probabilities, EMG, MWC) with the depth completed, the static evaluations
    and whether a limit cut the search short."""
    from .results import Probabilities
    from .evaluators import evaluator_arg, filters_arg, search_args

    plies, threads, seconds, nodes_max = search_args(plies, threads, time_limit, node_limit)
    w = _weights(board, length, score, cycle, game_index, met, cube_value)
    probs, eq, mwc, done, nodes, cut = _core._evaluate_utility(board, plies, filters_arg(filters), threads,
                                                               evaluator_arg(evaluator), w, seconds, nodes_max)
    return Probabilities(*probs), eq, mwc, done, nodes, cut


def evaluate(board: "Board", length: int, score: Sequence[int], plies: int = 0, *, filters: Any = None,
             threads: int = 1, evaluator: Any = None, cycle: Sequence[str] | None = None, game_index: int = 0,
             met: Any = None, time_limit: float | None = None, node_limit: int | None = None,
             cube_value: int = 1) -> tuple["Probabilities", float, float]:
    """(probabilities, equity as EMG, MWC) of the position before the roll for its side to move,
    score-aware play inside the search (limits and `cube_value` as analyze()'s)."""
    return _evaluate(board, length, score, plies, filters, threads, evaluator, cycle, game_index, met, time_limit,
                     node_limit, cube_value)[:3]
