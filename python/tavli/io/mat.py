"""Jellyfish `.mat` match files, as GNU Backgammon and the servers write them.

    ; [Site "..."]                     header lines (other readers skip what they do not know)
    ; [Variant "plakoto"]              tavli: the match kind when it is not backgammon
     5 point match                     0 point match: a money session

     Game 1
     Alice : 0                      Bob : 0
      1) 31: 8/5 6/5                 62: 24/18 18/16
      2)  Doubles => 2                Takes
      3) 55: 13/8 13/8 6/1* 6/1      11:
                                      Wins 2 points

White (player 0) is the left column, Black the right one. A roll with no move is a pass; "Drops"
ends the game; a game that ends before its position is over was resigned. Backgammon moves are
written as gnubg writes them (one die per move, 25 the bar, 0 off); the other games in their own
notation (str(play), what Board.parse_play reads). Parsing is syntax only: tavli.io.record.replay
checks every move with the engine.
"""

from __future__ import annotations

import json
import re

from ..board import Board
from ..match import KINDS
from .record import Action, GameRecord, MatchRecord, infer_resignation, validate
from .text import MAX_MAT_LINE_CHARS, Lines

_HEADER = re.compile(r'^;\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_LENGTH = re.compile(r"^(\d+)\s+point\s+match\b", re.I)
_GAME = re.compile(r"^Game\s+(\d+)\b(.*)$", re.I)
_PLAYERS = re.compile(r"^(.*?\S)\s*:\s*(-?\d+)\s+(.*?\S)\s*:\s*(-?\d+)\s*$")
_TURN = re.compile(r"^\s*(\d+)\)(.*)$")
# A column's entry: a roll and its move, or a cube action.
_ENTRY = re.compile(r"(?P<roll>\b\d\d:)|(?P<double>\bDoubles\s*=>\s*(?P<value>\d+))|(?P<take>\bTakes\b)"
                    r"|(?P<drop>\b(?:Drops|Passes|Rejects)\b)|(?P<beaver>\bBeavers\b)"
                    r"|(?P<wins>\bWins\s+(?P<points>\d+)\s+points?\b)", re.I)
_WINS = re.compile(r"^(\s*)Wins\s+(\d+)\s+points?\b", re.I)
_DRAW = re.compile(r"^Draw\b", re.I)  # tavli's games with draws (Plakoto's two mothers)
_RIGHT_COLUMN = 20  # an entry starting this far in (after the turn number) is Black's
_NAME_WIDTH = 30
_COLUMN = 28


def parse(text: str) -> MatchRecord:
    """The match in `text` (ValueError with the line number and what was expected), validated by a
    full replay."""
    lines = Lines(text, "mat", MAX_MAT_LINE_CHARS)  # short lines also keep every regex below quick
    meta: dict[str, str] = {}
    kind, options, crawford_rule, jacoby = "backgammon", {}, True, False
    length = None
    games: list[GameRecord] = []
    players: tuple[str, str] | None = None
    game: GameRecord | None = None
    for no, raw in lines:
        line = raw.strip()
        if not line:
            continue
        if line.startswith(";"):
            m = _HEADER.match(line)
            if m and game is None:
                key, value = m.group(1), m.group(2).replace('\\"', '"')
                if key == "Variant":
                    kind = value.lower()
                    if kind not in KINDS:
                        raise ValueError(f"line {no}: unknown variant {value!r} (known: {', '.join(KINDS)})")
                elif key == "Options":
                    try:
                        options = json.loads(value)
                    except json.JSONDecodeError:
                        raise ValueError(f"line {no}: Options: expected a JSON object") from None
                    if not isinstance(options, dict):
                        raise ValueError(f"line {no}: Options: expected a JSON object")
                elif key == "Crawford":
                    crawford_rule = value.lower() not in ("off", "false", "no")
                elif key == "Jacoby":
                    jacoby = value.lower() in ("on", "true", "yes")
                else:
                    meta[key] = value
            continue
        if length is None:
            m = _LENGTH.match(line)
            if not m:
                raise ValueError(f"line {no}: expected the match length, e.g. ' 5 point match', got {line[:60]!r}")
            length = int(m.group(1))
            continue
        m = _GAME.match(line)
        if m:
            if game is not None:
                _finish(game, no)
            if int(m.group(1)) != len(games) + 1:
                raise ValueError(f"line {no}: expected Game {len(games) + 1}, got Game {m.group(1)}")
            crawford = "crawford" in m.group(2).lower()
            no2, raw2 = lines.next_nonblank()
            pm = _PLAYERS.match(raw2.strip()) if raw2 is not None else None
            if pm is None:
                raise ValueError(f"line {no2}: expected the players and scores, e.g. ' Alice : 0   Bob : 0'")
            names = (pm.group(1), pm.group(3))
            if players is None:
                players = names
            elif names != players:
                raise ValueError(f"line {no2}: players {names[0]!r} and {names[1]!r}, "
                                 f"but the match is between {players[0]!r} and {players[1]!r}")
            game = GameRecord((int(pm.group(2)), int(pm.group(4))), [], crawford=crawford, line=no)
            game.points = -1  # not yet read
            games.append(game)
            continue
        if game is None:
            raise ValueError(f"line {no}: expected 'Game 1', got {line[:60]!r}")
        if game.points >= 0:
            raise ValueError(f"line {no}: the game already ended; expected 'Game {len(games) + 1}'")
        if _DRAW.match(line):
            game.winner, game.points = None, 0
            continue
        wm = _WINS.match(raw)
        if wm:
            game.winner = 1 if len(wm.group(1)) >= _RIGHT_COLUMN else 0
            game.points = int(wm.group(2))
            continue
        tm = _TURN.match(raw)
        if not tm:
            raise ValueError(f"line {no}: expected a numbered turn ('  1) 31: 8/5 6/5'), 'Wins N points' "
                             f"or 'Game N', got {line[:60]!r}")
        _turn(game, int(tm.group(1)), raw, tm.start(2), no)
    if length is None:
        raise ValueError("no match length: expected a line such as ' 5 point match'")
    if game is not None:
        _finish(game, lines.count)
    record = MatchRecord(length, players or ("White", "Black"), games, kind, options, meta, crawford_rule, jacoby)
    for gi in range(len(games)):
        infer_resignation(record, gi)
    return validate(record)


def _finish(game: GameRecord, no: int) -> None:
    if game.points < 0:
        raise ValueError(f"line {no}: the game of line {game.line} has no 'Wins N points' line (truncated?)")


def _turn(game: GameRecord, number: int, raw: str, start: int, no: int) -> None:
    entries = list(_ENTRY.finditer(raw, start))
    if raw[start:].strip() and (not entries or raw[start:entries[0].start()].strip()):
        raise ValueError(f"line {no}: expected a roll ('31: 8/5 6/5') or a cube action, got {raw[start:].strip()[:60]!r}")
    if len(entries) > 2:
        raise ValueError(f"line {no}: expected at most two entries (White's, Black's), got {len(entries)}")
    for k, e in enumerate(entries):
        end = entries[k + 1].start() if k + 1 < len(entries) else len(raw)
        if len(entries) == 2:
            player = k
        else:
            player = 1 if e.start() - start >= _RIGHT_COLUMN else 0
        if e.group("roll"):
            d = e.group("roll")[:2]
            if not all("1" <= c <= "6" for c in d):
                raise ValueError(f"line {no}: roll {d}: expected two dice 1..6")
            move = raw[e.end():end].strip()
            game.actions.append(Action(player, "move", (int(d[0]), int(d[1])), move, line=no, turn=number))
        elif e.group("double"):
            game.actions.append(Action(player, "double", value=int(e.group("value")), line=no, turn=number))
        elif e.group("take"):
            game.actions.append(Action(player, "take", line=no, turn=number))
        elif e.group("drop"):
            game.actions.append(Action(player, "drop", line=no, turn=number))
        elif e.group("wins"):  # gnubg writes it beside the drop that ended the game
            game.winner, game.points = player, int(e.group("points"))
            continue
        else:
            raise ValueError(f"line {no}: beavers are not supported")
        if not e.group("roll") and raw[e.end():end].strip():
            raise ValueError(f"line {no}: unexpected text after {e.group(0)!r}: {raw[e.end():end].strip()[:40]!r}")


def _gnubg_move(action: Action, board: Board) -> str:
    """Backgammon move text as gnubg writes it: one entry per die, 25 the bar, 0 off, * a hit."""
    play = board.parse_play(action.move or "", action.roll()) if action.move else None
    if play is None:
        return ""
    out = []
    for (a, b), hit in zip(play.steps, play.hits):
        frm = "25" if a < 0 else str(24 - a)
        to = "0" if b >= 24 else str(24 - b)
        out.append(f"{frm}/{to}{'*' if hit else ''}")
    return " ".join(out)


def write(record: MatchRecord) -> str:
    """The .mat text of a record (validated first)."""
    from .record import replay

    record = validate(record)
    bg_notation = all(record.variant(i) == "backgammon" for i in range(max(1, len(record.games))))
    texts: dict[tuple[int, int], str] = {}
    for step in replay(record):
        a = step.action
        if a.kind == "move":
            texts[(step.game, step.index)] = _gnubg_move(a, step.board) if bg_notation else (a.move or "")
    out = []
    for key, value in record.meta.items():
        out.append(f'; [{key} "{_quote(value)}"]')
    if record.kind != "backgammon":
        out.append(f'; [Variant "{record.kind}"]')
    if record.options:
        out.append(f'; [Options "{_quote(json.dumps(record.options, sort_keys=True))}"]')
    if not record.crawford_rule:
        out.append('; [Crawford "off"]')
    if record.jacoby:
        out.append('; [Jacoby "on"]')
    if out:
        out.append("")
    out.append(f" {record.length} point match")
    out.append("")
    for gi, g in enumerate(record.games):
        out.append(f" Game {gi + 1}")
        left = f" {record.players[0]} : {g.score[0]}"
        out.append(f"{left:<{_NAME_WIDTH + 1}} {record.players[1]} : {g.score[1]}")
        rows: list[list[str]] = []
        for ai, a in enumerate(g.actions):
            if a.kind == "move":
                assert a.dice is not None
                entry = f"{a.dice[0]}{a.dice[1]}: {texts[(gi, ai)]}"
            elif a.kind == "double":
                entry = f" Doubles => {a.value}"
            elif a.kind == "take":
                entry = " Takes"
            elif a.kind == "drop":
                entry = " Drops"
            else:
                continue  # a resignation shows as "Wins N points" before the game is over
            if not rows or a.player == 0 or rows[-1][1]:  # White opens a row; Black fills its right
                rows.append(["", ""])
            rows[-1][a.player] = entry
        pts = f"Wins {g.points} point{'s' if g.points != 1 else ''}"
        # gnubg reads a dropped double's "Wins" beside the drop when the winner's column is free
        wins_beside = g.winner == 1 and rows and g.actions[-1].kind == "drop" and not rows[-1][1]
        if wins_beside:
            rows[-1][1] = " " + pts
        for i, (l, r) in enumerate(rows):
            line = f"{i + 1:3d}) {l:<{_COLUMN}}" + ("" if l == "" or len(l) < _COLUMN else " ") + r
            out.append(line.rstrip())
        if g.winner is None:
            out.append("      Draw")
        elif not wins_beside:
            out.append(" " * (6 if g.winner == 0 else _COLUMN + 6) + pts)
        out.append("")
    return "\n".join(out) + "\n"


def _quote(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise ValueError("header values must be one line")
    return value.replace('"', '\\"')
