"""Write tests/data/perft_kin.json with perft counts from the pure-Python kin-games reference
kin.py (Jacquet, Tawla 31, Nackgammon, Hypergammon-1/2/3).

Run from the repository root:  python -m tests.oracle.make_perft_kin
(or python tests/oracle/make_perft_kin.py)

perft(depth) counts leaves over the 21 distinct rolls (unweighted) and the distinct plays of each
roll (a pass counts as one play, a finished game as one leaf); see tests/oracle/kin.py.  Same
shape as tests/data/perft_games.json without the pin and first-turn keys: "options" is the full
variant-level option dict (defaults merged), i.e. what the engine should be given; positions give
each side's counts in its own frame; borne off = N - board - bar (N = 15, or Hypergammon's k).
"""

from __future__ import annotations

import json
import os
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
    from tests.oracle.kin import Pos, perft, resolve_options, rules_of, start_position
else:
    from .kin import Pos, perft, resolve_options, rules_of, start_position

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "perft_kin.json")


def board(d):
    b = [0] * 24
    for r, c in d.items():
        b[r] += c
    return tuple(b)


def pos(x, o, n=15, x_bar=0, o_bar=0):
    return Pos(board(x), board(o), x_bar, o_bar, n - sum(x.values()) - x_bar,
               n - sum(o.values()) - o_bar)


# (name, variant, options, position, depth)
CASES = [
    ("jacquet start", "jacquet", {}, start_position("jacquet"), 2),
    ("jacquet start", "jacquet", {}, start_position("jacquet"), 3),
    ("jacquet start n_times", "jacquet", {"doubles": "n_times"}, start_position("jacquet"), 3),
    ("tawla31 start", "tawla31", {}, start_position("tawla31"), 3),
    ("tawla31 start parallel", "tawla31", {"movement": "parallel"}, start_position("tawla31"), 3),
    ("tawla31 start release turn", "tawla31", {"runner_release": "turn"},
     start_position("tawla31"), 3),
    ("nackgammon start", "nackgammon", {}, start_position("nackgammon"), 2),
    ("hypergammon-3 start", "hypergammon", {}, start_position("hypergammon"), 2),
    ("hypergammon-2 start", "hypergammon", {"checkers": 2},
     start_position("hypergammon", {"checkers": 2}), 3),
    ("hypergammon-1 start", "hypergammon", {"checkers": 1},
     start_position("hypergammon", {"checkers": 1}), 3),
    # JQ08: X's runner on r9 (released only on arrival at r >= 18); O still in his runner phase.
    ("jacquet JQ08 runner", "jacquet", {}, pos({0: 14, 9: 1}, {0: 15}), 2),
    ("jacquet JQ08 runner release turn", "jacquet", {"runner_release": "turn"},
     pos({0: 14, 9: 1}, {0: 15}), 2),
    ("jacquet JQ08 runner threshold 19", "jacquet", {"runner_threshold": 19},
     pos({0: 14, 9: 1}, {0: 15}), 2),
    # Middle game: X holds five points of O's route (X r12..r16 = O r0..r4), one short of a
    # six-point block at r17 or r11 (O's r23: no block, the run would cross O's r23 -> r0); X's
    # runner on r21.  O has left his talon: X's r8..r10 (O's r20..r22), r18..r20 (O's r6..r8).
    ("jacquet wall", "jacquet", {},
     pos({0: 6, 3: 2, 12: 1, 13: 1, 14: 1, 15: 1, 16: 2, 21: 1}, {20: 1, 21: 1, 22: 1, 6: 4, 7: 4, 8: 4}), 2),
    ("jacquet wall needs_last_two", "jacquet", {"six_prime": "needs_last_two"},
     pos({0: 6, 3: 2, 12: 1, 13: 1, 14: 1, 15: 1, 16: 2, 21: 1}, {20: 1, 21: 1, 22: 1, 6: 4, 7: 4, 8: 4}), 2),
    # TW04: the runner on r15 against O's blocks on r18, r20 (and O's stack on r23).
    ("tawla31 TW04", "tawla31", {}, pos({0: 14, 15: 1}, {0: 12, 3: 1, 5: 1, 19: 1}), 2),
    ("tawla31 TW04 release turn", "tawla31", {"runner_release": "turn"},
     pos({0: 14, 15: 1}, {0: 12, 3: 1, 5: 1, 19: 1}), 2),
    # Bear-off race: X 4 off, O 2 off, O checkers still in the way on X's r21 (O's r2).
    ("tawla31 bear-off", "tawla31", {},
     pos({18: 3, 19: 2, 20: 3, 22: 3}, {2: 1, 18: 4, 19: 3, 20: 3, 23: 2}), 2),
    # Both sides on the bar; O blots on X's r2, r3 can be hit on entry.
    ("nackgammon bar/hit", "nackgammon", {},
     pos({0: 1, 1: 2, 11: 3, 16: 3, 18: 3, 19: 2}, {0: 2, 1: 1, 11: 4, 16: 2, 18: 3, 20: 1, 21: 1},
         x_bar=1, o_bar=1), 2),
    # Hypergammon-3 contact: X on the bar, O blot on X's r4 (O's r19), O's anchor on X's r23.
    ("hypergammon-3 bar", "hypergammon", {},
     pos({10: 1, 20: 1}, {0: 2, 19: 1}, n=3, x_bar=1), 2),
    # Hypergammon-2 near the end: X one off, O none off with blots on X's r19 and r8;
    # gammons and backgammons reachable.
    ("hypergammon-2 end", "hypergammon", {"checkers": 2},
     pos({20: 1}, {4: 1, 15: 1}, n=2), 3),
    ("hypergammon-1 jacoby_always", "hypergammon", {"checkers": 1, "jacoby_always": True},
     pos({12: 1}, {9: 1}, n=1), 3),
]


def main():
    cases = []
    t_all = time.perf_counter()
    for name, variant, options, p, depth in CASES:
        full = resolve_options(variant, options)
        rules_of(variant, full)
        t = time.perf_counter()
        nodes = perft(variant, p, depth, full)
        print(f"{name:40s} depth {depth}: {nodes:10d}  ({time.perf_counter() - t:.1f} s)")
        cases.append({
            "name": name,
            "variant": variant,
            "options": full,
            "mover": list(p.mover),
            "opp": list(p.opp),
            "mover_off": p.mover_off,
            "opp_off": p.opp_off,
            "mover_bar": p.mover_bar,
            "opp_bar": p.opp_bar,
            "depth": depth,
            "nodes": nodes,
        })
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        # one case per line keeps the file readable and diffs small
        f.write('{"generated_by": "tests/oracle/make_perft_kin.py", "cases": [\n')
        f.write(",\n".join(json.dumps(c) for c in cases))
        f.write("\n]}\n")
    print(f"wrote {os.path.normpath(OUT)} in {time.perf_counter() - t_all:.1f} s")


if __name__ == "__main__":
    main()
