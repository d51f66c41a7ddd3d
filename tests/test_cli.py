"""The command line at gnubg's level (issue 17, item 4): --version; tavli, GNU and XG IDs for every
position; arguments checked by argparse before any work (exit 2, nothing on stdout); eval, rollout
and plays for any position; Wilson intervals; progress only on a terminal; the caps stated in --help;
pip counts in the diagram. Expected values come from the rule book or positions checked by hand."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys

import pytest

import tavli
from tavli import __main__ as cli
from tavli._base.intervals import wilson_interval
from tavli.frontends.cli_position import id_format
from tavli.frontends.cli_progress import Bar, wanted

START_GNUBG = "4HPwATDgc/ABMA"  # gnubg's manual: the backgammon starting position
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def run(*argv: str) -> tuple[int, str, str]:
    """main(argv) in this process: (exit status, stdout, stderr); argparse's exits give their status."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = cli.main(list(argv))
        except SystemExit as e:
            rc = e.code
    return rc, out.getvalue(), err.getvalue()


def bear_off_win() -> tavli.Board:
    """White has one checker left, on its 1-point (route index 23); Black has borne one off, so no
    gammon: every roll bears the last checker off, a single win: equity exactly +1."""
    return tavli.Board.from_dict({"variant": "backgammon", "mover": [0] * 23 + [1], "opponent": [0] * 23 + [14],
                                  "off": [14, 1]})


def test_options_without_a_command_are_analyze_s():
    rc, out, err = run("--dice", "6-5", "--plies", "0", "--start", "--variant", "backgammon", "--limit", "1")
    assert rc == 0, err
    assert "6-5: 7 legal plays" in out  # counted by hand in test_every_id_form_names_the_same_position
    assert run("--plies", "-1")[0] == 2


def test_version():
    out = subprocess.run([sys.executable, "-m", "tavli", "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == f"tavli {tavli.__version__}"


@pytest.mark.parametrize("argv, message", [
    (["analyze", "--dice", "7-1"], "argument --dice: dice must be integers 1..6"),
    (["analyze", "--plies", "-1"], "argument --plies: expected an integer 0..32, got -1"),
    (["analyze", "--threads", "0"], "argument --threads: expected an integer 1..1024, got 0"),
    (["analyze", "--time-limit", "-3"], "argument --time-limit"),
    (["eval", "--plies", "40"], "argument --plies"),
    (["plays", "--dice", "66x"], "argument --dice"),
    (["rollout", "--trials", "0"], "argument --trials"),
    (["simulate", "--games", "0"], "argument --games: expected an integer 1..100000000, got 0"),
    (["simulate", "--threads", "0"], "argument --threads"),
    (["perft", "--depth", "-2"], "argument --depth: expected an integer 1..64, got -2"),
    (["perft", "--depth", "0"], "argument --depth: expected an integer 1..64, got 0"),
    (["serve", "--port", "99999"], "argument --port: expected an integer 1..65535, got 99999"),
    (["analyze", "--variant", "chess"], "argument --variant: invalid choice"),
])
def test_bad_arguments_stop_before_any_work(argv, message):
    rc, out, err = run(*argv)
    assert rc == 2 and out == ""  # no board, no analysis printed first
    assert "usage: tavli " in err and message in err


@pytest.mark.parametrize("argv, message", [
    (["analyze", "fevga:nonsense"], "position ID"),
    (["plays", "--start", START_GNUBG], "--start and a position ID"),
    (["eval", tavli.Board("plakoto").id(), "--variant", "fevga"], "is a plakoto position, not fevga"),
    (["plays", tavli.Board("fevga").id(), "-o", "x=1"], "--option cannot be combined"),
    (["analyze", START_GNUBG, "--variant", "fevga"], "backgammon-movement games only"),
    (["analyze", "--evaluator", "/no/such/net.tnet"], "cannot open"),
    (["analyze", "--start", "--variant", "tavla", "--cube", "2:white"], "cube"),
    (["rollout", "--start", "--player", "nobody"], "player"),
    (["rollout", bear_off_win().id(), "--truncate", "0"], "argument --truncate"),
    (["rollout", "--start", "--luck", "nets"], "needs variance_reduction"),
    (["rollout", "--start", "--candidates", "3"], "give the roll"),
    (["rollout", "--start", "--eliminate", "3"], "give the roll"),
    (["rollout", START_GNUBG, "--dice", "6-5", "--eliminate", "0"], "eliminate"),
    (["rollout", "--start", "--dice", "6-5", "--candidates", "0"], "argument --candidates"),
])
def test_bad_positions_and_settings_stop_before_any_work(argv, message):
    rc, out, err = run(*argv)
    assert rc == 2 and out == "", out
    assert "tavli" in err and message in err


def test_id_formats():
    assert id_format(START_XGID) == "xgid"
    assert id_format(START_GNUBG) == "gnubg"
    assert id_format(START_GNUBG + ":cAkAAAAAAAAA") == "gnubg"
    assert id_format(tavli.Board("fevga").id()) == "tavli"


def test_every_id_form_names_the_same_position():
    # The backgammon start as a tavli ID, a gnubg Position ID, PositionID:MatchID and an XGID. By hand
    # (RULES.md's start; Black's two checkers hold White's 1-point, its five the 19-point), 6-5 has
    # seven distinct plays, the book play 24/13 first.
    forms = [tavli.Board("backgammon").id(), START_GNUBG, START_GNUBG + ":cAkAAAAAAAAA", START_XGID]
    seen = set()
    for form in forms:
        rc, out, err = run("plays", form, "--dice", "6-5", "--all")
        assert rc == 0, err
        plays = out.split("6-5: 7 legal plays\n")[1].split()
        seen.add(" ".join(plays))
    assert seen == {"24/13 24/18 13/8 24/18 8/3 13/8 13/7 13/7 8/3 13/2 8/3 8/2"}
    # The Match ID's player on roll is Black here ("cAkAAAAAAAAA": gnubg's manual example).
    assert "O (black) to move" in run("plays", START_GNUBG + ":cAkAAAAAAAAA", "--dice", "3-1")[1]


def test_render_takes_every_id_form():
    # The same start (White to move, no dice drawn: the bare Position ID, the tavli ID, the XGID)
    # draws the same SVG; a Match ID naming Black on roll turns the board's turn, so not that one.
    drawn = set()
    for form in (tavli.Board("backgammon").id(), START_GNUBG, START_XGID):
        rc, out, err = run("render", form, "--dice", "6-5", "--play", "24/13")
        assert rc == 0 and "<svg " in out, err
        drawn.add(out)
    assert len(drawn) == 1
    rc, out, err = run("render", "not-an-id")
    assert rc == 2 and out == "" and "tavli render: error" in err


def test_pip_counts_in_the_diagram():
    # 167 each at the backgammon start (2*24 + 5*13 + 3*8 + 5*6), 360 at Fevga's (15 * 24);
    # 24/13 with 6-5 leaves White 11 fewer.
    assert "pips X 167 O 167" in str(tavli.Board("backgammon"))
    assert "pips X 360 O 360" in str(tavli.Board("fevga"))
    b = tavli.Board("backgammon")
    b.push(b.legal_plays((6, 5))[0])
    assert "pips X 156 O 167" in str(b)
    assert "pips X 1 O 14" in str(bear_off_win())
    rc, out, _ = run("plays", START_XGID, "--dice", "6-5")
    assert rc == 0 and "pips X 167 O 167" in out


def test_eval_of_a_sure_single_win():
    # Every roll bears the last checker off: at 1 ply the value is exact, win 1, no gammon, +1.
    for form in (bear_off_win().id(), bear_off_win().gnubg_id()):
        rc, out, err = run("eval", form, "--plies", "1", "--evaluator", "heuristic")
        assert rc == 0, err
        assert "1-ply" in out
        row = out.strip().splitlines()[-1].split()
        assert row == ["1.000", "0.000", "0.000", "0.000", "0.000", "+1.000"], out


def test_rollout_of_a_sure_single_win():
    rc, out, err = run("rollout", bear_off_win().id(), "--trials", "72", "--player", "heuristic")
    assert rc == 0, err
    assert "rollout: 72 trials, heuristic on both sides, seed 0" in out
    mean, ci = out.strip().splitlines()[-2:]
    assert mean.split() == ["mean", "1.000", "0.000", "0.000", "0.000", "0.000", "+1.000"]
    assert ci.split() == ["95%", "+-", "0.000", "0.000", "0.000", "0.000", "0.000", "0.000"]
    assert err == ""  # stderr is not a terminal here: no progress bar unless asked


def test_rollout_in_chunks_is_board_rollout_bit_for_bit():
    # The command plays its trials in chunks for the bar; the combined moments are the one-call result.
    board = tavli.Board("portes")
    rc, out, err = run("rollout", board.id(), "--trials", "300", "--player", "heuristic", "--truncate", "6",
                       "--seed", "5", "--progress")
    assert rc == 0, err
    r = board.rollout(300, "heuristic", truncate=6, seed=5)
    p = r.probabilities
    mean = out.strip().splitlines()[-2].split()
    assert mean == ["mean"] + [f"{v:.3f}" for v in (p.win, p.win_double, p.win_triple, p.lose_double,
                                                    p.lose_triple)] + [f"{r.equity:+.3f}"]
    assert "300 trials valued by the evaluator" in out
    # --progress on a stream that is no terminal: whole lines, no carriage returns.
    assert "\r" not in err and err.strip().splitlines()[-1].startswith("[" + "#" * 30 + "] 300/300 trials")


def test_rollout_with_the_luck_at_0_ply_is_board_rollout_bit_for_bit():
    board = tavli.Board("portes")
    rc, out, err = run("rollout", board.id(), "--trials", "72", "--player", "search:1", "--truncate", "2",
                       "--seed", "4", "--variance-reduction", "--luck", "heuristic")
    assert rc == 0, err
    assert "variance reduction (luck by heuristic at 0 plies), 1 thread" in out
    r = board.rollout(72, "search:1", truncate=2, seed=4, variance_reduction=True, luck_evaluator="heuristic")
    assert out.strip().splitlines()[-2].split()[-1] == f"{r.equity:+.3f}"


def test_rollout_of_a_rolls_plays_is_board_rollout_plays():
    board = tavli.Board("backgammon")
    board.push(board.legal_plays((3, 1))[0])
    rc, out, err = run("rollout", board.id(), "--dice", "6-4", "--candidates", "3", "--trials", "72", "--seed", "2",
                       "--variance-reduction", "--threads", "2")
    assert rc == 0, err
    assert "rollout of 3 plays of 6-4: 72 trials each on the same dice, greedy on both sides, seed 2" in out
    r = board.rollout_plays((6, 4), 3, 72, seed=2, variance_reduction=True)
    lines = out.splitlines()
    rows = [line.split() for line in lines[next(i for i, x in enumerate(lines) if "v best" in x) + 1:]]
    assert [row[0] for row in rows] == ["1", "2", "3"]
    for row, p in zip(rows, r):
        assert " ".join(row[1:-4 if p.difference_std_error else -2]).startswith(str(p.play))
        if p.difference_std_error:
            assert row[-4:] == [f"{p.equity:+.3f}", f"{1.959963984540054 * p.rollout.equity_std_error:.3f}",
                                f"{p.difference:+.3f}", f"{1.959963984540054 * p.difference_std_error:.3f}"]
        else:
            assert row[-2:] == [f"{p.equity:+.3f}", f"{1.959963984540054 * p.rollout.equity_std_error:.3f}"]
    rc, out, err = run("rollout", board.id(), "--dice", "6-4", "--all", "--trials", "36")
    assert rc == 0 and f"rollout of {len(board.legal_plays((6, 4)))} plays of 6-4" in out
    # With a match score: cubefully, the MWC and the equity in EMG.
    rc, out, err = run("rollout", board.id(), "--dice", "6-4", "--candidates", "2", "--trials", "36", "--length", "7",
                       "--score", "2-4")
    assert rc == 0, err
    assert "handling the cube" in out and "7-point match, white 2 black 4: equity in EMG" in out
    r = board.rollout_plays((6, 4), 2, 36, match=tavli.MatchState(7, (2, 4)))
    lines = out.splitlines()
    first = lines[next(i for i, x in enumerate(lines) if "v best" in x) + 1].split()
    assert first[-3:] == [f"{r[0].rollout.mwc:.3f}", f"{r[0].equity:+.3f}",
                          f"{1.959963984540054 * r[0].rollout.equity_std_error:.3f}"]


def test_progress_only_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert not wanted(False, False, io.StringIO()) and wanted(True, False, io.StringIO())
    assert wanted(False, False, Tty()) and not wanted(True, True, Tty())
    tty = Tty()
    bar = Bar("games", tty)
    for done in (1, 2, 3, 4):
        bar(done, 4)
    bar.close()
    assert tty.getvalue().count("\r") == 4 and tty.getvalue().endswith("4/4 games  " + tty.getvalue().split()[-1] + "\n")
    log = io.StringIO()
    bar = Bar("games", log)
    for done in range(1, 101):
        bar(done, 100)
    assert "\r" not in log.getvalue() and len(log.getvalue().splitlines()) == 11  # the first, then one per tenth


def test_review_checks_its_numbers_first_and_shows_progress_only_on_a_terminal():
    from io_helpers import DATA

    path = DATA / "hand_3pt.mat"  # a 3-point match written by hand (tests/test_review.py)
    for bad, named in ((["--plies", "-1"], "--plies"), (["--threads", "0"], "--threads"),
                       (["--trials", "0"], "--trials"), (["--plies", "1", "--luck-plies", "2"], "--luck-plies")):
        rc, out, err = run("review", str(path), *bad)
        assert rc == 2 and out == "" and f"argument {named}" in err, (bad, err)
    rc, out, err = run("review", str(path), "--plies", "0")  # stderr is no terminal here: no bar
    plays = int(re.search(r"^(\d+) plays in ", out, re.M).group(1))
    assert rc == 0 and err == "" and plays > 0
    rc, out, err = run("review", str(path), "--plies", "0", "--progress")
    assert rc == 0 and "\r" not in err and err.strip().splitlines()[-1].startswith(f"[{'#' * 30}] {plays}/{plays} plays")


def test_wilson_interval_against_published_values():
    # Wilson (1927) at 95%: 0 of 10 -> [0, 0.2775], 10 of 10 -> [0.7225, 1], 50 of 100 ->
    # [0.4038, 0.5962] (by hand: centre 0.5, half-width 1.96/1.0384 * sqrt(0.0025 + 0.000096)).
    assert wilson_interval(0, 10) == (0.0, pytest.approx(0.27753, abs=1e-5))
    assert wilson_interval(10, 10) == (pytest.approx(0.72247, abs=1e-5), 1.0)
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.40383, abs=1e-5) and hi == pytest.approx(0.59617, abs=1e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_simulate_prints_wilson_intervals_inside_zero_one():
    rc, out, err = run("simulate", "--variant", "fevga", "--games", "6", "--players", "greedy,random", "--seed", "3")
    assert rc == 0, err
    assert "95% CI (Wilson)" in out and err == ""
    rows = [line for line in out.splitlines() if "(white)" in line or "(black)" in line][1:]
    for row in rows:
        wins, rate = int(row.split()[-5]), float(row.split()[-4])
        lo, hi = map(float, re.search(r"\[([\d.]+), ([\d.]+)\]", row).groups())
        assert 0.0 <= lo <= rate <= hi <= 1.0 and lo < hi
        assert (lo, hi) == tuple(round(v, 3) for v in wilson_interval(wins, 6))


def test_the_caps_are_stated_in_help():
    for command, cap in (("analyze", "default 60; 0: no limit"), ("eval", "default 60; 0: no limit"),
                         ("rollout", "default 0: no limit")):
        rc, out, _ = run(command, "--help")
        assert rc == 0 and cap in " ".join(out.split()), command


def test_cubeful_rollout_of_a_sure_single_win():
    """Every trial wins singly: No double +1, Double/take +2 (the cube at 2), Double/pass +1, so
    double and the opponent passes; with no error at all."""
    rc, out, err = run("rollout", bear_off_win().id(), "--trials", "36", "--player", "heuristic", "--cube", "1")
    assert rc == 0, err
    assert "cubeful rollout: 36 trials" in out
    assert re.search(r"no double\s+\+1\.0000\s+0\.0000", out), out
    assert re.search(r"double/take\s+\+2\.0000\s+0\.0000", out), out
    assert "proper action: double, pass; the opponent would pass" in out
    rc, out, err = run("rollout", "--variant", "portes", "--start", "--trials", "36", "--length", "5")
    assert rc == 2 and "portes has no doubling cube" in err
