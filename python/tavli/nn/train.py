"""Training nets by self-play: TD(lambda) as in TD-Gammon (the maths and the conventions are in
cpp/include/tavli/train.h; the loop runs in C++, this module schedules it, logs and saves).

    python -m tavli.train --variant fevga --games 100000 --hidden 80 --alpha 0.1 --lambda 0.7 \\
        --seed 1 --out fevga.tnet --checkpoint-every 5000 --eval-every 5000 --eval-games 400

`--games` is the total number of training games: a run resumed with `--resume fevga.tnet` (the
same command otherwise) continues from the checkpoint's game counter and ends with exactly the
weights of an uninterrupted run. Checkpoints are the weight file itself (tavli.nn.Net.load reads
it), written atomically, with the trainer's settings and game counter as JSON in its metadata.
Ctrl-C writes a checkpoint at the last finished game and exits (status 130).

From Python:

    net = tavli.nn.Net("backgammon", hidden=40, seed=1)
    t = tavli.train.TdTrainer(net, "hypergammon", checkers=2, alpha=0.1, lambda_=0.7, seed=1)
    t.train(2000)
    tavli.train.evaluate_vs(net, "hypergammon", "random", games=400, checkers=2)
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import time
from typing import Any, Sequence, TypedDict

from .. import _core
from .._base.options import to_pairs
from . import Net
from .widen import widen

__all__ = ["TdTrainer", "evaluate_vs", "main", "METADATA_FORMAT"]

METADATA_FORMAT = "tavli-td/1"
MAX_BATCH_GAMES = 4096  # train.h: TdOptions::kMaxBatchGames
OPPONENTS = ("heuristic", "random")


class VersusCounts(TypedDict):
    """The core's counts of evaluate_vs's games (other: draws and unfinished games)."""

    games: int
    net_wins: int
    opponent_wins: int
    other: int
    net_points: int
    opponent_points: int


class VersusResult(VersusCounts):
    """evaluate_vs's result: the counts, the net's score (its share of the games, a draw half)
    and the score's 95% Wilson interval."""

    score: float
    low: float
    high: float


def _int(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{name} must be in {lo}..{hi}, got {value}")
    return value


def _real(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    return float(value)


class TdTrainer:
    """TD(lambda) self-play on `net` (a tavli.nn.Net, updated in place) for one variant.

    Game g of the run (g = games_done, games_done + 1, ...) is seeded by (seed, g). The learning
    rate is `alpha` until the first of `alpha_steps` ((from_game, alpha) pairs, increasing games),
    then each step's from its game on: a function of the game index, so a resumed run follows the
    same schedule.

    `batch_games` B > 1 trains in rounds of B games, each game from the round's weights on its own
    copy, the round's changes added (train.h, "Rounds"): the games of a round run on `threads`
    threads, and the result depends on B, not on the threads. Alpha steps must then fall on round
    boundaries (multiples of B), as must every split of the run into train() calls for the result
    to equal an unsplit run's. B = 1 (the default) is the plain online algorithm on one thread."""

    def __init__(
        self,
        net: Net,
        variant: str,
        *,
        alpha: float = 0.1,
        lambda_: float = 0.7,
        epsilon: float = 0.0,
        seed: int = 1,
        max_plies: int = 10_000,
        games_done: int = 0,
        alpha_steps: Sequence[Sequence[float]] = (),
        batch_games: int = 1,
        threads: int = 1,
        **options: Any,
    ) -> None:
        if not isinstance(net, Net):
            raise ValueError("net must be a tavli.nn.Net")
        if not isinstance(variant, str):
            raise ValueError("variant must be a string")
        self.net = net
        self.variant = variant
        self.options = dict(options)
        self._core = _core.TdTrainer(
            net._net, variant, to_pairs(self.options), _real("alpha", alpha), _real("lambda", lambda_),
            _real("epsilon", epsilon), _int("seed", seed, 0, 2**64 - 1), _int("max_plies", max_plies, 1, 10**7),
            _int("games_done", games_done, 0, 2**62), _int("batch_games", batch_games, 1, MAX_BATCH_GAMES))
        self.threads = _int("threads", threads, 1, 1024)
        self.base_alpha = float(alpha)
        self.alpha_steps = _alpha_steps(alpha_steps)
        self._check_rounds()
        self._core.alpha = self.alpha_at(self.games)

    def _check_rounds(self) -> None:
        b = self.batch_games
        for start, _ in self.alpha_steps:
            if start % b:
                raise ValueError(f"alpha step at game {start}: with batch_games {b} a step must fall on a round "
                                 f"boundary (a multiple of {b})")

    @property
    def games(self) -> int:
        """Games played so far (the next game's index)."""
        return self._core.games

    @property
    def alpha(self) -> float:
        """The learning rate of the next game."""
        return self._core.alpha

    @property
    def lambda_(self) -> float:
        return self._core.lambda_

    @property
    def epsilon(self) -> float:
        return self._core.epsilon

    @property
    def seed(self) -> int:
        return self._core.seed

    @property
    def max_plies(self) -> int:
        return self._core.max_plies

    @property
    def batch_games(self) -> int:
        """Games per round (1: one after the other)."""
        return self._core.batch_games

    def train(self, games: int) -> dict[str, int]:
        """Plays and learns from the next `games` games in C++ (GIL released); returns {games,
        plies, unfinished}. Ctrl-C raises KeyboardInterrupt at a game boundary (a round's end with
        batch_games > 1)."""
        left = _int("games", games, 0, 2**62)
        total = {"games": 0, "plies": 0, "unfinished": 0}
        while True:  # one call per stretch of constant alpha
            g = self.games
            self._core.alpha = self.alpha_at(g)
            later = [start for start, _ in self.alpha_steps if start > g]
            n = min(left, later[0] - g) if later else left
            st = self._core.train(n, self.threads)
            for k in total:
                total[k] += st[k]
            left -= n
            if left == 0:
                return total

    def alpha_at(self, game: int) -> float:
        """The learning rate of game `game` under the schedule."""
        alpha = self.base_alpha
        for start, a in self.alpha_steps:
            if start <= game:
                alpha = a
        return alpha

    def metadata(self, **extra: Any) -> str:
        """The checkpoint's metadata: the settings and the game counter, as JSON."""
        meta = {
            "format": METADATA_FORMAT,
            "method": "td-lambda",
            "variant": self.variant,
            "options": {k: v for k, v in self.options.items()},
            "family": self.net.family,
            "hidden": self.net.hidden,
            "alpha": self.base_alpha,
            "lambda": self.lambda_,
            "epsilon": self.epsilon,
            "seed": self.seed,
            "max_plies": self.max_plies,
            "games": self.games,
        }
        if self.batch_games != 1:
            meta["batch_games"] = self.batch_games
        if self.alpha_steps:
            meta["alpha_steps"] = [list(step) for step in self.alpha_steps]
        meta.update(extra)
        return json.dumps(meta, sort_keys=True)

    def save(self, path: Any, **extra: Any) -> None:
        """Writes the net with the metadata (atomically: temporary file + rename)."""
        self.net.save(path, metadata=self.metadata(**extra))

    @classmethod
    def resume(cls, path: Any, threads: int = 1) -> "TdTrainer":
        """A trainer that continues the run a checkpoint was written by (on `threads` threads, which
        do not change the result)."""
        net = Net.load(path)
        meta = read_metadata(net, path)
        return cls(net, meta["variant"], alpha=meta["alpha"], lambda_=meta["lambda"], epsilon=meta["epsilon"],
                   seed=meta["seed"], max_plies=meta["max_plies"], games_done=meta["games"],
                   alpha_steps=meta.get("alpha_steps", ()), batch_games=meta.get("batch_games", 1),
                   threads=threads, **meta["options"])


def _alpha_steps(steps: Any) -> list[tuple[int, float]]:
    out: list[tuple[int, float]] = []
    for step in steps:
        try:
            start, alpha = step
        except (TypeError, ValueError):
            raise ValueError(f"alpha_steps: expected (from_game, alpha) pairs, got {step!r}") from None
        start = _int("alpha step game", start, 1, 2**62)
        alpha = _real("alpha step alpha", alpha)
        if not (alpha > 0 and math.isfinite(alpha)):
            raise ValueError(f"alpha step alpha must be a finite number > 0, got {alpha}")
        if out and start <= out[-1][0]:
            raise ValueError("alpha_steps: games must increase")
        out.append((start, alpha))
    return out


def read_metadata(net: Net, path: Any = "the net") -> dict[str, Any]:
    """The training metadata of a checkpoint (ValueError if it has none)."""
    try:
        meta = json.loads(net.metadata)
    except ValueError:
        meta = None
    if not isinstance(meta, dict) or meta.get("format") != METADATA_FORMAT:
        raise ValueError(f"{path}: not a training checkpoint (its metadata is not {METADATA_FORMAT} JSON)")
    for key in ("variant", "options", "alpha", "lambda", "epsilon", "seed", "max_plies", "games"):
        if key not in meta:
            raise ValueError(f"{path}: checkpoint metadata lacks {key!r}")
    return meta


def evaluate_vs(
    net: Net,
    variant: str,
    opponent: str = "heuristic",
    games: int = 400,
    *,
    seed: int = 0,
    threads: int = 1,
    max_plies: int = 10_000,
    **options: Any,
) -> VersusResult:
    """`games` games of the net's 0-ply player against "heuristic" (0-ply greedy) or "random",
    colours alternating, games 2k and 2k + 1 on the same dice (train.h). Returns the counts (games,
    net_wins, opponent_wins, other: draws and unfinished, net_points, opponent_points) and
    `score` (the net's share of the games, a draw half) with its 95% Wilson interval `low`, `high`."""
    if not isinstance(net, Net):
        raise ValueError("net must be a tavli.nn.Net")
    if opponent not in OPPONENTS:
        raise ValueError(f"unknown opponent {opponent!r} (known: {', '.join(OPPONENTS)})")
    r = _core.evaluate_vs(net._net, variant, to_pairs(options), opponent, _int("games", games, 0, 2**40),
                          _int("seed", seed, 0, 2**64 - 1), _int("threads", threads, 1, 1024),
                          _int("max_plies", max_plies, 1, 10**7))
    n = r["games"]
    p = (r["net_wins"] + 0.5 * r["other"]) / n if n else float("nan")
    low, high = _wilson(p, n)
    return VersusResult(**r, score=p, low=low, high=high)


def _wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return float("nan"), float("nan")
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


# --- command line ----------------------------------------------------------------------------------

def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tavli.train",
        description="Train a net by TD(lambda) self-play (cpp/include/tavli/train.h). --games is the total: "
                    "a resumed run continues to it and ends with the weights of an uninterrupted run.")
    ap.add_argument("--variant", help="the game to play (tavli.variants()); the net serves its family")
    ap.add_argument("--option", action="append", default=[], metavar="K=V", help="a rule option (repeatable)")
    ap.add_argument("--games", type=int, required=True, help="total training games")
    ap.add_argument("--hidden", type=int, help="hidden units (default 80)")
    ap.add_argument("--encoding", help="the net's input encoding (default: the family's; 'expert' for backgammon's)")
    ap.add_argument("--alpha", type=float, help="learning rate (default 0.1)")
    ap.add_argument("--alpha-step", action="append", default=[], metavar="GAME:ALPHA",
                    help="from game GAME on, learn at ALPHA (repeatable, increasing games); a resumed run may "
                         "add steps at or after its checkpoint's game")
    ap.add_argument("--lambda", dest="lambda_", type=float, metavar="LAMBDA", help="trace decay (default 0.7)")
    ap.add_argument("--epsilon", type=float, help="probability of a random play (default 0)")
    ap.add_argument("--seed", type=int, help="seed of the initial weights and of the games (default 1)")
    ap.add_argument("--max-plies", type=int, help="plays after which a game is dropped (default 10000)")
    ap.add_argument("--out", required=True, help="the weight file (checkpoints and the result)")
    ap.add_argument("--resume", metavar="PATH", help="continue the run of this checkpoint")
    ap.add_argument("--init", metavar="PATH",
                    help="a new run (games from 0) that starts from this net's weights instead of random ones, "
                         "e.g. a shipped net trained on under another game's rules of its family; widened to "
                         "--encoding and --hidden when they are wider (tavli.nn.widen: it plays as before)")
    ap.add_argument("--widen-seed", type=int, default=1, metavar="S",
                    help="with --init and more --hidden units: seed of the new units' input weights (default 1)")
    ap.add_argument("--checkpoint-every", type=int, default=5000, metavar="N", help="games (0: only at the end)")
    ap.add_argument("--eval-every", type=int, default=0, metavar="N", help="games between evaluations (0: none)")
    ap.add_argument("--eval-games", type=int, default=400, help="games per opponent and evaluation (even)")
    ap.add_argument("--eval-seed", type=int, default=12345, help="seed of the evaluation games")
    ap.add_argument("--chunk", type=int, default=500, help="games per call into C++")
    ap.add_argument("--batch-games", type=int, metavar="B",
                    help="games per round (default 1: one after the other); with B > 1 a round's games run on "
                         "--threads threads, each from the round's weights (train.h); --games and the alpha steps "
                         "must be multiples of B, chunks, checkpoints and evaluations end at the next round's end")
    ap.add_argument("--threads", type=int, default=1,
                    help="threads of the training rounds (with --batch-games > 1; the result does not depend on "
                         "them) and of the evaluation games")
    return ap


DEFAULTS = {"hidden": 80, "alpha": 0.1, "lambda_": 0.7, "epsilon": 0.0, "seed": 1, "max_plies": 10_000}


def _init_net(path: str, variant: str, hidden: int | None, encoding: str | None, widen_seed: int = 1) -> Net:
    """The starting net of --init: the net at `path`, which must serve `variant`'s family, widened
    (tavli.nn.widen) to --encoding and --hidden where they are given: it plays as the net at `path`
    until training changes it."""
    net = Net.load(path)
    family = _core.net_family(variant)
    if net.family != family:
        raise ValueError(f"--init {path}: a {net.family} net cannot play {variant} (its family is {family})")
    try:
        return widen(net, encoding or net.encoding, hidden, seed=widen_seed)
    except ValueError as e:
        raise ValueError(f"--init {path}: {e}") from None


def _parse_step(text: str) -> tuple[int, float]:
    game, sep, alpha = text.partition(":")
    try:
        return int(game), float(alpha)
    except ValueError:
        raise ValueError(f"--alpha-step expects GAME:ALPHA, got {text!r}") from None


def _options(pairs: Sequence[str]) -> dict[str, str]:
    out = {}
    for p in pairs:
        k, sep, v = p.partition("=")
        if not sep or not k:
            raise ValueError(f"--option expects K=V, got {p!r}")
        out[k] = v
    return out


def _log(msg: str) -> None:
    print(msg, flush=True)


def _evaluation(net: Net, trainer: TdTrainer, args: argparse.Namespace) -> str:
    parts = []
    for opp in OPPONENTS:
        r = evaluate_vs(net, trainer.variant, opp, args.eval_games, seed=args.eval_seed, threads=args.threads,
                        **trainer.options)
        parts.append(f"vs {opp} {100 * r['score']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"
                     f" ppg {(r['net_points'] - r['opponent_points']) / max(1, r['games']):+.3f}")
    return "  ".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _parser().parse_args(argv)
    try:
        options: dict[str, Any] = _options(args.option)
        if args.games < 0:
            raise ValueError("--games must be >= 0")
        for name in ("checkpoint_every", "eval_every"):
            if getattr(args, name) < 0:
                raise ValueError(f"--{name.replace('_', '-')} must be >= 0")
        if args.chunk < 1:
            raise ValueError("--chunk must be >= 1")
        if args.eval_every and (args.eval_games < 2 or args.eval_games % 2):
            raise ValueError("--eval-games must be even and >= 2 (mirrored pairs)")
        steps = _alpha_steps(_parse_step(x) for x in args.alpha_step)
        if args.resume and args.init:
            raise ValueError("--init starts a new run and --resume continues one: give one of them")
        if args.resume:
            trainer = TdTrainer.resume(args.resume)
            meta = read_metadata(trainer.net, args.resume)
            given = {"variant": args.variant, "hidden": args.hidden, "encoding": args.encoding, "alpha": args.alpha,
                     "lambda_": args.lambda_, "epsilon": args.epsilon, "seed": args.seed, "max_plies": args.max_plies}
            have = {"variant": trainer.variant, "hidden": trainer.net.hidden, "encoding": trainer.net.encoding,
                    "alpha": trainer.base_alpha,
                    "lambda_": trainer.lambda_, "epsilon": trainer.epsilon, "seed": trainer.seed,
                    "max_plies": trainer.max_plies}
            for k, v in given.items():
                if v is not None and v != have[k]:
                    raise ValueError(f"--{k.rstrip('_').replace('_', '-')} {v} differs from the checkpoint's {have[k]}")
            if args.alpha_step:
                # Steps the checkpoint's games already followed must be unchanged; later ones are free
                # (the result is then that of an uninterrupted run with the new schedule).
                played = trainer.games
                if [x for x in steps if x[0] <= played] != [x for x in trainer.alpha_steps if x[0] <= played]:
                    raise ValueError(f"--alpha-step: the steps before game {played} differ from the checkpoint's "
                                     f"{trainer.alpha_steps}")
                trainer.alpha_steps = steps
                trainer._check_rounds()
            if args.batch_games is not None and args.batch_games != trainer.batch_games:
                raise ValueError(f"--batch-games {args.batch_games} differs from the checkpoint's {trainer.batch_games}")
            trainer.threads = _int("--threads", args.threads, 1, 1024)
            if args.option and options != {k: str(v) for k, v in meta["options"].items()}:
                raise ValueError(f"--option {options} differs from the checkpoint's {meta['options']}")
            _log(f"resuming {args.resume} at game {trainer.games}")
        else:
            if not args.variant:
                raise ValueError("--variant is required (unless --resume)")
            s: dict[str, Any] = {k: (getattr(args, k) if getattr(args, k) is not None else d)
                                 for k, d in DEFAULTS.items()}
            if args.init:
                net = _init_net(args.init, args.variant, args.hidden, args.encoding, args.widen_seed)
            else:
                net = Net(_core.net_family(args.variant), _int("hidden", s["hidden"], 1, 4096), seed=s["seed"],
                          encoding=args.encoding)
            trainer = TdTrainer(net, args.variant, alpha=s["alpha"], lambda_=s["lambda_"], epsilon=s["epsilon"],
                                seed=s["seed"], max_plies=s["max_plies"], alpha_steps=steps,
                                batch_games=args.batch_games if args.batch_games is not None else 1,
                                threads=args.threads, **options)
        if trainer.batch_games > 1:
            # Every call of the loop below ends on a round boundary (train.h), so that a run stopped
            # and resumed at any checkpoint ends with the weights of an unsplit one.
            b = trainer.batch_games
            if args.games % b:
                raise ValueError(f"--games {args.games} must be a multiple of --batch-games {b}")
            if trainer.games % b:
                raise ValueError(f"the checkpoint stopped at game {trainer.games}, inside a round of {b} games")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    command = "python -m tavli.train " + " ".join(shlex.quote(a) for a in argv)
    net = trainer.net

    def save() -> None:
        trainer.save(args.out, command=command)

    schedule = "".join(f", from game {g} {a:g}" for g, a in trainer.alpha_steps)
    _log(f"training {trainer.variant} {trainer.options or ''} net {net.family}/{net.encoding} "
         f"{net.inputs}-{net.hidden}-5, alpha {trainer.base_alpha:g}{schedule}, lambda {trainer.lambda_}, "
         f"epsilon {trainer.epsilon}, seed {trainer.seed}: games {trainer.games} -> {args.games}")

    def next_boundary(g: int) -> int:
        b: int = min(args.games, g + args.chunk)
        for every in (args.checkpoint_every, args.eval_every):
            if every:
                b = min(b, (g // every + 1) * every)
        for start, _ in trainer.alpha_steps:  # a log line where the rate changes
            if g < start < b:
                b = start
        rounds: int = trainer.batch_games  # chunks, checkpoints and evaluations end with a round
        return min(int(args.games), -(-b // rounds) * rounds)

    t_start, g_start = time.perf_counter(), trainer.games
    try:
        if args.eval_every and trainer.games == 0:
            _log(f"games {0:>9}  {_evaluation(net, trainer, args)}")
        while trainer.games < args.games:
            t0, g0 = time.perf_counter(), trainer.games
            st = trainer.train(next_boundary(g0) - g0)
            g, dt = trainer.games, time.perf_counter() - t0
            line = (f"games {g:>9}  {st['games'] / dt if dt > 0 else 0:7.1f} games/s  "
                    f"{st['plies'] / max(1, st['games']):5.1f} plies/game  alpha {trainer.alpha_at(g0):g}")
            if st["unfinished"]:
                line += f"  unfinished {st['unfinished']}"
            if args.eval_every and g // args.eval_every > g0 // args.eval_every:
                line += "  " + _evaluation(net, trainer, args)
            _log(line)
            if args.checkpoint_every and g // args.checkpoint_every > g0 // args.checkpoint_every:
                save()
    except KeyboardInterrupt:
        save()
        _log(f"interrupted: checkpoint at game {trainer.games} written to {args.out}")
        return 130
    save()
    dt = time.perf_counter() - t_start
    rate = (trainer.games - g_start) / dt if dt > 0 else 0.0
    _log(f"done: {trainer.games} games ({rate:.1f} games/s this run), written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
