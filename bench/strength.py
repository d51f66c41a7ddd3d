"""Playing strength, with 95% confidence intervals: the trained nets against the heuristic, deeper
search against 0-ply, and backgammon's net against GNU Backgammon's evaluator.

    python bench/strength.py nets      [--games 2000] [--deep-games 200] [--variants ...]
    python bench/strength.py gnubg     [--games 2000] [--plies 0]
    python bench/strength.py heuristic [--games 1000] [--deep-games 300]
    python bench/strength.py classes   [--games 2000] --race R.tnet [--contact C.tnet] [--crashed X.tnet]
                                       [--against OLD.tnet] [--variants backgammon portes ...]
    python bench/strength.py racedb    [--games 2000] [--points 8]

Every pairing is played in mirrored pairs: games 2k and 2k + 1 replay the same dice with the sides
swapped (tavli.simulate seeds game i by (seed, i); neither greedy nor search players draw random
numbers, so the same seed gives the same dice whichever seat a player takes). Intervals are over
the pairs (each pair one sample: mirrored games are correlated), by the normal approximation.
`win` is the share of decided games won (a Plakoto draw counts for neither); `points` the share of
all points scored (cubeless: singles, doubles, triples as each game scores them).

- nets: per game, the shipped net of its family at 0-ply against the heuristic at 0-ply (target
  >= 75% of games), and the net at 2-ply against the net at 0-ply. The manifest
  (python/tavli/nets/manifest.json) lets a net serve the games where it beats the heuristic.
- gnubg: backgammon, the shipped net at 0-ply against GNU Backgammon 0-ply (PyPI gnubg-nn,
  best_move), cubeless (target >= 45% of points); --plies N plays both at N plies (tavli with its
  default move filters, gnubg-nn with its own). Needs `pip install gnubg-nn`.
- heuristic: the heuristic at 0-ply against random play, and 1-ply against 0-ply.
- classes: backgammon (or --variants of its family), class nets (tavli.classnets: --contact,
  --race, --crashed weight files, the contact net the shipped one by default) at 0-ply against the
  shipped net (or the --against weight file); `gnubg` takes the same options to play them against
  GNU Backgammon instead of the shipped net.
- racedb: backgammon, the shipped net with races within --points points valued from the one-sided
  race database (tavli.nn.race_db.RaceDb) at 0-ply against the shipped net alone.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any, Sequence

import numpy as np

import tavli

GAMES = ["fevga", "moultezim", "plakoto", "portes", "tavla", "backgammon", "narde",
         "jacquet", "tawla31", "nackgammon", "hypergammon"]


def _signed_points(result: dict, seat: int) -> np.ndarray:
    """Points of each game for the player in `seat` (+ won, - lost, 0 draw or unfinished)."""
    won = (result["winner"] == seat).astype(np.int64)
    lost = ((result["winner"] >= 0) & (result["winner"] != seat)).astype(np.int64)
    return result["points"].astype(np.int64) * (won - lost)


def summarize(first: np.ndarray, second: np.ndarray, w1: np.ndarray, w2: np.ndarray,
              d1: np.ndarray, d2: np.ndarray) -> dict[str, Any]:
    """Pairs k: (first[k], second[k]) are player A's signed points in the two games of pair k,
    w* whether A won, d* whether the game was decided."""
    pairs = len(first)
    wins = w1.astype(float) + w2
    decided = d1.astype(float) + d2
    won_pts = np.maximum(first, 0) + np.maximum(second, 0)
    all_pts = np.abs(first) + np.abs(second)

    def ratio(num: np.ndarray, den: np.ndarray) -> tuple[float, float]:
        # A ratio estimator's interval over pairs: var of (num - r * den) / (n * mean(den)^2).
        r = num.sum() / den.sum() if den.sum() else float("nan")
        if pairs < 2 or not den.sum():
            return r, float("nan")
        resid = num - r * den
        se = math.sqrt(resid.var(ddof=1) / pairs) / den.mean()
        return r, 1.96 * se

    win, win_ci = ratio(wins, decided)
    pts, pts_ci = ratio(won_pts.astype(float), all_pts.astype(float))
    ppg = (first + second).sum() / (2 * pairs)
    ppg_ci = 1.96 * (first + second).std(ddof=1) / 2 / math.sqrt(pairs) if pairs > 1 else float("nan")
    return {"games": 2 * pairs, "win": win, "win_ci": win_ci, "points": pts, "points_ci": pts_ci,
            "ppg": ppg, "ppg_ci": ppg_ci, "undecided": int(2 * pairs - decided.sum())}


def mirrored(variant: str, a: Any, b: Any, games: int, seed: int, threads: int, **options: Any) -> dict:
    """Player a against player b over games // 2 mirrored pairs of tavli.simulate games."""
    pairs = max(1, games // 2)
    ab = tavli.simulate(variant, pairs, (a, b), seed=seed, threads=threads, **options)
    ba = tavli.simulate(variant, pairs, (b, a), seed=seed, threads=threads, **options)
    return summarize(_signed_points(ab, 0), _signed_points(ba, 1), ab["winner"] == 0, ba["winner"] == 1,
                     ab["winner"] >= 0, ba["winner"] >= 0)


def line(game: str, pairing: str, r: dict, seconds: float) -> str:
    extra = f"  ({r['undecided']} undecided)" if r["undecided"] else ""
    return (f"{game:<11} {pairing:<24} {r['games']:>6} {100 * r['win']:6.1f}% ±{100 * r['win_ci']:4.1f}"
            f"  {100 * r['points']:6.1f}% ±{100 * r['points_ci']:4.1f}  {r['ppg']:+7.3f} ±{r['ppg_ci']:.3f}"
            f"  {seconds:6.1f}s{extra}")


HEADER = (f"{'game':<11} {'pairing (A v B)':<24} {'games':>6} {'A wins':>13}  {'A points':>13}  "
          f"{'A ppg':>14}  time")


def run_nets(args: argparse.Namespace) -> None:
    print(HEADER)
    for v in args.variants or GAMES:
        net = tavli.nn.shipped(v)
        if net is None:
            print(f"{v:<11} no shipped net")
            continue
        opts = {"checkers": 3} if v == "hypergammon" else {}
        t0 = time.perf_counter()
        r = mirrored(v, net, "heuristic", args.games, args.seed, args.threads, **opts)
        print(line(v, "net 0-ply v heuristic", r, time.perf_counter() - t0), flush=True)
        if args.deep_games:
            t0 = time.perf_counter()
            deep = {"search": 2, "evaluator": net}
            r = mirrored(v, deep, net, args.deep_games, args.seed, args.threads, **opts)
            print(line(v, "net 2-ply v net 0-ply", r, time.perf_counter() - t0), flush=True)


def run_heuristic(args: argparse.Namespace) -> None:
    print(HEADER)
    for v in args.variants or GAMES:
        opts = {"checkers": 3} if v == "hypergammon" else {}
        for a, b, n in (("heuristic", "random", args.games), ("heuristic:1", "heuristic", args.deep_games)):
            t0 = time.perf_counter()
            r = mirrored(v, a, b, n, args.seed, args.threads, **opts)
            print(line(v, f"{a} v {b}", r, time.perf_counter() - t0), flush=True)


# --- against GNU Backgammon ---------------------------------------------------------------------

def gnubg_board(row) -> list[list[int]]:
    """gnubg's board [[opponent], [side on roll]], each side's index i = its point i + 1 = 23 - r,
    index 24 its bar (tests/test_gnubg_backgammon.py checks this conversion)."""
    r = [int(x) for x in row]
    return [[r[47 - i] for i in range(24)] + [r[49]], [r[23 - i] for i in range(24)] + [r[48]]]


def gnubg_pick(gnubg: Any, board: Any, plays: Sequence[Any], dice: tuple[int, int], plies: int = 0) -> Any:
    """gnubg-nn's choice among tavli's `plays` of `dice` at `plies` plies (matched by the resulting
    position: gnubg names plays by the board they leave)."""
    _, key = gnubg.best_move(gnubg_board(board.to_array()), dice[0], dice[1], n=plies, b=1)
    play = next((p for p in plays if gnubg.key_of_board(gnubg_board(board.play(p).to_array())) == key), None)
    if play is None:
        raise RuntimeError(f"gnubg's play {key} is not among tavli's plays (position {board.id()})")
    return play


def gnubg_game(gnubg: Any, net: Any, net_seat: int, dice: Sequence[tuple[int, int]],
               plies: int = 0, choose: Any = None) -> int:
    """One cubeless backgammon game, the net in `net_seat` (0 moves first), both searching `plies`
    plies (tavli with its default move filters, gnubg-nn with its own), the rolls taken in order
    from `dice` (the first one is the opening roll, non-double). Returns the net's signed points.
    `choose(board, plays, dice)`, when given, picks the net side's plays instead of `net`."""
    board = tavli.Board("backgammon")
    for turn, (d1, d2) in enumerate(dice):
        if board.is_game_over():
            break
        plays = board.legal_plays((d1, d2))
        if turn % 2 == net_seat:
            if len(plays) == 1:
                play = plays[0]
            elif choose is not None:
                play = choose(board, plays, (d1, d2))
            else:
                play = board.analyze((d1, d2), plies=plies, evaluator=net).best.play
        elif len(plays) == 1:
            play = plays[0]
        else:
            play = gnubg_pick(gnubg, board, plays, (d1, d2), plies)
        board.push(play)
    outcome = board.outcome()
    if outcome is None:
        raise RuntimeError("a backgammon game outlasted its dice")
    # Seat 0 plays White (it moves on even turns), and outcome.winner is a colour.
    return outcome.points if outcome.winner == net_seat else -outcome.points


def best_by_equity(board: Any, plays: Sequence[Any], equity_of: Any) -> Any:
    """The play a greedy chooser takes: a play that ends the game scores its points, any other
    minus `equity_of(rows)` (the cubeless equity of the resulting position rows for the side then
    to move, the opponent). Experiment players (nets-work/diag-rank/*.py) pass it as gnubg_game's
    `choose` with their own equity."""
    results = [board.play(p) for p in plays]
    values = np.zeros(len(results))
    live = []
    for i, after in enumerate(results):
        outcome = after.outcome()
        if outcome is None:
            live.append(i)
        else:
            values[i] = outcome.points
    if live:
        values[live] = -np.asarray(equity_of(np.stack([results[i].to_array() for i in live])))
    return plays[int(np.argmax(values))]


def _class_nets(args: argparse.Namespace) -> Any:
    """ClassNets from --contact/--race/--crashed weight files (the contact net defaults to the
    shipped one), or None when none is given."""
    if not (args.contact or args.race or args.crashed):
        return None
    from tavli.classnets import ClassNets

    load = tavli.nn.Net.load
    return ClassNets(load(args.contact) if args.contact else tavli.nn.shipped("backgammon"),
                     load(args.race) if args.race else None, load(args.crashed) if args.crashed else None)


def run_classes(args: argparse.Namespace) -> None:
    """Backgammon (or --variants of its family): the class nets of --contact/--race/--crashed at
    0-ply against the shipped net, or against the --against weight file."""
    nets = _class_nets(args)
    if nets is None:
        raise SystemExit("classes: give --contact, --race and/or --crashed weight files")
    against = tavli.nn.Net.load(args.against) if args.against else tavli.nn.shipped("backgammon")
    label = "class nets v " + ("--against" if args.against else "shipped")
    print(HEADER)
    for v in args.variants or ["backgammon"]:
        t0 = time.perf_counter()
        r = mirrored(v, nets, against, args.games, args.seed, args.threads)
        print(line(v, label, r, time.perf_counter() - t0), flush=True)


def run_racedb(args: argparse.Namespace) -> None:
    """Backgammon: RaceDb(points=--points) over the shipped net at 0-ply against the shipped net."""
    from tavli.nn.race_db import RaceDb

    ev = RaceDb(points=args.points, threads=args.threads)
    print(HEADER)
    t0 = time.perf_counter()
    r = mirrored("backgammon", ev, tavli.nn.shipped("backgammon"), args.games, args.seed, args.threads)
    print(line("backgammon", f"racedb:{args.points} v shipped", r, time.perf_counter() - t0), flush=True)


_GNUBG_PLAYER: Any = None  # (net, plies, choose) for the worker processes of gnubg_pairs (inherited by fork)


def _gnubg_pair(k_seed: tuple[int, int]) -> tuple[int, int]:
    """Mirrored pair k: the net first, then gnubg first, on the dice seeded by (seed, k)."""
    import gnubg_nn as gnubg

    k, seed = k_seed
    net, plies, choose = _GNUBG_PLAYER
    dice = pair_dice(seed, k)
    return gnubg_game(gnubg, net, 0, dice, plies, choose), gnubg_game(gnubg, net, 1, dice, plies, choose)


def gnubg_pairs(games: int, seed: int, processes: int, net: Any = None, plies: int = 0, choose: Any = None,
                progress: bool = False) -> tuple[np.ndarray, np.ndarray, float]:
    """games // 2 mirrored pairs (at least one) of player A against gnubg-nn, both at `plies`: A is
    `net`, or `choose(board, plays, dice)` when given (gnubg_game's). The pairs are spread over
    `processes` forked workers, which inherit `net` and `choose` (so an experiment script's choose
    may be a module-level function holding its own state); each pair's dice depend on (seed, k)
    alone, so the result does not depend on them. Returns A's signed points in each pair's two games
    (A first, then gnubg first) and the seconds taken; `progress` prints a line every 50 pairs."""
    import multiprocessing

    global _GNUBG_PLAYER
    _GNUBG_PLAYER = (net, plies, choose)
    pairs = max(1, games // 2)
    first, second = np.zeros(pairs, np.int64), np.zeros(pairs, np.int64)
    t0 = time.perf_counter()
    jobs = [(k, seed) for k in range(pairs)]
    with multiprocessing.get_context("fork").Pool(max(1, processes)) as pool:
        for k, (a, b) in enumerate(pool.imap(_gnubg_pair, jobs)):
            first[k], second[k] = a, b
            if progress and (k + 1) % 50 == 0:
                g1, g2 = first[:k + 1], second[:k + 1]
                print(line("backgammon", "  so far", summarize(g1, g2, g1 > 0, g2 > 0, g1 != 0, g2 != 0),
                           time.perf_counter() - t0), flush=True)
    return first, second, time.perf_counter() - t0


def print_gnubg_pairs(pairing: str, first: np.ndarray, second: np.ndarray, seconds: float) -> None:
    """gnubg_pairs' result as the table's header and one line."""
    print(HEADER)
    print(line("backgammon", pairing, summarize(first, second, first > 0, second > 0, first != 0, second != 0),
               seconds))


def pair_dice(seed: int, k: int) -> list[tuple[int, int]]:
    """The rolls of mirrored pair k, seeded by (seed, k): a non-double opening roll, then 600."""
    rng = np.random.default_rng([seed, k])
    opening = rng.integers(1, 7, size=2)
    while opening[0] == opening[1]:
        opening = rng.integers(1, 7, size=2)
    return [(int(opening[0]), int(opening[1]))] + [tuple(int(x) for x in rng.integers(1, 7, size=2))
                                                   for _ in range(600)]


def run_gnubg(args: argparse.Namespace) -> None:
    """Backgammon against gnubg-nn at --plies plies each, the pairs spread over --threads worker
    processes (gnubg_pairs)."""
    net = _class_nets(args) or tavli.nn.shipped("backgammon")
    if net is None:
        raise SystemExit("no shipped backgammon net")
    first, second, seconds = gnubg_pairs(args.games, args.seed, args.threads, net, args.plies,
                                         progress=args.progress)
    print_gnubg_pairs(f"net {args.plies}-ply v gnubg {args.plies}-ply", first, second, seconds)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite", choices=("nets", "gnubg", "heuristic", "classes", "racedb"))
    ap.add_argument("--games", type=int, default=2000, help="games per pairing at 0-ply (even: mirrored pairs)")
    ap.add_argument("--deep-games", type=int, default=200, help="games per pairing with a search player")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variants", nargs="*", help="nets, heuristic: the games (default all); classes: "
                    "games of the backgammon family (default backgammon)")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--contact", help="gnubg, classes: class nets (tavli.classnets) with this contact net")
    ap.add_argument("--race", help="gnubg, classes: ... and this race net")
    ap.add_argument("--crashed", help="gnubg, classes: ... and this crashed net")
    ap.add_argument("--against", help="classes: the opponent's weight file (default the shipped net)")
    ap.add_argument("--plies", type=int, default=0, help="gnubg: both sides' search depth")
    ap.add_argument("--points", type=int, default=8, help="racedb: the race database's points")
    args = ap.parse_args(argv)
    {"nets": run_nets, "gnubg": run_gnubg, "heuristic": run_heuristic, "classes": run_classes,
     "racedb": run_racedb}[args.suite](args)


if __name__ == "__main__":
    main()
