#!/usr/bin/env python3
"""Make tests/data/gnubg_cube_reference.json: GNU Backgammon's own 0-ply cube decisions and
Match IDs, the independent reference for tavli's cubeful formulas (tests/test_cube_gnubg.py).

Positions come from seeded random backgammon games played to the end with tavli (so contact,
race and bear-off positions all occur), sampled by gnubg's position class. Each position is put
to gnubg (Debian's `gnubg -t`, 0-ply cube decisions, the Kazaross-XG2 MET) in one money state and
one match state; gnubg prints its cubeless probabilities (6 digits) and its cubeful No double,
Double/take and Double/pass equities (EMG, and for matches a second `hint` in MWC), and its
proper cube action. A second part records the Match IDs gnubg itself prints for states set up
with its own commands (new match, set score/cube/crawford/turn).

    PYTHONPATH=python python tools/gnubg_cube_reference.py [--seed 15] [--per-class 120]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import tavli
from tavli import _core
from tavli.cube import CubeState, MatchState, gnubg_id

GNUBG = os.environ.get("GNUBG") or shutil.which("gnubg") or "/usr/games/gnubg"
# gnubg reads the table tavli ships (a copy of gnubg's own met/Kazaross-XG2.xml).
MET_FILE = os.path.join(os.path.dirname(tavli.__file__), "met", "Kazaross-XG2.xml")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "data", "gnubg_cube_reference.json")

# Money states: (jacoby, beavers, cube value, owner relative to the mover: None or "mover").
MONEY_STATES = [
    (False, False, 1, None),
    (True, True, 1, None),
    (False, True, 2, "mover"),
    (True, False, 4, "mover"),
]
# Match states: (length, mover's score, opponent's score, cube, owner relative to the mover).
MATCH_STATES = [
    (7, 0, 0, 1, None),
    (7, 4, 2, 1, None),
    (7, 2, 4, 1, None),
    (7, 3, 3, 2, "mover"),
    (5, 2, 1, 1, None),
    (7, 5, 5, 1, None),      # 2-away 2-away: the cube is dead
    (7, 3, 6, 1, None),      # post-Crawford, the trailer on roll
    (9, 1, 5, 2, "mover"),
    (25, 0, 3, 1, None),     # the table's longest match
    (11, 7, 4, 1, None),
]


def random_game_positions(rng: random.Random) -> list[tavli.Board]:
    b = tavli.Board("backgammon")
    out = []
    while not b.is_game_over():
        out.append(b.copy())
        d = (rng.randint(1, 6), rng.randint(1, 6))
        plays = b.legal_plays(d)
        b.push(plays[rng.randrange(len(plays))])
    return out


def sample_positions(seed: int, per_class: int) -> list[tuple[tavli.Board, str]]:
    rng = random.Random(seed)
    by_class: dict[str, list[tavli.Board]] = {"contact": [], "race": [], "bearoff": []}
    seen = set()
    while any(len(v) < per_class for v in by_class.values()):
        for b in random_game_positions(rng):
            cls, _ = _core._cube_efficiency(b)
            key = (b.gnubg_id(), b.turn)
            if cls in by_class and key not in seen and len(by_class[cls]) < per_class and rng.random() < 0.25:
                seen.add(key)
                by_class[cls].append(b)
    return [(b, cls) for cls, bs in by_class.items() for b in bs]


def absolute(board: tavli.Board, spec, money: bool) -> tuple[CubeState, MatchState]:
    mover = board.turn
    if money:
        jacoby, beavers, value, owner = spec
        return CubeState(value, owner=mover if owner else None, jacoby=jacoby, beavers=beavers), MatchState()
    length, mine, theirs, value, owner = spec
    score = (mine, theirs) if mover == 0 else (theirs, mine)
    return CubeState(value, owner=mover if owner else None), MatchState(length, score)


NUM = r"([+-]?\d+\.\d+)"


def parse_hints(text: str) -> list[dict]:
    blocks = text.split("Cube analysis")[1:]
    out = []
    for blk in blocks:
        probs = re.search(r"^\s+(-?\d\.\d+) (-?\d\.\d+) (-?\d\.\d+) - (-?\d\.\d+) (-?\d\.\d+) (-?\d\.\d+)", blk, re.M)
        rec = {"probabilities": [float(probs.group(i)) for i in (1, 2, 3, 5, 6)]}
        for label, key in (("No double", "nd"), ("Double, pass", "dp"), ("Double, take", "dt")):
            m = re.search(r"^\d\. " + label + r"\s+" + NUM, blk, re.M)
            rec[key] = float(m.group(1)) if m else None
        act = re.search(r"^Proper cube action: (.*?)\s*(\(.*\))?$", blk, re.M)
        rec["action"] = act.group(1) if act else None
        out.append(rec)
    return out


def run_gnubg(commands: list[str]) -> str:
    header = ["set automatic roll off", "set output digits 6", "set output matchpc off",
              "set evaluation cubedecision eval plies 0", "set evaluation cubedecision eval cubeful on",
              "set player 0 human", "set player 1 human", f"set matchequitytable {MET_FILE}"]
    with tempfile.NamedTemporaryFile("w", suffix=".gnubg", delete=False) as f:
        f.write("\n".join(header + commands) + "\n")
        path = f.name
    try:
        return subprocess.run([GNUBG, "-t", "-q", "-r", "-c", path], capture_output=True, text=True, timeout=3600,
                              check=True).stdout
    finally:
        os.unlink(path)


def cube_items(seed: int, per_class: int) -> tuple[list[dict], str]:
    positions = sample_positions(seed, per_class)
    items = []
    for i, (b, cls) in enumerate(positions):
        for money, states in ((True, MONEY_STATES), (False, MATCH_STATES)):
            cube, match = absolute(b, states[i % len(states)], money)
            items.append({"position_id": b.gnubg_id(), "mover": b.turn, "class": cls,
                          "id": gnubg_id(b, cube, match),
                          "cube": {"value": cube.value, "owner": cube.owner, "jacoby": cube.jacoby,
                                   "beavers": cube.beavers},
                          "match": {"length": match.length, "score": list(match.score), "crawford": match.crawford}})
    # One gnubg session per money option set (the Jacoby and beaver settings are the session's).
    cmds: list[str] = []
    order: list[tuple[int, str]] = []
    groups: dict[tuple, list[int]] = {}
    for k, it in enumerate(items):
        groups.setdefault((it["cube"]["jacoby"], it["cube"]["beavers"]), []).append(k)
    for (jacoby, beavers), ks in groups.items():
        cmds += [f"set jacoby {'on' if jacoby else 'off'}", f"set beavers {3 if beavers else 0}", "new session"]
        for k in ks:
            it = items[k]
            pos, mid = it["id"].split(":")
            cmds += [f"set matchid {mid}", f"set board {pos}", "set output mwc off", "hint"]
            order.append((k, "eq"))
            if it["match"]["length"]:
                cmds += ["set output mwc on", "hint"]
                order.append((k, "mwc"))
    text = run_gnubg(cmds)
    hints = parse_hints(text)
    if len(hints) != len(order):
        raise SystemExit(f"gnubg printed {len(hints)} cube analyses for {len(order)} hints")
    for (k, kind), h in zip(order, hints):
        it = items[k]
        if kind == "eq":
            it.update(probabilities=h["probabilities"], nd=h["nd"], dt=h["dt"], dp=h["dp"], action=h["action"])
        else:
            if h["probabilities"] != it["probabilities"]:
                raise SystemExit(f"item {k}: the MWC hint's probabilities differ")
            it.update(nd_mwc=h["nd"], dt_mwc=h["dt"], dp_mwc=h["dp"])
    version = text.splitlines()[0].strip() if text else "?"
    return items, version


# Match ID states set with gnubg's own commands: (length, score 0, score 1, cube, owner, crawford, on roll).
MATCH_ID_STATES = [
    (7, 0, 0, 1, None, False, 1),
    (7, 2, 4, 4, 0, False, 1),
    (7, 2, 4, 2, 1, False, 0),
    (7, 6, 3, 1, None, True, 0),
    (7, 6, 3, 1, None, False, 1),
    (5, 4, 4, 1, None, False, 0),
    (25, 0, 24, 1, None, True, 1),
    (11, 3, 9, 2, 0, False, 0),
    (3, 0, 1, 2, 1, False, 1),
]


def match_id_items() -> list[dict]:
    cmds: list[str] = []
    for length, s0, s1, cube, owner, crawford, on_roll in MATCH_ID_STATES:
        cmds += [f"new match {length}", "set player 0 name zero", "set player 1 name one",
                 f"set turn {'one' if on_roll else 'zero'}", f"set score {s0} {s1}",
                 f"set crawford {'on' if crawford else 'off'}", f"set cube value {cube}"]
        cmds += ["set cube centre"] if owner is None else [f"set cube owner {'one' if owner else 'zero'}"]
        cmds += ["show board"]
    text = run_gnubg(cmds)
    # The last Match ID printed after each `show board` (each state's commands print boards too).
    chunks = text.split("A new ")[1:]
    out = []
    for (length, s0, s1, cube, owner, crawford, on_roll), chunk in zip(MATCH_ID_STATES, chunks):
        ids = re.findall(r"Match ID\s*:\s*(\S+)", chunk)
        out.append({"match_id": ids[-1], "length": length, "score": [s0, s1], "cube": cube, "owner": owner,
                    "crawford": crawford, "on_roll": on_roll})
    if len(out) != len(MATCH_ID_STATES):
        raise SystemExit("gnubg did not print a Match ID for every state")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--per-class", type=int, default=120)
    ap.add_argument("--out", default=OUT)
    a = ap.parse_args(argv)
    items, version = cube_items(a.seed, a.per_class)
    data = {"gnubg": version, "met": "Kazaross-XG2", "seed": a.seed, "plies": 0,
            "note": "gnubg's 0-ply cube decisions (EMG, MWC) and its own Match IDs; made by tools/gnubg_cube_reference.py",
            "cube_decisions": items, "match_ids": match_id_items()}
    with open(a.out, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"{len(items)} cube decisions, {len(data['match_ids'])} Match IDs -> {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
