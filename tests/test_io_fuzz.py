"""Mutated and random match files: every input is either read or refused with a ValueError
(never another exception, never a hang)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

import tavli.io as io

from io_helpers import DATA

MAT = (DATA / "hand_3pt.mat").read_bytes()
SGF = io.dumps(io.read(DATA / "hand_3pt.mat"), "sgf").encode()
JSON = io.dumps(io.read(DATA / "hand_3pt.mat"), "json").encode()
FILES = {"mat": MAT, "sgf": SGF, "json": JSON}


def _mutate(data: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
    out = bytearray(data)
    for pos, cut, insert in edits:
        pos %= len(out) + 1
        out[pos:pos + cut] = insert
    return bytes(out)


EDITS = st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 8), st.binary(max_size=6)), min_size=1, max_size=4)
TOKENS = st.sampled_from([b"Doubles => 2", b"Takes", b"Drops", b"Wins 1 point", b" Game 2", b"25/", b"/0", b"*",
                          b"(2)", b"66:", b"\r\n", b";W[double]", b"RE[B+3]", b"(;", b")", b"[", b"\\", b'"dice": null',
                          b'"move": 5', b"[[[[[[[[", b'"kind": "resign"', b"1e999"])


@settings(max_examples=150, deadline=None)
@given(EDITS, st.lists(st.tuples(st.integers(0, 10_000), TOKENS), max_size=3), st.sampled_from(["mat", "sgf", "json"]))
def test_mutated_files_are_read_or_refused_with_a_value_error(edits, tokens, fmt):
    data = _mutate(FILES[fmt], edits)
    for pos, tok in tokens:
        pos %= len(data) + 1
        data = data[:pos] + tok + data[pos:]
    try:
        rec = io.loads(data, fmt)
    except ValueError:
        return
    assert io.loads(io.dumps(rec, fmt), fmt) == rec  # what is read writes back the same


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=3000), st.sampled_from(["mat", "sgf", "json"]))
def test_random_bytes_are_refused(data, fmt):
    try:
        io.loads(data, fmt)
    except ValueError:
        pass


def test_deeply_nested_json_is_refused():
    import pytest

    with pytest.raises(ValueError, match="JSON"):
        io.loads(b"[" * 200_000, "json")


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True), st.text(max_size=8),
                 st.lists(st.integers(-3, 30), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["top", "game", "action"]), st.text(min_size=1, max_size=10), JUNK)
def test_json_records_with_wrong_fields_are_refused_with_a_value_error(where, level, key, junk):
    import json

    d = json.loads(JSON)
    keys = {"top": ["kind", "length", "players", "options", "meta", "crawford_rule", "jacoby", "games"],
            "game": ["score", "crawford", "winner", "points", "actions"],
            "action": ["player", "kind", "dice", "move", "value"]}[level]
    target = d
    if level != "top":
        target = d["games"][where % len(d["games"])]
        if level == "action":
            target = target["actions"][where % len(target["actions"])]
    target[keys[where % len(keys)] if where % 3 else key] = junk
    try:
        io.loads(json.dumps(d), "json")
    except ValueError:
        pass
