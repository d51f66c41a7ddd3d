"""Training data from rollouts, as numpy arrays: the rollout estimate of each of many positions
(rollout_data: Board.rollout of every row), and of the candidate plays of many decisions
(rollout_plays_data: Board.rollout_plays of every position and roll, labels for the order of a
roll's plays). tavli.distributed makes the same arrays on a Ray cluster."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .. import _core
from .._base.args import as_int_array, int_arg, require_bool
from .._base.progress import reporter
from .._base.rollout_keywords import ROLLOUT_DEFAULTS
from ..backends import backend_arg
from ..backends import ray as on_ray
from ..backends.local import concatenate
from ..board import Board, check_rollout_args
from ..results import Rollout


def rollout_data(
    positions: Any,
    variant: str = "backgammon",
    trials: int = 1296,
    player: Any = "greedy",
    *,
    truncate: int | None = None,
    seed: int = 0,
    threads: int = 1,
    evaluator: Any = None,
    stratify: bool = True,
    variance_reduction: bool = False,
    luck_evaluator: Any = None,
    progress: Callable[[int, int], Any] | bool | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    **options: Any,
) -> dict[str, np.ndarray]:
    """Rolls out every position row (N, 64) (Board.to_array rows of `variant`, none of them a
    finished game) as Board.rollout(trials, player, ...) does; row k with the seed
    tavli.Rng.derive(seed, k), so the rows' dice are independent and a row's result does not
    depend on the others. Returns probabilities (N, 7) float32, equity (N,) float64, std_errors
    (N, 7) float32, equity_std_error (N,) float64 and truncated (N,) int64, from each row's side to
    move. `variance_reduction`, `luck_evaluator`: Board.rollout's. `backend="ray"`: the same
    arrays from a Ray cluster (tavli.distributed.rollout_data). (Its rollout keywords are Board.rollout's,
    tavli._base.rollout_keywords.RolloutKeywords, written out here: **options carries the
    variant's options, and a TypedDict with extra keys of any name (PEP 728) is not yet typed.)"""
    rollout = _rollout_keywords({"truncate": truncate, "seed": seed, "threads": threads, "evaluator": evaluator,
                                 "stratify": stratify, "variance_reduction": variance_reduction,
                                 "luck_evaluator": luck_evaluator})
    if backend_arg(backend, ray_address) == "ray":
        return rollout_data_on_ray(positions, variant, trials, player, progress=progress, address=ray_address,
                                   **rollout, **options)
    rows = checked_rows(positions, variant, trials, player, rollout, options)
    return _rollout_rows(rows, 0, variant, trials, player, rollout, options, reporter(progress, "positions"))


def _rollout_keywords(values: dict[str, Any]) -> dict[str, Any]:
    """Board.rollout's keywords of a rollout job (ROLLOUT_DEFAULTS' names), its two flags checked
    here (the others are checked with the rows: check_rollout_args)."""
    return {**values, "stratify": require_bool("stratify", values["stratify"]),
            "variance_reduction": require_bool("variance_reduction", values["variance_reduction"])}


def checked_rows(positions: Any, variant: str, trials: Any, player: Any, rollout: dict[str, Any],
                 options: dict[str, Any]) -> np.ndarray:
    """The rows as a (N, 64) uint8 array, every row a position of `variant` that is not over, and
    the rollout's arguments valid: ValueError naming the first problem."""
    if not isinstance(variant, str):
        raise ValueError(f"variant must be a string, got {type(variant).__name__}")
    check_rollout_args(Board(variant, **options), trials, player, **rollout)
    rows = as_int_array(positions, "positions", "uint8")
    if rows.ndim != 2 or rows.shape[1] != _core.ROW_BYTES:
        raise ValueError(f"positions: expected an array of shape (N, {_core.ROW_BYTES}), got {rows.shape}")
    for k, row in enumerate(rows):
        try:
            board = Board.from_array(row, variant, **options)
        except ValueError as e:
            raise ValueError(f"positions[{k}]: {e}") from None
        if board.is_game_over():
            raise ValueError(f"positions[{k}]: the game is over, nothing to roll out")
    return rows


def _rollout_rows(rows: np.ndarray, first: int, variant: str, trials: Any, player: Any, rollout: dict[str, Any],
                  options: dict[str, Any], progress: Callable[[int, int], Any] | None = None) -> dict[str, np.ndarray]:
    """Rows first, first + 1, ... of a run (seeds derived from their index in the run)."""
    n = len(rows)
    out: dict[str, np.ndarray] = {
        "probabilities": np.zeros((n, 7), np.float32),
        "equity": np.zeros(n, np.float64),
        "std_errors": np.zeros((n, 7), np.float32),
        "equity_std_error": np.zeros(n, np.float64),
        "truncated": np.zeros(n, np.int64),
    }
    for k, row in enumerate(rows):
        r = Board.from_array(row, variant, **options).rollout(
            trials, player, **{**rollout, "seed": _core.Rng.derive(int(rollout["seed"]), first + k)})
        out["probabilities"][k] = r.probabilities
        out["equity"][k] = r.equity
        out["std_errors"][k] = r.std_errors
        out["equity_std_error"][k] = r.equity_std_error
        out["truncated"][k] = r.truncated
        if progress is not None:
            progress(k + 1, n)
    return out


def rollout_plays_data(
    positions: Any,
    dice: Any,
    variant: str = "backgammon",
    candidates: int | None = 5,
    trials: int = 1296,
    player: Any = "greedy",
    *,
    truncate: int | None = None,
    seed: int = 0,
    threads: int = 1,
    evaluator: Any = None,
    stratify: bool = True,
    variance_reduction: bool = False,
    luck_evaluator: Any = None,
    eliminate: float | None = None,
    progress: Callable[[int, int], Any] | bool | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    **options: Any,
) -> dict[str, np.ndarray]:
    """Board.rollout_plays of every decision: row k of `positions` (N, 64; Board.to_array rows of
    `variant`, none of them a finished game) with the roll dice[k] (N, 2), its best `candidates`
    plays by 0-ply (None: every play) rolled out on common dice with the seed
    tavli.Rng.derive(seed, k), so a decision's result does not depend on the others. Returns
    counts (N,) int64, the plays of each decision, and per play (decision k's from
    sum(counts[:k]), best first by rolled-out equity): results (M, 64) uint8, the position after the
    play (the other side to move, as batch_legal_plays(return_positions=True) gives it);
    probabilities (M, 7) float32, equity (M,) float64, std_errors (M, 7) float32 and
    equity_std_error (M,) float64 for the side that played; difference (M,) float64, the equity
    less its decision's best, and difference_std_error (M,) float64, from the paired trials; and
    truncated (M,) int64. The rollout keywords are Board.rollout's, `eliminate`
    Board.rollout_plays' (an eliminated play's values have fewer trials). `backend="ray"`: the same
    arrays from a Ray cluster (tavli.distributed.rollout_plays_data)."""
    rollout = _rollout_keywords({"truncate": truncate, "seed": seed, "threads": threads, "evaluator": evaluator,
                                 "stratify": stratify, "variance_reduction": variance_reduction,
                                 "luck_evaluator": luck_evaluator})
    if backend_arg(backend, ray_address) == "ray":
        return rollout_plays_data_on_ray(positions, dice, variant, candidates, trials, player, progress=progress,
                                         address=ray_address, eliminate=eliminate, **rollout, **options)
    rows, rolls = checked_decisions(positions, dice, variant, candidates, trials, player, rollout, options, eliminate)
    return _rollout_decisions(rows, rolls, 0, variant, candidates, trials, player, rollout, options,
                              reporter(progress, "decisions"), eliminate)


def checked_decisions(positions: Any, dice: Any, variant: str, candidates: Any, trials: Any, player: Any,
                      rollout: dict[str, Any], options: dict[str, Any],
                      eliminate: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """The rows (checked_rows) and the dice as a (N, 2) int64 array of rolls 1..6, and `candidates`
    and `eliminate` valid: ValueError naming the first problem."""
    from ..play_rollout import eliminate_arg

    if candidates is not None:
        int_arg("candidates", candidates, 1, _core.MAX_ROLLOUT_PLAYS)
    eliminate_arg(eliminate)
    rows = checked_rows(positions, variant, trials, player, rollout, options)
    rolls = as_int_array(dice, "dice", "int64")
    if rolls.shape != (len(rows), 2):
        raise ValueError(f"dice: expected an array of shape ({len(rows)}, 2), one roll per position, got {rolls.shape}")
    if rolls.size and (rolls.min() < 1 or rolls.max() > 6):
        raise ValueError("dice: every die must be 1..6")
    return rows, rolls


_PLAY_FIELDS: dict[str, tuple[tuple[int, ...], Any]] = {
    "results": ((_core.ROW_BYTES,), np.uint8), "probabilities": ((7,), np.float32), "equity": ((), np.float64),
    "std_errors": ((7,), np.float32), "equity_std_error": ((), np.float64), "difference": ((), np.float64),
    "difference_std_error": ((), np.float64), "truncated": ((), np.int64)}


def _rollout_decisions(rows: np.ndarray, rolls: np.ndarray, first: int, variant: str, candidates: int | None,
                       trials: Any, player: Any, rollout: dict[str, Any], options: dict[str, Any],
                       progress: Callable[[int, int], Any] | None = None,
                       eliminate: float | None = None) -> dict[str, np.ndarray]:
    """Decisions first, first + 1, ... of a run (seeds derived from their index in the run)."""
    counts = np.zeros(len(rows), np.int64)
    per_play: dict[str, list[Any]] = {k: [] for k in _PLAY_FIELDS}
    for k, (row, roll) in enumerate(zip(rows, rolls)):
        board = Board.from_array(row, variant, **options)
        r = board.rollout_plays((int(roll[0]), int(roll[1])), candidates, trials, player, eliminate=eliminate,
                                **{**rollout, "seed": _core.Rng.derive(int(rollout["seed"]), first + k)})
        counts[k] = len(r)
        for p in r:
            ro = p.rollout
            assert isinstance(ro, Rollout)  # cubeless: no cube was given
            per_play["results"].append(board.play(p.play).to_array())
            per_play["probabilities"].append(ro.probabilities)
            per_play["equity"].append(ro.equity)
            per_play["std_errors"].append(ro.std_errors)
            per_play["equity_std_error"].append(ro.equity_std_error)
            per_play["difference"].append(p.difference)
            per_play["difference_std_error"].append(p.difference_std_error)
            per_play["truncated"].append(ro.truncated)
        if progress is not None:
            progress(k + 1, len(rows))
    out = {"counts": counts}
    for name, (shape, dtype) in _PLAY_FIELDS.items():
        out[name] = np.array(per_play[name], dtype=dtype).reshape((-1, *shape))
    return out


# --- the same on a Ray cluster (tavli.distributed) ----------------------------------------------
def _rollout_data_shard(args: tuple[np.ndarray, dict[str, Any]], first: int, count: int) -> dict[str, np.ndarray]:
    rows, kwargs = args
    return _rollout_rows(rows[first:first + count], first, **kwargs)


def rollout_data_on_ray(*args: Any, address: str | None = None, shard: int | None = None,
                        retries: int = on_ray.DEFAULT_RETRIES, **kwargs: Any) -> dict[str, np.ndarray]:
    """tavli.rollout_data.rollout_data on a Ray cluster (tavli.distributed.rollout_data): its
    arguments, the same arrays, each task rolling out `shard` consecutive rows (row k with the seed
    Rng.derive(seed, k), wherever it runs)."""
    kw = on_ray.forwarded(rollout_data, args, kwargs, refused=("backend", "ray_address"), flatten=False)
    positions, progress = kw.pop("positions"), kw.pop("progress")
    rollout = _rollout_keywords({name: kw.pop(name) for name in ROLLOUT_DEFAULTS})
    job = {**kw, "rollout": rollout}
    rows = checked_rows(positions, **job)
    settings = on_ray.Settings(progress, "positions", address, shard, retries,
                               int_arg("threads", rollout["threads"], 1, 1024))
    if len(rows) == 0:
        return _rollout_rows(rows, 0, **job)
    return concatenate(settings.run(_rollout_data_shard, (rows, job), len(rows)))


def _rollout_decisions_shard(args: tuple[np.ndarray, np.ndarray, dict[str, Any]], first: int,
                             count: int) -> dict[str, np.ndarray]:
    rows, rolls, kwargs = args
    return _rollout_decisions(rows[first:first + count], rolls[first:first + count], first, **kwargs)


def rollout_plays_data_on_ray(*args: Any, address: str | None = None, shard: int | None = None,
                              retries: int = on_ray.DEFAULT_RETRIES, **kwargs: Any) -> dict[str, np.ndarray]:
    """rollout_plays_data on a Ray cluster (tavli.distributed.rollout_plays_data): its arguments,
    the same arrays, each task rolling out `shard` consecutive decisions (decision k with the seed
    Rng.derive(seed, k), wherever it runs)."""
    kw = on_ray.forwarded(rollout_plays_data, args, kwargs, refused=("backend", "ray_address"), flatten=False)
    positions, dice, progress = kw.pop("positions"), kw.pop("dice"), kw.pop("progress")
    rollout = _rollout_keywords({name: kw.pop(name) for name in ROLLOUT_DEFAULTS})
    job = {**kw, "rollout": rollout}
    rows, rolls = checked_decisions(positions, dice, **job)
    settings = on_ray.Settings(progress, "decisions", address, shard, retries,
                               int_arg("threads", rollout["threads"], 1, 1024))
    if len(rows) == 0:
        return _rollout_decisions(rows, rolls, 0, **job)
    return concatenate(settings.run(_rollout_decisions_shard, (rows, rolls, job), len(rows)))
