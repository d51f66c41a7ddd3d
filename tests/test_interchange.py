"""GNU Backgammon Position IDs and XGIDs: published examples, round-trips, and bad input."""

import pytest

import tavli
from helpers import BAR, make_board

START_GNUBG = "4HPwATDgc/ABMA"  # gnubg manual: the starting position
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


@pytest.mark.parametrize("variant", ["backgammon", "portes", "tavla"])
def test_start_position_ids(variant):
    b = tavli.Board(variant)
    assert b.gnubg_id() == START_GNUBG
    assert b.xgid() == START_XGID
    assert tavli.Board.from_gnubg_id(START_GNUBG, variant) == b
    assert tavli.Board.from_xgid(START_XGID, variant) == b


def test_published_gnubg_example():
    # A GammOnLine export: "Position ID: sG/BgCGMM+YAIw", fanar on roll plays 44:
    # "21/17*(2) 11/7(2)". The player on roll has 2 on his 21, 11, 8 and 3 points, 3 on 13 and 6,
    # 1 on 24; the opponent's blot on his 8 point is on the roller's 17 point.
    b = tavli.Board.from_gnubg_id("sG/BgCGMM+YAIw")
    roller = {24 - r: n for r, n in enumerate(b.mover) if n}
    assert roller == {24: 1, 21: 2, 13: 3, 11: 2, 8: 2, 6: 3, 3: 2}
    opp = {24 - r: n for r, n in enumerate(b.opponent) if n}
    assert opp[8] == 1 and sum(opp.values()) + b.off[1] == 15
    play = b.parse_play("21/17*(2) 11/7(2)", (4, 4))
    assert str(play) == "21/17*(2) 11/7(2)"
    assert b.play(play).bar == [1, 0]
    assert b.gnubg_id() == "sG/BgCGMM+YAIw"


def test_published_xgid_example():
    # Bottom: one checker on its 1 and 6 points, two on its 3; top: "d" (four) at character 22,
    # the bottom player's 22 point, which is the top player's 3 point.
    x = "XGID=-A-B--A---------------d---:0:0:1:00:0:0:0:0:10"
    b = tavli.Board.from_xgid(x)
    assert b.turn == 0
    assert {24 - r: n for r, n in enumerate(b.mover) if n} == {1: 1, 3: 2, 6: 1}
    assert {24 - r: n for r, n in enumerate(b.opponent) if n} == {3: 4}
    assert b.off == [11, 11]
    assert b.xgid() == x


def test_xgid_with_top_player_to_move_and_bars():
    b = make_board("backgammon", {BAR: 1, 5: 2, 18: 12}, {BAR: 2, 0: 2, 12: 11}, turn=1)
    again = tavli.Board.from_xgid(b.xgid())
    assert again == b and again.turn == 1
    assert b.xgid().split(":")[3] == "-1"


def test_round_trips_over_random_games():
    rows, _ = tavli.random_positions("backgammon", 3000, seed=3)
    for row in rows:
        b = tavli.Board.from_array(row, "backgammon")
        assert tavli.Board.from_xgid(b.xgid()) == b
        g = tavli.Board.from_gnubg_id(b.gnubg_id(), turn=b.turn)
        assert g == b


@pytest.mark.parametrize(
    "bad",
    ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/AB!A", "//////////////", "4HPwATDgc/ABM\u00e9"],
)
def test_bad_gnubg_ids(bad):
    with pytest.raises(ValueError):
        tavli.Board.from_gnubg_id(bad)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "XGID=",
        START_XGID.replace(":10", ""),
        START_XGID.replace("-b----", "-z----"),
        START_XGID.replace(":1:00:", ":0:00:"),
        START_XGID.replace(":1:00:", ":1:07:"),
        START_XGID.replace("-b----E", "-p----E"),
        "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
        START_XGID.replace("B-:", "BA:"),
        START_XGID + ":0",
    ],
)
def test_bad_xgids(bad):
    with pytest.raises(ValueError):
        tavli.Board.from_xgid(bad)


def test_ids_refused_for_other_movement():
    for variant in ("fevga", "plakoto", "narde"):
        with pytest.raises(ValueError):
            tavli.Board(variant).gnubg_id()
        with pytest.raises(ValueError):
            tavli.Board.from_gnubg_id(START_GNUBG, variant)
        with pytest.raises(ValueError):
            tavli.Board.from_xgid(START_XGID, variant)
