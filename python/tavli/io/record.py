"""The format-independent match record and its replay through the engine.

A `MatchRecord` is what a match file says: the players, the match length, and per game the score
before it, the actions in order (rolls with their plays, doubles, takes, drops, resignations) and
the result as written. The parsers (tavli.io.mat, tavli.io.sgf) only turn text into this model;
`replay` then plays every move through the engine (Board.parse_play / find_play) and checks the
turn order, the cube bookkeeping, the results and the running score, so a file that does not
replay is refused as a whole.

Cube actions are plain bookkeeping here (value, owner, who doubled): the cube's evaluation arrives
with the match-state types of issue 15; `Cube` below is the one place to tie them in.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping

from .. import _core
from .._base.dice import parse_dice
from ..board import Board
from ..match import KINDS

ACTION_KINDS = ("move", "double", "take", "drop", "resign")
# Match kinds whose first play uses the opening roll (no doubles on the first turn), match.OPENING.
MAX_GAMES = 10_000
MAX_ACTIONS = 100_000


@dataclass
class Action:
    """One thing a player did. `player` 0 is White (the left column of a .mat, PW in SGF), 1 Black.
    kind "move": `dice` and `move` (move text; "" when the roll has no legal play);
    "double": `value` the cube value offered; "take", "drop"; "resign": `value` the points
    resigned per cube unit (1 single, 2 gammon, 3 backgammon)."""

    player: int
    kind: str
    dice: tuple[int, int] | None = None
    move: str | None = None
    value: int | None = None
    line: int | None = field(default=None, compare=False)  # where it was read, for messages
    turn: int | None = field(default=None, compare=False)  # the file's turn number

    def roll(self) -> tuple[int, int]:
        """The dice of a move; ValueError, as parse_dice's, for a move without them."""
        if self.dice is None:
            raise ValueError("dice must be a pair of integers 1..6, got None")
        return self.dice


@dataclass
class GameRecord:
    """One game: the score before it (White, Black), its actions, and the result: `winner` (None
    for a draw), `points` (cube included). `crawford`: the Crawford game of a match."""

    score: tuple[int, int]
    actions: list[Action]
    winner: int | None = None
    points: int = 0
    crawford: bool = False
    line: int | None = field(default=None, compare=False)


@dataclass
class MatchRecord:
    """A match (length > 0) or a money session (length 0) of one match kind of tavli.match.KINDS
    ("backgammon", "plakoto", "tavli", ...): game i is played at that kind's i-th game (cycled)."""

    length: int
    players: tuple[str, str] = ("White", "Black")
    games: list[GameRecord] = field(default_factory=list)
    kind: str = "backgammon"
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    meta: dict[str, str] = field(default_factory=dict)  # header lines: Site, EventDate, Event, ...
    crawford_rule: bool = True
    jacoby: bool = False  # money play: gammons and backgammons count single while the cube is centred

    def variant(self, game_index: int) -> str:
        cycle = KINDS[self.kind][0]
        return cycle[game_index % len(cycle)]

    @property
    def score(self) -> tuple[int, int]:
        """The score after the last game."""
        if not self.games:
            return (0, 0)
        g = self.games[-1]
        s = list(g.score)
        if g.winner is not None:
            s[g.winner] += g.points
        return (s[0], s[1])


@dataclass
class Cube:
    """The doubling cube as bookkeeping: its value and owner (None: centred)."""

    value: int = 1
    owner: int | None = None
    offered_by: int | None = None  # a double waits for its answer


@dataclass
class Step:
    """One replayed action: the board before it (a copy, the mover to act), the action (its move
    text made canonical) and, for moves, the legal Play; the cube before the action."""

    game: int
    index: int
    board: Board
    action: Action
    play: _core.Play | None
    cube: Cube


def _where(gi: int, action: Action, players: tuple[str, str]) -> str:
    turn = f"turn {action.turn}" if action.turn is not None else "turn ?"
    line = f" (line {action.line})" if action.line is not None else ""
    return f"game {gi + 1}, {turn}, {players[action.player]}{line}"


def _start_board(record: MatchRecord, gi: int, starter: int) -> Board:
    variant = record.variant(gi)
    options = record.options.get(variant, {}) if isinstance(record.options, Mapping) else None
    if not isinstance(options, Mapping):
        raise ValueError(f"options of {variant}: expected a dict of option names to values")
    board = Board(variant, **options)
    if board.turn != starter:
        d = board.to_dict()
        d["turn"] = starter
        board = Board.from_dict(d)
    return board


def _play_of(board: Board, action: Action) -> _core.Play:
    text = (action.move or "").strip()
    if not text:
        plays = board.legal_plays(action.roll())
        if len(plays) == 1 and len(plays[0]) == 0:
            return plays[0]
        raise ValueError("no move written, but the roll has a legal play")
    return board.parse_play(text, action.roll())


def replay(record: MatchRecord) -> Iterator[Step]:
    """Every action replayed in order (a generator; it raises ValueError at the first action, result
    or score that the engine or the cube bookkeeping refuses, naming the game, turn and move)."""
    if record.kind not in KINDS:
        raise ValueError(f"unknown match kind {record.kind!r} (known: {', '.join(KINDS)})")
    if isinstance(record.length, bool) or not isinstance(record.length, int) or not 0 <= record.length <= 999:
        raise ValueError(f"match length must be 0 (money) .. 999, got {record.length!r}")
    if len(record.games) > MAX_GAMES:
        raise ValueError(f"at most {MAX_GAMES} games")
    players = tuple(record.players)
    if len(players) != 2 or not all(isinstance(p, str) and p.strip() for p in players):
        raise ValueError(f"players: expected two names, got {record.players!r:.80}")
    score = [0, 0]
    crawford_done = False
    for gi, game in enumerate(record.games):
        where_game = f"game {gi + 1}" + (f" (line {game.line})" if game.line is not None else "")
        if record.length and max(score) >= record.length:
            raise ValueError(f"{where_game}: the match was already over at {score[0]}-{score[1]}")
        if tuple(game.score) != tuple(score):
            raise ValueError(f"{where_game}: the score is written as {game.score[0]}-{game.score[1]}, "
                             f"but the games before add up to {score[0]}-{score[1]}")
        crawford = False
        if record.length and record.crawford_rule and not crawford_done and record.length - 1 in score:
            crawford = crawford_done = True
        if game.crawford and not crawford:
            raise ValueError(f"{where_game}: marked as the Crawford game, but it is not one")
        if len(game.actions) > MAX_ACTIONS:
            raise ValueError(f"{where_game}: at most {MAX_ACTIONS} actions")
        moves = [a for a in game.actions if a.kind == "move"]
        starter = moves[0].player if moves else (game.actions[0].player if game.actions else 0)
        board = _start_board(record, gi, starter)
        cube = Cube()
        ended: tuple[int | None, int] | None = None
        for ai, a in enumerate(game.actions):
            where = _where(gi, a, players)
            if a.kind not in ACTION_KINDS or a.player not in (0, 1):
                raise ValueError(f"{where}: unknown action {a.kind!r} of player {a.player!r}")
            if ended is not None:
                raise ValueError(f"{where}: {a.kind} after the game ended")
            before = Cube(cube.value, cube.owner, cube.offered_by)
            play = None
            if cube.offered_by is not None and a.kind not in ("take", "drop"):
                raise ValueError(f"{where}: expected a take or drop of the double, got {a.kind}")
            if a.kind == "move":
                try:
                    a = replace(a, dice=parse_dice(a.dice))
                except ValueError as e:
                    raise ValueError(f"{where}: {e}") from None
                if a.player != board.turn:
                    raise ValueError(f"{where}: {players[a.player]} moves, but {players[board.turn]} is on roll")
                try:
                    play = _play_of(board, a)
                except (ValueError, _core.IllegalMove) as e:
                    dice = f"{a.dice[0]}{a.dice[1]}" if a.dice else "no dice"
                    raise ValueError(f"{where}: {dice}: {a.move or '(no move)'!s} is not a legal play: {e}") from None
                a = replace(a, move=str(play) if len(play) else "")
            elif a.kind == "double":
                if record.length and crawford:
                    raise ValueError(f"{where}: no doubling in the Crawford game")
                if a.player != board.turn:
                    raise ValueError(f"{where}: doubles while {players[board.turn]} is on roll")
                if cube.owner not in (None, a.player):
                    raise ValueError(f"{where}: doubles a cube that {players[cube.owner]} owns")
                if a.value is not None and a.value != 2 * cube.value:
                    raise ValueError(f"{where}: doubles to {a.value}, but the cube is at {cube.value}")
                a = replace(a, value=2 * cube.value)
                cube.offered_by = a.player
            elif a.kind in ("take", "drop"):
                if cube.offered_by is None or a.player == cube.offered_by:
                    raise ValueError(f"{where}: {a.kind} without a double to answer")
                if a.kind == "take":
                    cube.value *= 2
                    cube.owner = a.player
                    cube.offered_by = None
                else:
                    ended = (1 - a.player, cube.value)
            else:  # resign
                level = a.value or 1
                if level not in (1, 2, 3):
                    raise ValueError(f"{where}: a resignation is of 1, 2 or 3 points per cube unit, got {level}")
                a = replace(a, value=level)
                ended = (1 - a.player, level * cube.value)
            yield Step(gi, ai, board.copy(), a, play, before)
            if play is not None:
                board.push(play)
                o = board.outcome()
                if o is not None:
                    points = o.points
                    if record.jacoby and not record.length and cube.value == 1 and o.kind in ("double", "triple"):
                        points = 1
                    ended = (o.winner, points * cube.value)
        if ended is None:
            raise ValueError(f"{where_game}: the game is not over after its last action (truncated?)")
        if (game.winner, game.points) != ended:
            said = "a draw" if game.winner is None else f"{players[game.winner]} winning {game.points}"
            real = "a draw" if ended[0] is None else f"{players[ended[0]]} winning {ended[1]}"
            hint = ""
            if not record.length and not record.jacoby and ended[0] == game.winner and game.points == cube.value:
                hint = " (a money game under the Jacoby rule? say so: jacoby=True, RU[Jacoby], ; [Jacoby \"on\"])"
            raise ValueError(f"{where_game}: the result is written as {said}, but the replay gives {real}{hint}")
        if ended[0] is not None:
            score[ended[0]] += ended[1]


def validate(record: MatchRecord) -> MatchRecord:
    """The record with its move text in tavli's canonical form and the cube values filled in, after
    a full replay (ValueError when it does not replay)."""
    games: list[list[Action]] = [[] for _ in record.games]
    crawford = [False] * len(record.games)
    for step in replay(record):
        games[step.game].append(step.action)
    score = [0, 0]
    crawford_done = False
    for gi, g in enumerate(record.games):
        if record.length and record.crawford_rule and not crawford_done and record.length - 1 in score:
            crawford[gi] = crawford_done = True
        if g.winner is not None:
            score[g.winner] += g.points
    return replace(record, games=[replace(g, actions=a, crawford=c) for g, a, c in zip(record.games, games, crawford)])


def infer_resignation(record: MatchRecord, gi: int) -> None:
    """For formats that only write "Wins N points" (.mat, SGF's RE): when game `gi` is not over
    after its actions and no double was dropped, the loser resigned; adds that resignation (in
    place) with the level the points and the cube imply. Leaves anything else to `replay`."""
    game = record.games[gi]
    if game.winner is None or not game.actions or game.actions[-1].kind in ("drop", "resign"):
        return
    cube = 1
    board: Board | None = None
    moves = [a for a in game.actions if a.kind == "move"]
    starter = moves[0].player if moves else game.actions[0].player
    try:
        board = _start_board(record, gi, starter)
        for a in game.actions:
            if a.kind == "take":
                cube *= 2
            elif a.kind == "move":
                board.push(_play_of(board, a))
    except (ValueError, _core.IllegalMove):
        return  # replay() names the problem
    if board.is_game_over() or game.points % cube or not 1 <= game.points // cube <= 3:
        return
    last = game.actions[-1]
    game.actions.append(Action(1 - game.winner, "resign", value=game.points // cube, line=last.line, turn=last.turn))


# --- records of tavli's own objects --------------------------------------------------------------

def from_match(match: Any, players: tuple[str, str] = ("White", "Black")) -> MatchRecord:
    """The record of a tavli.Match (cubeless: moves only)."""
    rec = match.to_record()
    return from_match_record(rec, players)


def from_match_record(rec: Mapping[str, Any], players: tuple[str, str] = ("White", "Black")) -> MatchRecord:
    """A tavli.match JSON record (Match.to_record) as a MatchRecord; games not finished are left out
    (a match file holds finished games)."""
    from ..match import Match

    rec = Match.from_record(rec).to_record()  # replayed (a bad record is refused) and in full form
    games = []
    score = [0, 0]
    for g in rec["games"]:
        if "result" not in g:
            continue
        actions = [Action(t["player"], "move", tuple(t["dice"]), t["play"] if t["steps"] else "") for t in g["turns"]]
        res = g["result"]
        games.append(GameRecord((score[0], score[1]), actions, res["winner"], res["points"] if res["winner"] is not None else 0))
        if res["winner"] is not None:
            score[res["winner"]] += res["points"]
    out = MatchRecord(int(rec["target"]), (players[0], players[1]), games, rec["kind"], dict(rec.get("options") or {}))
    return validate(out)


def from_board(board: Board, players: tuple[str, str] = ("White", "Black")) -> MatchRecord:
    """A Board's game (from its starting position, the game finished) as a one-game money record."""
    root = board.copy()
    while root.move_stack:
        root.pop()
    if Board(board.variant, **board.options) != root:
        raise ValueError("the board's game did not start from the starting position; save it as JSON (to_record)")
    o = board.outcome()
    if o is None:
        raise ValueError("the game is not over; a match file holds finished games (save it as JSON: to_record)")
    actions = []
    b = root.copy()
    for p in board.move_stack:
        actions.append(Action(b.turn, "move", (p.dice[0], p.dice[1]), str(p) if len(p) else ""))
        b.push(p)
    kind = board.variant if board.variant in KINDS else None
    if kind is None:
        raise ValueError(f"{board.variant} has no match kind in tavli.match.KINDS")
    game = GameRecord((0, 0), actions, o.winner, o.points if o.winner is not None else 0)
    return validate(MatchRecord(0, (players[0], players[1]), [game], kind, {board.variant: board.options} if board.options else {}))


def from_simulation(result: Mapping[str, Any], variant: str, players: tuple[str, str] = ("White", "Black"),
                    **options: Any) -> MatchRecord:
    """The games of `simulate(variant, ..., trajectories=True)` as a money session (one game per
    simulated game; an unfinished game, cut by max_plies, is left out; draws stay)."""
    import numpy as np

    for key in ("positions", "dice", "steps", "game", "winner", "points", "kind"):
        if key not in result:
            raise ValueError(f"simulate result has no {key!r}: run it with trajectories=True")
    games_idx = np.asarray(result["game"])
    games = []
    score = [0, 0]
    for gi in range(len(result["winner"])):
        if int(result["kind"][gi]) == 0:  # sim.KINDS: unfinished (max_plies)
            continue
        rows = np.nonzero(games_idx == gi)[0]
        if not len(rows):
            continue
        board = Board.from_array(result["positions"][rows[0]], variant, **options)
        if board != Board(variant, **options) and board.copy() != _flip_start(variant, options):
            raise ValueError(f"game {gi} does not start from the starting position")
        actions = []
        for r in rows:
            b = Board.from_array(result["positions"][r], variant, **options)
            dice = (int(result["dice"][r][0]), int(result["dice"][r][1]))
            steps = [(int(a), int(c)) for a, c in result["steps"][r] if a != -2]
            p = b.find_play(steps, dice)
            actions.append(Action(b.turn, "move", dice, str(p) if len(p) else ""))
        w = int(result["winner"][gi])
        winner = None if w < 0 else w
        pts = int(result["points"][gi]) if winner is not None else 0
        games.append(GameRecord((score[0], score[1]), actions, winner, pts))
        if winner is not None:
            score[winner] += pts
    kind = variant if variant in KINDS else None
    if kind is None:
        raise ValueError(f"{variant} has no match kind in tavli.match.KINDS")
    return validate(MatchRecord(0, (players[0], players[1]), games, kind, {variant: dict(options)} if options else {}))


def _flip_start(variant: str, options: Mapping[str, Any]) -> Board:
    d = Board(variant, **options).to_dict()
    d["turn"] = 1
    return Board.from_dict(d)


# --- JSON ---------------------------------------------------------------------------------------

RECORD_FORMAT = "tavli.record"
RECORD_VERSION = 1


def to_dict(record: MatchRecord) -> dict[str, Any]:
    """JSON-ready data ("format": "tavli.record"): what a .mat says, for any game, with the cube."""
    def action(a: Action) -> dict[str, Any]:
        d: dict[str, Any] = {"player": a.player, "kind": a.kind}
        if a.dice is not None:
            d["dice"] = list(a.dice)
        if a.move is not None:
            d["move"] = a.move
        if a.value is not None:
            d["value"] = a.value
        return d

    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "kind": record.kind,
        "length": record.length,
        "players": list(record.players),
        "options": record.options,
        "meta": record.meta,
        "crawford_rule": record.crawford_rule,
        "jacoby": record.jacoby,
        "games": [{"score": list(g.score), "crawford": g.crawford, "winner": g.winner, "points": g.points,
                   "actions": [action(a) for a in g.actions]} for g in record.games],
    }


def _int(v: Any, where: str, lo: int = 0, hi: int = 10**9) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"{where}: expected an integer {lo}..{hi}, got {v!r:.40}")
    return v


def _typed(v: Any, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(v, kind) or isinstance(v, bool) and kind is not bool:
        raise ValueError(f"{where}: expected {getattr(kind, '__name__', kind)}, got {type(v).__name__}")
    return v


def _pair(v: Any, where: str, lo: int, hi: int) -> tuple[int, int]:
    if not isinstance(v, list) or len(v) != 2:
        raise ValueError(f"{where}: expected a list of two integers")
    return (_int(v[0], where, lo, hi), _int(v[1], where, lo, hi))


def from_dict(d: Mapping[str, Any]) -> MatchRecord:
    """The record of `to_dict` data, every field checked, validated by a full replay."""
    if not isinstance(d, Mapping) or d.get("format") != RECORD_FORMAT or d.get("version") != RECORD_VERSION:
        raise ValueError(f"not a {RECORD_FORMAT} record of version {RECORD_VERSION}")
    games_in = _typed(d.get("games", []), list, "games")
    if len(games_in) > MAX_GAMES:
        raise ValueError(f"games: at most {MAX_GAMES}")
    games = []
    for gi, g in enumerate(games_in):
        w = f"games[{gi}]"
        _typed(g, dict, w)
        actions = []
        for ai, a in enumerate(_typed(g.get("actions", []), list, f"{w}.actions")[:MAX_ACTIONS + 1]):
            wa = f"{w}.actions[{ai}]"
            _typed(a, dict, wa)
            dice = _pair(a["dice"], f"{wa}.dice", 1, 6) if a.get("dice") is not None else None
            move = _typed(a["move"], str, f"{wa}.move") if a.get("move") is not None else None
            value = _int(a["value"], f"{wa}.value", 1, 2**30) if a.get("value") is not None else None
            actions.append(Action(_int(a.get("player"), f"{wa}.player", 0, 1), _typed(a.get("kind"), str, f"{wa}.kind"),
                                  dice, move, value))
        winner = g.get("winner")
        games.append(GameRecord(_pair(g.get("score"), f"{w}.score", 0, 10**9), actions,
                                None if winner is None else _int(winner, f"{w}.winner", 0, 1),
                                _int(g.get("points", 0), f"{w}.points", 0, 10**9),
                                _typed(g.get("crawford", False), bool, f"{w}.crawford")))
    players = _typed(d.get("players", ["White", "Black"]), list, "players")
    if len(players) != 2 or not all(isinstance(p, str) for p in players):
        raise ValueError("players: expected two names")
    options = _typed(d.get("options") or {}, dict, "options")
    if not all(isinstance(v, dict) for v in options.values()):
        raise ValueError("options: expected a dict of game name -> option dict")
    meta = _typed(d.get("meta") or {}, dict, "meta")
    if not all(isinstance(v, str) for v in meta.values()):
        raise ValueError("meta: expected a dict of strings")
    rec = MatchRecord(_int(d.get("length"), "length", 0, 999), (players[0], players[1]), games,
                      _typed(d.get("kind", "backgammon"), str, "kind"), options, meta,
                      _typed(d.get("crawford_rule", True), bool, "crawford_rule"),
                      _typed(d.get("jacoby", False), bool, "jacoby"))
    return validate(rec)
