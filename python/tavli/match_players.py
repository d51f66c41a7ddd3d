"""Match-play options of self-play players (cpp/include/tavli/match_player.h, sim.h's PlayerSpec):
score-aware checker play ('+score'), cubeful checker play ('+cubeful') and n-ply cube decisions
('+cube:N'), checked against the run they are used in, and the tuple the core takes for them.

Where score-aware play takes its weights is tavli.match_play's utility(): the match equity table
(Kazaross-XG2 unless met= says otherwise) in the games with the cube, each cubeless game's own
table computed from its measured outcome rates (tavli.match_play.cycle_met) in the others. With
the cube a score-aware player's checker play ranks by the match winning chance of the game's
outcomes with the cube's value (cubeless probabilities, the cube's later turns not foreseen); a
cubeful player's ranks by cubeful equity (cubeful_search.h's cubeful_analyze at his depth: the
cube's later turns valued by the cubeful model), in money play and at a match score.

>>> core_players(["greedy+score", "search:1+cubeful+cube:1"])[1]
[(True, 0, False), (False, 1, True)]
"""

from __future__ import annotations

from typing import Any, Sequence

from . import _core
from .players import core_player, player_options

__all__ = ["core_players", "match_play_arg", "money_play_arg", "score_aware"]


Options = tuple[bool, int, bool]  # (score_aware, cube_plies, cubeful_play) of one player


def core_players(players: Sequence[Any]) -> tuple[list[Any], list[Options]]:
    """The two players as the core takes them and their (score_aware, cube_plies, cubeful_play)
    options."""
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence) or len(players) != 2:
        raise ValueError("players: expected two player specs, e.g. ('greedy', 'random')")
    split = [player_options(p) for p in players]
    specs = [core_player(base) for base, *_ in split]
    for p, spec, (_, _, _, cf) in zip(players, specs, split):
        if cf and spec[0] == "random":
            raise ValueError(f"player {p!r}: '+cubeful' ranks plays by their value: the random player has none")
    return specs, [(sa, cp, cf) for _, sa, cp, cf in split]


def _flat(options: Sequence[Options]) -> tuple[Any, ...]:
    return (*options[0], *options[1])


def money_play_arg(options: Sequence[Options], cube_arg: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
    """The core's `play` for tavli.simulate (None: no options). '+cube:N' and '+cubeful' need the
    cube and '+score' a match score (cube={'match': ...})."""
    if not any(sa or cp or cf for sa, cp, cf in options):
        return None
    if cube_arg is None:
        raise ValueError("players: '+score', '+cubeful' and '+cube:N' need the cube (cube=True, or "
                         "cube={'match': ...} for a match score)")
    if any(sa for sa, _, _ in options) and cube_arg[6].money:
        raise ValueError("players: '+score' ranks plays at a match score: give one (cube={'match': ...})")
    return (*_flat(options), None, None)


def score_aware(options: Sequence[Options]) -> bool:
    """Whether either player plays score-aware."""
    return any(sa for sa, _, _ in options)


def match_play_arg(options: Sequence[Options], cycle: Sequence[str], target: int,
                   cube_arg: tuple[Any, ...] | None, met: Any) -> tuple[Any, ...] | None:
    """The core's `play` for tavli.simulate_matches (None: no options): the options, and in a
    cubeless match with a score-aware player the tables its games need (`met` for the games with
    the cube, None: Kazaross-XG2; cycle_met's for the others)."""
    from .cube import _met_arg
    from .match_play import MAX_AWAY, NO_UTILITY, cycle_met

    if not any(sa or cp or cf for sa, cp, cf in options):
        return None
    if cube_arg is None and any(cp for _, cp, _ in options):
        raise ValueError("players: '+cube:N' makes cube decisions: it needs the cube (cube=True)")
    if cube_arg is None and any(cf for _, _, cf in options):
        raise ValueError("players: '+cubeful' ranks plays with the cube: it needs the cube (cube=True); "
                         "'+score' plays a cubeless match to the score")
    table = tables = None
    if score_aware(options):
        scored_by_checkers = sorted(set(cycle) & set(NO_UTILITY))
        if scored_by_checkers:
            raise ValueError(f"players: '+score' has no match winning chances for {', '.join(scored_by_checkers)} "
                             f"(scored by checkers)")
        if cube_arg is None:  # with the cube, the cube's own table (simulate_matches' met)
            if any(_core._variant_takes_cube(g) for g in cycle):
                table = _met_arg(met)
                if target > table.length:
                    raise ValueError(f"the match equity table {table.name} covers matches up to {table.length} "
                                     f"points, not {target}")
            if not all(_core._variant_takes_cube(g) for g in cycle):
                if target > MAX_AWAY:
                    raise ValueError(f"'+score' covers matches up to {MAX_AWAY} points, not {target}")
                tables = [[list(row) for row in t] for t in cycle_met(tuple(cycle))]
    return (*_flat(options), table, tables)
