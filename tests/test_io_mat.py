"""Jellyfish .mat files (tavli.io.mat): a hand-written file of known content, gnubg-written files,
round trips, gnubg reading what tavli writes, and bad files refused with the line and the reason."""

from __future__ import annotations

import pytest

import tavli.io as io
from tavli.io.record import Action

from io_helpers import DATA, gnubg, gnubg_binary

HAND = DATA / "hand_3pt.mat"


def test_the_hand_written_match_reads_as_written():
    r = io.read(HAND)
    assert r.length == 3 and r.players == ("Alice", "Bob") and r.kind == "backgammon"
    assert r.meta["Site"].startswith("written by hand")
    assert [g.score for g in r.games] == [(0, 0), (1, 0), (1, 2)]
    assert [(g.winner, g.points) for g in r.games] == [(0, 1), (1, 2), (1, 1)]
    assert r.score == (1, 3)
    # Bob reached 2 = length - 1 in game 2: game 3 is the Crawford game
    assert [g.crawford for g in r.games] == [False, False, True]
    g1, g2, g3 = r.games
    # game 1: White's 13/7* hits (one checker, 13/7*/5), Black enters from the bar, White doubles, Black drops
    assert g1.actions[2] == Action(0, "move", (6, 2), "13/7*/5")
    assert g1.actions[3] == Action(1, "move", (4, 3), "bar/21 13/10")
    assert [a.kind for a in g1.actions[4:]] == ["double", "drop"] and g1.actions[4].value == 2
    # game 2: Black starts, doubles, White takes; the game ends by a resignation at cube 2 (Wins 2 points)
    assert g2.actions[0].player == 1
    assert [(a.player, a.kind) for a in g2.actions[2:4]] == [(1, "double"), (0, "take")]
    assert g2.actions[-1] == Action(0, "resign", value=1)
    assert g2.actions[5].move == "24/18(2) 13/7(2)"  # "24/18 24/18 13/7 13/7" read as one play of 66
    assert g3.actions[1].move == "13/10(2) 8/5(2)"


def test_gnubg_written_files_read_with_their_bear_offs_drops_and_passes():
    r = io.read(DATA / "gnubg_3pt.mat")
    assert r.length == 3 and r.players == ("gnubg", "root")
    (g,) = r.games
    assert (g.winner, g.points) == (1, 4)  # a gammon at cube 2, as the file says
    assert g.actions[5] == Action(0, "move", (1, 1), "")  # "4) 11:" White could not move
    assert g.actions[-1] == Action(1, "move", (4, 4), "3/off(2) 2/off 1/off")
    r5 = io.read(DATA / "gnubg_5pt.mat")
    assert len(r5.games) == 6 and r5.score == (2, 10)
    assert [g.crawford for g in r5.games] == [False, False, False, False, True, False]
    assert [a.kind for a in r5.games[0].actions[-2:]] == ["double", "drop"]


def test_write_then_read_is_the_same_match():
    for path in (HAND, DATA / "gnubg_5pt.mat", DATA / "gnubg_3pt.mat"):
        r = io.read(path)
        text = io.dumps(r, "mat")
        assert io.loads(text, "mat") == r
        assert io.dumps(io.loads(text, "mat"), "mat") == text


def test_the_written_layout_is_gnubgs():
    text = io.dumps(io.read(HAND), "mat")
    assert " 3 point match\n" in text
    assert "\n Alice : 1                      Bob : 2\n" in text
    assert "\n  2) 62: 13/7* 7/5               43: 25/21 13/10\n" in text  # one die a move, 25 the bar
    assert "\n  3)  Doubles => 2                Drops\n      Wins 1 point\n" in text
    assert "\n  4) 66: 24/18 24/18 13/7 13/7\n                                  Wins 2 points\n" in text


def test_line_endings_and_latin1():
    raw = HAND.read_bytes()
    crlf = raw.replace(b"\n", b"\r\n")
    assert io.loads(crlf, "mat") == io.read(HAND)
    assert io.loads(raw.replace(b"\n", b"\r"), "mat") == io.read(HAND)
    latin = raw.replace(b"Alice", "Jürgen".encode("latin-1"))
    assert io.loads(latin, "mat").players[0] == "Jürgen"
    utf8 = b"\xef\xbb\xbf" + raw.replace(b"Bob", "Βασίλης".encode("utf-8"))
    assert io.loads(utf8, "mat").players[1] == "Βασίλης"


@pytest.mark.skipif(gnubg_binary() is None, reason="GNU Backgammon (gnubg) is not installed")
def test_gnubg_reads_what_tavli_writes(tmp_path):
    for name in ("hand_3pt.mat", "gnubg_5pt.mat"):
        r = io.read(DATA / name)
        io.write(r, tmp_path / "ours.mat")
        io.write(r, tmp_path / "ours.sgf")
        gnubg(["import mat ours.mat", "export match mat back_mat.mat",
               "load match ours.sgf", "export match mat back_sgf.mat"], tmp_path)
        assert io.read(tmp_path / "back_mat.mat").games == r.games, name
        assert io.read(tmp_path / "back_sgf.mat").games == r.games, name


# --- bad files --------------------------------------------------------------------------------------

def _bad(text: str | bytes, *fragments: str) -> None:
    with pytest.raises(ValueError) as e:
        io.loads(text, "mat")
    for f in fragments:
        assert f in str(e.value), (f, str(e.value))


def test_bad_files_are_refused_with_the_line_and_what_was_expected():
    good = HAND.read_text()
    _bad("", "match length")
    _bad("hello\n", "line 1", "match length")
    _bad(good.replace(" Game 2", " Game 3"), "line 13", "expected Game 2")
    _bad(good.replace(" Alice : 1                      Bob : 0", " Alice : 0                      Bob : 0"),
         "game 2", "written as 0-0", "add up to 1-0")
    _bad(good.replace("  1) 42: 8/4 6/4", "  1) 72: 8/4 6/4"), "line 23", "roll 72")
    _bad(good.replace("64: 24/18 13/9", "64: 24/18 13/8"), "game 1, turn 1, Bob", "24/18 13/8", "not a legal play")
    _bad(good.replace("43: 25/21 13/10", "43: 13/10 13/9"), "game 1, turn 2, Bob", "13/10 13/9")
    _bad(good.replace("      Wins 1 point\n", "                                  Wins 1 point\n"),
         "game 1", "Bob winning 1", "Alice winning 1")
    _bad(good.replace(" Takes ", " Drops "), "game 2", "after the game ended")
    _bad(good.replace("  2) 65: 24/18 18/13", "  2)  Doubles => 2                Takes\n  3) 65: 24/18 18/13"),
         "game 3", "no doubling in the Crawford game")
    _bad(good.replace("  1) 42: 8/4 6/4", "  1) garbage here"), "line 23", "expected a roll")
    _bad(good.replace(" Game 2\n Alice : 1", " Game 2\n nobody"), "line 14", "players and scores")


def test_a_truncated_file_is_refused_and_nothing_is_half_imported(tmp_path):
    good = HAND.read_text()
    for cut in (len(good) // 3, len(good) // 2, len(good) - 30):
        with pytest.raises(ValueError, match="truncated|expected|not over|legal"):
            io.loads(good[:cut], "mat")
    path = tmp_path / "out.mat"
    bad = io.read(HAND)
    bad.games[0].actions[0] = Action(0, "move", (3, 1), "24/18")
    with pytest.raises(ValueError, match="game 1"):
        io.write(bad, path)
    assert not path.exists()  # a record that does not replay writes nothing


def test_binary_junk_and_huge_lines_are_refused_quickly():
    _bad(bytes(range(256)) * 100, "binary")
    _bad(b"\x89PNG\r\n\x1a\n" + b"\x00" * 1000, "binary")
    _bad(" 3 point match\n" + "x" * 10_000_000 + "\n", "line 2", "longer than")
    _bad("1" * 10_000_000, "line 1", "longer than")
    with pytest.raises(ValueError, match="larger than"):
        io.loads(b" " * (io.MAX_FILE_BYTES + 1), "mat")


def test_money_sessions_and_unknown_variants():
    text = HAND.read_text().replace(" 3 point match", " 0 point match")
    r = io.loads(text, "mat")
    assert r.length == 0 and not any(g.crawford for g in r.games)
    _bad('; [Variant "chess"]\n' + HAND.read_text(), "line 1", "unknown variant")


def test_a_gnubg_money_session():
    r = io.read(DATA / "gnubg_money.mat")
    assert r.length == 0 and len(r.games) == 3 and r.score == (2, 4)
    assert [g.score for g in r.games] == [(0, 0), (0, 2), (2, 2)]
    # each game's cube was doubled and taken; two games were resigned at cube 2 ("Wins 2 points")
    assert [[a.kind for a in g.actions if a.kind != "move"] for g in r.games] == [
        ["double", "take", "resign"], ["double", "take", "resign"], ["double", "take"]]
    assert not any(g.crawford for g in r.games)


@pytest.mark.skipif(gnubg_binary() is None, reason="GNU Backgammon (gnubg) is not installed")
def test_gnubgs_sgf_of_a_money_session_says_jacoby(tmp_path):
    gnubg([f"import mat {DATA / 'gnubg_money.mat'}", "save match money.sgf"], tmp_path)
    sgf = io.read(tmp_path / "money.sgf")
    assert sgf.jacoby and sgf.games == io.read(DATA / "gnubg_money.mat").games
