"""`Board`: a position of one of the games, with python-chess-style play, undo and text forms."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, NamedTuple, Sequence, overload

import numpy as np

from . import _core
from ._base.args import as_int_array, int_arg, require_bool
from ._base.deadline import time_limit_arg
from ._base.dice import Dice, parse_dice
from ._base.options import from_pairs, to_pairs
from ._base.position_dict import PositionDict
from ._base.rollout_keywords import (BOARD_DEFAULTS, ROLLOUT_DEFAULTS, BoardRolloutKeywords, PlayRolloutKeywords,
                                     RolloutKeywords, with_defaults)
from .backends import backend_arg, local_only_time_limit
from .backends import ray as on_ray
from .evaluators import evaluator_arg, filters_arg, narrowing_arg, prune_arg, search_args
from .players import player_arg
from .results import Analysis, AnalyzedPlay, Evaluation, PlayRollouts, Probabilities, Rollout

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from Python 3.11; only read by type checkers

    from .cube_rollout import CubefulRollout
    from .cube import CubeDecision

_DICT_KEYS = {"variant", "turn", "mover", "opponent", "bar", "off", "options", "pinned", "first_turn"}


class Outcome(NamedTuple):
    """The end of a game: the winner (0 white, 1 black; None for a draw), the points won and the
    kind: "single", "double" (gammon, mars), "triple" (backgammon, koks), "mother" (Plakoto),
    "checkers" (Tawla 31: the points are the loser's checkers left) or "draw"."""

    winner: int | None
    points: int
    kind: str


def _int_list(value: Any, field: str, length: int) -> list[int]:
    if isinstance(value, (str, bytes, Mapping, set, frozenset)) or not isinstance(value, Iterable):
        raise ValueError(f"{field}: expected a list of {length} integers, got {type(value).__name__}")
    out = list(value)
    if len(out) != length:
        raise ValueError(f"{field}: expected {length} integers, got {len(out)}")
    for i, v in enumerate(out):
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise ValueError(f"{field}[{i}]: expected an integer, got {v!r}")
        if not -(2**31) <= int(v) < 2**31:  # would not fit the core's int (pybind11 says TypeError)
            raise ValueError(f"{field}[{i}] = {int(v)} is out of range")
    return [int(v) for v in out]


def _pins(value: Any) -> tuple[list[int], list[int]]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise ValueError("pinned: expected [mover points, opponent points]")
    sides = list(value)
    if len(sides) != 2:
        raise ValueError(f"pinned: expected [mover points, opponent points], got {len(sides)} entries")
    out = []
    for name, pts in zip(("mover", "opponent"), sides):
        if isinstance(pts, (str, bytes, Mapping)) or not isinstance(pts, Iterable):
            raise ValueError(f"pinned[{name}]: expected a list of route indices")
        pts = list(pts)
        if len(pts) > 15:
            raise ValueError(f"pinned[{name}]: at most 15 points")
        out.append(_int_list(pts, f"pinned[{name}]", len(pts)))
    return out[0], out[1]


def _first_turn(value: Any) -> tuple[bool, bool]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise ValueError("first_turn: expected [mover, opponent] booleans")
    flags = list(value)
    if len(flags) != 2 or not all(isinstance(f, bool) for f in flags):
        raise ValueError(f"first_turn: expected [mover, opponent] booleans, got {value!r}")
    return flags[0], flags[1]


class Board(_core.Board):
    """A position with its rules and whose turn it is.

    Positions are seen from the side to move: ``mover`` and ``opponent`` each count checkers by
    that side's own route index r = 0..23 (r = 0 its start point, 18..23 its home board; see
    RULES.md §1.1). Steps of a play are ``(from, to)`` in the mover's frame, bar -1, off 24.
    """

    def __init__(self, variant: str = "fevga", **options: Any) -> None:
        if not isinstance(variant, str):
            raise ValueError(f"variant must be a string, got {type(variant).__name__}")
        super().__init__(variant, to_pairs(options))

    # --- construction from outside data -------------------------------------------------------
    @classmethod
    def from_id(cls, position_id: str) -> "Board":
        """The board of a position ID (see ``id()``); raises InvalidPosition or ValueError."""
        if not isinstance(position_id, str):
            raise ValueError(f"position ID must be a string, got {type(position_id).__name__}")
        return cls._from_core(_core.Board._from_id(position_id))

    @classmethod
    def from_gnubg_id(cls, position_id: str, variant: str = "backgammon", turn: int = 0, **options: Any) -> "Board":
        """The board of a GNU Backgammon Position ID (e.g. the start, "4HPwATDgc/ABMA"). The player on
        roll becomes the side to move; `turn` says which colour that is (the ID does not)."""
        if not isinstance(position_id, str) or not isinstance(variant, str):
            raise ValueError("position ID and variant must be strings")
        if isinstance(turn, bool) or turn not in (0, 1):
            raise ValueError(f"turn must be 0 (white) or 1 (black), got {turn!r}")
        return cls._from_core(_core.Board._from_gnubg_id(position_id, variant, to_pairs(options), int(turn)))

    @classmethod
    def from_xgid(cls, xgid: str, variant: str = "backgammon", **options: Any) -> "Board":
        """The board of an XGID (XG's bottom player is White); cube, score and dice are checked for
        form only."""
        if not isinstance(xgid, str) or not isinstance(variant, str):
            raise ValueError("XGID and variant must be strings")
        return cls._from_core(_core.Board._from_xgid(xgid, variant, to_pairs(options)))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Board":
        """The board of a dict as written by ``to_dict()``; validates every field."""
        if not isinstance(d, Mapping):
            raise ValueError(f"expected a dict, got {type(d).__name__}")
        unknown = set(d) - _DICT_KEYS
        if unknown:
            raise ValueError(f"unknown keys {sorted(map(str, unknown))}; allowed: {sorted(_DICT_KEYS)}")
        for key in ("variant", "mover", "opponent"):
            if key not in d:
                raise ValueError(f"missing key {key!r}")
        variant = d["variant"]
        if not isinstance(variant, str):
            raise ValueError("variant: expected a string")
        options = d.get("options", {})
        if not isinstance(options, Mapping):
            raise ValueError("options: expected a dict of option names to values")
        turn = d.get("turn", 0)
        if isinstance(turn, bool) or not hasattr(turn, "__index__") or turn not in (0, 1):
            raise ValueError(f"turn: expected 0 (white) or 1 (black), got {turn!r}")
        core = _core.Board._from_parts(
            variant,
            to_pairs(options),
            _int_list(d["mover"], "mover", 24),
            _int_list(d["opponent"], "opponent", 24),
            _int_list(d.get("bar", [0, 0]), "bar", 2),
            _int_list(d.get("off", [0, 0]), "off", 2),
            int(turn),
            *_pins(d.get("pinned", [[], []])),
            *_first_turn(d.get("first_turn", [False, False])),
        )
        return cls._from_core(core)

    @classmethod
    def from_array(cls, row: Any, variant: str = "fevga", **options: Any) -> "Board":
        """The board of one row of a position array (``to_array()``, batch calls)."""
        if not isinstance(variant, str):
            raise ValueError(f"variant must be a string, got {type(variant).__name__}")
        return cls._from_core(_core.Board._from_row(variant, to_pairs(options), as_int_array(row, "row", "uint8")))

    @classmethod
    def _from_core(cls, core: _core.Board, keep_history: bool = False) -> "Board":
        """A board of the validated core board's position; its record of plays starts here (nothing
        to undo) unless `keep_history`."""
        board = cls.__new__(cls)
        _core.Board.__init__(board, core.variant, core._options)
        board._core_copy_from(core)  # position, turn and history
        if not keep_history:
            board._forget_history()
        return board

    # --- views --------------------------------------------------------------------------------
    @property
    def options(self) -> dict[str, str | int]:
        """The options that differ from the variant's defaults."""
        return from_pairs(self.variant, self._options)

    @property
    def mover(self) -> list[int]:
        return list(self._mover)

    @property
    def opponent(self) -> list[int]:
        return list(self._opponent)

    @property
    def bar(self) -> list[int]:
        return list(self._bar)

    @property
    def off(self) -> list[int]:
        return list(self._off)

    @property
    def pinned(self) -> list[list[int]]:
        """[mover, opponent]: route indices (own frames) of each side's pinned checkers (Plakoto)."""
        return [list(p) for p in self._pinned]

    @property
    def first_turn(self) -> list[bool]:
        """[mover, opponent]: whether each side has yet to play its first turn (Narde's head rule)."""
        return list(self._first_turn)

    def to_dict(self) -> PositionDict:
        d: PositionDict = {
            "variant": self.variant,
            "turn": self.turn,
            "mover": self.mover,
            "opponent": self.opponent,
            "bar": self.bar,
            "off": self.off,
            "options": self.options,
        }
        if self._contact == "pin":
            d["pinned"] = self.pinned
        if self.variant == "narde":
            d["first_turn"] = self.first_turn
        return d

    # --- plays --------------------------------------------------------------------------------
    # legal_plays(dice) is the core's own method (the hot path: no Python in between).
    legal_moves = _core.Board.legal_plays

    def count_plays(self, dice: Dice) -> int:
        return self._count_plays(*parse_dice(dice))

    def find_play(self, steps: Iterable[tuple[int, int]], dice: Dice) -> _core.Play:
        """The legal play the given steps amount to (a play is known by the position it leads to)."""
        d = parse_dice(dice)
        if isinstance(steps, (str, bytes)) or not isinstance(steps, Iterable):
            raise ValueError("steps: expected a list of (from, to) pairs")
        pairs = []
        for s in steps:
            a, b = _int_list(s, "step", 2)
            pairs.append((a, b))
        return self._find_play(pairs, *d)

    def parse_play(self, text: str, dice: Dice) -> _core.Play:
        """The legal play described by move text such as "24/18 13/11" (see README)."""
        if not isinstance(text, str):
            raise ValueError(f"move text must be a string, got {type(text).__name__}")
        return self._parse_play(text, *parse_dice(dice))

    def _checked(self, play: Any) -> _core.Play:
        if isinstance(play, str):
            raise ValueError("give a Play, or use parse_play(text, dice) for move text")
        if not isinstance(play, _core.Play):
            raise ValueError(f"expected a Play, got {type(play).__name__}")
        return play

    def push(self, play: _core.Play) -> None:
        """Plays a legal play in place; the other side is then to move."""
        # the core's history keeps this board's own play: its steps may be ordered unlike a foreign play's
        self._push(self._checked(play))

    def pop(self) -> _core.Play:
        """Undoes the last play and returns it (IndexError when there is none)."""
        return self._pop()

    def play(self, play: _core.Play) -> "Board":
        """The position after a legal play, as a new board (this one is unchanged)."""
        nxt = self.copy()
        nxt.push(play)
        return nxt

    @property
    def move_stack(self) -> list[_core.Play]:
        return self._move_stack()

    def outcome(self) -> Outcome | None:
        """None while the game goes on, else the winner and the points."""
        o = self._outcome()
        return None if o is None else Outcome(*o)

    def is_game_over(self) -> bool:
        return self._outcome() is not None

    def perft(self, depth: int, *, time_limit: float | None = None) -> int:
        """Distinct plays summed over the 21 rolls, `depth` plies deep (a pass counts as one).
        `time_limit` (seconds, None: none) passed: TimeoutError; Ctrl-C: KeyboardInterrupt."""
        return self._perft(int_arg("perft depth", depth, 0, 6), time_limit_arg(time_limit))

    # --- analysis -------------------------------------------------------------------------------
    def evaluate(
        self,
        plies: int = 0,
        *,
        filters: Any = None,
        threads: int = 1,
        time_limit: float | None = None,
        node_limit: int | None = None,
        evaluator: Any = None,
        prune: int = _core.DEFAULT_PRUNE,
    ) -> "Evaluation":
        """The position before the roll, for the side to move, `plies` deep (exact when the game is
        over). At the leaves `evaluator`: None, the shipped net of the game (the heuristic where
        none ships: tavli.nn.default_evaluator()), "heuristic", or a tavli.nn.Net. `prune`: the
        plays per node valued by the evaluator where it has a pruning net (0: all; search.h,
        "Pruning"). Releases the GIL."""
        plies, threads, time_limit, node_limit = search_args(plies, threads, time_limit, node_limit)
        probs, equity, done, nodes, interrupted = self._evaluate(
            plies, filters_arg(filters), threads, time_limit, node_limit, evaluator_arg(evaluator), False,
            prune_arg(prune)
        )
        return Evaluation(Probabilities(*probs), equity, done, nodes, interrupted)

    def analyze(
        self,
        dice: Dice,
        plies: int = 1,
        *,
        filters: Any = None,
        threads: int = 1,
        time_limit: float | None = None,
        node_limit: int | None = None,
        evaluator: Any = None,
        narrowing: Any = None,
        cache: bool = False,
        full_depth: bool = False,
        prune: int = _core.DEFAULT_PRUNE,
    ) -> "Analysis":
        """The legal plays for the roll, best first, each with its probabilities and equity for the
        side that plays it, searched `plies` deep (see cpp/include/tavli/search.h for plies and move
        filters) with `evaluator` at the leaves: None, the game's shipped net (the heuristic where
        none ships), "heuristic", or a tavli.nn.Net.
        `narrowing`: gnubg's filters between the root's plies ((accept, extra, threshold), accept -1
        keeps all; None: the defaults of search.h); `cache`: the shared evaluation cache (off by
        default; the same results either way); `full_depth`: value the one play that the filters
        leave alone at the full depth too (by default the search stops there, as gnubg does: that
        play is the answer, valued at the depth where it was left alone, its `plies`); `prune`: the
        plays per inner node valued by the evaluator where it has a pruning net (0: all; search.h,
        "Pruning"). Releases the GIL; a time or node limit returns the deepest completed iteration."""
        plies, threads, time_limit, node_limit = search_args(plies, threads, time_limit, node_limit)
        plays, done, nodes, interrupted = self._analyze(
            dice, plies, filters_arg(filters), threads, time_limit, node_limit, evaluator_arg(evaluator),
            narrowing_arg(narrowing), require_bool("cache", cache), require_bool("full_depth", full_depth),
            prune_arg(prune)
        )
        return Analysis(
            [AnalyzedPlay(p, Probabilities(*pr), eq, d) for p, pr, eq, d in plays], done, nodes, interrupted
        )

    def cube_decision(self, cube: Any = None, match: Any = None, plies: int = 0, probabilities: Any = None,
                      **kwargs: Any) -> CubeDecision:
        """The cube decision for the side to move (tavli.cube.CubeDecision): cube a
        tavli.CubeState (None: centred at 1), match a tavli.MatchState (None: money play).
        probabilities: cubeless ones the caller brings (a rollout's, another engine's); None
        evaluates the position: at 0 plies by the 0-ply formula, deeper by the cubeful search with
        cube decisions at every level (tavli.cube_search). Keywords: met, efficiency, evaluator,
        threads and filters (the search's; the same decision for any thread count);
        rollout=True or a dict of rollout options (trials, player, seed, ...): a cubeful rollout of
        No double and Double/take on the same dice (tavli.cube_rollout.decide)."""
        from .cube import cube_decision

        return cube_decision(self, cube, match, plies, probabilities, **kwargs)

    @overload
    def rollout(self, trials: int = 1296, player: Any = "greedy", *, cube: None = None, match: None = None,
                **kwargs: Unpack[BoardRolloutKeywords]) -> Rollout: ...

    @overload
    def rollout(self, trials: int = 1296, player: Any = "greedy", *, cube: Any = None, match: Any = None,
                **kwargs: Unpack[BoardRolloutKeywords]) -> "CubefulRollout": ...

    def rollout(self, trials: int = 1296, player: Any = "greedy", *, cube: Any = None, match: Any = None,
                **kwargs: Unpack[BoardRolloutKeywords]) -> "Rollout | CubefulRollout":
        """The position before the roll, for the side to move, estimated by playing it out
        `trials` times with `player` on both sides ('greedy', 'heuristic', 'random', 'search:N', a
        net, as in tavli.simulate; `evaluator` ("heuristic" or a tavli.nn.Net), when given,
        replaces the player's evaluator, also at truncation), each game to the end or for
        `truncate` plies and then valued by the evaluator. Trial i draws from its own generator
        (seed, i), so results do not depend on `threads`. The first roll is stratified over the 36
        outcomes (use a multiple of 36 trials), the second too in complete blocks of 1296:
        cpp/include/tavli/rollout.h. Releases the GIL; Ctrl-C stops it (KeyboardInterrupt), and so
        does `time_limit` (seconds, None: none) with TimeoutError: a partial rollout would depend on
        the machine's speed, so none is returned.
        `variance_reduction`: gnubg's luck adjustment (cpp/include/tavli/rollout_luck.h): each
        trial less the luck of its rolls, found by a lookahead over the 21 rolls at the player's
        depth; the same mean in expectation, a smaller standard error, about 20 times the work per
        trial (greedy and search players). `luck_evaluator` (with variance_reduction; None: the
        player's own lookahead): the evaluator whose 0-ply lookahead values the rolls instead
        ("nets", "heuristic", a tavli.nn.Net, ...). Any such function leaves the estimate unbiased,
        and one that tracks the player's values removes nearly as much noise: for a search player
        it costs a 0-ply lookahead a ply instead of 21 searches (rollout.h, "luck_evaluator";
        docs/classnets.md, "Stop 41", measures it).
        `backend="ray"`: the trials sharded on a Ray cluster, the same result bit for bit
        (tavli.distributed.rollout; `ray_address` or an already initialised Ray session).
        `cube` (a tavli.CubeState) or `match` (a tavli.MatchState) given: a cubeful rollout, the
        players handling the cube, valued at the score (tavli.cube_rollout.rollout: a
        CubefulRollout; `met` the match equity table), on either backend."""
        kw = with_defaults("Board.rollout", kwargs, BOARD_DEFAULTS)
        met = kw.pop("met")
        if cube is not None or match is not None or met is not None:
            from .cube_rollout import rollout as cubeful_rollout

            return cubeful_rollout(self, cube, match, trials, player, met=met, **kw)
        time_limit, backend, ray_address = kw.pop("time_limit"), kw.pop("backend"), kw.pop("ray_address")
        if backend_arg(backend, ray_address) == "ray":
            local_only_time_limit(time_limit)
            on_cluster: Rollout = rollout_on_ray(self, trials, player, address=ray_address, **kw)
            return on_cluster
        args = check_rollout_args(self, trials, player, **kw)
        probs, equity, errors, equity_error, done, truncated = _core._rollout(
            self, *args, time_limit=time_limit_arg(time_limit))
        return Rollout(Probabilities(*probs), equity, Probabilities(*errors), equity_error, done, truncated)

    def rollout_plays(self, dice: Dice, candidates: int | Sequence[_core.Play] | None = 5, trials: int = 1296,
                      player: Any = "greedy", *, cube: Any = None, match: Any = None,
                      **kwargs: Unpack[PlayRolloutKeywords]) -> PlayRollouts:
        """Which play of the roll is best, by rolling out each candidate's result on the same dice
        (tavli.play_rollout; GNU Backgammon's rollouts of a move's candidates): `candidates` the
        best N plays by a 0-ply cubeless analysis with the rollout's evaluator (default 5), a list
        of legal plays for this roll (Board.legal_plays, analyze), or None for every play. Each
        play's rollout is Board.rollout's of its result, with the same options and keywords (seed,
        truncate, variance_reduction, luck_evaluator, ...), seen by the side that plays; as trial i
        of every play draws the same dice, the difference of two plays' equities has a standard
        error of its own from the paired trials (PlayRollouts.difference_std_errors), which is what
        tells close plays apart. Best first by rolled-out equity. `cube` (a tavli.CubeState) or
        `match` (a tavli.MatchState; `met` its table): cubefully, the players handling the cube
        and the other side free to double before his first roll, each play's value a
        tavli.cube_rollout.CubefulRollout (money per unit of the cube, match EMG and MWC).
        `eliminate` (standard errors, None: off): after every 144 trials, a play whose equity
        trails the leader's by more than that many standard errors of their paired difference is
        rolled out no further, and once one play is left the rollout stops (each result keeps the
        trials it played: `rollout.trials`), as GNU Backgammon stops rolling out moves that are
        clearly worse. Releases the GIL; Ctrl-C stops it (KeyboardInterrupt), and so does `time_limit`
        (TimeoutError)."""
        from .play_rollout import rollout_plays

        return rollout_plays(self, dice, candidates, trials, player, cube, match, dict(kwargs))

    # --- records --------------------------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        """The game so far as JSON-ready data: the position before the first pushed play, then
        every play (roll, steps, move text), and the result if the game is over."""
        root = self.copy()
        while root.ply:
            root.pop()
        o = self.outcome()
        return {
            "format": "tavli.game",
            "version": 1,
            "start": root.to_dict(),
            "plays": [{"dice": list(p.dice), "steps": [list(s) for s in p.steps], "play": str(p)} for p in self.move_stack],
            "result": None if o is None else o._asdict(),
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> "Board":
        """Replays a game record; raises ValueError when it is malformed (JSON Schema #/$defs/gameRecord
        first), a play's text and steps differ, or it does not replay."""
        from ._base.json_check import check
        from ._base.records import recorded_play

        check("gameRecord", record)
        board = cls.from_dict(record["start"])
        for i, p in enumerate(record["plays"]):
            board.push(recorded_play(board, p, f"plays[{i}]"))
        result = record.get("result")
        o = board.outcome()
        if (None if o is None else o._asdict()) != (None if result is None else dict(result)):
            raise ValueError("the record's result does not match the replay")
        return board

    # --- copying, equality, text ----------------------------------------------------------------
    def copy(self) -> "Board":
        return Board._from_core(self, keep_history=True)  # so pop() works on the copy

    def __copy__(self) -> "Board":
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> "Board":
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _core.Board):
            return NotImplemented
        return self.id() == other.id()

    def __hash__(self) -> int:
        return hash(self.id())

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Board.from_id, (self.id(),))

    def __repr__(self) -> str:
        return f"tavli.Board.from_id({self.id()!r})"

    def __str__(self) -> str:
        from .io.diagram import diagram

        return diagram(self)

    def _repr_svg_(self) -> str:
        """The board as SVG, for Jupyter (tavli.svg.board_svg for dice, plays and the viewer)."""
        from .io.svg import board_svg

        return board_svg(self)


# (trials, kind, plies, filters, truncate, seed, threads, stratify, variance_reduction, evaluator,
# luck_evaluator): _core._rollout's order
RolloutArgs = tuple[int, str, int, list[tuple[int, int, float]], int, int, int, bool, bool, Any, Any]


def check_rollout_args(board: Board, trials: Any, player: Any, truncate: Any = None, seed: Any = 0, threads: Any = 1,
                       evaluator: Any = None, stratify: Any = True, variance_reduction: Any = False,
                       luck_evaluator: Any = None) -> RolloutArgs:
    """Board.rollout's arguments, checked, in the order of _core._rollout's after the board."""
    trials = int_arg("trials", trials, 1, _core.MAX_ROLLOUT_TRIALS)  # the core's bounds (rollout.h, parallel.h)
    kind, plies, filters, player_evaluator = player_arg(player)
    truncate = 0 if truncate is None else int_arg("truncate", truncate, 1, 1_000_000)
    seed = int_arg("seed", seed, 0, 2**64 - 1)
    threads = int_arg("threads", threads, 1, _core.MAX_THREADS)
    stratify = require_bool("stratify", stratify)
    variance_reduction = require_bool("variance_reduction", variance_reduction)
    if variance_reduction and kind == "random":
        raise ValueError("variance_reduction needs a greedy or search player (its lookahead finds each roll's best "
                         "play; a random player has none)")
    if board.is_game_over():
        raise ValueError("board: the game is over, nothing to roll out")
    # The player's own evaluator, unless one is given (a random player's truncated trials are
    # valued by the default evaluator).
    ev = evaluator_arg(evaluator) if evaluator is not None or kind == "random" else player_evaluator
    luck: Any = None
    if luck_evaluator is not None:
        if not variance_reduction:
            raise ValueError("luck_evaluator values the rolls of the luck adjustment: it needs "
                             "variance_reduction=True")
        # The core takes "heuristic" by name here: its None means the player's own lookahead.
        luck = "heuristic" if isinstance(luck_evaluator, str) and luck_evaluator == "heuristic" else \
            evaluator_arg(luck_evaluator)
    return trials, kind, plies, filters, truncate, seed, threads, stratify, variance_reduction, ev, luck


def _rollout_blocks(board: Board, first: int, count: int, *, trials: Any, player: Any = "greedy",
                    **kwargs: Unpack[RolloutKeywords]) -> np.ndarray:
    """Trials first .. first + count - 1 of Board.rollout(trials, ...) as the core's block moments
    (one float64 row per ROLLOUT_BLOCK trials); _core._rollout_combine folds the rows of all
    shards, in order, into the rollout's result. A shard of tavli.distributed.rollout."""
    trials, *rest = check_rollout_args(board, trials, player, **kwargs)
    return _core._rollout_blocks(board, trials, first, count, *rest)


# --- Board.rollout on a Ray cluster (tavli.distributed.rollout) --------------------------------
def _rollout_shard(args: tuple[Any, dict[str, Any]], first: int, count: int) -> np.ndarray:
    board, kwargs = args
    return _rollout_blocks(board, first, count, **kwargs)


@overload
def rollout_on_ray(board: Any, trials: Any = 1296, player: Any = "greedy", *,
                   progress: Callable[[int, int], Any] | bool | None = None, address: str | None = None,
                   shard: int | None = None, retries: int = on_ray.DEFAULT_RETRIES, cube: None = None,
                   match: None = None, **kwargs: Unpack[RolloutKeywords]) -> Rollout: ...


@overload
def rollout_on_ray(board: Any, trials: Any = 1296, player: Any = "greedy", *,
                   progress: Callable[[int, int], Any] | bool | None = None, address: str | None = None,
                   shard: int | None = None, retries: int = on_ray.DEFAULT_RETRIES, cube: Any = None,
                   match: Any = None, met: Any = None, **kwargs: Unpack[RolloutKeywords]) -> "CubefulRollout": ...


def rollout_on_ray(board: Any, trials: Any = 1296, player: Any = "greedy", *,
                   progress: Callable[[int, int], Any] | bool | None = None, address: str | None = None,
                   shard: int | None = None, retries: int = on_ray.DEFAULT_RETRIES, cube: Any = None,
                   match: Any = None, met: Any = None, **kwargs: Unpack[RolloutKeywords]) -> "Rollout | CubefulRollout":
    """Board.rollout on a Ray cluster (tavli.distributed.rollout): its arguments but time_limit,
    and exactly the local Rollout (means and standard errors bit for bit), or with cube, match or
    met the local CubefulRollout. Shards are multiples of tavli._core.ROLLOUT_BLOCK (144) trials,
    so a rollout of at most that many trials runs as one task."""
    if not isinstance(board, Board):
        raise ValueError(f"board: expected a tavli.Board, got {type(board).__name__}")
    for name in ("time_limit", "backend", "ray_address"):
        if name in kwargs:
            raise TypeError(f"Board.rollout on Ray takes no argument {name!r}")
    kw = with_defaults("tavli.distributed.rollout", kwargs, ROLLOUT_DEFAULTS)
    if cube is not None or match is not None or met is not None:
        from .cube_rollout import rollout as cubeful_rollout

        return cubeful_rollout(board, cube, match, trials, player, met=met, backend="ray", ray_address=address,
                               progress=progress, shard=shard, retries=retries, **kw)
    checked = check_rollout_args(board, trials, player, **kw)  # checks every argument
    settings = on_ray.Settings(progress, "trials", address, shard, retries, checked[6], align=_core.ROLLOUT_BLOCK)
    blocks = np.concatenate(settings.run(_rollout_shard, (board, {"trials": trials, "player": player, **kw}),
                                         checked[0]))
    probs, equity, errors, equity_error, done, truncated = _core._rollout_combine(blocks)
    return Rollout(Probabilities(*probs), equity, Probabilities(*errors), equity_error, done, truncated)
