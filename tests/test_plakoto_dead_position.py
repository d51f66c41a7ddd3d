"""Plakoto's terminal rule for checkers pinned for good (issue 18): a position from which neither
side can ever step again (no legal step for any die value 1..6, each side with its own step rules,
RULES.md §5.2 and §5.6) is a draw. Without it, games with mother = "off" could never end."""

from __future__ import annotations

import numpy as np
import pytest

import tavli


def _dead(mother: str = "off") -> dict:
    """Both mothers pinned, each under the other side's other fourteen checkers: no one may bear
    off while a checker of his is pinned (§5.6), and nothing else can move."""
    mover = [1] + [0] * 22 + [14]      # r0: the pinned mother; r23 (his r0): on top of O's mother
    opponent = [1] + [0] * 22 + [14]
    return {"variant": "plakoto", "options": {"mother": mother}, "mover": mover, "opponent": opponent,
            "pinned": [[0], [0]]}


def test_a_dead_position_is_a_draw():
    b = tavli.Board.from_dict(_dead())
    assert b.outcome() == (None, 0, "draw")
    assert b.is_game_over()


def test_one_step_left_is_not_dead():
    d = _dead()
    d["mover"] = [1] + [0] * 21 + [1, 13]  # a checker on r22 can still step to r23 with a 1
    b = tavli.Board.from_dict(d)
    assert b.outcome() is None
    assert [str(p) for p in b.legal_plays((1, 2))] == ["2/1"]


def test_the_mother_rule_still_comes_first():
    # With the mother rule on, the same position is the two-mothers draw of §5.4 anyway.
    assert tavli.Board.from_dict(_dead("state")).outcome() == (None, 0, "draw")


@pytest.mark.parametrize("players", [("random", "random"), ("greedy", "random")])
def test_random_games_without_the_mother_rule_all_end(players):
    r = tavli.simulate("plakoto", 300, players, seed=1, max_plies=1000, mother="off")
    assert (r["kind"] != 0).all(), f"{int((r['kind'] == 0).sum())} games never ended"
    draws = r["kind"] == 5
    assert (r["winner"][draws] == -1).all() and (r["points"][draws] == 0).all()
    if players == ("random", "random"):
        assert draws.sum() > 0  # the games the issue found stuck now end as draws


def test_seeded_default_games_are_unchanged_by_the_rule():
    # The mother rule ends these games first; the terminal rule changes none of them.
    r = tavli.simulate("plakoto", 300, ("random", "random"), seed=1, max_plies=1000)
    assert np.bincount(r["kind"], minlength=7).tolist() == [0, 74, 26, 0, 147, 53, 0]
