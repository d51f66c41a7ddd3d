"""Hit marks in move text (issue 18): a '*' must follow a point where the play hits; a hit left
unmarked is still accepted (GNU Backgammon accepts it too). Positions are hand-built: the
backgammon start has no blot in reach, Fevga has no hitting at all (RULES.md §2)."""

from __future__ import annotations

import pytest

import tavli


def _blot_on_18() -> tavli.Board:
    """White (to move) has 2 checkers on his 24-point and 13 on his 6-point; Black has a blot on
    White's 18-point (Black's own route index 17) and 14 checkers on his 24-point (index 0, White's 1-point)."""
    mover = [0] * 24
    mover[0], mover[18] = 2, 13
    opponent = [0] * 24
    opponent[17], opponent[0] = 1, 14
    return tavli.Board.from_dict({"variant": "backgammon", "mover": mover, "opponent": opponent})


@pytest.mark.parametrize("text, wrong", [
    ("24/18*/13*", "18*"),  # nothing to hit at the start: the first wrong mark is named
    ("24/13*", "13*"),
    ("24*/13", "24*"),      # a starting point cannot be hit
])
def test_wrong_marks_at_the_backgammon_start(text, wrong):
    b = tavli.Board("backgammon")
    before = b.id()
    with pytest.raises(tavli.IllegalMove, match=f"'{wrong.replace('*', '[*]')}'"):
        b.parse_play(text, (6, 5))
    assert b.id() == before


def test_no_hit_marks_in_fevga():
    with pytest.raises(tavli.IllegalMove, match=r"'13[*]' marks a hit, but there is no hitting in fevga"):
        tavli.Board("fevga").parse_play("24/13*", (6, 5))


def test_a_mark_off_the_board_is_refused():
    b = _blot_on_18()
    with pytest.raises(tavli.IllegalMove, match="off[*]"):
        b.parse_play("bar/off*", (6, 5))


def test_a_hit_may_be_marked_or_left_unmarked():
    b = _blot_on_18()
    marked = b.parse_play("24/18*/13", (6, 5))
    unmarked = b.parse_play("24/18/13", (6, 5))
    assert marked == unmarked
    assert str(marked) == "24/18*/13"  # the engine's own text marks the hit (play_to_text)


def test_a_mark_after_the_hit_is_refused():
    b = _blot_on_18()
    with pytest.raises(tavli.IllegalMove, match="'13[*]' marks a hit, but the play hits no checker there"):
        b.parse_play("24/18*/13*", (6, 5))
