"""gnubg's SGF (tavli.io.sgf): gnubg's own file reads as the same match as gnubg's .mat export of
it, round trips, gnubg reads what tavli writes (test_io_mat), and bad files are refused."""

from __future__ import annotations

import pytest

import tavli.io as io

from io_helpers import DATA


def test_gnubgs_sgf_is_the_match_of_gnubgs_mat_export():
    sgf = io.read(DATA / "gnubg_5pt.sgf")  # with gnubg's analysis properties, skipped
    mat = io.read(DATA / "gnubg_5pt.mat")
    assert sgf.games == mat.games and sgf.length == 5 and sgf.players == mat.players


def test_round_trip_and_the_written_form():
    for path in (DATA / "gnubg_5pt.sgf", DATA / "hand_3pt.mat"):
        r = io.read(path)
        text = io.dumps(r, "sgf")
        assert io.loads(text, "sgf") == r
    text = io.dumps(io.read(DATA / "hand_3pt.mat"), "sgf")
    first = text.split("\n")[0]
    assert first.startswith("(;FF[4]GM[6]CA[UTF-8]") and "MI[length:3][game:0][ws:0][bs:0]" in first
    assert "PW[Alice]PB[Bob]" in first and "RE[W+1]" in first
    # White's 31: 8/5 6/5 (White's points p are letter p - 1); Black's 64: 24/18 13/9 (letter 24 - p)
    assert "\n;W[31hefe]\n;B[64aglp]\n" in text
    assert "\n;W[double]\n;B[drop])" in text
    assert "RU[Crawford:CrawfordGame]" in text.split("\n(")[2]
    assert ";B[43ydlo]" in text  # y: the bar


def _bad(text: str, *fragments: str) -> None:
    with pytest.raises(ValueError) as e:
        io.loads(text, "sgf")
    for f in fragments:
        assert f in str(e.value), (f, str(e.value))


HEAD = "(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[b]RE[W+1]\n"


def test_bad_sgf_files():
    _bad("", "empty")
    _bad("(;FF[4]GM[1]RE[W+1])", "GM[1]", "backgammon")
    _bad(HEAD + ";W[31hefe", "not closed")
    _bad(HEAD + ";W[31hefe]", "not closed by ')'")
    _bad(HEAD + ";W[71hefe])", "line 2", "expected dice")
    _bad(HEAD + ";W[31hefa])", "game 1, turn 1", "31: 8/5 6/1", "not a legal play")
    _bad(HEAD + ";B[31hefe])", "game 1", "not a legal play")  # Black's letters read as Black's points
    _bad(HEAD.replace("RE[W+1]", "") + ";W[31hefe])", "no result")
    _bad(HEAD + ";W[31hefe]\n;B[double]\n;W[drop])", "the result is written as a winning 1",
         "b winning 1")
    _bad("x" * 200_000, "line 1", "longer than")
