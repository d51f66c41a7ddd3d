#!/usr/bin/env python3
"""Cube-decision errors of tavli's 0-ply cube decision, judged by GNU Backgammon at 2 plies, beside
gnubg 0-ply's own errors, on the cube decisions of gnubg self-play (money play).

1. gnubg plays itself (Debian's `gnubg -t`, 0-ply checker play and cube decisions, Jacoby and
   beavers off, `set seed`) for --games games, saved as SGF.
2. The decisions: every turn of those games where the side on roll may double (the cube centred
   or his), not the opening roll's, read with tavli.io (SGF) and replayed.
3. Each position with its cube state goes to gnubg's `hint` at 2 plies (the judge: cubeful No
   double, Double/take, Double/pass) and at 0 plies (its 0-ply actions); tavli decides with
   Board.cube_decision (the shipped net, 0 plies).
4. Loss of a decision, in cubeful equity (EMG per unit of cube) by the 2-ply judge: the doubler's
   max(ND, min(DT, DP)) minus the value of what he chose (ND, or min(DT, DP) if he doubles); the
   taker's (as if doubled) DT or DP as he chose minus min(DT, DP). "close": the positions where the
   judge's double/no-double gap or take/pass gap is under 0.1.

    PYTHONPATH=python python tools/cube_errors_vs_gnubg.py [--games 40] [--seed 15]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import tavli
import tavli.io as tio
from tavli.cube import gnubg_id
from tavli.io.record import replay

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gnubg_cube_reference as ref  # noqa: E402


def self_play(games: int, seed: int, path: str) -> None:
    cmds = ["set confirm new off", "set automatic game off", "set display off", "set jacoby off",
            "set beavers 0", f"set seed {seed}"]
    for p in (0, 1):
        cmds += [f"set player {p} gnubg", f"set player {p} chequerplay evaluation plies 0",
                 f"set player {p} cubedecision evaluation plies 0"]
    cmds.append("new session")
    for _ in range(games):
        cmds += ["new game"] + ["play"] * 200  # each `play` is one action of the side to act
    cmds.append(f"save match {path}")
    ref.run_gnubg(cmds)


def decisions(path: str) -> list[tuple[tavli.Board, tavli.CubeState]]:
    """(board before the roll, cube) for every turn where the side on roll may double."""
    out, seen = [], set()
    prev = None
    for st in replay(tio.read(path)):
        a = st.action
        first = prev is None or prev.game != st.game
        after_take = prev is not None and prev.action.kind == "take" and not first
        if a.kind in ("move", "double") and not first and not after_take and st.board.turn == a.player:
            cube = st.cube
            if cube.owner in (None, a.player) and cube.offered_by is None:
                key = (st.board.gnubg_id(), st.board.turn, cube.value, cube.owner)
                if key not in seen:
                    seen.add(key)
                    out.append((st.board.copy(), tavli.CubeState(cube.value, cube.owner)))
        prev = st
    return out


def gnubg_hints(items, plies: int) -> list[dict]:
    cmds = ["set jacoby off", "set beavers 0", f"set evaluation cubedecision eval plies {plies}", "new session"]
    for b, cube in items:
        pos, mid = gnubg_id(b, cube).split(":")
        cmds += [f"set matchid {mid}", f"set board {pos}", "hint"]
    hints = ref.parse_hints(ref.run_gnubg(cmds))
    if len(hints) != len(items):
        raise SystemExit(f"gnubg printed {len(hints)} cube analyses for {len(items)} positions")
    return hints


def doubles(action: str) -> bool:
    return action.lower().startswith(("double", "redouble"))


def takes(action: str) -> bool:
    return not action.lower().rstrip(")").endswith("pass")


def losses(judge: dict, doubled: bool, took: bool) -> tuple[float, float]:
    nd, dt, dp = judge["nd"], judge["dt"], judge["dp"]
    best_double = min(dt, dp)
    doubler = max(nd, best_double) - (best_double if doubled else nd)
    taker = (dt if took else dp) - best_double
    return doubler, taker


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=15)
    a = ap.parse_args(argv)
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "selfplay.sgf")
        self_play(a.games, a.seed, path)
        items = decisions(path)
    judge = gnubg_hints(items, 2)
    gnubg0 = gnubg_hints(items, 0)
    rows = []
    for (b, cube), j, g in zip(items, judge, gnubg0):
        if j["dt"] is None or g["action"] is None:
            continue
        t = b.cube_decision(cube)
        close = abs(j["nd"] - min(j["dt"], j["dp"])) < 0.1 or abs(j["dt"] - j["dp"]) < 0.1
        rows.append((losses(j, doubles(t.action), t.take != "pass"),
                     losses(j, doubles(g["action"]), takes(g["action"])), close))
    print(f"gnubg self-play: {a.games} games (0-ply, money, Jacoby and beavers off, seed {a.seed}); "
          f"{len(rows)} cube decisions judged by gnubg 2-ply; {time.time() - t0:.0f} s")
    for label, sel in (("all", [r for r in rows]), ("close", [r for r in rows if r[2]])):
        if not sel:
            continue
        n = len(sel)
        for who, k in (("tavli 0-ply", 0), ("gnubg 0-ply", 1)):
            dbl = sum(r[k][0] for r in sel) / n
            take = sum(r[k][1] for r in sel) / n
            wrong = sum((r[k][0] > 1e-9) + (r[k][1] > 1e-9) for r in sel)
            print(f"  {label:5} ({n:4} positions) {who}: mean loss per decision {(dbl + take) / 2:.4f} "
                  f"(double/no double {dbl:.4f}, take/pass {take:.4f}); {wrong} of {2 * n} decisions wrong")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
