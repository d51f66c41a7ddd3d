"""Cubeful rollouts (tavli.cube_rollout.decide) beside GNU Backgammon's 2-ply cube analysis on a
few positions of tests/data/gnubg_cube_reference.json (money and match scores), and tavli's own
2-ply cube decision; the time per trial (each trial plays No double and Double/take).

gnubg: Debian's `gnubg -t -q -r -c FILE` with `set evaluation cubedecision eval plies 2`, then per
position `set matchid ...`, `set board ...`, `hint` (tools/gnubg_cube_reference.py's run_gnubg
writes the header: MET Kazaross-XG2, 6 digits).

Run: PYTHONPATH=python python bench/cube_rollout_gnubg.py [TRIALS] [THREADS]
"""

from __future__ import annotations

import json
import os
import sys
import time

import tavli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gnubg_cube_reference as ref  # noqa: E402

# Indices into the items without Jacoby or beavers: real decisions (No double and Double/take
# within 0.15), contact and race, money and match.
PICK = (95, 100, 53, 122, 234)


def main(argv: list[str]) -> int:
    trials = int(argv[0]) if argv else 1296
    threads = int(argv[1]) if len(argv) > 1 else 1
    with open(os.path.join(ROOT, "tests", "data", "gnubg_cube_reference.json")) as f:
        data = json.load(f)["cube_decisions"]
    plain = [it for it in data if not it["cube"]["jacoby"] and not it["cube"]["beavers"]]
    items = [plain[i] for i in PICK]
    cmds = ["set evaluation cubedecision eval plies 2", "new session"]
    for it in items:
        pos, mid = it["id"].split(":")
        cmds += [f"set matchid {mid}", f"set board {pos}", "hint"]
    gnubg = ref.parse_hints(ref.run_gnubg(cmds))
    print(f"cubeful rollout: {trials} trials, greedy (shipped net, 0-ply cubeful) both sides, seed 1, "
          f"{threads} thread(s)")
    print(f"{'position':<30}{'state':<16}{'':>4}{'ND':>9}{'DT':>9}  action")
    for it, g in zip(items, gnubg):
        board, _, _ = tavli.cube.parse_position(it["id"])
        cube = tavli.CubeState(it["cube"]["value"], it["cube"]["owner"])
        match = tavli.MatchState(it["match"]["length"], tuple(it["match"]["score"]), it["match"]["crawford"])
        board.rollout(36)  # loads the net outside the timing
        t0 = time.perf_counter()
        d = board.cube_decision(cube, match, rollout={"trials": trials, "seed": 1, "threads": threads})
        seconds = time.perf_counter() - t0
        two = board.cube_decision(cube, match, plies=2)
        state = "money" if match.money else f"{match.length}pt {match.score[0]}-{match.score[1]}"
        state += f" c{cube.value}" + ("" if cube.owner is None else f"@{cube.owner}")
        print(f"{it['id']:<30}{state:<16}{'ro':>4}{d.nd:+9.3f}{d.dt:+9.3f}  {d.action} "
              f"(+-{1.96 * d.nd_std_error:.3f} +-{1.96 * d.dt_std_error:.3f}; DT-ND {d.dt - d.nd:+.3f} "
              f"+-{1.96 * d.difference_std_error:.3f}; {1e3 * seconds / trials:.1f} ms/trial)")
        print(f"{'':<46}{'t2':>4}{two.nd:+9.3f}{two.dt:+9.3f}  {two.action}")
        print(f"{'':<46}{'g2':>4}{g['nd']:+9.3f}{g['dt']:+9.3f}  {g['action']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
