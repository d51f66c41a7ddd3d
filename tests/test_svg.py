"""SVG pictures of positions (tavli.svg): structure, hand-checked layouts, goldens, bad input.

Expected layouts come from RULES.md §1.1-§1.2 and §6.1 (point N = 24 - r for the viewer's route
index r; the other side's r' is the viewer's 23 - r' in contrary games, (r' + 12) % 24 in parallel
ones), not from the renderer. The golden files in tests/data/svg/ were inspected as PNGs
(chromium --headless --screenshot) before they were frozen; after a deliberate change of the
drawing, look at the new pictures and rewrite them with

    PYTHONPATH=python python3 tests/test_svg.py --write-golden
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import tavli
from tavli.svg import board_svg, render_cli

NS = "{http://www.w3.org/2000/svg}"
GOLDEN_DIR = Path(__file__).parent / "data" / "svg"
CONTRARY = {"plakoto", "portes", "tavla", "backgammon", "tawla31", "nackgammon", "hypergammon"}
PARALLEL = {"fevga", "moultezim", "narde", "jacquet"}
COLOURS = ("white", "black")

# name: (position ID, keyword arguments of board_svg)
GOLDEN = {
    "backgammon_start_65": ("backgammon:AQACAAAAAFAAAAMFAAAAAgAAAABQAAADBQAAAA",
                            {"dice": (6, 5), "play": "24/18 13/8"}),
    "backgammon_bar_viewer1": ("backgammon:AQEAAAABABIQEBAAADMCAAEAAAAAAAAAAAAZQA",
                               {"dice": (6, 2), "play": "bar/19", "viewer": 1}),
    "plakoto_pin": ("plakoto:AQkZAQEgEAAAAAAAAAAADAAAABAAAAEQAAAAAAACAAAAAA",
                    {"dice": (1, 5), "play": "24/23 24/19"}),
    "fevga_mid_viewer1": ("fevga:AQAQAAACIQAQEAAgAjAAAAEQBiABAAAAEAASAA",
                          {"dice": (5, 1), "play": "23/18 16/15", "viewer": 1, "highlight": [18, 15]}),
    "narde_bearoff": ("narde:AQEAAAAAAAAAAAAAAFCgAAAAAAAAAAAAACGgIA",
                      {"dice": (1, 4), "play": "1/off(2)", "highlight": ["off"]}),
    "hypergammon1_hit": ("hypergammon,checkers=1:AQAAAAAQAAAAAAAAAAAAAAAAABAAAAAAAAAAAA",
                         {"dice": (6, 1), "play": "17/10*"}),
    "tawla31_bearoff": ("tawla31:AQEAAAAAAAAAAAAAIhcwAAAAAAAAAAAAAGFCIA",
                        {"dice": (6, 3), "play": "4/off 3/off", "viewer": 1, "width": 450}),
}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == NS + "svg"
    return root


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def find_all(el: ET.Element, *wanted: str) -> list[ET.Element]:
    return [e for e in el.iter() if set(wanted) <= classes(e)]


def points(root: ET.Element) -> dict[int, ET.Element]:
    groups = [g for g in root.iter(NS + "g") if "point" in classes(g)]
    numbers = [int(g.get("data-point")) for g in groups]
    assert sorted(numbers) == list(range(1, 25)), numbers  # each of 1..24 exactly once
    return {int(g.get("data-point")): g for g in groups}


def only(root: ET.Element, cls: str, **attrs: str) -> ET.Element:
    found = [e for e in root.iter() if cls in classes(e) and all(e.get(k) == v for k, v in attrs.items())]
    assert len(found) == 1, (cls, attrs, len(found))
    return found[0]


def drawn(group: ET.Element, colour: str) -> int:
    """Checkers of a colour in a group: the count label where a stack is too tall to draw."""
    labels = find_all(group, "count", colour)
    circles = [c for c in find_all(group, "checker", colour) if c.tag == NS + "circle"]
    if labels:
        assert len(labels) == 1 and len(circles) >= 1
        return int(labels[0].text)
    return len(circles)


def picture(root: ET.Element) -> dict:
    """What the SVG shows: per colour the counts by point number, on the bar and borne off."""
    pts = points(root)
    bar = only(root, "bar", **{"data-point": "bar"})
    out = {}
    for side, colour in enumerate(COLOURS):
        tray = only(root, "off", **{"data-side": str(side)})
        out[colour] = {
            "points": {n: drawn(g, colour) for n, g in pts.items() if drawn(g, colour)},
            "bar": drawn(bar, colour),
            "off": len(find_all(tray, "borne", colour)),
        }
    return out


def expected(board: tavli.Board, viewer: int) -> dict:
    """The same, computed from to_dict() with RULES.md §1.1's frames (independent of the renderer)."""
    d = board.to_dict()
    movement = "contrary" if board.variant in CONTRARY else "parallel"
    movement = d["options"].get("movement", movement)  # Tawla 31's W-MOVE option
    assert board.variant in CONTRARY | PARALLEL
    out = {}
    for side, colour in enumerate(COLOURS):
        idx = 0 if side == d["turn"] else 1  # mover or opponent
        counts = d["mover"] if idx == 0 else d["opponent"]
        pts = {}
        for r, n in enumerate(counts):
            if not n:
                continue
            rv = r if side == viewer else (23 - r if movement == "contrary" else (r + 12) % 24)
            pts[24 - rv] = n
        out[colour] = {"points": pts, "bar": d["bar"][idx], "off": d["off"][idx]}
    return out


def view_box(root: ET.Element) -> tuple[float, float]:
    _, _, w, h = map(float, root.get("viewBox").split())
    return w, h


def centre_of(group: ET.Element, colour: str) -> tuple[float, float]:
    c = find_all(group, "checker", colour)[0]
    return float(c.get("cx")), float(c.get("cy"))


# --- every variant, both seats ---------------------------------------------------------------
@pytest.mark.parametrize("variant", tavli.variants())
@pytest.mark.parametrize("viewer", [0, 1])
def test_start_positions_show_every_checker(variant, viewer):
    board = tavli.Board(variant)
    root = parse(board_svg(board, viewer=viewer))
    assert root.get("data-variant") == board.variant and root.get("data-turn") == "0"
    assert root.get("data-id") == board.id() and root.get("viewBox")
    shown = picture(root)
    for colour in COLOURS:
        total = sum(shown[colour]["points"].values()) + shown[colour]["bar"] + shown[colour]["off"]
        assert total == board.checkers, (colour, shown[colour])
    assert shown == expected(board, viewer)


@pytest.mark.parametrize("variant", tavli.variants())
def test_random_positions_match_the_rule_book_frames(variant):
    rows, dice = tavli.random_positions(variant, 120, seed=11)
    turns = set()
    for row, roll in zip(rows[5::23], dice[5::23]):
        board = tavli.Board.from_array(row, variant)
        roll = (int(roll[0]), int(roll[1]))
        turns.add(board.turn)
        for viewer in (0, 1):
            root = parse(board_svg(board, viewer=viewer))
            assert root.get("data-turn") == str(board.turn)
            assert picture(root) == expected(board, viewer)
            play = board.legal_plays(roll)[-1]
            root = parse(board_svg(board, dice=roll, play=play, viewer=viewer))
            assert len(arrows(root)) == len(play.steps)
    assert turns == {0, 1}  # both sides to move were drawn


def test_tawla31_parallel_option_moves_the_other_side():
    board = tavli.Board("tawla31", movement="parallel")
    pts = points(parse(board_svg(board)))
    assert drawn(pts[24], "white") == 15 and drawn(pts[12], "black") == 15  # as Fevga (RULES.md §6.1)
    rows, _ = tavli.random_positions("tawla31", 60, seed=5, movement="parallel")
    for row in rows[7::13]:
        board = tavli.Board.from_array(row, "tawla31", movement="parallel")
        for viewer in (0, 1):
            assert picture(parse(board_svg(board, viewer=viewer))) == expected(board, viewer)


# --- hand-checked layouts --------------------------------------------------------------------
def test_backgammon_start_from_both_seats():
    board = tavli.Board("backgammon")
    # RULES.md §1.2: 24-pt 2, 13-pt 5, 8-pt 3, 6-pt 5 for each side; the other side's point n is
    # the viewer's 25 - n (contrary movement).
    own = {24: 2, 13: 5, 8: 3, 6: 5}
    other = {1: 2, 12: 5, 17: 3, 19: 5}
    for viewer, me, them in ((0, "white", "black"), (1, "black", "white")):
        pts = points(parse(board_svg(board, viewer=viewer)))
        for n, g in pts.items():
            assert drawn(g, me) == own.get(n, 0), (viewer, n)
            assert drawn(g, them) == other.get(n, 0), (viewer, n)


def test_fevga_start_and_where_the_points_are():
    # RULES.md §6.1: each side starts with 15 on its r0; the opponent's start is my r12, point 12.
    board = tavli.Board("fevga")
    for viewer, me, them in ((0, "white", "black"), (1, "black", "white")):
        root = parse(board_svg(board, viewer=viewer))
        pts = points(root)
        w, h = view_box(root)
        assert drawn(pts[24], me) == 15 and drawn(pts[12], them) == 15
        assert len(find_all(pts[24], "checker", me)) == 5  # five drawn, a label says 15
        assert only(pts[24], "count").text == "15"
        x, y = centre_of(pts[24], me)
        assert x > w / 2 and y < h / 2  # point 24: top right
        x, y = centre_of(pts[12], them)
        assert x < w / 2 and y > h / 2  # point 12: bottom left


def test_point_corners_follow_the_classic_layout():
    # White on its r 0..11 (points 24..13), Black on its r 0..11 (White's r 23..12, points 1..12).
    board = tavli.Board.from_dict({"variant": "backgammon", "mover": [1] * 12 + [0] * 12,
                                   "opponent": [1] * 12 + [0] * 12, "off": [3, 3]})
    root = parse(board_svg(board))
    w, h = view_box(root)
    pts = points(root)
    at = {n: centre_of(pts[n], "white" if n >= 13 else "black") for n in range(1, 25)}
    bottom = sorted(range(1, 13), key=lambda n: at[n][0])
    top = sorted(range(13, 25), key=lambda n: at[n][0])
    assert bottom == list(range(12, 0, -1)) and all(at[n][1] > h / 2 for n in bottom)  # 12..1 left to right
    assert top == list(range(13, 25)) and all(at[n][1] < h / 2 for n in top)  # 13..24 left to right
    assert at[7][0] < w / 2 < at[6][0] and at[18][0] < w / 2 < at[19][0]  # the bar between 7|6 and 18|19


def test_trays_sit_next_to_each_home():
    for variant, black_tray_left in (("fevga", True), ("narde", True), ("backgammon", False), ("plakoto", False)):
        root = parse(board_svg(tavli.Board(variant)))
        w, h = view_box(root)
        white = only(only(root, "off", **{"data-side": "0"}), "tray")
        black = only(only(root, "off", **{"data-side": "1"}), "tray")
        assert float(white.get("x")) > w / 2 and float(white.get("y")) > h / 2  # the viewer's: bottom right
        assert float(black.get("y")) < h / 2
        assert (float(black.get("x")) < w / 2) == black_tray_left, variant


def test_stack_labels_count_the_hidden_checkers():
    board = tavli.Board.from_dict({"variant": "backgammon", "mover": [0] * 23 + [7],
                                   "opponent": [0] * 18 + [6, 0, 0, 0, 0, 0], "off": [8, 9]})
    pts = points(parse(board_svg(board)))
    assert len(find_all(pts[1], "checker", "white")) == 5 and find_all(pts[1], "count", "white")[0].text == "7"
    assert len(find_all(pts[19], "checker", "black")) == 5 and find_all(pts[19], "count", "black")[0].text == "6"
    root = parse(board_svg(board))
    assert len(find_all(only(root, "off", **{"data-side": "0"}), "borne", "white")) == 8
    assert len(find_all(only(root, "off", **{"data-side": "1"}), "borne", "black")) == 9


def test_plakoto_pinned_checker_is_marked_under_its_pinner():
    # White's single checker on its r5 (point 19) pins Black's single checker there: Black's own
    # index 23 - 5 = 18, listed in pinned[opponent] (RULES.md §5.2).
    mover = [14, 0, 0, 0, 0, 1] + [0] * 18
    opponent = [14] + [0] * 17 + [1] + [0] * 5
    board = tavli.Board.from_dict({"variant": "plakoto", "mover": mover, "opponent": opponent,
                                   "pinned": [[], [18]]})
    for viewer, n in ((0, 19), (1, 6)):
        root = parse(board_svg(board, viewer=viewer))
        pinned = find_all(root, "pinned")
        assert len(pinned) == 1 and classes(pinned[0]) == {"checker", "black", "pinned"}
        g = points(root)[n]
        assert pinned[0] in list(g.iter())
        white = find_all(g, "checker", "white")
        assert len(white) == 1 and "pinned" not in classes(white[0])
        # the pinned checker lies at the base of the point, the pinner on top of it
        edge = 0 if n >= 13 else view_box(root)[1]
        assert abs(float(pinned[0].get("cy")) - edge) < abs(float(white[0].get("cy")) - edge)


def test_a_pinned_stack_counts_both_colours():
    mover = [0] * 5 + [8] + [0] * 18
    opponent = [15 - 1] + [0] * 17 + [1] + [0] * 5
    board = tavli.Board.from_dict({"variant": "plakoto", "mover": mover, "opponent": opponent,
                                   "pinned": [[], [18]], "off": [7, 0]})
    g = points(parse(board_svg(board)))[19]
    assert drawn(g, "white") == 8 and drawn(g, "black") == 1
    assert len(find_all(g, "checker")) == 5  # the pinned one and four pinners, with a label of 8


# --- play arrows, dice, highlights ---------------------------------------------------------
def arrows(root: ET.Element) -> list[tuple[str, str]]:
    return [(a.get("data-from"), a.get("data-to")) for a in root.iter(NS + "path") if "arrow" in classes(a)]


def test_one_arrow_per_step_in_the_viewers_numbers():
    board = tavli.Board("backgammon")
    root = parse(board_svg(board, dice=(6, 5), play="24/18 13/8"))
    assert sorted(arrows(root)) == [("13", "8"), ("24", "18")]
    # Black's numbers: White's 24 is Black's 1, 18 -> 7, 13 -> 12, 8 -> 17.
    root = parse(board_svg(board, dice=(6, 5), play="24/18 13/8", viewer=1))
    assert sorted(arrows(root)) == [("1", "7"), ("12", "17")]
    play = board.parse_play("24/18(2) 13/7(2)", (6, 6))
    assert len(arrows(parse(board_svg(board, dice=(6, 6), play=play)))) == len(play.steps) == 4
    steps_play = board_svg(board, dice=(6, 5), play=[(0, 6), (6, 11)])
    assert arrows(parse(steps_play)) == [("24", "18"), ("18", "13")]


def test_arrows_from_the_bar_and_to_the_tray():
    board = tavli.Board.from_id(GOLDEN["backgammon_bar_viewer1"][0])  # Black to move, two on the bar
    assert arrows(parse(board_svg(board, dice=(6, 2), play="bar/19"))) == [("bar", "6")]
    assert arrows(parse(board_svg(board, dice=(6, 2), play="bar/19", viewer=1))) == [("bar", "19")]
    narde = tavli.Board.from_id(GOLDEN["narde_bearoff"][0])  # Black bears off from its 1-point
    # Black's 1-point is its r23 = White's (23 + 12) % 24 = r11, White's point 13 (parallel).
    assert arrows(parse(board_svg(narde, dice=(1, 4), play="1/off(2)"))) == [("13", "off"), ("13", "off")]


def test_pass_draws_no_arrow():
    board = tavli.Board.from_dict({"variant": "backgammon", "mover": [0] * 24, "opponent": [0] * 18 + [2] * 6,
                                   "bar": [2, 0], "off": [13, 3]})
    play = board.legal_plays((6, 6))[0]
    assert str(play) == "pass"
    assert arrows(parse(board_svg(board, dice=(6, 6), play=play))) == []


def test_dice_keep_their_order_and_pips():
    board = tavli.Board("fevga")
    for dice, text in (((6, 5), "6-5"), ((5, 6), "5-6"), ("3-3", "3-3")):
        root = parse(board_svg(board, dice=dice))
        group = only(root, "dice")
        assert group.get("data-dice") == text
        pips = int(text[0]) + int(text[2])
        assert len(find_all(group, "pip")) == pips
    assert not find_all(parse(board_svg(board)), "dice")


def test_highlight_marks_points_bar_and_the_movers_tray():
    board = tavli.Board.from_id(GOLDEN["backgammon_bar_viewer1"][0])  # Black to move
    root = parse(board_svg(board, highlight=[5, 24, "bar", "off"]))
    marked = {g.get("data-point") + g.get("data-side", "") for g in root.iter(NS + "g") if "highlight" in classes(g)}
    assert marked == {"5", "24", "bar", "off1"}
    assert len(find_all(root, "highlight-mark")) == 4


def test_numbers_and_width():
    board = tavli.Board("backgammon")
    root = parse(board_svg(board))
    labels = sorted(int(t.text) for t in find_all(root, "label"))
    assert labels == list(range(1, 25))
    assert root.get("width") is None
    assert not find_all(parse(board_svg(board, numbers=False)), "label")
    root = parse(board_svg(board, width=400))
    w, h = view_box(root)
    assert root.get("width") == "400" and abs(float(root.get("height")) - 400 * h / w) < 0.01


# --- documents ------------------------------------------------------------------------------
def test_standalone_and_deterministic():
    rows, dice = tavli.random_positions("plakoto", 30, seed=4)
    for row, roll in zip(rows[::7], dice[::7]):
        a = tavli.Board.from_array(row, "plakoto")
        b = tavli.Board.from_id(a.id())
        roll = tuple(int(x) for x in roll)
        play = a.legal_plays(roll)[-1]
        first = board_svg(a, dice=roll, play=play, viewer=1, highlight=[3])
        assert first == board_svg(b, dice=roll, play=play, viewer=1, highlight=[3])
        assert first.startswith("<?xml") and 'xmlns="http://www.w3.org/2000/svg"' in first
        lowered = first.lower()
        for banned in ("<script", "href", "url(", "<image", "<foreignobject", "javascript:"):
            assert banned not in lowered
        parse(first)


def test_repr_svg_is_board_svg():
    board = tavli.Board("tavla")
    assert board._repr_svg_() == board_svg(board)


def golden_svg(name: str) -> str:
    position, kwargs = GOLDEN[name]
    return board_svg(tavli.Board.from_id(position), **kwargs)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_files(name):
    path = GOLDEN_DIR / f"{name}.svg"
    assert path.read_bytes() == golden_svg(name).encode("utf-8"), f"{path} differs; see the module docstring"


# --- bad input ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"dice": (7, 1)}, "dice"),
        ({"dice": (0, 3)}, "dice"),
        ({"dice": (True, 2)}, "dice"),
        ({"dice": [1, 2, 3]}, "dice"),
        ({"dice": "six"}, "dice"),
        ({"viewer": 2}, "viewer"),
        ({"viewer": True}, "viewer"),
        ({"viewer": "0"}, "viewer"),
        ({"highlight": [0]}, "highlight"),
        ({"highlight": [25]}, "highlight"),
        ({"highlight": ["home"]}, "highlight"),
        ({"highlight": "bar"}, "highlight"),
        ({"highlight": [True]}, "highlight"),
        ({"width": 0}, "width"),
        ({"width": "wide"}, "width"),
        ({"numbers": "yes"}, "numbers"),
        ({"play": "24/18 13/8"}, "dice"),
        ({"dice": (6, 5), "play": "24/14"}, "24/14"),
        ({"dice": (6, 5), "play": "13/7 13/8(2)"}, "."),
        ({"dice": (6, 5), "play": [(0, 7)]}, "."),
        ({"dice": (6, 5), "play": 42}, "play"),
        ({"dice": (4, 2), "play": "PLAY"}, "play"),
    ],
)
def test_bad_input_raises_value_error(kwargs, message):
    board = tavli.Board("backgammon")
    if kwargs.get("play") == "PLAY":  # a legal Play, but for other dice
        kwargs = dict(kwargs, play=board.legal_plays((6, 5))[0])
    with pytest.raises(ValueError, match=message):
        board_svg(board, **kwargs)


def test_a_play_of_another_position_is_refused():
    board = tavli.Board("backgammon")
    other = board.play(board.parse_play("13/7 13/8", (6, 5)))  # Black to move now
    play = tavli.Board("backgammon").parse_play("24/18 13/8", (6, 5))
    with pytest.raises(ValueError):
        board_svg(other, dice=(6, 5), play=play)
    with pytest.raises(ValueError, match="board"):
        board_svg(board.id())
    with pytest.raises(ValueError, match="board"):
        board_svg(None)


# --- the command line -----------------------------------------------------------------------
def test_render_cli_writes_a_file(tmp_path, capsys):
    out = tmp_path / "board.svg"
    position = tavli.Board("backgammon").id()
    assert render_cli([position, "-o", str(out), "--dice", "6-5", "--play", "24/18 13/8", "--viewer", "1"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text == board_svg(tavli.Board("backgammon"), dice=(6, 5), play="24/18 13/8", viewer=1)
    assert render_cli([position, "--highlight", "6,bar"]) == 0
    root = parse(capsys.readouterr().out)
    assert {g.get("data-point") for g in root.iter(NS + "g") if "highlight" in classes(g)} == {"6", "bar"}
    assert render_cli([position, "--dice", "6-5", "--play", "24/12"]) == 2
    assert render_cli(["nonsense:xyz", "-o", str(tmp_path / "x.svg")]) == 2
    assert render_cli([position, "--play", "24/18"]) == 2
    assert render_cli([position, "--viewer", "2"]) == 2
    assert render_cli([position, "-o", str(tmp_path / "missing" / "x.svg")]) == 2
    assert "error" in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()
    assert render_cli(["-h"]) == 0 and "tavli render" in capsys.readouterr().out


def test_tavli_render_subcommand(tmp_path):
    from tavli.__main__ import main

    out = tmp_path / "fevga.svg"
    assert main(["render", tavli.Board("fevga").id(), "-o", str(out), "--dice", "6-5"]) == 0
    assert only(parse(out.read_text(encoding="utf-8")), "dice").get("data-dice") == "6-5"


def _cube_box(root: ET.Element) -> tuple[float, float, str, str]:
    g = only(root, "cube")
    face = only(g, "cube-face")
    return float(face.get("y")), float(face.get("height")), g.get("data-owner"), only(g, "cube-value").text


@pytest.mark.parametrize("viewer", [0, 1])
def test_the_cube_sits_in_the_middle_or_at_its_owners_end(viewer):
    """Centred: across the board's middle line, showing 64 at value 1; owned: in the owner's half,
    the bottom one when the owner is the viewer (his side of the board), else the top."""
    board = tavli.Board("backgammon")
    root = parse(board_svg(board, viewer=viewer, cube=tavli.CubeState()))
    _, height_total = view_box(root)
    y, h, owner, text = _cube_box(root)
    assert owner == "centre" and text == "64" and y < height_total / 2 < y + h
    for holder in (0, 1):
        y, h, owner, text = _cube_box(parse(board_svg(board, viewer=viewer, cube={"value": 8, "owner": holder})))
        assert owner == COLOURS[holder] and text == "8"
        assert (y > height_total / 2) == (holder == viewer)  # the owner's end of the board
    assert not find_all(parse(board_svg(board)), "cube")  # no cube unless one is given


def test_games_without_a_cube_refuse_to_draw_one():
    with pytest.raises(ValueError, match="fevga has no doubling cube"):
        board_svg(tavli.Board("fevga"), cube=tavli.CubeState())
    with pytest.raises(ValueError):
        board_svg(tavli.Board("backgammon"), cube={"value": 3})


def write_golden() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name in sorted(GOLDEN):
        (GOLDEN_DIR / f"{name}.svg").write_bytes(golden_svg(name).encode("utf-8"))
        print(f"wrote {GOLDEN_DIR / name}.svg")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write-golden"]:
        write_golden()
    else:
        print(__doc__)
