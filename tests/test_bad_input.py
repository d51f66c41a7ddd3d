"""Hostile input to every public function.

Each bad call must raise ValueError (or its subclasses tavli.InvalidPosition / tavli.IllegalMove;
TypeError only where Python itself would, IndexError for pop) with a message that names the
problem, must not crash the interpreter, and must leave the board it was called on unchanged.
Expected behaviour comes from the documented API (python/tavli/*.py, notation.h, position.h) and
the rules (RULES.md §1, §6, §7.1), not from the engine's output.
"""

from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import tavli
from helpers import make_board

VALUE_ERRORS = (ValueError, tavli.InvalidPosition, tavli.IllegalMove)
ROW = tavli.ROW_BYTES


# --- helpers -----------------------------------------------------------------------------------


def mid_game_board() -> tavli.Board:
    """White to move with history: both runners out (White 24/20 with 3-1, Black 24/19 with 4-1).

    Mover (White) {r0: 14, r4: 1}; opponent (Black) {r0: 14, r5: 1}. White is in the runner phase
    (RULES.md §6.4), so only the checker on r4 may move.
    """
    b = tavli.Board("fevga")
    b.push(b.parse_play("24/20", (3, 1)))
    b.push(b.parse_play("24/19", (4, 1)))
    return b


def snapshot(b: tavli.Board):
    return (b.id(), b.to_dict(), b.ply, [str(p) for p in b.move_stack], b.to_array().tobytes())


def expect(fn, match: str, allowed=VALUE_ERRORS, board: tavli.Board | None = None):
    """Calls fn; it must raise one of `allowed` (exactly those classes, so e.g. UnicodeDecodeError
    does not count as a ValueError) whose message matches `match`; `board` must be unchanged."""
    before = snapshot(board) if board is not None else None
    with pytest.raises(Exception) as info:
        fn()
    err = info.value
    msg = str(err)
    assert type(err) in allowed, f"{type(err).__name__}: {msg}"
    assert "incompatible function arguments" not in msg, f"raw pybind11 message: {msg}"
    assert re.search(match, msg, re.I), f"message {msg!r} does not name the problem (/{match}/)"
    if board is not None:
        assert snapshot(board) == before, "a failed call changed the board"
    return err


def encode_id(variant="fevga", mover=None, opp=None, bar=(0, 0), off=(0, 0), flags=0, version=1, extra=b""):
    """A position ID written from the layout documented in cpp/include/tavli/notation.h."""
    mover = mover if mover is not None else [15] + [0] * 23
    opp = opp if opp is not None else [15] + [0] * 23

    def side(counts, b, o):
        out = bytearray(13)
        for r, n in enumerate(counts):
            out[r // 2] |= (n & 15) << (4 * (r % 2))
        out[12] = (b & 15) | (o & 15) << 4
        return bytes(out)

    payload = bytes([version, flags]) + side(mover, bar[0], off[0]) + side(opp, bar[1], off[1]) + extra
    return f"{variant}:" + base64.urlsafe_b64encode(payload).decode().rstrip("=")


def counts(d: dict) -> list[int]:
    out = [0] * 24
    for r, n in d.items():
        out[r] += n
    return out


START_ID = encode_id()


def test_encode_id_matches_the_documented_layout():
    """Sanity check of the helper above: the start position (White to move, all 15 on r0)."""
    assert tavli.Board("fevga").id() == START_ID
    assert tavli.Board.from_id(START_ID).to_dict() == tavli.Board("fevga").to_dict()
    b = mid_game_board()
    assert b.id() == encode_id(mover=counts({0: 14, 4: 1}), opp=counts({0: 14, 5: 1}))


# --- Board(variant, **options) -------------------------------------------------------------------

BOARD_CASES = [
    ("chess", {}, r"variant.*chess"),
    ("", {}, r"variant"),
    ("plakoto-ish", {}, r"variant"),
    (None, {}, r"variant"),
    (1, {}, r"variant"),
    (b"fevga", {}, r"variant"),
    ("fevga", {"foo": 1}, r"foo"),
    ("fevga", {"primes": "R1"}, r"primes"),  # a Moultezim option
    ("moultezim", {"opp_start_quarter": "R2a"}, r"opp_start_quarter"),  # a Fevga option
    ("fevga", {"runner_threshold": 14}, r"runner_threshold|14"),
    ("fevga", {"runner_threshold": -13}, r"runner_threshold|-13"),
    ("fevga", {"runner_threshold": 2**70}, r"runner_threshold"),
    ("fevga", {"unblock": "sometimes"}, r"unblock|sometimes"),
    ("fevga", {"startq_check": ""}, r"startq_check"),
    ("moultezim", {"startq_check": "off"}, r"startq_check|off"),
    ("moultezim", {"primes": "R2a"}, r"primes|R2a"),
    ("fevga", {"unblock": True}, r"unblock"),
    ("fevga", {"runner_threshold": 13.0}, r"runner_threshold"),
    ("fevga", {"runner_threshold": None}, r"runner_threshold"),
    ("fevga", {"unblock": ["none"]}, r"unblock"),
    ("fevga", {"unblock": {"none": 1}}, r"unblock"),
]


@pytest.mark.parametrize("variant, options, match", BOARD_CASES)
def test_board_constructor(variant, options, match):
    witness = mid_game_board()
    expect(lambda: tavli.Board(variant, **options), match, board=witness)


# --- Board.from_id ----------------------------------------------------------------------------

PAYLOAD = START_ID.split(":")[1]
FLAG_PINS = 8  # bit 3: pin masks follow (notation.h)

ID_CASES = [
    ("empty", "", r"':'|colon|variant"),
    ("no colon", "fevga", r"':'|colon"),
    ("payload only", PAYLOAD, r"':'|colon"),
    ("colon only", ":", r"variant"),
    ("empty payload", "fevga:", r"payload|short|bytes"),
    ("bad base64 char", "fevga:AQAP!!AAAAAAAAAAAAAAADwAAAAAAAAAAAAAAAA", r"character|'!'"),
    ("padding", START_ID + "==", r"character|'='"),
    ("standard base64 alphabet", "fevga:+/AP" + PAYLOAD[4:], r"character|'\+'"),
    ("space inside", "fevga:AQAP AAAAAAAAAAAAAAADwAAAAAAAAAAAAAAAA", r"character"),
    ("trailing newline", START_ID + "\n", r"character"),
    ("truncated by 1", START_ID[:-1], r"short|bytes"),
    ("truncated by 4", START_ID[:-4], r"short|bytes"),
    ("extended by 1", START_ID + "A", r"bytes|long"),
    ("extended by 4", START_ID + "AAAA", r"bytes|long"),
    ("extra byte", encode_id(extra=b"\0"), r"bytes"),
    ("version 0", encode_id(version=0), r"version"),
    ("version 2", encode_id(version=2), r"version"),
    ("version 255", encode_id(version=255), r"version"),
    ("flag bit 4", encode_id(flags=16), r"flag"),
    ("flag bit 7", encode_id(flags=128), r"flag"),
    ("pin bit without pin bytes", encode_id(flags=FLAG_PINS), r"bytes|pin"),
    ("pins in fevga", encode_id(flags=FLAG_PINS, extra=b"\x01\0\0\0\0\0"), r"pin"),
    ("14 checkers", encode_id(mover=counts({0: 14})), r"14|15"),
    ("16 checkers", encode_id(mover=counts({0: 15, 1: 1})), r"16|15"),
    ("opponent 14", encode_id(opp=counts({0: 13, 3: 1})), r"opponent.*14|14"),
    ("all nibbles 15", encode_id(mover=[15] * 24), r"checkers|15"),
    ("both sides on one point", encode_id(mover=counts({0: 14, 12: 1})), r"both|point 12|held"),
    ("both sides on r3/r15", encode_id(mover=counts({0: 14, 3: 1}), opp=counts({0: 14, 15: 1})), r"both|held"),
    ("mover has 15 off", encode_id(mover=[0] * 24, off=(15, 0)), r"borne off|15|over"),
    ("both have 15 off", encode_id(mover=[0] * 24, opp=[0] * 24, off=(15, 15)), r"borne off|15|over"),
    ("bar in fevga", encode_id(mover=counts({0: 14}), bar=(1, 0)), r"bar"),
    ("opponent bar", encode_id(opp=counts({0: 14}), bar=(0, 1)), r"bar"),
    ("bar in moultezim", encode_id("moultezim", mover=counts({0: 14}), bar=(1, 0)), r"bar"),
    ("huge payload", "fevga:" + "A" * 10**6, r"long"),
    ("huge variant", "f" * 10**6 + ":" + PAYLOAD, r"long|variant"),
    ("unknown variant", "chess:" + PAYLOAD, r"variant.*chess"),
    ("unknown option", "fevga,foo=1:" + PAYLOAD, r"foo"),
    ("bad option value", "fevga,unblock=x:" + PAYLOAD, r"unblock|'x'"),
    ("option without =", "fevga,unblock:" + PAYLOAD, r"unblock"),
    ("option twice", "fevga,unblock=none,unblock=none:" + PAYLOAD, r"unblock|twice"),
    ("Moultezim option on fevga", "fevga,primes=R1:" + PAYLOAD, r"primes"),
    ("two colons", START_ID + ":" + PAYLOAD, r"variant|character|':'"),
    ("leading space", " " + START_ID, r"variant"),
]


@pytest.mark.parametrize("label, text, match", ID_CASES, ids=[c[0] for c in ID_CASES])
def test_from_id_malformed(label, text, match):
    witness = mid_game_board()
    expect(lambda: tavli.Board.from_id(text), match, board=witness)


@pytest.mark.parametrize("value", [None, 123, 1.5, b"fevga:" + PAYLOAD.encode(), ["fevga", PAYLOAD], tavli.Board()])
def test_from_id_not_a_string(value):
    expect(lambda: tavli.Board.from_id(value), r"string|str")


def test_from_id_payload_with_nul():
    # The message is cut at the NUL by the C++ what() string, but it is still an InvalidPosition.
    expect(lambda: tavli.Board.from_id(START_ID + "\0"), r"character|payload")


@pytest.mark.parametrize("char", ["é", "€", "φ", "\u00a0"])
def test_from_id_payload_non_ascii(char):
    """BUG: the C++ parser puts the offending *byte* of a multi-byte UTF-8 character into its
    message; pybind11 cannot decode that message and raises UnicodeDecodeError ("'utf-8' codec
    can't decode byte 0xc3 ...") instead of InvalidPosition "invalid character ..."."""
    expect(lambda: tavli.Board.from_id(START_ID[:-1] + char), r"character|payload", board=mid_game_board())


@pytest.mark.parametrize("flags", [2, 4, 6], ids=["mover-first-turn", "opponent-first-turn", "both"])
@pytest.mark.parametrize("variant", ["fevga", "moultezim"])
def test_first_turn_flags_are_rejected_where_no_rule_uses_them(variant, flags):
    """BUG: ID flag bits 1-2 (a side's first turn, for Narde's head rule) are accepted in Fevga and
    Moultezim, where no rule reads them (pins are refused there: "nothing is pinned in fevga").
    The flag is invisible in to_dict(), so from_dict(to_dict()) gives a different id(), the board
    compares unequal to the same position without the flag, and the flag is carried on through
    every later play."""
    reject_or_normalise(lambda: tavli.Board.from_id(encode_id(variant, flags=flags)))


def reject_or_normalise(make):
    """Either refused with a message naming the flag, or accepted with no state that to_dict()
    does not show (then the board equals the same position built from its dict)."""
    try:
        b = make()
    except tavli.InvalidPosition as e:
        assert re.search(r"first turn|flag", str(e)), str(e)
        return
    same = tavli.Board.from_dict(b.to_dict())
    assert b.id() == same.id() and b == same, f"hidden flag: {b.id()} vs {same.id()}"
    assert np.array_equal(b.to_array(), same.to_array())


# --- Board.from_dict ---------------------------------------------------------------------------

GOOD = {
    "variant": "fevga",
    "turn": 0,
    "mover": counts({0: 14, 4: 1}),
    "opponent": counts({0: 14, 5: 1}),
    "bar": [0, 0],
    "off": [0, 0],
    "options": {},
}
DROP = object()


def with_(**changes):
    d = {k: (list(v) if isinstance(v, list) else v) for k, v in GOOD.items()}
    for k, v in changes.items():
        if v is DROP:
            del d[k]
        else:
            d[k] = v
    return d


def mover_with(r, value, base=None):
    m = list(base if base is not None else GOOD["mover"])
    m[r] = value
    return m


DICT_CASES = [
    ("missing mover", with_(mover=DROP), r"mover"),
    ("missing opponent", with_(opponent=DROP), r"opponent"),
    ("missing variant", with_(variant=DROP), r"variant"),
    ("unknown key", with_(score=3), r"score"),
    ("unknown key pinned", with_(pinned=[0, 0]), r"pinned"),
    ("mover 23 entries", with_(mover=GOOD["mover"][:23]), r"mover.*24|24.*23"),
    ("mover 25 entries", with_(mover=GOOD["mover"] + [0]), r"mover.*24|25"),
    ("opponent empty", with_(opponent=[]), r"opponent"),
    ("bar 3 entries", with_(bar=[0, 0, 0]), r"bar"),
    ("off 1 entry", with_(off=[0]), r"off"),
    ("negative count", with_(mover=mover_with(1, -1, mover_with(0, 16))), r"mover\[\d+\]|-1|16|0\.\.15"),
    ("negative count alone", with_(mover=mover_with(2, -1)), r"mover\[2\]|-1"),
    ("count 16", with_(mover=mover_with(0, 16, counts({}))), r"mover\[0\]|16"),
    ("count 30 with negative off", with_(mover=mover_with(0, 30, counts({})), off=[-15, 0]), r"30|-15|outside"),
    ("count 2**40", with_(mover=mover_with(0, 2**40)), r"mover\[0\]|range"),
    ("count -2**100", with_(mover=mover_with(0, -(2**100))), r"mover\[0\]|range"),
    ("count 2**32+14", with_(mover=mover_with(0, 2**32 + 14)), r"mover\[0\]|range"),
    ("total 14", with_(mover=mover_with(0, 13)), r"14|15"),
    ("total 16 via off", with_(off=[1, 0]), r"16|15"),
    ("opponent total 16", with_(opponent=mover_with(0, 15, GOOD["opponent"])), r"opponent|16"),
    ("float count", with_(mover=mover_with(0, 14.0)), r"mover\[0\].*integer"),
    ("None count", with_(mover=mover_with(0, None)), r"mover\[0\].*integer"),
    ("bool count", with_(mover=mover_with(4, True)), r"mover\[4\].*integer"),
    ("str count", with_(mover=mover_with(0, "14")), r"mover\[0\].*integer"),
    ("numpy float count", with_(mover=mover_with(0, np.float64(14))), r"mover\[0\].*integer"),
    ("float off", with_(off=[0.0, 0]), r"off\[0\]"),
    ("None bar entry", with_(bar=[None, 0]), r"bar\[0\]"),
    ("mover is a str", with_(mover="0" * 24), r"mover"),
    ("mover is None", with_(mover=None), r"mover"),
    ("mover is an int", with_(mover=15), r"mover"),
    ("bar is None", with_(bar=None), r"bar"),
    ("bar in fevga", with_(mover=mover_with(0, 13), bar=[1, 0]), r"bar"),
    ("opponent bar in fevga", with_(opponent=mover_with(0, 13, GOOD["opponent"]), bar=[0, 1]), r"bar"),
    ("bar in moultezim", with_(variant="moultezim", mover=mover_with(0, 13), bar=[1, 0]), r"bar"),
    ("negative bar", with_(bar=[-1, 0], off=[1, 0]), r"bar"),
    ("negative off", with_(mover=mover_with(0, 15), off=[-1, 0]), r"off"),
    ("turn 2", with_(turn=2), r"turn"),
    ("turn -1", with_(turn=-1), r"turn"),
    ("turn True", with_(turn=True), r"turn"),
    ("turn 1.0", with_(turn=1.0), r"turn"),
    ("turn '1'", with_(turn="1"), r"turn"),
    ("turn None", with_(turn=None), r"turn"),
    ("turn 'white'", with_(turn="white"), r"turn"),
    ("options a list", with_(options=[("unblock", "none")]), r"options"),
    ("options None", with_(options=None), r"options"),
    ("options a str", with_(options="unblock=none"), r"options"),
    ("unknown option", with_(options={"foo": 1}), r"foo"),
    ("bad option value", with_(options={"unblock": "x"}), r"unblock|'x'"),
    ("option value float", with_(options={"runner_threshold": 12.0}), r"runner_threshold"),
    ("option name not str", with_(options={1: 1}), r"option"),
    ("unknown variant", with_(variant="chess"), r"chess"),
    ("variant None", with_(variant=None), r"variant"),
    ("shared point r12", with_(mover=counts({0: 13, 4: 1, 12: 1})), r"both|held|point 12"),
    ("shared point r17", with_(mover=counts({0: 13, 4: 1, 17: 1})), r"both|held|point 17"),
    ("mover has 15 off", with_(mover=[0] * 24, off=[15, 0]), r"borne off|15|over"),
]


@pytest.mark.parametrize("label, d, match", DICT_CASES, ids=[c[0] for c in DICT_CASES])
def test_from_dict_invalid(label, d, match):
    witness = mid_game_board()
    expect(lambda: tavli.Board.from_dict(d), match, board=witness)


@pytest.mark.parametrize("value", [None, [], "fevga", 3, [("variant", "fevga")]])
def test_from_dict_not_a_dict(value):
    expect(lambda: tavli.Board.from_dict(value), r"dict")


def test_from_dict_good_is_accepted():
    """The base dict of the cases above is valid, so each case tests only its one defect."""
    b = tavli.Board.from_dict(GOOD)
    assert b.to_dict() == GOOD and b == mid_game_board()


# --- dice: legal_plays, count_plays --------------------------------------------------------------

BAD_DICE = [
    ((0, 1), r"1\.\.6|dice"),
    ((7, 1), r"1\.\.6|dice"),
    ((-1, 3), r"1\.\.6|dice"),
    ((3, 0), r"1\.\.6|dice"),
    ((6, 7), r"1\.\.6|dice"),
    ((2**70, 1), r"1\.\.6|dice"),
    ((-(2**63), 1), r"1\.\.6|dice"),
    ((1,), r"pair|dice"),
    ((1, 2, 3), r"pair|dice"),
    ((), r"pair|dice"),
    ([[1, 2]], r"dice"),
    ((1.0, 2), r"integer|dice"),
    ((3.5, 1), r"integer|dice"),
    ((np.float64(3), 1), r"integer|dice"),
    ((True, 2), r"integer|dice"),
    ((np.bool_(True), 2), r"integer|dice"),
    ((None, 2), r"integer|dice"),
    (("3", "1"), r"integer|dice"),
    (None, r"dice"),
    (3, r"dice"),
    (31, r"dice"),
    ("6-7", r"1\.\.6|dice"),
    ("0-1", r"1\.\.6|dice"),
    ("abc", r"digits|dice"),
    ("", r"digits|dice"),
    ("6", r"digits|dice"),
    ("6-5-4", r"digits|dice"),
    ("6—5", r"digits|dice"),
    ("³1", r"digits|dice"),
    ("x" * 100000, r"digits|dice"),
]


@pytest.mark.parametrize("dice, match", BAD_DICE, ids=[repr(d)[:20] for d, _ in BAD_DICE])
@pytest.mark.parametrize("method", ["legal_plays", "count_plays", "legal_moves"])
def test_bad_dice(method, dice, match):
    b = mid_game_board()
    expect(lambda: getattr(b, method)(dice), match, board=b)


# --- push / play --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, match",
    [
        (None, r"Play"),
        (1, r"Play"),
        ("20/9", r"Play|parse_play"),
        ("pass", r"Play|parse_play"),
        ((4, 15), r"Play"),
        ([(4, 10), (10, 15)], r"Play"),
        ({"steps": [(4, 15)]}, r"Play"),
        (b"20/9", r"Play"),
        (tavli.Board(), r"Play"),
    ],
)
@pytest.mark.parametrize("method", ["push", "play"])
def test_push_not_a_play(method, value, match):
    b = mid_game_board()
    expect(lambda: getattr(b, method)(value), match, board=b)


def test_play_objects_cannot_be_made_by_hand():
    expect(lambda: tavli.Play(), r"constructor|Play", allowed=(TypeError,))


def foreign_plays():
    """Plays of other positions whose steps are not legal on mid_game_board() (White's runner on
    r4 is the only checker that may move, RULES.md §6.4)."""
    start = tavli.Board("fevga")
    plays = {
        "start 6-5 (0->11), other dice": start.parse_play("24/13", (6, 5)),
        "start 3-1 (0->4), same dice as below": start.parse_play("24/20", (3, 1)),
    }
    x = make_board("fevga", {0: 14, 13: 1}, {0: 15})
    plays["runner past r13, same dice"] = x.parse_play("11/5 24/19", (6, 5))
    y = make_board("fevga", {0: 14, 2: 1}, {0: 15})
    plays["runner from r2, same dice"] = y.parse_play("22/11", (6, 5))
    return plays


@pytest.mark.parametrize("label", list(foreign_plays()))
@pytest.mark.parametrize("method", ["push", "play"])
def test_push_play_of_another_position(method, label):
    b = mid_game_board()
    p = foreign_plays()[label]
    expect(lambda: getattr(b, method)(p), r"legal|checker|step", board=b)


def test_push_rejects_a_play_of_another_position_with_the_same_steps():
    """BUG: push()/play() identify a Play by its steps only (Game::push calls find_play on
    play.steps), so a Play made for another position is accepted whenever its steps happen to be
    legal here. Black's opening 3-1 (24/20, steps (0,3),(3,4) in Black's frame, leading to a
    position where White's runner stands on r4) is accepted on the start position, where it
    leads elsewhere; move_stack then holds a Play whose result_key is not the result of the play
    made. The Play's documented identity is its result ("a play is known by the position it
    leads to"), and Play.__eq__ compares results, so it should be IllegalMove."""
    start = tavli.Board("fevga")
    black_to_move = start.play(start.legal_plays((3, 1))[0])
    foreign = black_to_move.legal_plays((3, 1))[0]
    own_keys = {p.result_key for p in start.legal_plays((3, 1))}
    assert foreign.result_key not in own_keys  # it does not lead to any position reachable here
    expect(lambda: start.push(foreign), r"legal|position", board=start)
    expect(lambda: start.play(foreign), r"legal|position", board=start)


def test_push_the_same_play_twice():
    """Same defect: after b.push(p) it is the other side's turn; p belongs to the previous position."""
    b = tavli.Board("fevga")
    p = b.legal_plays((3, 1))[0]
    b.push(p)
    expect(lambda: b.push(p), r"legal|position", board=b)


# --- find_play ------------------------------------------------------------------------------------

FIND_CASES = [
    ([(0, 6)], r"legal|runner"),  # the runner rule freezes the stack
    ([(0, 6), (0, 5)], r"legal|runner"),
    ([(4, 9)], r"legal"),  # uses one die when both can be used
    ([(4, 10), (10, 16)], r"dice|match"),
    ([(4, 14)], r"dice|die|match"),
    ([(5, 10)], r"checker"),
    ([(4, 4)], r"forward"),
    ([(4, 3)], r"forward"),
    ([(-1, 4)], r"bar|checker"),
    ([(23, 24)], r"checker"),
    ([(4, 24)], r"die|off|legal"),
    ([(0, 25)], r"outside|board"),
    ([(-2, 3)], r"outside|board"),
    ([(24, 25)], r"outside|board"),
    ([(4, 10)] * 3, r"at most|steps"),
    ([(4, 10)] * 7, r"at most|steps"),
    ([(10, 15), (4, 10)], r"checker"),  # order matters: nothing on r10 yet
    ([], r"legal"),  # a pass is not legal here
    ("4-10", r"steps"),
    ("20/9", r"steps"),
    (None, r"steps"),
    (5, r"steps"),
    ([4, 10], r"step"),
    ([(4, 10, 15)], r"step"),
    ([(4,)], r"step"),
    ([(4.0, 10.0)], r"step.*integer"),
    ([(True, 5)], r"step.*integer"),
    ([("4", "10")], r"step.*integer"),
    ([None], r"step"),
    ([(4, 2**40)], r"step|range"),
    ([(2**31, 3)], r"step|range"),
    ([(4, -(2**70))], r"step|range"),
]


@pytest.mark.parametrize("steps, match", FIND_CASES, ids=[repr(s)[:30] for s, _ in FIND_CASES])
def test_find_play_nonsense(steps, match):
    b = mid_game_board()
    expect(lambda: b.find_play(steps, (6, 5)), match, board=b)


def test_find_play_bad_dice():
    b = mid_game_board()
    expect(lambda: b.find_play([(4, 15)], (0, 5)), r"dice|1\.\.6", board=b)


# --- parse_play ----------------------------------------------------------------------------------

PARSE_CASES = [
    ("24/", r"point|''"),
    ("/", r"point"),
    ("20//9", r"point"),
    ("20/9/", r"point"),
    ("25/18", r"bar"),
    ("bar/off", r"bar"),
    ("b/19", r"bar"),
    ("13/7(9)", r"repeat|count|9"),
    ("20/9(0)", r"repeat|count"),
    ("20/9(-1)", r"repeat|count|point"),
    ("20/9(99999999999999999999)", r"repeat|count"),
    ("20/9(", r"repeat|count"),
    ("20/9(2", r"repeat|count"),
    ("20/9)", r"point"),
    ("x/y", r"'x'|point"),
    ("20/x", r"'x'|point"),
    ("2O/9", r"point"),
    ("1e3/9", r"point"),
    ("-1/9", r"point"),
    ("20/-9", r"point"),
    ("20 /9", r"from/to|point"),
    ("20", r"from/to|point"),
    ("20/20", r"forward"),
    ("9/20", r"forward"),
    ("off/20", r"forward|point"),
    ("20/9 pass", r"pass|point"),
    ("PASS", r"point|pass"),
    ("pass", r"legal"),
    ("", r"legal|empty"),
    ("   ", r"legal|empty"),
    ("24/18 24/19", r"legal"),  # legal-looking; the runner rule forbids it (RULES.md §6.4)
    ("24/13", r"legal"),
    ("20/14 24/19", r"legal"),
    ("20/15", r"legal"),  # one die when both can be played
    ("20/9(2)", r"legal|checker"),
    ("20/14/8", r"legal|dice"),
    ("19/14", r"checker|point 19"),
    ("20/9 " * 200, r"long"),
    ("20/9" * 10**5, r"long"),
    ("20/9\0", r"move text|legal|point"),
]


@pytest.mark.parametrize("text, match", PARSE_CASES, ids=[repr(t)[:30] for t, _ in PARSE_CASES])
def test_parse_play_malformed(text, match):
    b = mid_game_board()
    expect(lambda: b.parse_play(text, (6, 5)), match, board=b)


@pytest.mark.parametrize("text", [None, 209, b"20/9", ["20/9"], 20.9])
def test_parse_play_not_a_string(text):
    b = mid_game_board()
    expect(lambda: b.parse_play(text, (6, 5)), r"string|text", board=b)


def test_parse_play_bad_dice():
    b = mid_game_board()
    expect(lambda: b.parse_play("20/9", (6, 7)), r"dice|1\.\.6", board=b)


# --- a finished game ---------------------------------------------------------------------------


def finished_board():
    """White bore off its 15th checker: Black (to move) has one checker left, 14 off."""
    return tavli.Board.from_dict(
        {"variant": "fevga", "turn": 1, "mover": counts({23: 1}), "opponent": [0] * 24, "off": [14, 15]}
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda b: b.legal_plays((1, 1)),
        lambda b: b.count_plays((6, 5)),
        lambda b: b.parse_play("1/off", (1, 2)),
        lambda b: b.parse_play("pass", (1, 2)),
        lambda b: b.find_play([(23, 24)], (1, 2)),
    ],
    ids=["legal_plays", "count_plays", "parse_play", "parse_pass", "find_play"],
)
def test_no_plays_after_the_game_ended(call):
    b = finished_board()
    assert b.is_game_over()
    expect(lambda: call(b), r"over|legal", board=b)


# --- pop ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: tavli.Board("fevga"),
        lambda: tavli.Board("moultezim", primes="R1"),
        lambda: tavli.Board.from_id(mid_game_board().id()),  # an ID carries no history
        lambda: tavli.Board.from_dict(GOOD),
        lambda: tavli.Board.from_array(mid_game_board().to_array()),
    ],
    ids=["fresh", "fresh-moultezim", "from_id", "from_dict", "from_array"],
)
def test_pop_without_history(make):
    b = make()
    expect(b.pop, r"pop|undo|no plays", allowed=(IndexError,), board=b)


def test_pop_past_the_history():
    b = mid_game_board()
    b.pop()
    b.pop()
    assert b.id() == START_ID
    expect(b.pop, r"pop|undo|no plays", allowed=(IndexError,), board=b)


# --- perft --------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [-1, 7, 100, 2**70, 1.0, 1.5, True, None, "2", [1]])
def test_perft_bad_depth(depth):
    b = mid_game_board()
    expect(lambda: b.perft(depth), r"depth", board=b)


# --- batch_legal_plays -------------------------------------------------------------------------


def batch_input(n=8):
    """Valid rows built by hand (the layout of position.h): mid-game positions, White to move."""
    rows = np.zeros((n, ROW), np.uint8)
    for i in range(n):
        rows[i, 0] = 14
        rows[i, 1 + i % 10] = 1  # White's runner on r1..r10
        rows[i, 24] = 14
        rows[i, 24 + 2 + i % 3] = 1  # Black's runner on his r2..r4 (White's r14..r16)
    dice = np.array([[1 + i % 6, 1 + (i * 5) % 6] for i in range(n)], np.int64)
    return rows, dice


def test_batch_input_is_valid():
    rows, dice = batch_input()
    counts = tavli.batch_legal_plays(rows, dice)
    assert counts.shape == (len(rows),) and (counts >= 1).all()


def _row_edit(i, fn):
    def make():
        rows, dice = batch_input()
        fn(rows[i])
        return rows, dice

    return make


def _dice_edit(i, value):
    def make():
        rows, dice = batch_input()
        dice[i] = value
        return rows, dice

    return make


def _set(**idx):
    def fn(row):
        for k, v in idx.items():
            row[int(k[1:])] = v

    return fn


BATCH_CASES = [
    ("rows 1-d", lambda: (batch_input()[0][0], batch_input()[1][:1]), {}, r"positions|shape"),
    ("rows 63 columns", lambda: (batch_input()[0][:, :63], batch_input()[1]), {}, r"positions|shape"),
    ("rows 65 columns", lambda: (np.zeros((8, 65), np.uint8), batch_input()[1]), {}, r"positions|shape"),
    ("rows 3-d", lambda: (batch_input()[0][None], batch_input()[1][None]), {}, r"positions|shape"),
    ("rows empty 1-d", lambda: (np.zeros(0, np.uint8), np.zeros((0, 2), np.int64)), {}, r"positions|shape"),
    ("dice 3 columns", lambda: (batch_input()[0], np.ones((8, 3), np.int64)), {}, r"dice"),
    ("dice 1-d", lambda: (batch_input()[0], batch_input()[1][:, 0]), {}, r"dice"),
    ("dice too few rows", lambda: (batch_input()[0], batch_input()[1][:5]), {}, r"dice"),
    ("dice too many rows", lambda: (batch_input()[0], np.ones((9, 2), np.int64)), {}, r"dice"),
    ("rows of strings", lambda: (np.full((8, ROW), "a"), batch_input()[1]), {}, r"positions"),
    ("rows of objects", lambda: (np.full((8, ROW), None, dtype=object), batch_input()[1]), {}, r"positions"),
    ("rows None", lambda: (None, batch_input()[1]), {}, r"positions"),
    ("rows a str", lambda: ("abc", batch_input()[1]), {}, r"positions"),
    ("rows ragged", lambda: ([[0] * ROW, [0] * 3], [[1, 1], [1, 1]]), {}, r"positions"),
    ("rows float halves", lambda: (batch_input()[0] + 0.5, batch_input()[1]), {}, r"positions"),
    ("rows complex", lambda: (batch_input()[0].astype(complex), batch_input()[1]), {}, r"positions"),
    ("rows values 256+", lambda: (batch_input()[0].astype(np.int64) + 256, batch_input()[1]), {}, r"positions|255"),
    ("rows value -1", lambda: (batch_input()[0].astype(np.int64) - 1, batch_input()[1]), {}, r"positions|255"),
    ("dice None", lambda: (batch_input()[0], None), {}, r"dice"),
    ("dice strings", lambda: (batch_input()[0], np.full((8, 2), "6")), {}, r"dice"),
    ("dice floats", lambda: (batch_input()[0], batch_input()[1] + 0.5), {}, r"dice"),
    ("row 3 has 16 checkers", _row_edit(3, _set(r23=1)), {}, r"row 3"),
    ("row 2 opponent 14", _row_edit(2, _set(r24=13)), {}, r"row 2"),
    ("row 4 mover 15 off", _row_edit(4, lambda r: (r.__setitem__(slice(0, 24), 0), r.__setitem__(50, 15))), {}, r"row 4"),
    ("row 5 game over", _row_edit(5, lambda r: (r.__setitem__(slice(24, 48), 0), r.__setitem__(51, 15))), {}, r"row 5"),
    ("row 6 turn 2", _row_edit(6, _set(r52=2)), {}, r"row 6"),
    ("row 7 bar", _row_edit(7, _set(r0=13, r48=1)), {}, r"row 7"),
    ("row 1 shared point", _row_edit(1, _set(r0=13, r12=1)), {}, r"row 1"),
    ("row 0 count 16", _row_edit(0, _set(r0=16, r1=0, r2=0, r3=0)), {}, r"row 0"),
    ("row 3 pins", _row_edit(3, _set(r54=1)), {}, r"row 3"),
    ("dice 7 in row 6", _dice_edit(6, [7, 1]), {}, r"row 6"),
    ("dice 0 in row 2", _dice_edit(2, [3, 0]), {}, r"row 2"),
    ("dice -1 in row 0", _dice_edit(0, [-1, 2]), {}, r"row 0"),
    ("dice 2**40 in row 1", _dice_edit(1, [2**40, 2]), {}, r"row 1"),
    ("threads 0", batch_input, {"threads": 0}, r"threads"),
    ("threads -1", batch_input, {"threads": -1}, r"threads"),
    ("threads 1.5", batch_input, {"threads": 1.5}, r"threads"),
    ("threads True", batch_input, {"threads": True}, r"threads"),
    ("threads None", batch_input, {"threads": None}, r"threads"),
    ("threads '2'", batch_input, {"threads": "2"}, r"threads"),
    ("threads 2000", batch_input, {"threads": 2000}, r"threads"),
    ("threads 2**40", batch_input, {"threads": 2**40}, r"threads"),
    ("variant chess", batch_input, {"variant": "chess"}, r"chess"),
    ("variant None", batch_input, {"variant": None}, r"variant"),
    ("unknown option", batch_input, {"foo": 1}, r"foo"),
    ("bad option value", batch_input, {"unblock": "x"}, r"unblock"),
    ("option of the other variant", batch_input, {"variant": "moultezim", "opp_start_quarter": "R2a"}, r"opp_start_quarter"),
]


@pytest.mark.parametrize("label, make, kwargs, match", BATCH_CASES, ids=[c[0] for c in BATCH_CASES])
def test_batch_legal_plays_bad_input(label, make, kwargs, match):
    rows, dice = make()
    snap = (np.array(rows, copy=True) if isinstance(rows, np.ndarray) else None)
    witness = mid_game_board()
    expect(lambda: tavli.batch_legal_plays(rows, dice, **kwargs), match, board=witness)
    if snap is not None:
        assert np.array_equal(rows, snap), "the input array was modified"
    expect(
        lambda: tavli.batch_legal_plays(rows, dice, return_positions=True, **kwargs), match, board=witness
    )


# --- random_positions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n": -1}, r"\bn\b"),
        ({"n": 1.5}, r"\bn\b"),
        ({"n": True}, r"\bn\b"),
        ({"n": None}, r"\bn\b"),
        ({"n": "3"}, r"\bn\b"),
        ({"n": 2**70}, r"\bn\b"),
        ({"n": 10**9}, r"\bn\b"),
        ({"seed": -1}, r"seed"),
        ({"seed": 2**64}, r"seed"),
        ({"seed": 1.5}, r"seed"),
        ({"seed": True}, r"seed"),
        ({"seed": None}, r"seed"),
        ({"seed": "3"}, r"seed"),
        ({"variant": "chess"}, r"chess"),
        ({"variant": None}, r"variant"),
        ({"unblock": "x"}, r"unblock"),
        ({"foo": 1}, r"foo"),
    ],
    ids=lambda v: repr(v)[:30],
)
def test_random_positions_bad_input(kwargs, match):
    args = {"variant": "fevga", "n": 3, "seed": 1}
    args.update(kwargs)
    expect(lambda: tavli.random_positions(**args), match, board=mid_game_board())


# --- Board.from_array --------------------------------------------------------------------------


def good_row():
    return mid_game_board().to_array()


def _edit(**idx):
    row = good_row().astype(np.int64)
    for k, v in idx.items():
        row[int(k[1:])] = v
    return row


ARRAY_CASES = [
    ("63 entries", lambda: good_row()[:63], {}, r"row|64"),
    ("65 entries", lambda: np.append(good_row(), 0), {}, r"row|64"),
    ("8x8", lambda: good_row().reshape(8, 8), {}, r"row|64"),
    ("1x64", lambda: good_row()[None], {}, r"row|64"),
    ("empty list", lambda: [], {}, r"row|64"),
    ("None", lambda: None, {}, r"row"),
    ("a str", lambda: "x" * 64, {}, r"row"),
    ("bytes", lambda: bytes(good_row()), {}, r"row"),
    ("floats", lambda: good_row() + 0.5, {}, r"row"),
    ("values 256+", lambda: good_row().astype(np.int64) + 256, {}, r"row|255"),
    ("value -1", lambda: _edit(r60=-1), {}, r"row|255"),
    ("count 16", lambda: _edit(r0=16), {}, r"15|16|checkers"),
    ("mover 14", lambda: _edit(r0=13), {}, r"14|15"),
    ("turn 2", lambda: _edit(r52=2), {}, r"player|turn"),
    ("bar", lambda: _edit(r0=13, r48=1), {}, r"bar"),
    ("pins", lambda: _edit(r57=1), {}, r"pin"),
    ("shared point", lambda: _edit(r0=13, r17=1), {}, r"both|held"),
    ("mover 15 off", lambda: _edit(**{f"r{i}": 0 for i in range(24)}, r50=15), {}, r"borne off|15|over"),
    ("variant chess", good_row, {"variant": "chess"}, r"chess"),
    ("variant None", good_row, {"variant": None}, r"variant"),
    ("unknown option", good_row, {"foo": 1}, r"foo"),
    ("bad option value", good_row, {"runner_threshold": 11}, r"runner_threshold"),
]


@pytest.mark.parametrize("label, make, kwargs, match", ARRAY_CASES, ids=[c[0] for c in ARRAY_CASES])
def test_from_array_bad_input(label, make, kwargs, match):
    row = make()
    witness = mid_game_board()
    expect(lambda: tavli.Board.from_array(row, **kwargs), match, board=witness)


@pytest.mark.parametrize("flags", [1, 2, 3])
def test_from_array_first_turn_flags_in_fevga(flags):
    """BUG (as for IDs above): row byte 53 first-turn flags are accepted in Fevga, carried into
    id() and to_array(), but not into to_dict()."""
    row = good_row()
    row[53] = flags
    reject_or_normalise(lambda: tavli.Board.from_array(row))


# --- Rng ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2**64, -(2**70)])
def test_rng_seed_out_of_range(seed):
    """BUG: Rng(seed) takes a uint64; an out-of-range int gets pybind11's TypeError "incompatible
    constructor arguments" instead of a ValueError naming the seed."""
    expect(lambda: tavli.Rng(seed), r"seed", allowed=(ValueError, OverflowError))


@pytest.mark.parametrize("seed", [1.5, None, "1", [1]])
def test_rng_seed_wrong_type(seed):
    # A TypeError is what Python itself would give for a seed of the wrong type.
    with pytest.raises((TypeError, ValueError)):
        tavli.Rng(seed)


@pytest.mark.parametrize("n", [0, -1, 2**32, 2**40])
def test_rng_below_out_of_range(n):
    """BUG for n < 0 and n >= 2**32: pybind11's TypeError instead of a ValueError (n = 0 is fine)."""
    r = tavli.Rng(1)
    expect(lambda: r.below(n), r"\bn\b|below", allowed=(ValueError, OverflowError))
    assert r.roll() == tavli.Rng(1).roll(), "a failed call advanced the generator"


# --- the interpreter survives ------------------------------------------------------------------


def test_hostile_calls_do_not_crash_the_interpreter():
    """The worst of the above in a fresh interpreter: a crash shows as a failed test here, not as
    a dead test session."""
    script = textwrap.dedent(
        """
        import numpy as np, tavli
        B = tavli.Board
        b = B("fevga")
        calls = [
            lambda: B.from_id("fevga:" + "A" * 10**7),
            lambda: B.from_id("fevga:" + "A" * 37 + "\\u00e9"),
            lambda: B.from_id("fevga:AQ" + "/" * 60),
            lambda: B.from_id("fevga:AQ__" + "_" * 34),
            lambda: B.from_id("fevga:AQj" + "_" * 43),
            lambda: b.parse_play("24/20" * 10**6, (3, 1)),
            lambda: b.parse_play("(" * 1000, (3, 1)),
            lambda: b.parse_play("24/20(6)" * 20, (1, 1)),
            lambda: b.find_play([(0, 1)] * 10**5, (1, 1)),
            lambda: b.find_play([(-1, 24)] * 6, (6, 6)),
            lambda: tavli.batch_legal_plays(np.full((1000, 64), 255, np.uint8), np.ones((1000, 2), np.int64)),
            lambda: tavli.batch_legal_plays(np.zeros((1000, 64), np.uint8), np.ones((1000, 2), np.int64), threads=8),
            lambda: tavli.batch_legal_plays(np.zeros((0, 64), np.uint8), np.zeros((0, 2), np.int64), return_positions=True),
            lambda: B.from_array(np.full(64, 255, np.uint8)),
            lambda: B.from_dict({"variant": "fevga", "mover": [15] * 24, "opponent": [15] * 24}),
            lambda: tavli.random_positions("fevga", 0, 0),
            lambda: b.pop(),
            lambda: tavli.Rng(1).below(0),
        ]
        for call in calls:
            try:
                call()
            except Exception:
                pass
        assert b.id() == B("fevga").id()
        print("survived")
        """
    )
    # The child imports the same tavli as this process (installed, or a source tree).
    env = dict(os.environ, PYTHONPATH=str(Path(tavli.__file__).resolve().parent.parent))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0 and "survived" in proc.stdout, (proc.returncode, proc.stderr[-2000:])
