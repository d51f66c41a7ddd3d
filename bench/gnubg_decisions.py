"""Checker-play error per decision, judged by GNU Backgammon (PyPI gnubg-nn) at 2 plies, cubeless:
for decisions sampled from seeded self-play, the equity each player's choice gives up against the
best play by gnubg 2-ply's judgement, in millipoints (mp; 1 mp = 0.001 points), by position class
(tavli.classnets: contact, crashed, race; the bear-off classes are exact in tavli and left out).

    python bench/gnubg_decisions.py --classes race --decisions 300 \\
        --player shipped --player race=nets-work/race.tnet

Players: "shipped" (today's shipped backgammon net at 0-ply), "gnubg" (gnubg-nn 0-ply), "racedb" or
"racedb:N" (the shipped net with races within N points, default 8, from the one-sided race database:
tavli.nn.race_db), or a ClassNets spec "contact=PATH,race=PATH,crashed=PATH" (contact defaults to the
shipped net). --within N keeps only the decisions where both sides lie within their N lowest points.
Decisions: positions met in --games self-play games of the shipped net (tavli.simulate seeded by
--seed), with their rolls, where the roll has two or more distinct plays; sampled with a seeded
generator. The interval is 1.96 standard errors over the decisions.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np

import tavli
from tavli.classnets import ClassNets, position_classes
from tavli.nn import Net
from strength import gnubg_board  # re-exported: tools and experiment scripts import it from here


def gnubg_equity(gnubg: Any, probs) -> float:
    w, wg, wbg, lg, lbg = probs
    return 2 * w - 1 + wg - lg + wbg - lbg


def player(spec: str) -> Any:
    if spec in ("shipped", "gnubg"):
        return spec
    if spec.split(":")[0] == "racedb":
        from tavli.nn.race_db import DEFAULT_POINTS, RaceDb

        return RaceDb(points=int(spec.split(":")[1]) if ":" in spec else DEFAULT_POINTS)
    parts = dict(p.split("=", 1) for p in spec.split(","))
    contact = Net.load(parts["contact"]) if "contact" in parts else tavli.nn.shipped("backgammon")
    return ClassNets(contact, Net.load(parts["race"]) if "race" in parts else None,
                     Net.load(parts["crashed"]) if "crashed" in parts else None)


def within(row, points: int) -> bool:
    """Both sides' checkers on their `points` lowest points (the row seen by the side to move:
    its points 1..24 at 23..0, the other side's at 24..47, bars at 48, 49)."""
    r = [int(x) for x in row]
    return (not r[48] and not r[49] and not any(r[0:24 - points]) and not any(r[24:48 - points]))


def result_value(after: tavli.Board) -> float | None:
    """The mover's exact points when its play ended the game, else None."""
    o = after.outcome()
    return None if o is None else float(o.points)


def choose(p: Any, gnubg: Any, board: tavli.Board, dice, results: list[tavli.Board]) -> int:
    """Index of the play `p` makes (0-ply)."""
    if p == "gnubg":
        _, key = gnubg.best_move(gnubg_board(board.to_array()), dice[0], dice[1], b=1)
        for i, a in enumerate(results):
            if gnubg.key_of_board(gnubg_board(a.to_array())) == key:
                return i
        raise RuntimeError("gnubg's play is not among tavli's")
    ev = tavli.nn.shipped("backgammon") if p == "shipped" else p
    vals = []
    live = [i for i, a in enumerate(results) if a.outcome() is None]
    eq = tavli.evaluate_batch(np.stack([results[i].to_array() for i in live]), "backgammon", evaluator=ev)[:, 7] \
        if live else []
    by = dict(zip(live, eq))
    for i, a in enumerate(results):
        v = result_value(a)
        vals.append(v if v is not None else -float(by[i]))
    return int(np.argmax(vals))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--classes", nargs="*", default=["contact", "crashed", "race"])
    ap.add_argument("--decisions", type=int, default=300, help="per class")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--plies", type=int, default=2, help="gnubg's judging depth")
    ap.add_argument("--player", action="append", default=[])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--within", type=int, default=0, help="only decisions with both sides within N points")
    args = ap.parse_args()
    import gnubg_nn as gnubg

    players = args.player or ["shipped", "gnubg"]
    specs = [player(s) for s in players]
    from tavli.selfplay import self_play_data

    data = self_play_data("backgammon", args.games, ("greedy", "greedy"), seed=args.seed, threads=2,
                                features=False)
    rows, dice = data["positions"], data["dice"]
    cls = position_classes(rows, "backgammon")
    rng = np.random.default_rng([args.seed, 7])
    print(f"{'class':<8} {'player':<40} {'decisions':>9} {'mean loss (mp)':>16}")
    for c in args.classes:
        idx = rng.permutation(np.flatnonzero(cls == c))
        losses = {s: [] for s in players}
        t0 = time.perf_counter()
        for i in idx:
            if len(losses[players[0]]) >= args.decisions:
                break
            if args.within and not within(rows[i], args.within):
                continue
            board = tavli.Board.from_array(rows[i], "backgammon")
            d = (int(dice[i][0]), int(dice[i][1]))
            results = [board.play(p) for p in board.legal_plays(d)]
            keys = {a.to_array().tobytes() for a in results}
            if len(keys) < 2:
                continue
            judged = []
            for a in results:
                v = result_value(a)
                judged.append(v if v is not None else
                              -gnubg_equity(gnubg, gnubg.probabilities(gnubg_board(a.to_array()), args.plies)))
            best = max(judged)
            for name, s in zip(players, specs):
                losses[name].append(best - judged[choose(s, gnubg, board, d, results)])
        for name in players:
            x = np.asarray(losses[name])
            ci = 1.96 * x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
            print(f"{c:<8} {name:<40} {len(x):>9} {1000 * x.mean():>9.2f} ±{1000 * ci:5.2f}", flush=True)
        print(f"  ({time.perf_counter() - t0:.0f}s)", flush=True)


if __name__ == "__main__":
    main()
