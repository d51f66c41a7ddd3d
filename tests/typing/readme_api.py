"""The README's Usage block as a user script, type-checked with `mypy --strict` in CI (.ci/run):
every public call's result has a concrete type (assert_type fails on Any or a wrong type).
It runs too: `python tests/typing/readme_api.py` (a second or two)."""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    from typing import assert_type
else:  # typing_extensions comes with mypy
    from typing_extensions import assert_type

import numpy as np
import numpy.typing as npt

import tavli
from tavli.results import Rollout

board = tavli.Board("fevga")
plays = board.legal_plays((6, 5))
assert_type(plays, list[tavli.Play])
print(plays[0], plays[0].steps)
nxt = board.play(plays[0])
assert_type(nxt, tavli.Board)
assert_type(board.parse_play("24/13", (6, 5)), tavli.Play)
assert_type(board.find_play([(0, 5), (5, 11)], "6-5"), tavli.Play)
board.push(plays[0])
print(board)
assert_type(board.outcome(), tavli.Outcome | None)

assert_type(board.id(), str)
assert_type(tavli.Board.from_id(board.id()), tavli.Board)
d = board.to_dict()
assert_type(tavli.Board.from_dict(d), tavli.Board)
assert_type(board.perft(1), int)
board.pop()

tavli.Board("fevga", unblock="R3", runner_threshold=12)
tavli.Board("plakoto", mother="at_pin_only")
assert_type(tavli.variants(), list[str])

bg = tavli.Board.from_gnubg_id("4HPwATDgc/ABMA")
assert_type(bg.xgid(), str)

m = tavli.Match("tavli", target=5)
m.roll_opening(5, 3)
m.play(m.board.legal_plays((6, 4))[0])
assert_type(tavli.Match.from_json(m.to_json()), tavli.Match)
assert_type(tavli.Board.from_record(board.to_record()), tavli.Board)

# Analysis
a = board.analyze((6, 5), plies=1)
assert_type(a, tavli.Analysis)
best = a[0]
assert_type(best, tavli.AnalyzedPlay)
assert_type(best.play, tavli.Play)
assert_type(best.equity, float)
assert_type(best.probabilities, tavli.Probabilities)
assert_type(a.best.probabilities.win, float)
e = board.evaluate(plies=0)
assert_type(e, tavli.Evaluation)
assert_type(e.equity, float)
r = board.rollout(36, "greedy", seed=1, truncate=2)
assert_type(r, Rollout)
assert_type(r.equity_std_error, float)
assert_type(board.analyze((6, 5), plies=1, evaluator="heuristic"), tavli.Analysis)
net = tavli.nn.shipped("fevga")
assert_type(net, tavli.nn.Net | None)  # None where no net ships
assert net is not None
board.analyze((6, 5), plies=0, evaluator=net)

# Simulation and bulk calls
s = tavli.simulate("plakoto", games=4, players=("greedy", "random"), seed=1)
assert_type(s, dict[str, np.ndarray])
t = tavli.simulate("backgammon", 2, ("random", "heuristic"), trajectories=True)
x = tavli.encode(t["positions"], "backgammon", dice=t["dice"])
assert_type(x, npt.NDArray[np.float32])
mm = tavli.simulate_matches("tavli", 2, ("random", "random"), target=1)
assert_type(mm, dict[str, np.ndarray])
rows, dice = tavli.random_positions("fevga", 100, seed=1)
assert_type(rows, npt.NDArray[np.uint8])
counts = tavli.batch_legal_plays(rows, dice, "fevga")
assert_type(counts, npt.NDArray[np.int32])
counts, offsets, children = tavli.batch_legal_plays(rows, dice, "fevga", return_positions=True)
assert_type(children, npt.NDArray[np.uint8])
values = tavli.evaluate_batch(rows, "fevga", plies=0)
assert_type(values, npt.NDArray[np.float32])
print(len(a), e.equity, r.equity, len(s["winner"]), x.shape, counts.sum(), offsets[-1], values.shape)
