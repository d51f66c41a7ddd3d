"""GNU Backgammon's SGF (Smart Game Format, FF[4], GM[6] backgammon), the moves and cube actions.

One game tree per game: a root node with the match information

    (;FF[4]GM[6]CA[UTF-8]AP[tavli]MI[length:5][game:0][ws:0][bs:0]PW[Alice]PB[Bob]RU[Crawford]RE[W+1]
    ;W[31ssvv]                    a roll and its steps, two letters each (from, to)
    ;B[double] ;W[take]           or [drop]; RE says who won how many points

White (W) is tavli's player 0, Black (B) player 1. Points are letters from White's side: a is
White's 1-point .. x its 24-point, y the bar, z off; so for Black the letter index is its route
index r, for White 23 - r. gnubg's analysis properties (A, DA, GS, MR, ...) and variations are
skipped on reading; RU[Crawford:CrawfordGame] marks the Crawford game. Only backgammon: the
other games have no SGF of their own (use .mat or JSON).
"""

from __future__ import annotations

import re

from .record import Action, GameRecord, MatchRecord, infer_resignation, replay, validate

_MAX_PROPERTIES = 2_000_000
_NAME = re.compile(r"[A-Za-z]+")


class _Reader:
    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0
        self.line = 1

    def error(self, what: str) -> ValueError:
        return ValueError(f"line {self.line}: {what}")

    def skip_ws(self) -> None:
        s, i = self.s, self.i
        while i < len(s) and s[i] in " \t\r\n":
            if s[i] == "\n":
                self.line += 1
            i += 1
        self.i = i

    def value(self) -> str:
        """One [value], with SGF's escapes (\\] and \\\\)."""
        assert self.s[self.i] == "["
        self.i += 1
        out = []
        s = self.s
        while True:
            j = s.find("]", self.i)
            if j < 0:
                raise self.error("a property value is not closed by ']' (truncated?)")
            chunk = s[self.i:j]
            backslashes = len(chunk) - len(chunk.rstrip("\\"))
            self.line += chunk.count("\n")
            if backslashes % 2:  # an escaped ]
                out.append(chunk[:-1] + "]")
                self.i = j + 1
                continue
            out.append(chunk)
            self.i = j + 1
            break
        return re.sub(r"\\(.)", r"\1", "".join(out), flags=re.S)

    def trees(self) -> list[list[tuple[int, dict[str, list[str]]]]]:
        """The main line of every top-level game tree: a list of nodes (line, properties)."""
        out = []
        count = 0
        self.skip_ws()
        if self.i >= len(self.s):
            raise self.error("empty file: expected '(;FF[4]GM[6]...'")
        while True:
            self.skip_ws()
            if self.i >= len(self.s):
                break
            if self.s[self.i] != "(":
                raise self.error(f"expected '(' to open a game tree, got {self.s[self.i:self.i + 20]!r}")
            nodes: list[tuple[int, dict[str, list[str]]]] = []
            depth = 0
            main = True  # still on the first variation at every level
            while True:
                self.skip_ws()
                if self.i >= len(self.s):
                    raise self.error("the game tree is not closed by ')' (truncated?)")
                c = self.s[self.i]
                if c == "(":
                    depth += 1
                    self.i += 1
                elif c == ")":
                    depth -= 1
                    self.i += 1
                    main = False  # later variations at this level are skipped
                    if depth == 0:
                        break
                elif c == ";":
                    self.i += 1
                    line = self.line
                    props: dict[str, list[str]] = {}
                    while True:
                        self.skip_ws()
                        m = _NAME.match(self.s, self.i)
                        if not m:
                            break
                        name = m.group(0)
                        self.i = m.end()
                        self.skip_ws()
                        if self.i >= len(self.s) or self.s[self.i] != "[":
                            raise self.error(f"property {name}: expected '[value]'")
                        vals = []
                        while self.i < len(self.s) and self.s[self.i] == "[":
                            vals.append(self.value())
                            count += 1
                            if count > _MAX_PROPERTIES:
                                raise self.error("too many properties")
                            self.skip_ws()
                        props[name] = vals
                    if main:
                        nodes.append((line, props))
                else:
                    raise self.error(f"expected ';', '(' or ')', got {self.s[self.i:self.i + 20]!r}")
            out.append(nodes)
        return out


def _point(letter: str, player: int, line: int) -> int:
    """A step end in the mover's frame (-1 bar, 24 off) from gnubg's letter."""
    if letter == "y":
        return -1
    if letter == "z":
        return 24
    k = ord(letter) - ord("a")
    if not 0 <= k < 24:
        raise ValueError(f"line {line}: point letter {letter!r}: expected a..x, y (bar) or z (off)")
    return k if player == 1 else 23 - k


def _letter(r: int, player: int) -> str:
    if r < 0:
        return "y"
    if r >= 24:
        return "z"
    return chr(ord("a") + (r if player == 1 else 23 - r))


def parse(text: str) -> MatchRecord:
    """The backgammon match in gnubg SGF `text`, validated by a full replay."""
    from .text import Lines

    for _ in Lines(text, "sgf"):  # bounds the line length before anything else
        pass
    trees = _Reader(text).trees()
    games: list[GameRecord] = []
    players = None
    length = None
    meta: dict[str, str] = {}
    crawford_rule = True
    jacoby = False
    pending_steps: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for ti, nodes in enumerate(trees):
        if not nodes:
            raise ValueError(f"game tree {ti + 1}: no nodes")
        line, root = nodes[0]
        if root.get("GM", ["6"])[0] != "6":
            raise ValueError(f"line {line}: GM[{root['GM'][0]}] is not backgammon (GM[6])")
        mi = {}
        for v in root.get("MI", []):
            k, _, val = v.partition(":")
            mi[k] = val
        try:
            glen = int(mi.get("length", "0"))
            score = (int(mi.get("ws", "0")), int(mi.get("bs", "0")))
            number = int(mi.get("game", str(ti)))
        except ValueError:
            raise ValueError(f"line {line}: MI: expected numbers in length, game, ws and bs") from None
        if number != ti:
            raise ValueError(f"line {line}: MI[game:{number}], expected game {ti} (games counted from 0)")
        if length is None:
            length = glen
        elif glen != length:
            raise ValueError(f"line {line}: MI[length:{glen}], but the match is to {length}")
        names = (root.get("PW", ["White"])[0], root.get("PB", ["Black"])[0])
        players = players or names
        rules = root.get("RU", [""])[0]
        if ti == 0:
            crawford_rule = length > 0 and "Crawford" in rules or length == 0
            jacoby = "Jacoby" in rules
            for key, prop in (("Event", "EV"), ("Site", "PC"), ("EventDate", "DT"), ("Round", "RO")):
                if prop in root:
                    meta[key] = root[prop][0]
        game = GameRecord(score, [], crawford="CrawfordGame" in rules, line=line)
        result = root.get("RE", [None])[0]
        if result is None:
            raise ValueError(f"line {line}: game {ti + 1} has no result RE[W+n] / RE[B+n] (unfinished?)")
        m = re.match(r"^([WB])\+(\d+)", result)
        if not m:
            raise ValueError(f"line {line}: RE[{result}]: expected W+n or B+n")
        game.winner = 0 if m.group(1) == "W" else 1
        game.points = int(m.group(2))
        turn = 0
        for nline, props in nodes[1:]:
            for colour, player in (("W", 0), ("B", 1)):
                if colour not in props:
                    continue
                v = props[colour][0].strip()
                turn += 1
                if v in ("double", "take", "drop"):
                    game.actions.append(Action(player, v, line=nline, turn=turn))
                    continue
                if v == "beaver":
                    raise ValueError(f"line {nline}: beavers are not supported")
                if not re.fullmatch(r"[1-6][1-6]([a-z]{2}){0,4}", v):
                    raise ValueError(f"line {nline}: {colour}[{v[:40]}]: expected dice and moves such as "
                                     f"'31ssvv', or double / take / drop")
                dice = (int(v[0]), int(v[1]))
                steps = [(_point(v[k], player, nline), _point(v[k + 1], player, nline)) for k in range(2, len(v), 2)]
                pending_steps[(ti, len(game.actions))] = steps
                game.actions.append(Action(player, "move", dice, None, line=nline, turn=turn))
        games.append(game)
    record = MatchRecord(length or 0, players or ("White", "Black"), games, "backgammon", {}, meta, crawford_rule,
                         jacoby)
    _fill_moves(record, pending_steps)
    for gi in range(len(games)):
        infer_resignation(record, gi)
    return validate(record)


def _fill_moves(record: MatchRecord, steps: dict[tuple[int, int], list[tuple[int, int]]]) -> None:
    """SGF gives steps, not text: each move's text from the engine, replaying game by game (an
    impossible step stops the game there and is reported by replay, naming it)."""
    from ..board import Board
    from .record import _start_board

    for gi, game in enumerate(record.games):
        moves = [a for a in game.actions if a.kind == "move"]
        starter = moves[0].player if moves else 0
        board: Board = _start_board(record, gi, starter)
        for ai, a in enumerate(game.actions):
            if a.kind != "move":
                continue
            st = steps[(gi, ai)]
            assert a.dice is not None
            try:
                if a.player != board.turn:
                    raise ValueError("not on roll")
                play = board.find_play(st, a.dice)
            except ValueError as e:  # IllegalMove is one: say it as the file wrote it
                text = " ".join(f"{_gnubg_point(f)}/{_gnubg_point(t)}" for f, t in st)
                raise ValueError(f"game {gi + 1}, turn {a.turn}, {record.players[a.player]} (line {a.line}): "
                                 f"{a.dice[0]}{a.dice[1]}: {text or '(no move)'} is not a legal play: {e}") from None
            game.actions[ai] = Action(a.player, "move", a.dice, str(play) if len(play) else "", line=a.line, turn=a.turn)
            board.push(play)


def _gnubg_point(r: int) -> str:
    return "bar" if r < 0 else "off" if r >= 24 else str(24 - r)


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def check_kind(record: MatchRecord) -> None:
    if record.kind != "backgammon":
        raise ValueError(f"SGF holds backgammon only; save a {record.kind} match as .mat or .json")


def write(record: MatchRecord) -> str:
    """gnubg SGF for a backgammon record (validated first)."""
    record = validate(record)
    check_kind(record)
    moves: dict[tuple[int, int], str] = {}
    for step in replay(record):
        a = step.action
        if a.kind == "move":
            assert step.play is not None and a.dice is not None
            letters = "".join(_letter(f, a.player) + _letter(t, a.player) for f, t in step.play.steps)
            moves[(step.game, step.index)] = f"{a.dice[0]}{a.dice[1]}{letters}"
    out = []
    for gi, g in enumerate(record.games):
        rules = "Crawford" if record.crawford_rule and record.length else "Jacoby" if record.jacoby else ""
        if g.crawford:
            rules += ":CrawfordGame"
        root = (f"(;FF[4]GM[6]CA[UTF-8]AP[tavli]MI[length:{record.length}][game:{gi}][ws:{g.score[0]}]"
                f"[bs:{g.score[1]}]PW[{_quote(record.players[0])}]PB[{_quote(record.players[1])}]")
        if gi == 0:
            for key, prop in (("Event", "EV"), ("Site", "PC"), ("EventDate", "DT"), ("Round", "RO")):
                if key in record.meta:
                    root += f"{prop}[{_quote(record.meta[key])}]"
        if rules:
            root += f"RU[{rules}]"
        if g.winner is None:
            raise ValueError(f"game {gi + 1} has no winner")
        resigned = bool(g.actions) and g.actions[-1].kind == "resign"
        root += f"RE[{'WB'[g.winner]}+{g.points}{'R' if resigned else ''}]"
        nodes = [root]
        for ai, a in enumerate(g.actions):
            colour = "WB"[a.player]
            if a.kind == "move":
                nodes.append(f";{colour}[{moves[(gi, ai)]}]")
            elif a.kind in ("double", "take", "drop"):
                nodes.append(f";{colour}[{a.kind}]")
        out.append("\n".join(nodes) + ")")
    return "\n".join(out) + "\n"
