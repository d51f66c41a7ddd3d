"""SVG pictures of positions, with the Python standard library only.

`board_svg(board)` draws any position of any game as a standalone SVG document: the classic
board (two halves of 12 points, the bar in the middle, a borne-off tray per side), checkers
stacked on their points, Plakoto's pinned checkers under their pinners, and optionally the dice,
a play as arrows and highlighted points. `render_cli` is `tavli render`.

The picture is drawn from the viewer's seat: the viewer's checkers move from the top right
(point 24) round to the bottom right (point 1), and points carry the viewer's numbers, point
N = 24 - r for the viewer's route index r (RULES.md §1.1). The other side's route index r' is the
viewer's 23 - r' in contrary-movement games and (r' + 12) % 24 in parallel ones (io.geometry), so its home is
the top right quarter (contrary) or the top left one (parallel); its tray sits next to it.

Front ends find their way by data attributes: `<g class="point" data-point="N">` holds a point's
triangle, label and checkers; `<g class="bar" data-point="bar">`; `<g class="off" data-point="off"
data-side="0|1">` (0 White, 1 Black); checkers are `<circle class="checker white|black">` (plus
"pinned"); a stack of more than five shows five and a `<text class="count white|black">` with the
number; dice are `<g class="dice" data-dice="6-5">`; the doubling cube (when given) `<g class="cube"
data-value="2" data-owner="centre|white|black">`; a play is one `<path class="arrow">` per step.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterable
from xml.sax.saxutils import escape, quoteattr

from .. import _core
from .._base.args import require_bool
from .._base.dice import parse_dice
from .geometry import facing_point

if TYPE_CHECKING:
    from ..board import Board

__all__ = ["board_svg", "render_cli"]

COLOUR = ("white", "black")  # side 0, side 1

# --- geometry (viewBox units) ----------------------------------------------------------------
MARGIN = 10
LABEL_H = 22  # a row of point numbers above and below the board
TRAY_W = 52
TRAY_GAP = 8
FRAME = 14
POINT_W = 46
R = 20  # checker radius; a stack steps by 2R
STACK = 5  # checkers drawn per point before a count label takes over
HALF_W = 6 * POINT_W
BAR_W = 46
TRIANGLE_H = 196
INNER_H = 2 * STACK * 2 * R + 104  # two full stacks and room for the dice between them
DIE = 40
SLIVER_H, SLIVER_PITCH = 10, 13  # a borne-off checker seen edge-on in its tray

LEFT_TRAY_X = MARGIN
BOARD_X0 = LEFT_TRAY_X + TRAY_W + TRAY_GAP
INNER_X0 = BOARD_X0 + FRAME
BAR_X = INNER_X0 + HALF_W
RIGHT_HALF_X = BAR_X + BAR_W
INNER_X1 = RIGHT_HALF_X + HALF_W
BOARD_X1 = INNER_X1 + FRAME
RIGHT_TRAY_X = BOARD_X1 + TRAY_GAP
WIDTH = RIGHT_TRAY_X + TRAY_W + MARGIN

BOARD_Y0 = MARGIN + LABEL_H
INNER_Y0 = BOARD_Y0 + FRAME
INNER_Y1 = INNER_Y0 + INNER_H
BOARD_Y1 = INNER_Y1 + FRAME
MID_Y = (INNER_Y0 + INNER_Y1) // 2
HEIGHT = BOARD_Y1 + LABEL_H + MARGIN

# --- colours ---------------------------------------------------------------------------------
FRAME_FILL = "#5c3a1e"
FELT = "#2d6a4f"
TRIANGLE_FILL = ("#e9d5a1", "#a63d2a")  # even points, odd points
TRAY_FILL = "#7a5230"
CHECKER_FILL = ("#f6f1e3", "#262626")
CHECKER_STROKE = ("#3a3a3a", "#a8a8a8")
TEXT_ON = ("#1a1a1a", "#f6f1e3")  # text drawn on a checker (or die) of that colour
PIN_STROKE = "#e63946"
ARROW = "#ff9f1c"
BEST_ARROW = "#4cc9f0"  # a review's best play beside the play made
HIGHLIGHT = "#ffe066"
LABEL_FILL = "#3a3a3a"


def _num(x: float) -> str:
    """A coordinate as short, deterministic text."""
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _tag(name: str, attrs: dict[str, Any], body: str | None = None) -> str:
    parts = [name]
    for key, value in attrs.items():
        text = _num(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
        parts.append(f"{key}={quoteattr(text)}")
    head = " ".join(parts)
    return f"<{head}/>" if body is None else f"<{head}>{body}</{name}>"


# --- input checks ----------------------------------------------------------------------------
def _check_board(board: Any) -> Board:
    from ..board import Board

    if not isinstance(board, Board):
        raise ValueError(f"board: expected a tavli.Board, got {type(board).__name__}")
    return board


def _check_viewer(viewer: Any) -> int:
    if isinstance(viewer, (bool, str)) or not hasattr(viewer, "__index__") or int(viewer) not in (0, 1):
        raise ValueError(f"viewer: expected 0 (white) or 1 (black), got {viewer!r}")
    return int(viewer)


def _check_highlight(highlight: Any) -> list[int | str]:
    if isinstance(highlight, (str, bytes, dict)) or not isinstance(highlight, Iterable):
        raise ValueError(f"highlight: expected a list of point numbers 1..24, 'bar' or 'off', got {highlight!r}")
    out: list[int | str] = []
    for item in highlight:
        if isinstance(item, str) and item in ("bar", "off"):
            out.append(item)
        elif not isinstance(item, (bool, str)) and hasattr(item, "__index__") and 1 <= int(item) <= 24:
            out.append(int(item))
        else:
            raise ValueError(f"highlight: {item!r} is not a point number 1..24, 'bar' or 'off'")
        if len(out) > 26:
            raise ValueError("highlight: at most 26 entries (24 points, bar, off)")
    return out


def _check_width(width: Any) -> float | None:
    if width is None:
        return None
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not 1 <= width <= 10_000:
        raise ValueError(f"width: expected a number of pixels 1..10000 or None, got {width!r}")
    return float(width)


def _check_play(board: Board, play: Any, dice: tuple[int, int] | None) -> _core.Play | None:
    """The legal Play that `play` names for this board and these dice (the engine decides)."""
    if play is None:
        return None
    if isinstance(play, _core.Play):
        if dice is None:
            dice = play.dice
        elif sorted(play.dice) != sorted(dice):
            raise ValueError(f"play: it is a play for {play.dice[0]}-{play.dice[1]}, the dice are {dice[0]}-{dice[1]}")
        legal = board.find_play(play.steps, dice)  # raises IllegalMove (a ValueError) if not legal here
        if legal.result_key != play.result_key:
            raise _core.IllegalMove(f"play: {play} does not belong to this position")
        return play
    if dice is None:
        raise ValueError("play: move text or steps need the dice")
    if isinstance(play, str):
        return board.parse_play(play, dice)
    if isinstance(play, (bytes, dict)) or not isinstance(play, Iterable):
        raise ValueError(f"play: expected a Play, move text such as '24/18 13/8' or a list of (from, to) steps, "
                         f"got {type(play).__name__}")
    return board.find_play(play, dice)


# --- the position from the viewer's seat -------------------------------------------------------
class _View:
    """Counts of both sides in the viewer's frame: index r_v = 0..23 is the viewer's point 24 - r_v."""

    def __init__(self, board: Board, viewer: int) -> None:
        self.viewer = viewer
        self.turn = board.turn
        self.movement = board._movement
        self.parallel = self.movement == "parallel"
        self.hits = board._contact == "hit"
        mover_side = board.turn
        own = {mover_side: board.mover, 1 - mover_side: board.opponent}
        pins = board.pinned
        own_pins = {mover_side: pins[0], 1 - mover_side: pins[1]}
        bar, off = board.bar, board.off
        self.bar = {mover_side: bar[0], 1 - mover_side: bar[1]}
        self.off = {mover_side: off[0], 1 - mover_side: off[1]}
        self.counts = {side: [0] * 24 for side in (0, 1)}
        self.pinned: dict[int, set[int]] = {0: set(), 1: set()}
        for side in (0, 1):
            for r, n in enumerate(own[side]):
                self.counts[side][self.to_viewer(side, r)] += n
            self.pinned[side] = {self.to_viewer(side, r) for r in own_pins[side]}

    def to_viewer(self, side: int, r: int) -> int:
        """Side's own route index r (0..23) in the viewer's frame."""
        return r if side == self.viewer else facing_point(self.movement, r)

    def other_tray_left(self) -> bool:
        # the other side's home is the viewer's r 6..11 (points 18..13, top left) in parallel games
        return self.parallel


def _point_x(n: int) -> float:
    """Centre x of point n (1..24): 1..6 bottom right, 7..12 bottom left, 13..18 top left, 19..24 top right."""
    if n <= 6:
        return INNER_X1 - POINT_W / 2 - (n - 1) * POINT_W
    if n <= 12:
        return BAR_X - POINT_W / 2 - (n - 7) * POINT_W
    if n <= 18:
        return INNER_X0 + POINT_W / 2 + (n - 13) * POINT_W
    return RIGHT_HALF_X + POINT_W / 2 + (n - 19) * POINT_W


def _is_top(n: int) -> bool:
    return n >= 13


def _slot_y(n: int, slot: int) -> float:
    return INNER_Y0 + R + slot * 2 * R if _is_top(n) else INNER_Y1 - R - slot * 2 * R


def _bar_slot_y(side: int, viewer: int, slot: int) -> float:
    # The viewer's checkers wait on the upper half of the bar, next to where they enter (19..24).
    if side == viewer:
        return MID_Y - 6 - R - slot * 2 * R
    return MID_Y + 6 + R + slot * 2 * R


def _tray_box(side: int, view: _View) -> tuple[float, float, float, float]:
    """x, y, width, height of a side's tray: the viewer's bottom right, the other's by its home."""
    half = INNER_H / 2 - 4
    if side == view.viewer:
        return RIGHT_TRAY_X, MID_Y + 4, TRAY_W, half
    x = LEFT_TRAY_X if view.other_tray_left() else RIGHT_TRAY_X
    return x, INNER_Y0, TRAY_W, half


def _sliver_y(side: int, view: _View, i: int) -> float:
    """Top of the i-th borne-off sliver: a top tray fills from its top edge, a bottom one from its bottom."""
    x, y, w, h = _tray_box(side, view)
    return y + 6 + i * SLIVER_PITCH if y == INNER_Y0 else y + h - 6 - SLIVER_H - i * SLIVER_PITCH


def _checker(side: int, cx: float, cy: float, pinned: bool = False) -> str:
    attrs: dict[str, Any] = {
        "class": f"checker {COLOUR[side]}" + (" pinned" if pinned else ""),
        "cx": cx,
        "cy": cy,
        "r": R - 1,
        "fill": CHECKER_FILL[side],
        "stroke": PIN_STROKE if pinned else CHECKER_STROKE[side],
        "stroke-width": 4 if pinned else 1.5,
    }
    if pinned:
        attrs["stroke-dasharray"] = "6 3"
    return _tag("circle", attrs)


def _count_label(side: int, count: int, cx: float, cy: float) -> str:
    attrs = {
        "class": f"count {COLOUR[side]}",
        "x": cx,
        "y": cy + 6,
        "text-anchor": "middle",
        "font-family": "sans-serif",
        "font-size": 17,
        "font-weight": "bold",
        "fill": TEXT_ON[side],
    }
    return _tag("text", attrs, str(count))


def _stack(layers: list[tuple[int, int, bool]], place: Callable[[int], tuple[float, float]]) -> list[str]:
    """Checkers of (side, count, pinned) layers from the base outward; at most STACK drawn, the
    last drawn of a layer that does not fit carries its count."""
    out: list[str] = []
    slot = 0
    for i, (side, count, pinned) in enumerate(layers):
        room = STACK - slot - (len(layers) - 1 - i)  # leave a slot for each later layer
        shown = min(count, max(room, 1))
        for _ in range(shown):
            cx, cy = place(slot)
            out.append(_checker(side, cx, cy, pinned))
            slot += 1
        if shown < count:
            cx, cy = place(slot - 1)
            out.append(_count_label(side, count, cx, cy))
    return out


def _point_group(n: int, view: _View, numbers: bool, highlighted: bool) -> str:
    r = 24 - n
    x = _point_x(n)
    base, tip = (INNER_Y0, INNER_Y0 + TRIANGLE_H) if _is_top(n) else (INNER_Y1, INNER_Y1 - TRIANGLE_H)
    corners = f"{_num(x - POINT_W / 2)},{base} {_num(x + POINT_W / 2)},{base} {_num(x)},{tip}"
    parts = [
        _tag("rect", {"class": "hit-area", "x": x - POINT_W / 2, "y": INNER_Y0 if _is_top(n) else MID_Y,
                      "width": POINT_W, "height": INNER_H / 2, "fill": "none", "pointer-events": "all"}),
        _tag("polygon", {"class": "triangle", "points": corners, "fill": TRIANGLE_FILL[n % 2]}),
    ]
    if highlighted:
        parts.append(_tag("polygon", {"class": "highlight-mark", "points": corners, "fill": HIGHLIGHT,
                                      "fill-opacity": 0.6, "stroke": HIGHLIGHT, "stroke-width": 2}))
    layers = []
    for side in (0, 1):  # a pinned checker lies at the base, under its pinners
        if r in view.pinned[side] and view.counts[side][r]:
            layers.append((side, view.counts[side][r], True))
    for side in (0, 1):
        if r not in view.pinned[side] and view.counts[side][r]:
            layers.append((side, view.counts[side][r], False))
    parts += _stack(layers, lambda slot: (x, _slot_y(n, slot)))
    if numbers:
        y = MARGIN + LABEL_H - 6 if _is_top(n) else BOARD_Y1 + LABEL_H - 5
        parts.append(_tag("text", {"class": "label", "x": x, "y": y, "text-anchor": "middle",
                                   "font-family": "sans-serif", "font-size": 13, "fill": LABEL_FILL}, str(n)))
    cls = "point highlight" if highlighted else "point"
    return _tag("g", {"class": cls, "data-point": n}, "".join(parts))


def _bar_group(view: _View, highlighted: bool) -> str:
    parts = [_tag("rect", {"class": "bar-rect", "x": BAR_X, "y": BOARD_Y0, "width": BAR_W,
                           "height": BOARD_Y1 - BOARD_Y0, "fill": FRAME_FILL})]
    if highlighted:
        parts.append(_tag("rect", {"class": "highlight-mark", "x": BAR_X + 2, "y": INNER_Y0, "width": BAR_W - 4,
                                   "height": INNER_H, "fill": HIGHLIGHT, "fill-opacity": 0.35,
                                   "stroke": HIGHLIGHT, "stroke-width": 3}))
    cx = BAR_X + BAR_W / 2
    for side in (view.viewer, 1 - view.viewer):
        if view.bar[side]:
            def place(slot: int, side: int = side) -> tuple[float, float]:
                return (cx, _bar_slot_y(side, view.viewer, slot))

            parts += _stack([(side, view.bar[side], False)], place)
    cls = "bar highlight" if highlighted else "bar"
    return _tag("g", {"class": cls, "data-point": "bar"}, "".join(parts))


def _tray_group(side: int, view: _View, highlighted: bool) -> str:
    x, y, w, h = _tray_box(side, view)
    parts = [_tag("rect", {"class": "tray", "x": x, "y": y, "width": w, "height": h, "rx": 4,
                           "fill": TRAY_FILL, "stroke": FRAME_FILL, "stroke-width": 2})]
    if highlighted:
        parts.append(_tag("rect", {"class": "highlight-mark", "x": x + 2, "y": y + 2, "width": w - 4,
                                   "height": h - 4, "fill": HIGHLIGHT, "fill-opacity": 0.3,
                                   "stroke": HIGHLIGHT, "stroke-width": 3}))
    n = view.off[side]
    for i in range(n):
        sy = _sliver_y(side, view, i)
        parts.append(_tag("rect", {"class": f"borne {COLOUR[side]}", "x": x + 6, "y": sy, "width": w - 12,
                                   "height": SLIVER_H, "rx": 2, "fill": CHECKER_FILL[side],
                                   "stroke": CHECKER_STROKE[side], "stroke-width": 1}))
    if n:
        ty = y + h - 10 if y == INNER_Y0 else y + 22  # the inner end, clear of slivers and arrows
        parts.append(_tag("text", {"class": f"off-count {COLOUR[side]}", "x": x + w / 2, "y": ty,
                                   "text-anchor": "middle", "font-family": "sans-serif", "font-size": 15,
                                   "font-weight": "bold", "fill": "#f6f1e3"}, str(n)))
    cls = "off highlight" if highlighted else "off"
    return _tag("g", {"class": cls, "data-point": "off", "data-side": side}, "".join(parts))


_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _dice_group(dice: tuple[int, int], view: _View) -> str:
    # The mover's dice lie in the half on the mover's right: the right half when the viewer moves.
    side = view.turn
    centre_x = RIGHT_HALF_X + HALF_W / 2 if side == view.viewer else INNER_X0 + HALF_W / 2
    parts = []
    for i, value in enumerate(dice):
        x = centre_x - DIE - 6 + i * (DIE + 12)
        y = MID_Y - DIE / 2
        face = [_tag("rect", {"class": "die-face", "x": x, "y": y, "width": DIE, "height": DIE, "rx": 7,
                              "fill": CHECKER_FILL[side], "stroke": CHECKER_STROKE[side], "stroke-width": 2})]
        for dx, dy in _PIPS[value]:
            face.append(_tag("circle", {"class": "pip", "cx": x + DIE / 2 + dx * 11, "cy": y + DIE / 2 + dy * 11,
                                        "r": 4, "fill": TEXT_ON[side]}))
        parts.append(_tag("g", {"class": "die", "data-value": value}, "".join(face)))
    return _tag("g", {"class": "dice", "data-dice": f"{dice[0]}-{dice[1]}"}, "".join(parts))


CUBE = 40  # the doubling cube's side


def _check_cube(board: Any, cube: Any) -> Any:
    """None, or a tavli.CubeState (a dict of its fields is taken too) for a game with a cube."""
    if cube is None:
        return None
    from ..cube import _cube_arg

    state = _cube_arg(cube)
    if not _core._variant_takes_cube(board.variant):
        raise ValueError(f"cube: {board.variant} has no doubling cube")
    return state


def _cube_group(cube: Any, view: _View) -> str:
    # In the column left of the board (the contrary games with a cube keep both trays on the right):
    # in the middle when centred (showing 64, as boards do), else at its owner's end.
    x = LEFT_TRAY_X + (TRAY_W - CUBE) / 2
    if cube.owner is None:
        y, owner = MID_Y - CUBE / 2, "centre"
    elif cube.owner == view.viewer:
        y, owner = INNER_Y1 - CUBE - 4, COLOUR[cube.owner]
    else:
        y, owner = INNER_Y0 + 4, COLOUR[cube.owner]
    shown = 64 if cube.owner is None and cube.value == 1 else cube.value
    face = [_tag("rect", {"class": "cube-face", "x": x, "y": y, "width": CUBE, "height": CUBE, "rx": 5,
                          "fill": "#f6f1e3", "stroke": "#1b1b1b", "stroke-width": 2}),
            _tag("text", {"class": "cube-value", "x": x + CUBE / 2, "y": y + CUBE / 2 + 7, "text-anchor": "middle",
                          "font-family": "sans-serif", "font-size": 20 if shown < 1000 else 13, "font-weight": "bold",
                          "fill": "#1b1b1b"}, str(shown))]
    return _tag("g", {"class": "cube", "data-value": cube.value, "data-owner": owner}, "".join(face))


def _arrow_path(x1: float, y1: float, x2: float, y2: float, label_from: str, label_to: str,
                colour: str = ARROW, dashed: bool = False) -> str:
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    bow = min(0.18 * length, 60.0)  # a slight curve keeps consecutive steps apart
    cx, cy = (x1 + x2) / 2 - dy / length * bow, (y1 + y2) / 2 + dx / length * bow
    sx, sy = cx - x1, cy - y1  # start on the source checker's rim, so a count label stays readable
    s = math.hypot(sx, sy) or 1.0
    x1, y1 = x1 + sx / s * (R - 4), y1 + sy / s * (R - 4)
    tx, ty = x2 - cx, y2 - cy
    t = math.hypot(tx, ty) or 1.0
    ux, uy = tx / t, ty / t
    head, spread = 14, 8
    hx1, hy1 = x2 - ux * head - uy * spread, y2 - uy * head + ux * spread
    hx2, hy2 = x2 - ux * head + uy * spread, y2 - uy * head - ux * spread
    d = (f"M {_num(x1)} {_num(y1)} Q {_num(cx)} {_num(cy)} {_num(x2)} {_num(y2)} "
         f"M {_num(hx1)} {_num(hy1)} L {_num(x2)} {_num(y2)} L {_num(hx2)} {_num(hy2)}")
    return _tag("path", {"class": "arrow", "data-from": label_from, "data-to": label_to, "d": d, "fill": "none",
                         "stroke": colour, "stroke-width": 4, "stroke-linecap": "round",
                         "stroke-linejoin": "round", "stroke-opacity": 0.9,
                         **({"stroke-dasharray": "10 7"} if dashed else {})})


def _arrows(play: _core.Play, view: _View, colour: str = ARROW, dashed: bool = False) -> list[str]:
    """One arrow per step, from the top checker of the source to where it lands (stacks followed
    step by step, hits sending the blot to the bar)."""
    side = view.turn
    counts = {s: list(view.counts[s]) for s in (0, 1)}
    bar = dict(view.bar)
    off = view.off[side]
    out = []
    for frm, to in play.steps:
        if frm < 0:
            slot = min(bar[side], STACK) - 1
            x1, y1 = BAR_X + BAR_W / 2, _bar_slot_y(side, view.viewer, max(slot, 0))
            bar[side] -= 1
            name_from = "bar"
        else:
            rv = view.to_viewer(side, frm)
            n = 24 - rv
            slot = min(counts[0][rv] + counts[1][rv], STACK) - 1
            x1, y1 = _point_x(n), _slot_y(n, max(slot, 0))
            counts[side][rv] -= 1
            name_from = str(n)
        if to >= 24:  # to the next free place in the tray
            x, _, w, _ = _tray_box(side, view)
            x2, y2 = x + w / 2, _sliver_y(side, view, min(off, 14)) + SLIVER_H / 2
            off += 1
            name_to = "off"
        else:
            rv = view.to_viewer(side, to)
            n = 24 - rv
            if view.hits and counts[1 - side][rv] == 1:
                counts[1 - side][rv] = 0
                bar[1 - side] += 1
            counts[side][rv] += 1
            slot = min(counts[0][rv] + counts[1][rv], STACK) - 1
            x2, y2 = _point_x(n), _slot_y(n, slot)
            name_to = str(n)
        out.append(_arrow_path(x1, y1, x2, y2, name_from, name_to, colour, dashed))
    return out


def board_svg(
    board: Any,
    *,
    dice: Any = None,
    play: Any = None,
    viewer: int = 0,
    numbers: bool = True,
    highlight: Iterable[int | str] = (),
    width: float | None = None,
    best: Any = None,
    cube: Any = None,
) -> str:
    """The position as a standalone SVG document (a string), drawn from `viewer`'s seat (0 White,
    1 Black: that side's checkers at the bottom, its points numbered 1..24 from its home).

    dice: a roll such as (6, 5) or "6-5", drawn as two dice of the mover's colour.
    play: a legal Play for the board and dice, its move text ("24/18 13/11") or its steps in the
    mover's frame ([(0, 6), (11, 13)]); drawn as one arrow per step. Move text and steps need the
    dice; a Play brings its own.
    highlight: point numbers 1..24 (the viewer's), "bar" and "off" (the mover's tray) to mark.
    best: a second play of the same roll (a review's best play; same forms as `play`), drawn as
    dashed arrows of another colour in `<g class="play best">`.
    cube: a tavli.CubeState (or a dict of its fields) to draw the doubling cube left of the board,
    in the middle when centred (showing 64 at 1), else at its owner's end (`<g class="cube"
    data-value data-owner="centre|white|black">`); games without a cube refuse it.
    numbers: draw the point numbers. width: the width attribute in pixels (the height follows);
    None leaves the size to the page (the viewBox scales).
    Bad input raises ValueError (tavli.IllegalMove for a play that is not legal here).
    """
    board = _check_board(board)
    viewer = _check_viewer(viewer)
    numbers = require_bool("numbers", numbers)
    marked = _check_highlight(highlight)
    size = _check_width(width)
    roll = None if dice is None else parse_dice(dice)
    legal = _check_play(board, play, roll)
    legal_best = _check_play(board, best, roll)
    cube_state = _check_cube(board, cube)

    view = _View(board, viewer)
    root: dict[str, Any] = {
        "xmlns": "http://www.w3.org/2000/svg",
        "viewBox": f"0 0 {WIDTH} {HEIGHT}",
    }
    if size is not None:
        root["width"] = size
        root["height"] = round(size * HEIGHT / WIDTH, 2)
    root.update({
        "class": "tavli-board",
        "data-variant": board.variant,
        "data-turn": board.turn,
        "data-viewer": viewer,
        "data-id": board.id(),
    })
    title = f"{board.variant}: {COLOUR[board.turn]} to move, seen by {COLOUR[viewer]}"
    parts = [
        _tag("title", {}, escape(title)),
        _tag("rect", {"class": "frame", "x": BOARD_X0, "y": BOARD_Y0, "width": BOARD_X1 - BOARD_X0,
                      "height": BOARD_Y1 - BOARD_Y0, "rx": 6, "fill": FRAME_FILL}),
        _tag("rect", {"class": "felt", "x": INNER_X0, "y": INNER_Y0, "width": INNER_X1 - INNER_X0,
                      "height": INNER_H, "fill": FELT}),
    ]
    parts += [_point_group(n, view, numbers, n in marked) for n in range(1, 25)]
    parts.append(_bar_group(view, "bar" in marked))
    for side in (0, 1):
        parts.append(_tray_group(side, view, "off" in marked and side == board.turn))
    if cube_state is not None:
        parts.append(_cube_group(cube_state, view))
    if roll is not None:
        parts.append(_dice_group(roll, view))
    if legal is not None and len(legal):
        parts.append(_tag("g", {"class": "play", "data-play": str(legal)}, "".join(_arrows(legal, view))))
    if legal_best is not None and len(legal_best):
        parts.append(_tag("g", {"class": "play best", "data-play": str(legal_best)},
                          "".join(_arrows(legal_best, view, BEST_ARROW, dashed=True))))
    body = "\n".join(parts)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{_tag("svg", root, chr(10) + body + chr(10))}\n'


def render_cli(argv: list[str], read_board: Any = None) -> int:
    """`tavli render POSITION_ID [-o FILE] [--dice 6-5] [--play "24/18 13/11"] [--viewer 0|1]`;
    read_board(text) reads the position (the command line's: tavli, GNU and XG IDs), else Board.from_id."""
    from ..board import Board

    parser = argparse.ArgumentParser(prog="tavli render", description="draw a position as an SVG picture")
    parser.add_argument("position", help="position ID (see Board.id()), e.g. backgammon:AQAC..., "
                                         "or a GNU Backgammon Position ID or an XGID (backgammon)")
    parser.add_argument("-o", "--output", help="file to write (default: standard output)")
    parser.add_argument("--dice", help="a roll to draw, such as 6-5")
    parser.add_argument("--play", help='a legal play for the dice, in move text: "24/18 13/11"')
    parser.add_argument("--viewer", type=int, choices=(0, 1), default=0, help="seat: 0 white (default), 1 black")
    parser.add_argument("--highlight", default="", help="comma-separated point numbers, bar, off")
    parser.add_argument("--width", type=float, default=None, help="width in pixels (default: scalable)")
    parser.add_argument("--no-numbers", action="store_true", help="leave out the point numbers")
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # -h, or a usage error argparse has already reported
        return e.code if isinstance(e.code, int) else 2
    try:
        board = (read_board or Board.from_id)(args.position)
        marks: list[int | str] = []
        for item in filter(None, (s.strip() for s in args.highlight.split(","))):
            marks.append(item if item in ("bar", "off") else int(item) if item.isdigit() else item)
        dice = parse_dice(args.dice) if args.dice else None
        if args.play is not None and dice is None:
            raise ValueError("--play needs --dice")
        svg = board_svg(board, dice=dice, play=args.play, viewer=args.viewer, numbers=not args.no_numbers,
                        highlight=marks, width=args.width)
    except ValueError as e:  # InvalidPosition and IllegalMove included
        print(f"tavli render: error: {e}", file=sys.stderr)
        return 2
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(svg)
        except OSError as e:
            print(f"tavli render: error: cannot write {args.output}: {e.strerror or e}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(svg)
    return 0
