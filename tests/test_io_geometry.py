"""The facing-point geometry of the pictures (tavli.io.geometry) against the rule book and the
core: the core refuses a position where both sides hold one point, so the pairs it refuses are
exactly the facing points."""

import pytest

import tavli
from tavli.io.geometry import facing_point


def test_rule_book_points():
    # RULES.md §1.1's table: r' = 23 - r (contrary movement), r' = (r + 12) mod 24 (parallel): in
    # Plakoto the opponent starts on my r 23, in Fevga on my r 12.
    assert [facing_point("contrary", r) for r in (0, 5, 11, 12, 23)] == [23, 18, 12, 11, 0]
    assert [facing_point("parallel", r) for r in (0, 5, 11, 12, 23)] == [12, 17, 23, 0, 11]


@pytest.mark.parametrize("movement", ["contrary", "parallel"])
def test_its_own_inverse_and_one_to_one(movement):
    images = [facing_point(movement, r) for r in range(24)]
    assert sorted(images) == list(range(24))
    assert all(facing_point(movement, q) == r for r, q in enumerate(images))


@pytest.mark.parametrize("variant", ["backgammon", "plakoto", "fevga", "narde"])
def test_the_points_the_core_refuses_to_share(variant):
    board = tavli.Board(variant)
    off = sum(board.mover) + board.bar[0] + board.off[0] - 1  # one checker each left on the board
    refused = set()
    for r in range(24):
        for q in range(24):
            mover, opponent = [0] * 24, [0] * 24
            mover[r], opponent[q] = 1, 1
            try:
                tavli.Board.from_dict({"variant": variant, "mover": mover, "opponent": opponent, "off": [off, off]})
            except ValueError as e:
                assert "held by both sides" in str(e)
                refused.add((r, q))
    assert refused == {(r, facing_point(board._movement, r)) for r in range(24)}


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="unknown movement 'sideways'"):
        facing_point("sideways", 0)
    with pytest.raises(ValueError, match="route index 24"):
        facing_point("contrary", 24)
