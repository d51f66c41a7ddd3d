"""Write tests/data/perft_games.json with perft counts from the pure-Python reference games.py.

Run from the repository root:  python -m tests.oracle.make_perft_games
(or python tests/oracle/make_perft_games.py)

perft(depth) counts leaves over the 21 distinct rolls (unweighted) and the distinct plays of each
roll (a pass counts as one play, a finished game as one leaf); see tests/oracle/games.py.  Same
shape as tests/data/perft_fevga.json, plus the keys mover_bar, opp_bar, mover_pinned, opp_pinned
(sorted lists of the owner's route indices), mover_first_turn and opp_first_turn.  "options" is
the full variant-level option dict (defaults merged), i.e. what the engine should be given.
Positions give each side's counts in its own frame; borne off = 15 - board - bar.
"""

from __future__ import annotations

import json
import os
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
    from tests.oracle.games import DEFAULTS, Pos, perft, start_position
else:
    from .games import DEFAULTS, Pos, perft, start_position

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "perft_games.json")


def board(d):
    b = [0] * 24
    for r, c in d.items():
        b[r] += c
    return tuple(b)


def pos(x, o, x_bar=0, o_bar=0, x_pinned=(), o_pinned=(), x_first=False, o_first=False):
    return Pos(board(x), board(o), x_bar, o_bar,
               15 - sum(x.values()) - x_bar, 15 - sum(o.values()) - o_bar,
               frozenset(x_pinned), frozenset(o_pinned), x_first, o_first)


# (name, variant, options, position, depth)
CASES = []
for _v in ("backgammon", "portes", "tavla", "plakoto", "narde"):
    for _d in (1, 2):
        CASES.append((f"{_v} start", _v, {}, start_position(_v), _d))

CASES += [
    # Both sides have a checker on the bar; O's blots on O's r20, r21 (X's r3, r2) can be hit
    # on entry.
    ("backgammon bar/hit", "backgammon", {},
     pos({0: 1, 11: 4, 16: 3, 18: 4, 19: 2}, {0: 2, 11: 4, 16: 2, 18: 4, 20: 1, 21: 1},
         x_bar=1, o_bar=1), 2),
    # X bearing off (4 off) with O's blots on X's r23 (O's r0) and r21 (O's r2).
    ("backgammon bear-off with hit", "backgammon", {},
     pos({18: 3, 19: 3, 20: 2, 22: 3}, {0: 1, 2: 1, 12: 5, 17: 4, 18: 4}), 2),
    # Two X checkers on the bar against O's 5-point board (X's r1..r5 closed, blot on X's r0).
    ("portes two on the bar", "portes", {},
     pos({11: 4, 16: 3, 18: 6}, {6: 3, 18: 3, 19: 2, 20: 2, 21: 2, 22: 2, 23: 1}, x_bar=2), 2),
    # Middle game, blots on both sides.
    ("portes middle game", "portes", {},
     pos({0: 2, 5: 1, 11: 3, 16: 2, 17: 2, 18: 3, 19: 2},
         {0: 2, 8: 1, 11: 4, 16: 3, 19: 3, 20: 2}), 2),
    # X bearing off (3 off), O on the bar and with a blot on X's r19 (O's r4).
    ("tavla bear-off with hit", "tavla", {},
     pos({20: 3, 21: 4, 22: 3, 23: 2}, {4: 1, 10: 6, 12: 7}, o_bar=1), 2),
    # Pins of both sides: X pins O's checker on X's r8 (O's r15); O pins X's checker on X's r17
    # (O's r6).
    ("plakoto pins", "plakoto", {},
     pos({0: 8, 5: 2, 8: 1, 12: 2, 17: 1, 20: 1}, {0: 7, 2: 2, 4: 2, 6: 1, 9: 2, 15: 1},
         x_pinned={17}, o_pinned={15}), 2),
    # O's mother alone on O's r0 (X's r23); X's start is empty, so pinning it wins.
    ("plakoto mother", "plakoto", {},
     pos({10: 4, 12: 6, 17: 3, 19: 2}, {0: 1, 3: 3, 5: 4, 8: 4, 10: 3}), 2),
    ("plakoto mother off", "plakoto", {"mother": "off"},
     pos({10: 4, 12: 6, 17: 3, 19: 2}, {0: 1, 3: 3, 5: 4, 8: 4, 10: 3}), 2),
    # O's mother already pinned (an ordinary pin: X still has one checker on X's r0).  "state":
    # X wins as soon as his r0 empties; "at_pin_only": the pin stays ordinary for good.
    ("plakoto mother exception", "plakoto", {},
     pos({0: 1, 10: 4, 12: 6, 17: 2, 19: 1, 23: 1}, {0: 1, 3: 3, 5: 4, 8: 4, 10: 3},
         o_pinned={0}), 2),
    ("plakoto mother exception at_pin_only", "plakoto", {"mother": "at_pin_only"},
     pos({0: 1, 10: 4, 12: 6, 17: 2, 19: 1, 23: 1}, {0: 1, 3: 3, 5: 4, 8: 4, 10: 3},
         o_pinned={0}), 2),
    # RULES.md P09 (X's r20 pinned in the home board) with bear-off while pinned allowed.
    ("plakoto P09 bearoff_with_pinned", "plakoto", {"bearoff_with_pinned": True},
     pos({18: 3, 19: 4, 20: 1, 21: 4, 22: 3}, {0: 14, 3: 1}, x_pinned={20}), 2),
    # Second player's first turn: O opened 6-5 (O's runner on O's r11 = X's r23).
    ("narde first turn, second player", "narde", {},
     pos({0: 15}, {0: 14, 11: 1}, x_first=True), 2),
    # RULES.md N07: X threatens the 6-prime r0..r5 with no O checker ahead.
    ("narde prime N07", "narde", {},
     pos({0: 10, 2: 1, 3: 1, 4: 1, 5: 1, 13: 1}, {0: 15}), 2),
    ("narde prime N07 step", "narde", {"prime_check": "step"},
     pos({0: 10, 2: 1, 3: 1, 4: 1, 5: 1, 13: 1}, {0: 15}), 2),
]


def main():
    cases = []
    t_all = time.perf_counter()
    for name, variant, options, p, depth in CASES:
        full = dict(DEFAULTS[variant])
        full.update(options)
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
            "mover_pinned": sorted(p.mover_pinned),
            "opp_pinned": sorted(p.opp_pinned),
            "mover_first_turn": p.mover_first_turn,
            "opp_first_turn": p.opp_first_turn,
            "depth": depth,
            "nodes": nodes,
        })
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        # one case per line keeps the file readable and diffs small
        f.write('{"generated_by": "tests/oracle/make_perft_games.py", "cases": [\n')
        f.write(",\n".join(json.dumps(c) for c in cases))
        f.write("\n]}\n")
    print(f"wrote {os.path.normpath(OUT)} in {time.perf_counter() - t_all:.1f} s")


if __name__ == "__main__":
    main()
