"""Flags of the public Python API must be booleans (issue 18): read by truthiness,
`rollout(stratify="false")` would mean stratify=True. Each refusal is a TypeError naming the
parameter; numpy's bool_ counts as a bool."""

from __future__ import annotations

import numpy as np
import pytest

import tavli
from tavli._base.args import NotABool, int_arg, require_bool
from tavli.rollout_data import rollout_data
from tavli.selfplay import self_play_data
from tavli.svg import board_svg

NOT_BOOLS = ["false", "", 0, 1, None, 1.0, [True], np.int64(1)]


def _calls(value):
    board = tavli.Board("portes")
    rows = board.to_array()[None]
    return {
        "stratify": [
            lambda: board.rollout(36, stratify=value),
            lambda: board.rollout(36, stratify=value, backend="ray"),  # checked before Ray is touched
            lambda: rollout_data(rows, "portes", 36, stratify=value),
            lambda: rollout_data(rows, "portes", 36, stratify=value, backend="ray"),
        ],
        "trajectories": [
            lambda: tavli.simulate("portes", 2, trajectories=value),
            lambda: tavli.simulate("portes", 2, trajectories=value, backend="ray"),
        ],
        "return_positions": [lambda: tavli.batch_legal_plays(rows, [[6, 5]], "portes", return_positions=value)],
        "features": [lambda: self_play_data("portes", 2, features=value)],
        "roll_units": [lambda: self_play_data("portes", 2, roll_units=value, backend="ray")],
        "numbers": [lambda: board_svg(board, numbers=value)],
        "force_scalar": [lambda: setattr(tavli.nn.Net("backgammon", 4), "force_scalar", value)],
        "force_avx2": [lambda: setattr(tavli.nn.Net("backgammon", 4), "force_avx2", value)],
    }


@pytest.mark.parametrize("value", NOT_BOOLS, ids=repr)
def test_every_flag_refuses_a_non_bool_naming_itself(value):
    for name, calls in _calls(value).items():
        for call in calls:
            with pytest.raises(TypeError, match=name):
                call()


def test_real_bools_are_accepted_and_mean_what_they_say():
    board = tavli.Board("portes")
    rows = board.to_array()[None]
    # "false" used to mean True: the stratified and the plain rollouts of one seed differ
    plain = board.rollout(36, stratify=np.False_, seed=4)
    assert plain.equity == board.rollout(36, stratify=False, seed=4).equity
    assert board.rollout(36, stratify=True, seed=4).equity != plain.equity
    counts = tavli.batch_legal_plays(rows, [[6, 5]], "portes", return_positions=np.bool_(False))
    assert isinstance(counts, np.ndarray) and counts.shape == (1,)
    assert "positions" in tavli.simulate("portes", 1, trajectories=True)
    assert "positions" not in tavli.simulate("portes", 1, trajectories=False)


def test_the_validators():
    assert require_bool("x", True) is True and require_bool("x", np.True_) is True
    with pytest.raises(NotABool, match="flag must be True or False, got str 'no'"):
        require_bool("flag", "no")
    assert issubclass(NotABool, ValueError)  # callers that caught the old ValueError still do
    assert int_arg("n", np.int16(3), 0, 5) == 3
    for bad in (True, np.True_, 6, -1, 2.0, "3", None):
        with pytest.raises(ValueError, match="n must be an integer 0..5"):
            int_arg("n", bad, 0, 5)
    # the old private names still work
    from tavli.batch import _int_in
    from tavli.sim import _int_arg

    assert _int_arg is int_arg and _int_in(4, "n", 0, 5) == 4
