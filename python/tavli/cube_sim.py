"""Self-play with the doubling cube (cpp/include/tavli/cube_player.h): the `cube` argument of
tavli.simulate and tavli.simulate_matches, and points per game with the cube.

>>> import tavli
>>> r = tavli.simulate("backgammon", 4, ("heuristic", "heuristic"), cube=True, seed=1)
>>> sorted(k for k in r if k in ("cube", "cube_owner", "passed", "scored"))
['cube', 'cube_owner', 'passed', 'scored']

`cube`: False (cubeless, the default), True (money play: Jacoby off, beavers off, no maximum;
in a match: the score's cube with the Crawford rule), or a dict with any of
  jacoby (bool), beavers (bool), max_cube (a power of two, 0 = none): money play only;
  players (two bools): which players handle the cube; one that does not never doubles and
  always takes (default: both do);
  match (a tavli.MatchState, or a dict of its fields) and met (a table or its name; None:
  Kazaross-XG2): simulate only: every game played at that match score (Crawford, post-Crawford),
  the cube decisions made in match winning chances.
Each cube-handling player decides by the 0-ply cubeful model on its own evaluator (the
heuristic's, a net's; tavli.cube.decide's formulas), or, a player spec ending in '+cube:N', by
the cubeful search N plies deep (tavli.cube_search.decide's). Checker play is cubeless, or with
'+score' at a match score ranked by match winning chance, or with '+cubeful' ranked by cubeful
equity (tavli.match_players).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np

from . import _core
from ._base.args import require_bool

# The core's form of `cube` (tavli/_core.pyi): jacoby, beavers, max_cube, which players handle
# the cube (White, Black), the match equity table (None in money play) and the match state.
CubeArg = tuple[bool, bool, int, bool, bool, _core.MatchEquityTable | None, _core.MatchState]

__all__ = ["money_cube_arg", "match_cube_arg", "points_per_game"]

_MONEY_KEYS = ("jacoby", "beavers", "max_cube", "players", "match", "met")


def _options(cube: Any) -> dict[str, Any] | None:
    """None for a cubeless run, else the cube's options as a dict."""
    if cube is None or cube is False:
        return None
    if cube is True:
        return {}
    if isinstance(cube, _core.CubeState):
        if cube.value != 1 or cube.owner is not None:
            raise ValueError("cube: a game with the cube starts with the cube centred at 1")
        return {"jacoby": cube.jacoby, "beavers": cube.beavers, "max_cube": cube.max_cube}
    if isinstance(cube, Mapping):
        unknown = set(cube) - set(_MONEY_KEYS)
        if unknown:
            raise ValueError(f"cube: unknown keys {sorted(unknown)} (known: {', '.join(_MONEY_KEYS)})")
        return dict(cube)
    raise ValueError(f"cube must be False, True, a dict of options or a tavli.CubeState, got {cube!r}")


def _handles(players: Any) -> tuple[bool, bool]:
    if players is None:
        return True, True
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence) or len(players) != 2:
        raise ValueError(f"cube players: two bools (which players handle the cube), got {players!r}")
    return require_bool("cube players[0]", players[0]), require_bool("cube players[1]", players[1])


def _takes_cube(game: str) -> None:
    if not _core._variant_takes_cube(game):
        raise ValueError(f"{game} has no doubling cube (cube=True is for backgammon, nackgammon and hypergammon)")


def money_cube_arg(variant: str, cube: Any) -> CubeArg | None:
    """The core's form of simulate's `cube` (None: cubeless). Checks the options."""
    from .cube import _match_arg, _met_arg

    opts = _options(cube)
    if opts is None:
        return None
    _takes_cube(variant)
    jacoby = require_bool("cube jacoby", opts.get("jacoby", False))
    beavers = require_bool("cube beavers", opts.get("beavers", False))
    max_cube = opts.get("max_cube", 0)
    if isinstance(max_cube, bool) or not isinstance(max_cube, int):
        raise ValueError(f"cube max_cube: a power of two (0 = no maximum), got {max_cube!r}")
    _core.CubeState(1, None, jacoby=jacoby, beavers=beavers, max_cube=max_cube)  # validates max_cube
    match = _match_arg(opts.get("match"))
    if match.money and opts.get("met") is not None:
        raise ValueError("cube met is for games at a match score (cube match)")
    met = None if match.money else _met_arg(opts.get("met"))
    return (jacoby, beavers, max_cube, *_handles(opts.get("players")), met, match)


def match_cube_arg(cube: Any, met: Any, cycle: Sequence[str], target: int, next_starter: str,
                   openings: Mapping[str, str]) -> CubeArg | None:
    """The core's form of simulate_matches' `cube` (None: cubeless): a one-game match of a game
    with the cube, its games started as backgammon's (an opening roll, its dice played), and a
    match equity table (None: Kazaross-XG2) that covers `target`."""
    from .cube import _met_arg

    opts = _options(cube)
    if opts is None:
        if met is not None:
            raise ValueError("met is for a match with the cube (cube=True)")
        return None
    money_only = sorted(set(opts) & {"jacoby", "beavers", "max_cube"})
    if money_only:
        raise ValueError(f"cube: {', '.join(money_only)} are money-play options, not for a match")
    if "match" in opts or "met" in opts:
        raise ValueError("cube: the match's score is the match's own (simulate_matches takes met= itself)")
    if len(cycle) != 1:
        raise ValueError("a match with the cube plays one game (backgammon, nackgammon or hypergammon)")
    _takes_cube(cycle[0])
    if next_starter != "roll_off" or openings[cycle[0]] != "use_opening_dice":
        raise ValueError("with the cube every game starts with an opening roll whose dice are played "
                         "(next_starter='roll_off', opening='use_opening_dice')")
    table = _met_arg(met)
    if target > table.length:
        raise ValueError(f"the match equity table {table.name} covers matches up to {table.length} points, "
                         f"not {target}")
    return (False, False, 0, *_handles(opts.get("players")), table, _core.MatchState(target))


def points_per_game(result: Mapping[str, np.ndarray], player: int = 0) -> tuple[float, float]:
    """Mean points per game for `player` (won positive, lost negative; with the cube the points
    scored, cube x game value) and its 95% normal-approximation half-width, over all games."""
    if isinstance(player, bool) or player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    pts = np.asarray(result["scored"] if "scored" in result else result["points"], dtype=np.float64)
    winner = np.asarray(result["winner"])
    signed = np.where(winner == player, pts, np.where(winner >= 0, -pts, 0.0))
    n = len(signed)
    if n == 0:
        return float("nan"), float("nan")
    half = 1.96 * float(signed.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    return float(signed.mean()), half
