"""Matches: the game cycle, the opening roll, who starts each game, the score, and records.

The flow itself is the core's (cpp/include/tavli/match.h); this module names the match kinds,
keeps the record of rolls and plays, and turns it into JSON and back (replaying every play, so a
record that does not replay to the same results is refused).
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any, Mapping

from . import _core
from ._base.json_check import check, loads
from ._base.records import recorded_play
from ._base.dice import parse_dice
from ._base.options import to_pairs
from .board import Board

if TYPE_CHECKING:
    from .match_play import ScoredPlay
    from .results import GameResult

# Match kinds: the games in order (repeated) and the default target. The Greek Tavli match
# (RULES.md §7.3) plays to 5; a one-game kind's target, opening and next starter are the variant
# table's (cpp/src/variant.cpp: RULES.md §9 D-OPENING, D-NEXTSTART; RULES-KIN.md §1).
_ONE_GAME_KINDS = ("tavla", "backgammon", "portes", "plakoto", "fevga", "moultezim", "narde", "jacquet", "tawla31",
                   "nackgammon", "hypergammon")
_FACTS = {v: _core.variant_info(v) for v in _ONE_GAME_KINDS}
KINDS: dict[str, tuple[tuple[str, ...], int]] = {
    "tavli": (("portes", "plakoto", "fevga"), 5),
    **{v: ((v,), int(_FACTS[v]["match_target"])) for v in _ONE_GAME_KINDS},
}
OPENING = {v: f["opening"] for v, f in _FACTS.items() if f["opening"] != "reroll"}
NEXT_STARTER = {v: f["next_starter"] for v, f in _FACTS.items() if f["next_starter"] != "previous_winner"}

RECORD_FORMAT = "tavli.match"
RECORD_VERSION = 1


def _game_copy(game: dict[str, Any]) -> dict[str, Any]:
    """A copy of one game of the record (faster than copy.deepcopy on a long match)."""
    out = dict(game)
    out["opening"] = [list(r) for r in game["opening"]]
    out["turns"] = [{**t, "dice": list(t["dice"]), "steps": [list(s) for s in t["steps"]]} for t in game["turns"]]
    if "result" in game:
        out["result"] = dict(game["result"])
    return out


class Match:
    """A match of one of KINDS to `target` points.

    >>> m = Match("tavli", target=3)
    >>> m.roll_opening(5, 3)          # White's 5 beats Black's 3: White starts
    True
    >>> m.board.variant, m.board.turn
    ('portes', 0)
    """

    def __init__(
        self,
        kind: str = "tavli",
        target: int | None = None,
        *,
        options: Mapping[str, Mapping[str, Any]] | None = None,
        opening: str | Mapping[str, str] | None = None,
        next_starter: str | None = None,
    ) -> None:
        if not isinstance(kind, str) or kind not in KINDS:
            raise ValueError(f"unknown match kind {kind!r} (known: {', '.join(KINDS)})")
        games, default_target = KINDS[kind]
        target = default_target if target is None else target
        if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 999:
            raise ValueError(f"target must be an integer 1..999, got {target!r}")
        if options is not None and not isinstance(options, Mapping):
            raise ValueError("options: expected a dict of game name -> option dict")
        if opening is not None and not isinstance(opening, (str, Mapping)):
            raise ValueError("opening: expected 'reroll', 'use_opening_dice' or a dict per game")
        if isinstance(opening, Mapping) and not all(isinstance(v, str) for v in opening.values()):
            raise ValueError("opening: every value must be 'reroll' or 'use_opening_dice'")
        if next_starter is not None and not isinstance(next_starter, str):
            raise ValueError("next_starter: expected 'previous_winner', 'roll_off' or 'alternate'")
        options = dict(options or {})
        for name, opts in options.items():
            if name not in games:
                raise ValueError(f"options for {name!r}, which is not a game of a {kind} match ({', '.join(games)})")
            if not isinstance(opts, Mapping):
                raise ValueError(f"options[{name!r}] must be a dict")
        if isinstance(opening, Mapping):
            bad = set(opening) - set(games)
            if bad:
                raise ValueError(f"opening given for games not in the match: {sorted(bad)}")
            openings = {g: opening.get(g, OPENING.get(g, "reroll")) for g in games}
        elif opening is None:
            openings = {g: OPENING.get(g, "reroll") for g in games}
        else:
            openings = {g: opening for g in games}
        if next_starter is None:
            next_starter = NEXT_STARTER.get(games[0], "previous_winner") if len(games) == 1 else "previous_winner"
        self.kind = kind
        self._options = {g: dict(options.get(g, {})) for g in games}
        self._openings = openings
        self._next_starter = next_starter
        cycle = [(g, to_pairs(self._options[g]), openings[g]) for g in games]
        self._core = _core.Match(cycle, target, next_starter)
        self._games: list[dict[str, Any]] = []
        self._new_game_record()

    # --- state ----------------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """"opening" (roll one die each), "playing" or "over"."""
        return self._core.phase

    @property
    def target(self) -> int:
        return self._core.target

    @property
    def score(self) -> tuple[int, int]:
        return self._core.score

    @property
    def winner(self) -> int | None:
        return self._core.winner

    @property
    def game_number(self) -> int:
        return self._core.game_number

    @property
    def forced_dice(self) -> tuple[int, int] | None:
        """The opening dice that the starter's first play must use (backgammon), else None."""
        return self._core.forced_dice

    @property
    def board(self) -> Board:
        """The current game's position (a copy: play through Match.play)."""
        return Board._from_core(self._core._game())

    @property
    def results(self) -> list[GameResult]:
        """Finished games: variant, starter, winner (None for a draw), points, kind."""
        return self._core.results

    # --- flow -----------------------------------------------------------------------------------
    def roll_opening(self, white_die: int, black_die: int) -> bool:
        """One die each; True once the higher die decided who starts (a tie: roll again)."""
        for d in (white_die, black_die):
            if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
                raise ValueError(f"opening dice must be integers 1..6, got {white_die!r}, {black_die!r}")
        decided = self._core.roll_opening(white_die, black_die)
        self._games[-1]["opening"].append([white_die, black_die])
        if decided:
            self._games[-1]["starter"] = 0 if white_die > black_die else 1
        return decided

    def play(self, play: _core.Play) -> None:
        """Plays a legal play of the side to move (from `match.board.legal_plays(dice)`)."""
        if not isinstance(play, _core.Play):
            raise ValueError(f"expected a Play, got {type(play).__name__}")
        player = self._core._turn  # not self.board: that copies the game and its history
        play = self._core.play(play)  # this game's own play: a foreign one may order its steps otherwise
        self._games[-1]["turns"].append(
            {"player": player, "dice": list(play.dice), "play": str(play), "steps": [list(s) for s in play.steps]}
        )
        if len(self.results) == len(self._games):  # the game just ended
            self._games[-1]["result"] = dict(self.results[-1])
            if self.phase != "over":
                self._new_game_record()

    def analyze(self, dice: Any, plies: int = 1, **kwargs: Any) -> list[ScoredPlay]:
        """The current game's plays for the roll, best first by match winning chance at the score
        (tavli.match_play.analyze; keywords: filters, threads, evaluator, met, time_limit, node_limit)."""
        from .match_play import analyze

        games = KINDS[self.kind][0]  # where this game stands in the match's cycle of games
        return analyze(self.board, dice, self.target, self.score, plies, cycle=games,
                       game_index=self.game_number % len(games), **kwargs)

    def best_play(self, dice: Any, plies: int = 0, **kwargs: Any) -> _core.Play:
        """The play a score-aware player makes: Match.analyze's best."""
        return self.analyze(dice, plies, **kwargs)[0].play

    def play_text(self, text: str, dice: Any) -> None:
        """Plays the legal play that move text describes."""
        self.play(self.board.parse_play(text, parse_dice(dice)))

    def _new_game_record(self) -> None:
        board = self.board
        rec: dict[str, Any] = {"variant": board.variant, "opening": [], "starter": None, "turns": []}
        if self.phase == "playing":  # started by the previous winner, or by alternation
            rec["starter"] = board.turn
        self._games.append(rec)

    # --- records --------------------------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        """Everything needed to replay the match: settings, opening rolls and plays, results (a
        copy: changing it leaves the match as it is)."""
        games = [_game_copy(g) for g in self._games if g["opening"] or g["turns"] or "result" in g]
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "kind": self.kind,
            "target": self.target,
            "options": copy.deepcopy(self._options),
            "opening": copy.deepcopy(self._openings),
            "next_starter": self._next_starter,
            "games": games,
            "score": list(self.score),
            "winner": self.winner,
        }

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_record(), **kwargs)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> "Match":
        """Replays a record; raises ValueError when it is malformed (JSON Schema #/$defs/matchRecord
        first), a turn's text and steps differ, or it does not replay to its results and score."""
        check("matchRecord", record)
        m = cls(
            record["kind"],
            record.get("target"),
            options=record.get("options") or {},
            opening=record.get("opening"),
            next_starter=record.get("next_starter"),
        )
        for gi, g in enumerate(record["games"]):
            if g["variant"] != m.board.variant:
                raise ValueError(f"games[{gi}]: variant {g['variant']!r}, but the match is at {m.board.variant!r}")
            for roll in g.get("opening", []):
                m.roll_opening(*roll)
            for ti, t in enumerate(g.get("turns", [])):
                board = m.board
                if t.get("player", board.turn) != board.turn:
                    raise ValueError(f"games[{gi}].turns[{ti}]: player {t.get('player')} is not the one to move")
                m.play(recorded_play(board, t, f"games[{gi}].turns[{ti}]"))
            if "result" in g and (gi >= len(m.results) or m.results[gi] != dict(g["result"])):
                raise ValueError(f"games[{gi}]: the record's result does not match the replay")
        if list(record.get("score", m.score)) != list(m.score):
            raise ValueError("the record's score does not match the replay")
        return m

    @classmethod
    def from_json(cls, text: str) -> "Match":
        """Match.from_record of JSON text (at most 50 MB, nested at most 64 deep)."""
        if not isinstance(text, str) or len(text) > 50_000_000:
            raise ValueError("expected a JSON string (at most 50 MB)")
        return cls.from_record(loads(text, "match record JSON"))

    def __repr__(self) -> str:
        return f"<tavli.Match {self.kind} to {self.target}: {self.score[0]}-{self.score[1]}, {self.phase}>"
