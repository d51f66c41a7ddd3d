"""Match files in and out: Jellyfish .mat (every game; backgammon as gnubg writes it), gnubg's SGF
(backgammon) and JSON (tavli's own records: tavli.match, tavli.game, and tavli.record, which keeps
the cube). Every move of a file read is replayed through the engine (tavli.io.record.replay).

    rec = tavli.io.read("match.mat")              # a MatchRecord
    tavli.io.write(match, "match.sgf")            # a Match, a Board's game, a MatchRecord
    tavli.io.write(tavli.io.from_simulation(sim, "plakoto"), "games.mat")

The format follows the file name's extension (.mat, .sgf, .json) unless `fmt` names it.
"""

from __future__ import annotations

import json
import os
from typing import Any

from . import mat, sgf
from .record import (Action, GameRecord, MatchRecord, Step, from_board, from_match, from_match_record,
                     from_simulation, replay, validate)
from .record import from_dict as _from_record_dict
from .record import to_dict
from .text import MAX_FILE_BYTES, decode

FORMATS = ("mat", "sgf", "json")

__all__ = ["Action", "GameRecord", "MatchRecord", "Step", "FORMATS", "as_record", "dumps", "format_of",
           "from_board", "from_match", "from_simulation", "loads", "read", "replay", "to_dict", "validate", "write"]


def format_of(path: str | os.PathLike[str], fmt: str | None = None) -> str:
    if fmt is not None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
        return fmt
    ext = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    if ext in FORMATS:
        return ext
    raise ValueError(f"{os.fspath(path)}: cannot tell the format from the extension (use .mat, .sgf or .json)")


def as_record(obj: Any) -> MatchRecord:
    """A MatchRecord for a MatchRecord, a tavli.Match, a tavli.Board (its game) or a JSON record dict."""
    from ..board import Board
    from ..match import Match

    if isinstance(obj, MatchRecord):
        return validate(obj)
    if isinstance(obj, Match):
        return from_match(obj)
    if isinstance(obj, Board):
        return from_board(obj)
    if isinstance(obj, dict):
        return _from_json_data(obj)
    raise ValueError(f"cannot save a {type(obj).__name__}: expected a Match, a Board, a MatchRecord or a record dict")


def _from_json_data(data: Any) -> MatchRecord:
    from ..board import Board

    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt == "tavli.match":
        return from_match_record(data)
    if fmt == "tavli.game":
        return from_board(Board.from_record(data))
    if fmt == "tavli.record":
        return _from_record_dict(data)
    raise ValueError(f"JSON: expected a tavli.match, tavli.game or tavli.record record, got format {fmt!r}")


def loads(text: str | bytes, fmt: str) -> MatchRecord:
    """The record in a file's contents (ValueError naming the line and what was expected)."""
    fmt = format_of("", fmt)
    text = decode(text, fmt)
    if fmt == "mat":
        return mat.parse(text)
    if fmt == "sgf":
        return sgf.parse(text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"invalid JSON: {e}") from None
    except RecursionError:
        raise ValueError("invalid JSON: nested too deeply") from None
    return _from_json_data(data)


def dumps(obj: Any, fmt: str) -> str:
    """The file contents for `obj` (see as_record) in `fmt`. JSON keeps tavli's own records as they
    are (a Match's tavli.match record, a Board's tavli.game); a MatchRecord is a tavli.record."""
    from ..board import Board
    from ..match import Match

    fmt = format_of("", fmt)
    if fmt == "json":
        if isinstance(obj, Match):
            return obj.to_json(indent=1)
        if isinstance(obj, Board):
            return json.dumps(obj.to_record(), indent=1)
        return json.dumps(to_dict(as_record(obj)), indent=1)
    record = as_record(obj)
    if fmt == "sgf":
        sgf.check_kind(record)
    if not record.games:
        raise ValueError(f"no finished game to save as .{fmt} (JSON keeps a match in progress)")
    return mat.write(record) if fmt == "mat" else sgf.write(record)


def read(path: str | os.PathLike[str], fmt: str | None = None) -> MatchRecord:
    """The record in a file (.mat, .sgf or .json); ValueError naming the file, the line and the problem."""
    fmt = format_of(path, fmt)
    size = os.path.getsize(path)
    if size > MAX_FILE_BYTES:
        raise ValueError(f"{os.fspath(path)}: larger than {MAX_FILE_BYTES // 1_000_000} MB")
    with open(path, "rb") as f:
        data = f.read(MAX_FILE_BYTES + 1)
    try:
        return loads(data, fmt)
    except ValueError as e:
        raise ValueError(f"{os.fspath(path)}: {e}") from None


def write(obj: Any, path: str | os.PathLike[str], fmt: str | None = None) -> None:
    """Saves a Match, a Board's game, a MatchRecord (or a JSON record dict) as .mat, .sgf or .json.
    The text is made in full before the file is opened: a record that does not replay writes nothing."""
    text = dumps(obj, format_of(path, fmt))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
