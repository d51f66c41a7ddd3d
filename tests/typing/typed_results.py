"""Results that `mypy --strict -p tavli` made concrete (no Any), as a user script sees them:
type-checked with `mypy --strict` in CI (.ci/run) beside readme_api.py; assert_type fails on Any
or a wrong type. It runs too: `python tests/typing/typed_results.py` (a second or two)."""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    from typing import assert_type
else:  # typing_extensions comes with mypy
    from typing_extensions import assert_type

import numpy as np

import tavli
from tavli._base.options import VariantOption
from tavli._base.position_dict import PositionDict
from tavli.cube_rollout import CubefulRollout
from tavli.match_play import best_play
from tavli.nn.train import TdTrainer, VersusResult, evaluate_vs
from tavli.results import GameResult, PlayRollouts, RolledOutPlay, Rollout

# Positions and their options
board = tavli.Board("plakoto", mother="at_pin_only")
d = board.to_dict()
assert_type(d, PositionDict)
assert_type(d["mover"], list[int])
assert_type(board.options, dict[str, str | int])
options = tavli.variant_options("plakoto")
assert_type(options, list[VariantOption])
assert_type(options[0]["default"], str | int)
assert {o["name"] for o in options} >= set(board.options)

# The cube and match play
bg = tavli.Board("backgammon")
decision = bg.cube_decision()
assert_type(decision, tavli.CubeDecision)
assert_type(decision.dt, float | None)
# Board.rollout's keywords are one TypedDict (tavli._base.rollout_keywords); its two overloads
# keep the result types: a Rollout without cube or match, a CubefulRollout with them.
assert_type(bg.rollout(36, truncate=2, seed=1, variance_reduction=True), Rollout)
assert_type(bg.rollout(36, cube=tavli.CubeState(), truncate=2, seed=1), CubefulRollout)
# Board.rollout_plays: a roll's plays on common dice, best first; each play's rollout is cubeless,
# or cubeful with a cube or match.
ro = bg.rollout_plays((6, 5), 2, 36, truncate=2, seed=1)
assert_type(ro, PlayRollouts)
assert_type(ro.best, RolledOutPlay)
assert_type(ro[1].difference_std_error, float)
assert_type(ro[1].rollout, Rollout | CubefulRollout)
assert_type(ro.difference_std_errors, list[list[float]])
assert isinstance(bg.rollout_plays((6, 5), 2, 36, cube=tavli.CubeState(), truncate=2)[0].rollout, CubefulRollout)
assert_type(best_play(bg, (3, 1), 3, (0, 0)), tavli.Play)
m = tavli.Match("portes", target=1)
while not m.roll_opening(5, 3):
    pass
while m.phase != "over":
    m.play(m.board.legal_plays((6, 5))[0])
assert_type(m.results, list[GameResult])
assert_type(m.results[0]["winner"], int | None)

# Nets
net = tavli.nn.Net("backgammon", hidden=8, seed=1)
assert_type(net.inputs, int)
assert_type(net.encoding, str)
assert_type(net.w1, np.ndarray)
assert_type(net.forward(np.zeros(net.inputs, dtype=np.float32)), np.ndarray)
assert_type(net.evaluate(bg), tavli.Evaluation)
assert_type(net.analyze(bg, (6, 5), plies=0), tavli.Analysis)
trainer = TdTrainer(net, "backgammon")
assert_type(trainer.alpha, float)
assert_type(trainer.games, int)
versus = evaluate_vs(net, "hypergammon", "random", games=2, checkers=2)
assert_type(versus, VersusResult)
assert_type(versus["score"], float)
assert versus["games"] == 2 and 0.0 <= versus["low"] <= versus["score"] <= versus["high"] <= 1.0
print("ok")
