"""Self-play in C++ threads: whole games between two players, results as numpy arrays."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import numpy as np

from . import _core
from ._base.args import int_arg, require_bool
from ._limits import Deadline
from ._options import to_pairs
from ._progress import reporter
from .analysis import filters_arg

KINDS = {0: "unfinished", 1: "single", 2: "double", 3: "triple", 4: "mother", 5: "draw", 6: "checkers"}


def _player(spec: Any) -> tuple[str, int, list, Any]:
    """A player as the core takes it: (kind, plies, filters, core evaluator or None for the
    heuristic). Specs: 'random'; 'greedy' or '0ply' (0-ply with the default evaluator: the shipped
    net of the game, tavli.nn.default_evaluator()); 'heuristic' (0-ply with the hand-written
    evaluator); 'search:N' or 'Nply' (N-ply search, default evaluator and filters); 'heuristic:N'
    (N-ply on the heuristic); a tavli.nn.Net (0-ply with that net); or a dict {"search": N,
    "filters": [...], "evaluator": None | "nets" | "heuristic" | Net}."""
    from .analysis import evaluator_arg
    from .nn import Net

    from .classnets import ClassNets

    if isinstance(spec, (Net, ClassNets)):
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


_int_arg = int_arg  # the old private name, imported by board and distributed


# The index of a run's first game or match: game i is seeded by (seed, i), any i below 2**62.
MAX_FIRST = 2**62


def _backend(backend: Any, ray_address: Any) -> str:
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if ray_address is not None and backend != "ray":
        raise ValueError("ray_address is for backend='ray'")
    return backend


def _chunks(total: int, chunk: int):
    first = 0
    while first < total:
        n = min(chunk, total - first)
        yield first, n
        first += n


def simulate(
    variant: str = "fevga",
    games: int = 1000,
    players: Sequence[Any] = ("greedy", "random"),
    *,
    seed: int = 0,
    threads: int = 1,
    max_plies: int = 10_000,
    start: Any = None,
    trajectories: bool = False,
    progress: Callable[[int, int], Any] | bool | None = None,
    chunk: int = 2048,
    first_game: int = 0,
    time_limit: float | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    **options: Any,
) -> dict[str, np.ndarray]:
    """Plays `games` games, players[0] as White and players[1] as Black, in C++ threads with the
    GIL released, and returns numpy arrays: winner (0, 1; -1 for a draw or an unfinished game),
    points, kind (see KINDS), starter, plies.

    Game i uses dice seeded by (seed, i): the same games whatever `threads` and `chunk`.
    `start`: a position row (Board.to_array()) to start every game from, its side to move first.
    `trajectories=True` adds, one row per play: positions (M, 64) before the play, dice (M, 2),
    steps (M, 6, 2; unused -2) and game (M,), the index of the game.
    `progress(done, total)` is called after every chunk of games (True: a progress bar). Ctrl-C
    stops the games within milliseconds (KeyboardInterrupt); past `time_limit` seconds (None: no
    limit) the call raises TimeoutError (the games finished so far are not returned: a seeded run
    is reproducible only whole, or by `first_game` parts).
    `first_game`: play games first_game .. first_game + games - 1 of the seed's sequence (a part
    of a larger run, bit for bit).
    `backend="ray"` shards the games across a Ray cluster (tavli.distributed.simulate, the same
    arrays; `ray_address` or an already initialised Ray session; docs/distributed.md)."""
    trajectories = require_bool("trajectories", trajectories)
    if _backend(backend, ray_address) == "ray":
        from . import distributed

        _local_only_time_limit(time_limit)
        return distributed.simulate(variant, games, players, seed=seed, threads=threads, max_plies=max_plies,
                                    start=start, trajectories=trajectories, progress=progress,
                                    first_game=first_game, address=ray_address, **options)
    if not isinstance(variant, str):
        raise ValueError("variant must be a string")
    games = _int_arg("games", games, 0, 100_000_000)
    threads = _int_arg("threads", threads, 1, 1024)
    max_plies = _int_arg("max_plies", max_plies, 1, 10**7)
    chunk = _int_arg("chunk", chunk, 1, 10**7)
    seed = _int_arg("seed", seed, 0, 2**64 - 1)
    first_game = _int_arg("first_game", first_game, 0, MAX_FIRST)
    if isinstance(players, (str, bytes)) or len(players) != 2:
        raise ValueError("players: expected two player specs, e.g. ('greedy', 'random')")
    progress = reporter(progress)
    specs = [_player(p) for p in players]
    row = None
    if start is not None:
        from .batch import as_int_array

        row = as_int_array(start, "start", "uint8")
    pairs = to_pairs(options)
    deadline = Deadline(time_limit)
    parts: list[dict] = []
    done = 0
    for first, n in _chunks(games, chunk):
        parts.append(_core._simulate(variant, pairs, specs, first_game + first, n, seed, threads, max_plies, row,
                                     trajectories, deadline.remaining()))
        done += n
        if progress is not None:
            progress(done, games)
    if not parts:
        parts.append(_core._simulate(variant, pairs, specs, first_game, 0, seed, threads, max_plies, row,
                                     trajectories, deadline.remaining()))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def simulate_matches(
    kind: str = "tavli",
    matches: int = 100,
    players: Sequence[Any] = ("greedy", "random"),
    *,
    target: int | None = None,
    seed: int = 0,
    threads: int = 1,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    opening: Any = None,
    next_starter: str | None = None,
    max_plies: int = 10_000,
    progress: Callable[[int, int], Any] | bool | None = None,
    chunk: int = 256,
    first_match: int = 0,
    time_limit: float | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> dict[str, np.ndarray]:
    """Plays whole matches (tavli.Match kinds: "tavli", "tavla", "backgammon", ...) between the two
    players; returns winner (-1 unfinished), score (N, 2) and games (N,). Match i uses dice seeded
    by (seed, i); `first_match` plays matches first_match .. first_match + matches - 1.
    `time_limit` and Ctrl-C: as in simulate (TimeoutError, KeyboardInterrupt).
    `backend="ray"`: sharded on a Ray cluster, the same arrays (as in simulate)."""
    from .match import KINDS as MATCHES, NEXT_STARTER, OPENING

    if _backend(backend, ray_address) == "ray":
        from . import distributed

        _local_only_time_limit(time_limit)
        return distributed.simulate_matches(kind, matches, players, target=target, seed=seed, threads=threads,
                                            options=options, opening=opening, next_starter=next_starter,
                                            max_plies=max_plies, progress=progress, first_match=first_match,
                                            address=ray_address)

    if not isinstance(kind, str) or kind not in MATCHES:
        raise ValueError(f"unknown match kind {kind!r} (known: {', '.join(MATCHES)})")
    cycle, default_target = MATCHES[kind]
    target = _int_arg("target", default_target if target is None else target, 1, 999)
    matches = _int_arg("matches", matches, 0, 10_000_000)
    threads = _int_arg("threads", threads, 1, 1024)
    seed = _int_arg("seed", seed, 0, 2**64 - 1)
    chunk = _int_arg("chunk", chunk, 1, 10**6)
    first_match = _int_arg("first_match", first_match, 0, MAX_FIRST)
    progress = reporter(progress, "matches")
    options = dict(options or {})
    for name in options:
        if name not in cycle:
            raise ValueError(f"options for {name!r}, which is not a game of a {kind} match")
    if isinstance(opening, Mapping):
        openings = {g: opening.get(g, OPENING.get(g, "reroll")) for g in cycle}
    else:
        openings = {g: opening or OPENING.get(g, "reroll") for g in cycle}
    if next_starter is None:
        next_starter = NEXT_STARTER.get(cycle[0], "previous_winner") if len(cycle) == 1 else "previous_winner"
    specs = [_player(p) for p in players] if not isinstance(players, (str, bytes)) and len(players) == 2 else None
    if specs is None:
        raise ValueError("players: expected two player specs")
    games = [(g, to_pairs(options.get(g, {})), openings[g]) for g in cycle]
    deadline = Deadline(time_limit)
    parts = []
    done = 0
    for first, n in _chunks(matches, chunk):
        parts.append(_core._simulate_matches(games, target, next_starter, specs, first_match + first, n, seed, threads,
                                             max_plies, deadline.remaining()))
        done += n
        if progress is not None:
            progress(done, matches)
    if not parts:
        parts.append(_core._simulate_matches(games, target, next_starter, specs, first_match, 0, seed, threads,
                                             max_plies, deadline.remaining()))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _local_only_time_limit(time_limit: Any) -> None:
    if time_limit is not None:
        raise ValueError("time_limit is for backend='local' (a Ray run is stopped with Ctrl-C)")


def win_rate(result: dict[str, np.ndarray], player: int = 0) -> tuple[float, float]:
    """Share of decided games won by `player`, with a 95% normal-approximation half-width."""
    decided = result["winner"] >= 0
    n = int(decided.sum())
    if n == 0:
        return float("nan"), float("nan")
    p = float((result["winner"][decided] == player).mean())
    return p, 1.96 * (p * (1 - p) / n) ** 0.5
