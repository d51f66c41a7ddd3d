"""Write tests/data/perft_fevga.json with perft counts from the pure-Python reference.

Run from the repository root:  python -m tests.oracle.make_perft   (or python tests/oracle/make_perft.py)

perft(depth) counts leaves over the 21 distinct rolls (unweighted) and the distinct plays of each
roll (a pass counts as one play); see tests/oracle/fevga.py.  "options" in each case is the full
variant-level option dict (defaults merged), i.e. what the engine should be given.
"""

from __future__ import annotations

import json
import os
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
    from tests.oracle.fevga import FEVGA_DEFAULTS, MOULTEZIM_DEFAULTS, perft
else:
    from .fevga import FEVGA_DEFAULTS, MOULTEZIM_DEFAULTS, perft

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "perft_fevga.json")


def board(d):
    b = [0] * 24
    for r, c in d.items():
        b[r] += c
    return b


START = {0: 15}

# (name, variant, options, mover, opp, mover_off, opp_off, depth)
CASES = [
    ("fevga start", "fevga", {}, START, START, 0, 0, 1),
    ("fevga start", "fevga", {}, START, START, 0, 0, 2),
    ("moultezim start", "moultezim", {}, START, START, 0, 0, 1),
    ("moultezim start", "moultezim", {}, START, START, 0, 0, 2),
    # midgame, defaults.  O on X's 12, 17, 21, 1, 5.
    ("fevga midgame", "fevga", {},
     {0: 10, 3: 1, 7: 1, 14: 2, 19: 1}, {0: 9, 5: 2, 9: 1, 13: 1, 17: 2}, 0, 0, 2),
    # bear-off race.  O on X's 7, 9, 11.
    ("fevga bear-off race", "fevga", {},
     {18: 3, 20: 2, 22: 4, 23: 1}, {19: 4, 21: 3, 23: 2}, 5, 6, 2),
    # RULES.md F17 (walled-in start stack) with the R3 reading.
    ("fevga F17 R3", "fevga", {"unblock": "R3_bkgm_start_of_turn"},
     {0: 9, 13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1}, {0: 15}, 0, 0, 2),
    # O's start is empty while X is still in the runner phase: threshold 12 matters;
    # R1 per step and R2a on as well.  O on X's 13, 15, 18.
    ("fevga runner12 step R2a", "fevga",
     {"runner_threshold": 12, "startq_check": "step", "opp_start_quarter": "R2a"},
     {0: 14, 9: 1}, {1: 5, 3: 5, 6: 5}, 0, 0, 2),
    # X can complete a wall in front of O's stack on O's r5 (X's r17); R4 before max dice.
    ("fevga block R4 before", "fevga", {"unblock_priority": "before_max_dice"},
     {11: 1, 12: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1}, {5: 15}, 8, 0, 2),
    # Moultezim midgame where X already occupies four points of r12..r17 (R2c binds).
    # O on X's 12, 19, 18, 21, 23.
    ("moultezim midgame R2c", "moultezim", {},
     {0: 5, 13: 3, 14: 2, 15: 2, 16: 1, 20: 2}, {0: 6, 7: 3, 6: 2, 9: 2, 11: 2}, 0, 0, 2),
]


def main():
    cases = []
    t_all = time.perf_counter()
    for name, variant, options, mover, opp, moff, ooff, depth in CASES:
        defaults = FEVGA_DEFAULTS if variant == "fevga" else MOULTEZIM_DEFAULTS
        full = dict(defaults)
        full.update(options)
        t = time.perf_counter()
        nodes = perft(board(mover), board(opp), moff, ooff, depth, variant, full)
        print(f"{name:28s} depth {depth}: {nodes:10d}  ({time.perf_counter() - t:.1f} s)")
        cases.append({
            "name": name,
            "variant": variant,
            "options": full,
            "mover": board(mover),
            "opp": board(opp),
            "mover_off": moff,
            "opp_off": ooff,
            "depth": depth,
            "nodes": nodes,
        })
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        # one case per line keeps the file readable and diffs small
        f.write('{"generated_by": "tests/oracle/make_perft.py", "cases": [\n')
        f.write(",\n".join(json.dumps(c) for c in cases))
        f.write("\n]}\n")
    print(f"wrote {os.path.normpath(OUT)} in {time.perf_counter() - t_all:.1f} s")


if __name__ == "__main__":
    main()
