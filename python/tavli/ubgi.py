"""UBGI: the Universal Backgammon Interface, a line protocol on stdin/stdout for GUIs and match runners.

Follows the UBGI drafts (Øystein Schønning-Johansen's draft 0.01 and the v0.1/v0.2 specs of bgci) for
the backgammon-movement games and extends them in the same style for the other games; every command,
reply and choice is described in docs/ubgi.md. Start it with ``tavli ubgi`` or ``python -m tavli.ubgi``.

Threads: the main thread dispatches commands in order; a reader thread reads stdin so that ``stop``
and ``quit`` take effect while a search runs; each search runs in a worker thread, and each engine
call inside it in a thread of its own (the core releases the GIL). A core call stops at its time
limit, and at Ctrl-C only on Python's main thread (the one that runs signal handlers): nothing can
stop a call on the engine-call thread from outside, so ``stop`` abandons the call in flight (it
ends by itself at its time limit) and answers at once with the deepest depth completed.
"""

from __future__ import annotations

import argparse
import functools
import os
import queue
import re
import sys
import threading
import time
from typing import Any, Callable, NamedTuple, TextIO

from . import _core
from ._base.limits import FRONTEND_TIME_LIMIT
from ._base.dice import parse_dice
from ._base.options import VariantOption
from .board import Board
from .cube import parse_position
from . import context_play
from .frontends import ubgi_cube
from .frontends.ubgi_cube import CubeCommandError, CubeContext

PROTOCOL_VERSION = "0.2"
MAX_LINE = 65536  # characters; a whole game's moves list fits many times over
MAX_PLIES = _core.MAX_SEARCH_PLIES  # the search API's bound (cpp/include/tavli/search.h)
MAX_CUBEFUL_PLIES = _core.MAX_CUBEFUL_PLIES  # the cubeful search's (cpp/include/tavli/cubeful_search.h)
MAX_TIME_MS = 86_400_000  # the search API's bound on time limits (one day)

_DICE_TOKEN = re.compile(r"^[1-6]-?[1-6]$")
_TOO_LONG = object()  # reader -> dispatcher: a line over MAX_LINE was dropped
_EOF = None


class ProtocolError(ValueError):
    """A command the engine refuses; `code` is one of the v0.2 draft's four error codes."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail

    def line(self) -> str:
        return f"error {self.code} {self.detail}"


class _Setting(NamedTuple):
    """One engine setting, listed both as a v0.1/UCI option and as a v0.2 key."""

    name: str  # UCI-style option name (case-insensitive on input)
    key: str  # v0.2 key
    kind: str  # "spin" (integer min..max) or "combo" (one of choices)
    default: Any
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    minor: bool = False  # v0.2 "!": does not change what the engine plays
    help: str = ""


_SETTINGS = (
    _Setting("Plies", "engine.ply", "spin", 1, 0, MAX_PLIES,
             help="search depth in GNU Backgammon plies (engine.ply counts the root: plies + 1)"),
    _Setting("Threads", "engine.threads", "spin", 1, 1, 64, minor=True,
             help="search threads (results do not depend on them)"),
    _Setting("MultiPV", "engine.multipv", "spin", 3, 1, _core.MAX_PLAYS, minor=True,
             help="candidate plays reported in info lines"),
    _Setting("MoveFormat", "engine.moveformat", "combo", "gnubg", choices=("gnubg", "steps"), minor=True,
             help="gnubg move text (24/13, 8/5(2), 13/7*) or every step written out (24/18 18/13)"),
    _Setting("MaxTime", "engine.maxtime", "spin", int(FRONTEND_TIME_LIMIT * 1000), 1, MAX_TIME_MS,
             help="milliseconds: the time limit of a search that sets no movetime"),
    _Setting("EvalMode", "engine.evalmode", "combo", "cubeless", choices=context_play.EVAL_MODES,
             help="cubeless (checker play at a match score ranked by match winning chance; cube decisions by "
                  "the 0-ply formula on the depth's cubeless evaluation) or cubeful (the cubeful search with "
                  "the session's cube and score, for both, in the games with the cube)"),
)
_BY_NAME = {s.name.lower(): s for s in _SETTINGS}
_BY_KEY = {s.key: s for s in _SETTINGS}
_READ_ONLY_KEYS = ("game.position", "game.gnubgid", "game.xgid", "game.dice", "game.turn", "game.cube", "game.score")


def _int_arg(text: str, what: str, low: int, high: int) -> int:
    if not re.fullmatch(r"[+-]?\d{1,19}", text):
        raise ProtocolError("bad_value", f"{what}: expected an integer {low}..{high}, got {text!r}")
    value = int(text)
    if not low <= value <= high:
        raise ProtocolError("bad_value", f"{what}: {value} is outside {low}..{high}")
    return value


def format_play(play: _core.Play, move_format: str = "gnubg") -> str:
    """A play as UBGI sends it: gnubg move text, or ("steps") every step as from/to, bar and off named."""
    if move_format == "gnubg" or not play.steps:
        return str(play)
    point: Callable[[int], str] = lambda r: (  # noqa: E731 (README: n = 24 - r)
        "bar" if r < 0 else "off" if r >= 24 else str(24 - r))
    return " ".join(f"{point(a)}/{point(b)}" for a, b in play.steps)


def _number(x: float) -> str:
    return f"{x + 0.0:.6f}"  # + 0.0: no "-0.000000"


def _probabilities(p: Any) -> str:
    names = ("pwin", "pgammon", "pbg", "plgammon", "plbg", "pdraw", "margin")
    values = (p.win, p.win_double, p.win_triple, p.lose_double, p.lose_triple, p.draw, p.margin)
    return " ".join(f"{name} {_number(v)}" for name, v in zip(names, values))


def _mwc(x: float | None) -> str:
    """` mwc <x>` in a match (the side to play's match winning chance), nothing in money play."""
    return "" if x is None else f" mwc {_number(x)}"


def _xgid_dice_field(xgid: str) -> str:
    """An XGID's dice field (the fifth): a roll such as "52", "00" (to roll or double), "D" (doubled)."""
    fields = xgid.split(":")
    return fields[4] if len(fields) > 4 else ""


def _xgid_dice(xgid: str) -> tuple[int, int] | None:
    """The roll in an XGID's dice field, if it holds one ("00", "D", "B", "R" do not)."""
    field = _xgid_dice_field(xgid)
    return (int(field[0]), int(field[1])) if re.fullmatch(r"[1-6][1-6]", field) else None


class _Search:
    """One `go` or `eval`: iterative deepening over engine calls, each a complete search of its depth."""

    def __init__(self, session: "Session", *, evaluate: bool, board: Board, dice: tuple[int, int] | None,
                 depth: int, time_limit: float, node_limit: int | None, infinite: bool, multipv: int,
                 move_format: str, threads: int, context: CubeContext, eval_mode: str) -> None:
        self.session = session
        self.evaluate = evaluate
        self.board = board
        self.dice = dice
        self.depth = depth
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.infinite = infinite
        self.multipv = multipv
        self.move_format = move_format
        self.threads = threads
        self.context = context  # the session's cube and score, as `go` started
        self.eval_mode = eval_mode
        self._cond = threading.Condition()
        self._cancelled = False
        self._thread = threading.Thread(target=self._run, name="ubgi-search", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        with self._cond:
            self._cancelled = True
            self._cond.notify_all()

    def wait(self) -> None:
        self._thread.join()

    def running(self) -> bool:
        return self._thread.is_alive()

    def _dice(self) -> tuple[int, int]:
        assert self.dice is not None  # Session.go checked the position (_check_playable) before a search
        return self.dice

    def _call(self, fn: Callable[[], Any]) -> Any:
        """Runs one engine call in its own thread; None when cancelled first (the call is abandoned and
        ends at its own time limit: off the main thread, the core has no other stop)."""
        box: dict[str, Any] = {}

        def target() -> None:
            try:
                box["value"] = fn()
            except BaseException as exc:  # handed to the search thread, which reports it
                box["error"] = exc
            with self._cond:
                box["done"] = True
                self._cond.notify_all()

        # not a daemon: an interpreter that exits under a running core call aborts, so it must wait
        call = threading.Thread(target=target, name="ubgi-engine-call")
        call.start()
        with self._cond:
            self._cond.wait_for(lambda: box.get("done") or self._cancelled)
            done = box.get("done", False)
        if not done:
            self.session._abandoned.append(call)
            return None
        if "error" in box:
            raise box["error"]
        return box["value"]

    def _value(self, plies: int, **limits: Any) -> context_play.PositionValue:
        return context_play.value_position(self.board, self.context.cube, self.context.match, self.eval_mode, plies,
                                           **limits)

    def _rank(self, plies: int, **limits: Any) -> context_play.Ranking:
        return context_play.rank_plays(self.board, self._dice(), self.context.cube, self.context.match,
                                       self.eval_mode, plies, **limits)

    def _run(self) -> None:
        emit = self.session._emit
        start = time.monotonic()
        deadline = start + self.time_limit
        best: Any = None
        nodes = 0
        try:
            for depth in range(self.depth + 1):
                if self._cancelled:
                    break
                left = deadline - time.monotonic()
                nodes_left = None if self.node_limit is None else self.node_limit - nodes
                if depth > 0 and (left <= 0 or (nodes_left is not None and nodes_left <= 0)):
                    break
                limits: dict[str, Any] = {"threads": self.threads, "time_limit": max(left, 0.001),
                                          "node_limit": nodes_left or None}
                if self.evaluate:
                    result = self._call(functools.partial(self._value, depth, **limits))
                else:
                    result = self._call(functools.partial(self._rank, depth, **limits))
                if result is None:
                    break
                nodes += result.nodes
                if best is None or result.plies > best.plies:  # a cut-short call may finish shallower
                    best = result
                    elapsed = max(time.monotonic() - start, 1e-6)
                    value = best.equity if self.evaluate else best.plays[0].equity
                    line = (f"info depth {best.plies} nodes {nodes} time_ms {int(elapsed * 1000)} "
                            f"nps {int(nodes / elapsed)} eq {_number(value)}")
                    if self.evaluate:
                        line += _mwc(best.mwc)
                    else:
                        line += f"{_mwc(best.plays[0].mwc)} pv {format_play(best.plays[0].play, self.move_format)}"
                    emit(line)
                if result.interrupted:
                    break
            if best is None:  # stopped before depth 0 came back: it takes microseconds, so wait for it
                best = (self._value if self.evaluate else self._rank)(0, threads=self.threads, time_limit=0.0,
                                                                      node_limit=None)
            if self.infinite:  # UCI: an infinite search answers only after stop
                with self._cond:
                    self._cond.wait_for(lambda: self._cancelled)
            if self.evaluate:
                probabilities = "" if best.cubeful else " " + _probabilities(best.probabilities)
                emit(f"eval eq {_number(best.equity)}{_mwc(best.mwc)}{probabilities} depth {best.plies}")
                return
            for k, ap in enumerate(best.plays[: self.multipv], 1):
                probabilities = "" if ap.probabilities is None else " " + _probabilities(ap.probabilities)
                emit(f"info multipv {k} depth {ap.plies} eq {_number(ap.equity)}{_mwc(ap.mwc)}{probabilities} "
                     f"pv {format_play(ap.play, self.move_format)}")
            emit(f"bestmove {format_play(best.plays[0].play, self.move_format)}")
        except Exception as exc:  # the engine refused: say so, never die
            emit(f"error bad_state {type(exc).__name__}: {exc}")


class Session:
    """The engine's side of one UBGI conversation: settings, position, dice and the running search."""

    def __init__(self, out: TextIO, variant: str = "backgammon") -> None:
        self._out = out
        self._out_lock = threading.Lock()
        self.broken = False  # the GUI closed our stdout
        self.variant = self.initial_variant = _core.canonical_variant(variant)
        self.rules: dict[str, str] = {}
        self.settings: dict[str, Any] = {s.name: s.default for s in _SETTINGS}
        self.turn = 0  # colour on roll in a GNU Position ID (setturn p0|p1)
        self.board = Board(self.variant)
        self.dice: tuple[int, int] | None = None
        self.cube = CubeContext()  # the cube and score go cube / go take decide with
        self.search: _Search | None = None
        self._abandoned: list[threading.Thread] = []

    # --- output -------------------------------------------------------------------------------
    def _emit(self, line: str) -> None:
        with self._out_lock:
            if self.broken:
                return
            try:
                try:
                    self._out.write(line + "\n")
                except UnicodeEncodeError:  # an echoed argument the stream cannot encode
                    self._out.write(line.encode("ascii", "backslashreplace").decode("ascii") + "\n")
                self._out.flush()
            except (OSError, ValueError):  # broken pipe or closed stream: the GUI has gone
                self.broken = True

    # --- option listings ----------------------------------------------------------------------
    def _rule_flags(self) -> list[VariantOption]:
        return _core.variant_options(self.variant)

    def option_lines(self) -> list[str]:
        """v0.1 / UCI form: `option name <N> type <spin|combo> default <d> [min <a> max <b>] [var <v>]*`."""
        lines = [f"option name Variant type combo default {self.initial_variant} "
                 + " ".join(f"var {v}" for v in _core.variants())]
        for s in _SETTINGS:
            if s.kind == "spin":
                lines.append(f"option name {s.name} type spin default {s.default} min {s.low} max {s.high}")
            else:
                lines.append(f"option name {s.name} type combo default {s.default} "
                             + " ".join(f"var {c}" for c in s.choices))
        for flag in self._rule_flags():
            lines.append(f"option name {flag['name']} type combo default {flag['default']} "
                         + " ".join(f"var {c}" for c in flag["choices"]))
        return lines

    def key_lines(self) -> list[str]:
        """v0.2 form: `key <name> <int lo..hi|enum a|b> <default> [!] [description]`."""
        lines = [f"key game.variant enum {'|'.join(_core.variants())} {self.initial_variant} the game"]
        for s in _SETTINGS:
            low, high, default = s.low, s.high, s.default
            if s.key == "engine.ply":  # root-inclusive in v0.2: gnubg plies + 1
                low, high, default = low + 1, high + 1, default + 1
            kind = f"int {low}..{high}" if s.kind == "spin" else "enum " + "|".join(s.choices)
            lines.append(f"key {s.key} {kind} {default}{' !' if s.minor else ''} {s.help}")
        for flag in self._rule_flags():
            lines.append(f"key game.{flag['name']} enum " + "|".join(map(str, flag["choices"]))
                         + f" {flag['default']} {flag['help']}")
        return lines

    # --- settings -----------------------------------------------------------------------------
    def _start_position(self, variant: str, rules: dict[str, str]) -> None:
        self.board = Board(variant, **rules)  # validates the flags
        # another game starts a new money session; the same game keeps the score, the cube centred
        self.cube = self.cube.new_game() if variant == self.variant else CubeContext()
        self.variant, self.rules, self.dice = variant, rules, None

    def set_option(self, name: str, value: str, *, key_form: bool) -> None:
        """Applies `setoption name <name> value <value>` (key_form False: UCI names, any case) or
        `set <key> <value>` (v0.2 keys). A new game or rule flag starts that game (as newgame)."""
        what = name if key_form else f"option {name}"
        if (name == "game.variant") if key_form else (name.lower() == "variant"):
            try:
                variant = _core.canonical_variant(value)
            except ValueError as exc:
                raise ProtocolError("bad_value", f"{what}: {exc}") from None
            self._start_position(variant, {})
            return
        if not key_form and name.lower() in ("seed", "deterministic"):
            self._compat_option(name.lower(), value)
            return
        setting = _BY_KEY.get(name) if key_form else _BY_NAME.get(name.lower())
        if setting is not None:
            self.settings[setting.name] = self._setting_value(setting, value, what, key_form)
            return
        flags = [f["name"] for f in self._rule_flags()]
        if key_form:
            flag = name[len("game."):] if name.startswith("game.") and name[len("game."):] in flags else None
        else:
            flag = next((f for f in flags if f.lower() == name.lower()), None)
        if flag is None:
            if key_form and name in _READ_ONLY_KEYS:
                raise ProtocolError("bad_state", f"{name} is read-only: use the position or dice command")
            raise ProtocolError("unsupported", f"{what}: no such {'key' if key_form else 'option'} "
                                f"(rule flags of {self.variant}: {', '.join(flags) or 'none'})")
        try:
            self._start_position(self.variant, {**self.rules, flag: value})
        except ValueError as exc:  # the engine names the allowed values
            raise ProtocolError("bad_value", f"{what}: {exc}") from None

    @staticmethod
    def _setting_value(setting: _Setting, value: str, what: str, key_form: bool) -> Any:
        if setting.kind == "combo":
            if value not in setting.choices:
                raise ProtocolError("bad_value", f"{what}: expected one of {'|'.join(setting.choices)}, got {value!r}")
            return value
        shift = 1 if key_form and setting.key == "engine.ply" else 0  # v0.2 counts the root ply
        return _int_arg(value, what, setting.low + shift, setting.high + shift) - shift

    def _compat_option(self, name: str, value: str) -> None:
        if name == "seed":  # nothing here is random: any seed gives the same answers
            _int_arg(value, "option Seed", 0, 2**64 - 1)
        elif name == "deterministic" and value.lower() not in ("true", "on", "1"):
            raise ProtocolError("unsupported", "option Deterministic: the engine is always deterministic")

    def get_key(self, key: str) -> str:
        if key == "game.variant":
            return self.variant
        setting = _BY_KEY.get(key)
        if setting is not None:
            value = self.settings[setting.name]
            return str(value + 1 if key == "engine.ply" else value)
        defaults = {f["name"]: f["default"] for f in self._rule_flags()}
        if key.startswith("game.") and key[len("game."):] in defaults:
            flag = key[len("game."):]
            return str(self.rules.get(flag, defaults[flag]))
        try:
            if key == "game.position":
                return self.board.id()
            if key == "game.gnubgid":
                return self.board.gnubg_id()
            if key == "game.xgid":
                return self.board.xgid()
        except ValueError as exc:
            raise ProtocolError("unsupported", f"{key}: {exc}") from None
        if key == "game.dice":
            return "none" if self.dice is None else f"{self.dice[0]} {self.dice[1]}"
        if key == "game.turn":
            return "p0" if self.board.turn == 0 else "p1"
        if key == "game.cube":
            return self.cube.describe_cube()
        if key == "game.score":
            return self.cube.describe_score()
        raise ProtocolError("unsupported", f"get {key}: no such key")

    # --- position -----------------------------------------------------------------------------
    def set_position(self, args: list[str]) -> None:
        usage = "expected: position start|gnubgid <ID>|xgid <XGID>|id <ID> [moves <dice> <play> ...]"
        if not args:
            raise ProtocolError("bad_command", usage)
        kind, rest = args[0], args[1:]
        variant, rules, dice, cube = self.variant, dict(self.rules), None, self.cube
        try:
            if kind in ("start", "startpos"):
                board = Board(variant, **rules)
            elif kind in ("gnubgid", "xgid", "id") and rest:
                text, rest = rest[0], rest[1:]
                if kind == "gnubgid":
                    board = Board.from_gnubg_id(text, variant, turn=self.turn, **rules)
                elif kind == "xgid":  # the XGID's cube, score and length become the session's
                    board, cube_state, match_state = parse_position(
                        text if text.startswith("XGID=") else "XGID=" + text, variant, **rules)
                    cube = ubgi_cube.from_position(cube_state, match_state, cube)
                    dice = _xgid_dice(text)
                else:  # tavli's own IDs carry the game and its flags: they become the current ones
                    board = Board.from_id(text)
                    variant = board.variant
                    rules = {k: str(v) for k, v in board.options.items()}
            else:
                raise ProtocolError("bad_command", usage)
        except ValueError as exc:
            if isinstance(exc, ProtocolError):
                raise
            raise ProtocolError("bad_value", f"position {kind}: {exc}") from None
        if rest:
            if rest[0] != "moves":
                raise ProtocolError("bad_command", f"{usage}; got {rest[0]!r}")
            self._apply_moves(board, rest[1:])
            dice = None  # the XGID's roll belonged to the position before the moves
        self.board, self.variant, self.rules, self.dice, self.cube = board, variant, rules, dice, cube

    @staticmethod
    def _apply_moves(board: Board, tokens: list[str]) -> None:
        """`<dice> <move>...` groups: a dice token (65 or 6-5), then the play's move text (gnubg or
        steps form; tokens with "/" or "pass") up to the next dice token."""
        plays: list[tuple[str, list[str]]] = []
        for token in tokens:
            if _DICE_TOKEN.match(token):
                plays.append((token, []))
            elif ("/" in token or token == "pass") and plays:
                plays[-1][1].append(token)
            else:
                raise ProtocolError("bad_value", f"moves: expected a roll such as 65 or 6-5 before each play, "
                                    f"got {token!r}")
        for i, (dice, words) in enumerate(plays, 1):
            if not words:
                raise ProtocolError("bad_value", f"moves: play {i} (roll {dice}) has no move text "
                                    "(write pass for none)")
            text = " ".join(words)
            try:
                board.push(board.parse_play(text, dice))
            except ValueError as exc:
                raise ProtocolError("bad_value", f"moves: play {i} ({dice} {text}): {exc}") from None

    def set_dice(self, args: list[str]) -> None:
        if not args or len(args) > 2:
            raise ProtocolError("bad_command", "expected: dice <d1> <d2>")
        try:
            self.dice = parse_dice("".join(args))
        except ValueError as exc:
            raise ProtocolError("bad_value", f"dice: {exc}") from None

    # --- searches -----------------------------------------------------------------------------
    def _check_playable(self) -> None:
        outcome = self.board.outcome()
        if outcome is not None:
            result = "a draw" if outcome.winner is None else f"p{outcome.winner} won {outcome.points} ({outcome.kind})"
            raise ProtocolError("bad_state", f"the game is over: {result}")
        if self.dice is None:
            raise ProtocolError("bad_state", "missing dice: send dice <d1> <d2> after the position")

    @staticmethod
    def _search_args(args: list[str], evaluate: bool) -> dict[str, Any]:
        """go [chequer | role chequer] [depth|plies N] [movetime MS] [nodes N] [multipv N] [infinite];
        eval takes the same limits."""
        command = "eval" if evaluate else "go"
        bounds = {"depth": (0, MAX_PLIES), "plies": (0, MAX_PLIES), "movetime": (1, MAX_TIME_MS), "nodes": (1, 2**62)}
        if not evaluate:
            bounds["multipv"] = (1, _core.MAX_PLAYS)
        found: dict[str, Any] = {}
        words = iter(args)
        for word in words:
            if not evaluate and word == "role":  # v0.1: go role <chequer|cube|turn>
                word = next(words, "")
                if word not in ("chequer", "checker", "cube", "take", "turn"):
                    raise ProtocolError("bad_value", f"go role: expected chequer, cube or take, got {word!r}")
            if not evaluate and word in ("chequer", "checker"):
                continue
            if not evaluate and word in ("cube", "take"):  # take: tavli's extension (the drafts have none)
                found["role"] = word
                continue
            if not evaluate and word == "turn":
                raise ProtocolError("unsupported", "go turn: send go cube, then dice and go chequer")
            if word == "infinite":
                found["infinite"] = True
                continue
            if word not in bounds:
                raise ProtocolError("bad_command", f"{command}: unknown argument {word!r}")
            value = next(words, None)
            if value is None:
                raise ProtocolError("bad_command", f"{command}: {word!r} needs a value")
            found["depth" if word == "plies" else word] = _int_arg(value, word, *bounds[word])
        return found

    def start_search(self, args: list[str], *, evaluate: bool) -> None:
        found = self._search_args(args, evaluate)
        if "role" in found:
            for out in self.cube_decision(found["role"], found):
                self._emit(out)
            return
        if not evaluate:  # a finished game still has a value: eval gives it exactly
            self._check_playable()
        infinite = found.get("infinite", False)
        deepest = MAX_PLIES
        if context_play.uses_cubeful_search(self.variant, self.settings["EvalMode"]):
            deepest = MAX_CUBEFUL_PLIES
            if found.get("depth", self.settings["Plies"]) > deepest and not infinite:
                raise ProtocolError("bad_value", f"{'eval' if evaluate else 'go'} depth: the cubeful search "
                                    f"(EvalMode cubeful) goes 0..{deepest} plies deep")
        self.search = _Search(
            self, evaluate=evaluate, board=self.board.copy(), dice=self.dice,
            depth=deepest if infinite else found.get("depth", self.settings["Plies"]),
            time_limit=found.get("movetime", self.settings["MaxTime"]) / 1000, node_limit=found.get("nodes"),
            infinite=infinite, multipv=found.get("multipv", self.settings["MultiPV"]),
            move_format=self.settings["MoveFormat"], threads=self.settings["Threads"],
            context=self.cube, eval_mode=self.settings["EvalMode"],
        )
        self.search.start()

    def cube_decision(self, role: str, found: dict[str, Any]) -> list[str]:
        """go cube / go take: the side to move's cube decision (take: the opponent's answer to his
        double): EvalMode cubeless, Board.cube_decision's 0-ply formula on the position evaluated
        `depth` plies deep; EvalMode cubeful, the cubeful search `depth` plies deep. Answered at
        once, in the dispatcher (stop does not cut it short; movetime and nodes bound the search)."""
        if "multipv" in found or found.get("infinite"):
            raise ProtocolError("bad_command", f"go {role}: multipv and infinite are for checker play")
        try:
            ubgi_cube.check_decision(role, self.variant, self.cube, self.board.is_game_over(), self.board.turn)
        except CubeCommandError as exc:
            raise ProtocolError(exc.code, str(exc)) from None
        depth = found.get("depth", self.settings["Plies"])
        limits: dict[str, Any] = {"threads": self.settings["Threads"], "node_limit": found.get("nodes"),
                                  "time_limit": found.get("movetime", self.settings["MaxTime"]) / 1000}
        if self.settings["EvalMode"] == "cubeful" and depth >= 1:  # the cubeful search, `depth` plies deep
            from .cube_search import decide

            if depth > MAX_CUBEFUL_PLIES:
                raise ProtocolError("bad_value", f"go {role} depth: the cubeful search (EvalMode cubeful) goes "
                                    f"0..{MAX_CUBEFUL_PLIES} plies deep")
            decision = decide(self.board, self.cube.cube, self.cube.match, depth, **limits)
            done = decision.plies or 0  # decide() always says its depth
        else:  # the 0-ply cubeful formula on the cubeless evaluation `depth` plies deep
            evaluation = self.board.evaluate(depth, **limits)
            decision = self.board.cube_decision(self.cube.cube, self.cube.match,
                                                probabilities=evaluation.probabilities)
            done = evaluation.plies
        if role == "take" and not decision.available:  # a maximum cube, a dead cube at the score
            raise ProtocolError("bad_state", f"go take: p{self.board.turn} to move may not double here (cube not available)")
        return ubgi_cube.decision_lines(role, decision, done, _probabilities)

    def legal_moves(self) -> list[str]:
        self._check_playable()
        assert self.dice is not None  # _check_playable refuses a position without dice
        plays = self.board.legal_plays(self.dice)
        fmt = self.settings["MoveFormat"]
        return [f"legalmove {format_play(p, fmt)}" for p in plays] + [f"legalmovesok {len(plays)}"]

    def _session_command(self, cmd: str, args: list[str]) -> None:
        """v0.1's session context: the cube and the score (tavli.frontends.ubgi_cube)."""
        text = " ".join(args)
        try:
            if cmd == "setturn":
                if args not in (["p0"], ["p1"]):
                    raise ProtocolError("bad_value", f"setturn: expected p0 or p1, got {text!r}")
                self.turn = 0 if args == ["p0"] else 1
            elif cmd == "newsession":
                self.cube = ubgi_cube.newsession(args, self.variant)
            elif cmd == "setscore":
                self.cube = ubgi_cube.setscore(args, self.cube)
            elif cmd == "setcube":
                self.cube = ubgi_cube.setcube(args, self.cube, self.variant)
        except CubeCommandError as exc:
            raise ProtocolError(exc.code, str(exc)) from None

    # --- dispatch -----------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Carries out one command line; False once the engine should quit."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        search = self.search if self.search is not None and self.search.running() else None
        if search is not None:
            if cmd in ("stop", "quit"):  # quit stops the search as stop does: its answer still comes
                search.stop()
                search.wait()
                return cmd == "stop"
            if cmd == "isready":
                self._emit("readyok")
                return True
            if search.infinite:
                self._emit(f"error bad_state search in progress: send stop before {cmd}")
                return True
            search.wait()  # commands keep their order: this one follows the search's answer
        try:
            return self._dispatch(cmd, args, line)
        except ProtocolError as exc:
            self._emit(exc.line())
        except ValueError as exc:  # the engine refused an argument it was given
            self._emit(f"error bad_value {cmd}: {exc}")
        except Exception as exc:  # a bug of ours must not end the engine: report it and go on
            self._emit(f"error bad_state {cmd}: internal error {type(exc).__name__}: {exc}")
        return True

    def _dispatch(self, cmd: str, args: list[str], line: str) -> bool:
        if cmd == "ubgi":
            import tavli

            self._emit("id name tavli")
            self._emit("id author the tavli authors")
            self._emit(f"id version {tavli.__version__}")
            self._emit(f"proto {PROTOCOL_VERSION}")
            for out in self.option_lines() + self.key_lines():
                self._emit(out)
            self._emit("ubgiok")
        elif cmd == "isready":
            self._emit("readyok")
        elif cmd == "quit":
            return False
        elif cmd == "stop":
            pass  # no search is running (UCI: ignore it)
        elif cmd in ("newgame", "ucinewgame"):
            self._start_position(self.variant, self.rules)
        elif cmd == "setoption":
            if len(args) < 3 or args[0] != "name" or "value" not in args[2:]:
                raise ProtocolError("bad_command", "expected: setoption name <Name> value <Value>")
            cut = args.index("value", 2)
            self.set_option(" ".join(args[1:cut]), " ".join(args[cut + 1:]), key_form=False)
        elif cmd == "set":
            if len(args) < 2:
                raise ProtocolError("bad_command", "expected: set <key> <value>")
            self.set_option(args[0], " ".join(args[1:]), key_form=True)
        elif cmd == "get":
            if len(args) != 1:
                raise ProtocolError("bad_command", "expected: get <key>")
            self._emit(f"value {args[0]} {self.get_key(args[0])}")
        elif cmd == "keys":
            for out in self.key_lines():
                self._emit(out)
        elif cmd == "options":
            for out in self.option_lines():
                self._emit(out)
        elif cmd == "position":
            self.set_position(args)
        elif cmd.startswith("XGID="):  # draft 0.01: a bare position string asks for the best action
            if args:
                raise ProtocolError("bad_command", "expected: XGID=... alone on its line")
            self.set_position(["xgid", cmd])
            if self.dice is not None:
                self.start_search([], evaluate=False)
            elif _xgid_dice_field(cmd) in ("00", "D") and _core._variant_takes_cube(self.variant):
                # draft 0.01's answers before a roll: double or roll; to a double: take or drop
                role = "cube" if _xgid_dice_field(cmd) == "00" else "take"
                info, answer = self.cube_decision(role, {})
                self._emit(info)
                self._emit({"bestcube double": "double", "bestcube nodouble": "roll"}.get(answer, answer))
            else:
                raise ProtocolError("bad_state", "the XGID holds no roll: send dice <d1> <d2>, then go")
        elif cmd == "dice":
            self.set_dice(args)
        elif cmd == "go":
            self.start_search(args, evaluate=False)
        elif cmd == "eval":
            self.start_search(args, evaluate=True)
        elif cmd == "legalmoves":
            if args:
                raise ProtocolError("bad_command", "expected: legalmoves (after position and dice)")
            for out in self.legal_moves():
                self._emit(out)
        elif cmd in ("setturn", "newsession", "setscore", "setcube"):
            self._session_command(cmd, args)
        else:
            shown = line.strip() if len(line.strip()) <= 80 else line.strip()[:77] + "..."
            raise ProtocolError("bad_command", f"unknown command {ascii(shown)}")
        return True

    def finish(self) -> None:
        """End of input: a bounded search may finish and answer; an infinite one is stopped."""
        search = self.search
        if search is not None and search.running():
            if search.infinite:
                search.stop()
            search.wait()

    def abandoned_calls(self) -> list[threading.Thread]:
        return [t for t in self._abandoned if t.is_alive()]  # the list only grows: search threads append


class _Inbox:
    """Lines from the reader thread to the dispatcher, with the count of go/eval lines in between:
    `stop` and `quit` act at once on the running search only when no go/eval waits before them
    (otherwise they are meant for that one, and the dispatcher applies them in order)."""

    def __init__(self) -> None:
        self.lines: "queue.Queue[Any]" = queue.Queue()
        self._lock = threading.Lock()
        self._queued = 0  # go/eval lines read
        self._done = 0  # go/eval lines the dispatcher has carried out

    @staticmethod
    def starts_search(line: str) -> bool:
        word = line.split()[0] if line.split() else ""
        return word in ("go", "eval") or word.startswith("XGID=")

    def put(self, line: Any) -> None:
        if isinstance(line, str) and self.starts_search(line):
            with self._lock:
                self._queued += 1
        self.lines.put(line)

    def carried_out(self, line: str) -> None:
        if self.starts_search(line):
            with self._lock:
                self._done += 1

    def search_waiting(self) -> bool:
        with self._lock:
            return self._queued > self._done


def _read_lines(stdin: TextIO, inbox: _Inbox, session: "Session") -> None:
    """Reader thread: queues every line of input, then _EOF."""
    try:
        while True:
            line = stdin.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE and not line.endswith("\n"):
                while True:  # drop the rest of the overlong line
                    more = stdin.readline(MAX_LINE)
                    if not more or more.endswith("\n"):
                        break
                inbox.put(_TOO_LONG)
                continue
            inbox.put(line)
            word = line.split()[0] if line.split() else ""
            if word in ("stop", "quit"):
                search = session.search
                if search is not None and not inbox.search_waiting():
                    search.stop()
                if word == "quit":
                    return
    except (OSError, ValueError) as exc:  # unreadable input: end as at end of input
        inbox.put(_ReadError(f"{type(exc).__name__}: {exc}"))
    finally:
        inbox.put(_EOF)


class _ReadError(str):
    """The reader could not go on (the message says why)."""


def _parse_argv(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tavli ubgi", description="UBGI engine on stdin/stdout (docs/ubgi.md)")
    parser.add_argument("--variant", default="backgammon", help="the game at start (setoption name Variant changes it)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Runs the UBGI loop until `quit` or end of input; returns the exit status (0, or 2 for bad argv).
    `stdin`/`stdout` default to the process's streams (looked up when called, not when imported)."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    try:
        args = _parse_argv(argv)
        session = Session(stdout, args.variant)
    except SystemExit as exc:  # argparse's --help or a usage error (already printed)
        return exc.code if isinstance(exc.code, int) else 2
    except ValueError as exc:
        print(f"tavli ubgi: {exc}", file=sys.stderr)
        return 2
    process = stdin is sys.__stdin__
    if process and hasattr(stdin, "reconfigure"):
        stdin.reconfigure(errors="replace")  # a stray byte makes an unknown command, not a crash
    inbox = _Inbox()
    reader = threading.Thread(target=_read_lines, args=(stdin, inbox, session), name="ubgi-reader", daemon=True)
    reader.start()
    quit_seen = False
    while not session.broken:
        line = inbox.lines.get()
        if line is _EOF:
            break
        if line is _TOO_LONG:
            session._emit(f"error bad_command line longer than {MAX_LINE} characters ignored")
        elif isinstance(line, _ReadError):
            session._emit(f"error bad_command input unreadable ({line}): ending as at end of input")
        elif not session.handle(line):
            quit_seen = True
            break
        else:
            inbox.carried_out(line)
    if not quit_seen:
        session.finish()
    abandoned = session.abandoned_calls()
    if process and (abandoned or session.broken):
        # An abandoned core call cannot be stopped from here and would hold the process until its time
        # limit (and one that returns while the interpreter shuts down aborts it); every answer
        # has been written and flushed (or the GUI has gone), so leave at once.
        os._exit(0)
    for call in abandoned:  # in-process (tests, embedding): wait, each call ends at its time limit
        call.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
