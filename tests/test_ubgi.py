"""The UBGI line protocol (python/tavli/ubgi.py, docs/ubgi.md): scripted sessions through main() with
in-memory streams, and one real engine process driven through pipes (stop during a long search).

Expected positions are built by hand from the rule books' start layouts (RULES.md §1, §2) and
compared by ID; expected best moves are the engine's own analysis with the same settings (the
protocol must pass them through unchanged); finished games have exact values (gnubg's scoring)."""

from __future__ import annotations

import io
import os
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import tavli
from tavli.ubgi import format_play, main

from helpers import make_board

START_GNUBG = "4HPwATDgc/ABMA"  # GNU Backgammon's start position (gnubg manual)
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"  # XG's start, no roll
# A Fevga middle game (White to move): White 11 on his start r0, singles on r2, r4, r10, r23;
# Black 8 on his start, r3, r5, 3 on r6, r8, r17 (each side in its own frame, RULES.md §1.1).
FEVGA_MIDDLE = make_board(
    "fevga", {0: 11, 2: 1, 4: 1, 10: 1, 23: 1}, {0: 8, 3: 1, 5: 1, 6: 3, 8: 1, 17: 1}
)


def session(script: str, argv: list[str] | None = None) -> list[str]:
    """Runs main() over the script's lines; returns the engine's output lines."""
    out = io.StringIO()
    assert main(argv or [], io.StringIO(script), out) == 0
    return out.getvalue().splitlines()


def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("error ")]


def position_id(lines: list[str]) -> str:
    found = [line.split()[2] for line in lines if line.startswith("value game.position ")]
    assert len(found) == 1, lines
    return found[0]


def search_lines(lines: list[str]) -> tuple[list[str], list[str], str]:
    """(per-depth info lines, multipv lines, the bestmove's move text)."""
    depth_lines = [line for line in lines if line.startswith("info depth ")]
    multipv = [line for line in lines if line.startswith("info multipv ")]
    best = [line[len("bestmove "):] for line in lines if line.startswith("bestmove ")]
    assert len(best) == 1, lines
    return depth_lines, multipv, best[0]


def field(line: str, name: str) -> str:
    words = line.split()
    return words[words.index(name) + 1]


def pv(line: str) -> str:
    return line.split(" pv ", 1)[1]


# --- handshake and options -------------------------------------------------------------------------
def test_handshake_identifies_lists_options_and_ends_with_ubgiok():
    lines = session("ubgi\nisready\n")
    assert lines[0] == "id name tavli"
    assert lines[1].startswith("id author ")
    assert lines[2] == f"id version {tavli.__version__}"
    assert lines[3] == "proto 0.2"
    assert lines[-2:] == ["ubgiok", "readyok"]
    variant = next(line for line in lines if line.startswith("option name Variant "))
    assert variant.split()[3:7] == ["type", "combo", "default", "backgammon"]
    assert re.findall(r"var (\S+)", variant) == tavli.variants()
    assert "option name Plies type spin default 1 min 0 max 32" in lines
    assert "option name MoveFormat type combo default gnubg var gnubg var steps" in lines
    # v0.2 keys: engine.ply counts the root ply (gnubg's 1 ply is UBGI's 2); "!" marks minor options
    assert any(line.startswith("key engine.ply int 1..33 2 ") for line in lines)
    assert any(line.startswith("key engine.threads int 1..64 1 ! ") for line in lines)
    assert any(line.startswith("key game.variant enum fevga|moultezim|") for line in lines)
    assert not errors(lines)


def test_rule_flags_are_listed_for_the_selected_game():
    lines = session("setoption name Variant value fevga\noptions\nkeys\n")
    # RULES.md §8 D-RUNNER: threshold 13 by default, 12 as the alternative
    assert "option name runner_threshold type combo default 13 var 13 var 12" in lines
    assert "option name unblock type combo default R4_result var R4_result var R3_bkgm_start_of_turn var none" in lines
    assert any(line.startswith("key game.runner_threshold enum 13|12 13 ") for line in lines)
    backgammon = session("ubgi\n")  # backgammon has no rule flags
    assert not [line for line in backgammon if "runner_threshold" in line]


def test_setoption_and_set_agree_and_get_reads_back():
    lines = session(
        "setoption name plies value 2\nget engine.ply\n"  # UCI names are case-insensitive
        "set engine.ply 4\nget engine.ply\n"
        "setoption name MultiPV value 5\nget engine.multipv\n"
        "set game.variant φεύγα\nget game.variant\n"  # the engine's aliases are accepted
        "setoption name runner_threshold value 12\nget game.runner_threshold\nget game.position\n"
    )
    values = [line for line in lines if line.startswith("value ")]
    assert values[:5] == [
        "value engine.ply 3",
        "value engine.ply 4",
        "value engine.multipv 5",
        "value game.variant fevga",
        "value game.runner_threshold 12",
    ]
    assert position_id(lines) == tavli.Board("fevga", runner_threshold=12).id()
    assert not errors(lines)


# --- positions -------------------------------------------------------------------------------------
def test_gnubg_id_and_xgid_of_the_start_are_the_start():
    start = tavli.Board("backgammon").id()
    assert position_id(session(f"position gnubgid {START_GNUBG}\nget game.position\n")) == start
    assert position_id(session(f"position xgid {START_XGID}\nget game.position\n")) == start
    assert position_id(session("position startpos\nget game.position\n")) == start


def test_moves_after_a_gnubg_id_give_the_hand_built_position():
    lines = session(f"position gnubgid {START_GNUBG} moves 31 8/5 6/5\nget game.position\nget game.turn\n")
    # White's 8/5 6/5 makes his 5-point (point n is route index 24 - n); Black, untouched, is to move
    white = {0: 2, 11: 5, 16: 2, 18: 4, 19: 2}
    black = {0: 2, 11: 5, 16: 3, 18: 5}
    assert position_id(lines) == make_board("backgammon", black, white, turn=1).id()
    assert "value game.turn p1" in lines


def test_steps_form_and_dashed_dice_are_accepted_in_moves():
    a = session(f"position gnubgid {START_GNUBG} moves 6-5 24/18 18/13 3-1 8/5 6/5\nget game.position\n")
    b = session(f"position gnubgid {START_GNUBG} moves 65 24/13 31 8/5 6/5\nget game.position\n")
    assert position_id(a) == position_id(b)


def test_fevga_by_tavli_id_with_moves_appended():
    board = tavli.Board("fevga")
    lines = session(f"position id {board.id()} moves 65 24/13\nget game.position\nget game.variant\n")
    # RULES.md §3: all 15 start on r0; 6-5 carries one checker from the start to r11 (24/13)
    white = {0: 14, 11: 1}
    black = {0: 15}
    assert position_id(lines) == make_board("fevga", black, white, turn=1).id()
    assert "value game.variant fevga" in lines  # a tavli ID selects its game


def test_a_tavli_id_carries_its_rule_flags():
    board = tavli.Board("plakoto", mother="at_pin_only")
    lines = session(f"position id {board.id()}\nget game.mother\nget game.variant\n")
    assert lines == ["value game.mother at_pin_only", "value game.variant plakoto"]


def test_xgid_roll_becomes_the_dice_and_setturn_colours_a_gnubg_id():
    lines = session(
        "position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10\nget game.dice\n"
        f"setturn p1\nposition gnubgid {START_GNUBG}\nget game.turn\nget game.dice\n"
    )
    assert lines == ["value game.dice 5 2", "value game.turn p1", "value game.dice none"]


# --- searches --------------------------------------------------------------------------------------
CASES = [
    ("backgammon", tavli.Board("backgammon").id(), (6, 5), 2),
    ("backgammon", tavli.Board.from_gnubg_id("sG/BgCGMM+YAIw").id(), (4, 4), 1),  # GammOnLine example
    ("fevga", FEVGA_MIDDLE.id(), (6, 5), 2),
    ("plakoto", tavli.Board("plakoto").id(), (3, 1), 2),
]


@pytest.mark.parametrize("variant,pid,dice,depth", CASES)
def test_go_with_a_fixed_depth_answers_the_engines_first_choice(variant, pid, dice, depth):
    board = tavli.Board.from_id(pid)
    analysis = board.analyze(dice, plies=depth)
    lines = session(f"position id {pid}\ndice {dice[0]} {dice[1]}\ngo depth {depth}\n")
    depth_lines, multipv, best = search_lines(lines)
    assert best == str(analysis[0].play)
    assert [int(field(line, "depth")) for line in depth_lines] == list(range(depth + 1))
    assert pv(depth_lines[-1]) == best
    # MultiPV (default 3): the engine's ranking, with its probabilities and equity
    assert len(multipv) == min(3, len(analysis))
    for k, (line, ap) in enumerate(zip(multipv, analysis), 1):
        assert field(line, "multipv") == str(k)
        assert pv(line) == str(ap.play)
        assert int(field(line, "depth")) == ap.plies
        assert float(field(line, "eq")) == pytest.approx(ap.equity, abs=1e-6)
        assert float(field(line, "pwin")) == pytest.approx(ap.probabilities.win, abs=1e-6)
        assert float(field(line, "pgammon")) == pytest.approx(ap.probabilities.win_double, abs=1e-6)
        assert float(field(line, "plgammon")) == pytest.approx(ap.probabilities.lose_double, abs=1e-6)


def test_go_options_role_multipv_and_move_format():
    board = tavli.Board("backgammon")
    analysis = board.analyze((3, 3), plies=1)
    lines = session(
        "setoption name MoveFormat value steps\n"
        f"position gnubgid {START_GNUBG}\ndice 3 3\ngo role chequer depth 1 multipv 6\n"
    )
    _, multipv, best = search_lines(lines)
    assert best == format_play(analysis[0].play, "steps")
    assert "(" not in best and "*" not in best  # draft 0.01's form: every step, no counts or marks
    assert board.parse_play(best, (3, 3)).result_key == analysis[0].play.result_key
    assert [pv(line) for line in multipv] == [format_play(ap.play, "steps") for ap in analysis[:6]]


def test_threads_do_not_change_the_answer():
    script = f"position id {FEVGA_MIDDLE.id()}\ndice 4 2\ngo depth 2\n"
    one = session("setoption name Threads value 1\n" + script)
    two = session("set engine.threads 2\n" + script)
    assert search_lines(one)[1:] == search_lines(two)[1:]


def test_node_and_time_limits_still_answer_a_legal_play():
    # 6-4 keeps three plays to 3 plies (800k nodes there); with 6-5 the filters leave one play
    # after 2 plies and the search ends there, limits or not (gnubg's rule: search.h).
    legal = {str(p) for p in FEVGA_MIDDLE.legal_plays((6, 4))}
    for limit in ("nodes 200", "movetime 30"):
        lines = session(f"position id {FEVGA_MIDDLE.id()}\ndice 6 4\ngo depth 6 {limit}\n")
        depth_lines, _, best = search_lines(lines)
        assert best in legal
        assert int(field(depth_lines[-1], "depth")) < 6  # cut short: depth 6 needs millions of nodes


def test_go_infinite_answers_only_after_stop_or_end_of_input():
    lines = session(
        "set engine.maxtime 500\n"  # bounds the call that stop abandons (the test waits for it)
        f"position id {FEVGA_MIDDLE.id()}\ndice 6 5\ngo infinite\nposition startpos\n"
    )
    assert "error bad_state search in progress: send stop before position" in lines
    assert search_lines(lines)[2] in {str(p) for p in FEVGA_MIDDLE.legal_plays((6, 5))}


def test_stop_in_process_answers_with_a_legal_play():
    # everything is read at once: stop comes while depth 8 (minutes) runs; the abandoned engine call
    # ends at MaxTime, and main() waits for it before returning
    lines = session(f"set engine.maxtime 1000\nposition id {FEVGA_MIDDLE.id()}\ndice 6 5\n"
                    "go depth 8\nstop\nisready\n")
    depth_lines, _, best = search_lines(lines)
    assert best in {str(p) for p in FEVGA_MIDDLE.legal_plays((6, 5))}
    assert lines[-1] == "readyok"
    assert all(int(field(line, "depth")) < 8 for line in depth_lines)  # none if stopped before depth 0


def test_draft_001_bare_xgid_asks_for_the_best_action():
    board = tavli.Board.from_xgid(START_XGID)
    lines = session("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10\n")
    assert search_lines(lines)[2] == str(board.analyze((5, 2), plies=1)[0].play)


def test_legal_moves_listing_is_the_engines_list():
    for pid, dice in ((tavli.Board("backgammon").id(), (2, 2)), (FEVGA_MIDDLE.id(), (6, 5))):
        board = tavli.Board.from_id(pid)
        lines = session(f"position id {pid}\ndice {dice[0]} {dice[1]}\nlegalmoves\n")
        plays = board.legal_plays(dice)
        assert lines == [f"legalmove {p}" for p in plays] + [f"legalmovesok {len(plays)}"]


def test_a_blocked_side_passes():
    # Fevga: White's last checker on r12 faces Black's points r13..r18 (my frame) -- Black holds
    # his r1..r6, which are White's r13..r18 (parallel movement, RULES.md §1.1): no die can move it
    board = make_board("fevga", {12: 1}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 20: 3})
    lines = session(f"position id {board.id()}\ndice 6 5\nlegalmoves\ngo depth 1\n")
    assert lines[:2] == ["legalmove pass", "legalmovesok 1"]
    assert search_lines(lines)[2] == "pass"


def test_eval_matches_the_engine_and_is_exact_when_the_game_is_over():
    board = tavli.Board("backgammon")
    value = board.evaluate(plies=1)
    lines = session("position startpos\neval depth 1\n")
    evals = [line for line in lines if line.startswith("eval ")]
    assert len(evals) == 1 and field(evals[0], "depth") == "1"
    assert float(field(evals[0], "eq")) == pytest.approx(value.equity, abs=1e-6)
    assert float(field(evals[0], "pwin")) == pytest.approx(value.probabilities.win, abs=1e-6)
    # gnubg's scoring (RULES.md §2): Black has borne off all; White, to move, has borne off one
    # (single, -1), none (gammon, -2), none with a checker in Black's home board (backgammon, -3)
    for white, eq, plgammon, plbg in (({18: 14}, -1, 0, 0), ({18: 15}, -2, 1, 0), ({0: 1, 18: 14}, -3, 1, 1)):
        over = make_board("backgammon", white, {})
        lines = session(f"position id {over.id()}\neval\ndice 6 5\ngo\n")
        assert [line for line in lines if line.startswith("eval ")] == [
            f"eval eq {eq:.6f} pwin 0.000000 pgammon 0.000000 pbg 0.000000 plgammon {plgammon:.6f} "
            f"plbg {plbg:.6f} pdraw 0.000000 margin 0.000000 depth 1"
        ]
        kind = ("single", "double", "triple")[-eq - 1]
        assert lines[-1] == f"error bad_state the game is over: p1 won {-eq} ({kind})"


# --- errors never end the engine -------------------------------------------------------------------
BAD = [
    ("frobnicate now", "error bad_command unknown command 'frobnicate now'"),
    ("dice", "error bad_command expected: dice <d1> <d2>"),
    ("dice 7 1", "error bad_value dice: "),
    ("dice 6 5 4", "error bad_command expected: dice <d1> <d2>"),
    ("go", "error bad_state missing dice"),
    ("eval depth x", "error bad_value depth: expected an integer 0..32, got 'x'"),
    ("go depth 33", "error bad_value depth: 33 is outside 0..32"),
    ("go movetime", "error bad_command go: 'movetime' needs a value"),
    ("go sideways", "error bad_command go: unknown argument 'sideways'"),
    ("go cube multipv 2", "error bad_command go cube: multipv and infinite are for checker play"),
    ("go role turn", "error unsupported go turn: "),
    ("go role dance", "error bad_value go role: expected chequer, cube or take, got 'dance'"),
    ("position", "error bad_command expected: position start|"),
    ("position sideways", "error bad_command expected: position start|"),
    ("position gnubgid", "error bad_command expected: position start|"),
    ("position gnubgid !!!notanid!!", "error bad_value position gnubgid: "),
    ("position xgid XGID=nonsense", "error bad_value position xgid: "),
    ("position id fevga:garbage", "error bad_value position id: "),
    ("position startpos moves 65 24/12", "error bad_value moves: play 1 (65 24/12): "),
    ("position startpos moves 24/13", "error bad_value moves: expected a roll such as 65 or 6-5 before each play"),
    ("position startpos moves 65", "error bad_value moves: play 1 (roll 65) has no move text"),
    ("position startpos then", "error bad_command expected: position start|"),
    ("setoption name Variant value chess", "error bad_value option Variant: unknown variant 'chess'"),
    ("setoption name Plies value -1", "error bad_value option Plies: -1 is outside 0..32"),
    ("setoption name MoveFormat value xml", "error bad_value option MoveFormat: expected one of gnubg|steps"),
    ("setoption name Hash value 64", "error unsupported option Hash: no such option"),
    ("setoption Plies 2", "error bad_command expected: setoption name <Name> value <Value>"),
    ("setoption name EvalMode value cubefull", "error bad_value option EvalMode: expected one of cubeless|cubeful"),
    ("set engine.ply 0", "error bad_value engine.ply: 0 is outside 1..33"),
    ("set game.position x", "error bad_state game.position is read-only"),
    ("set engine.nothing 1", "error unsupported engine.nothing: no such key"),
    ("set", "error bad_command expected: set <key> <value>"),
    ("get engine.nothing", "error unsupported get engine.nothing: no such key"),
    ("setscore 1 0", "error bad_state setscore 1 0: a money session has no score"),
    ("setcube value 3 owner p0", "error bad_value setcube: "),
    ("setcube value 2 owner north", "error bad_value setcube owner: expected center, p0 or p1"),
    ("newsession type match", "error bad_value newsession: a match needs length N"),
    ("setturn p2", "error bad_value setturn: expected p0 or p1"),
    ("legalmoves now", "error bad_command expected: legalmoves"),
]


def test_bad_commands_get_an_error_line_and_the_engine_goes_on():
    lines = session("".join(f"{command}\nisready\n" for command, _ in BAD))
    assert len(lines) == 2 * len(BAD)
    for (command, expected), (answer, ready) in zip(BAD, zip(lines[::2], lines[1::2])):
        assert answer.startswith(expected), (command, answer)
        assert ready == "readyok", command


def test_rule_flag_errors_name_the_allowed_values():
    lines = session("setoption name Variant value fevga\nsetoption name runner_threshold value 11\n"
                    "set game.mother state\n")
    assert lines[0].startswith("error bad_value option runner_threshold: ") and "13, 12" in lines[0]
    assert lines[1].startswith("error unsupported game.mother: no such key (rule flags of fevga: runner_threshold")


def test_gnubg_ids_need_a_backgammon_movement_game():
    lines = session(f"setoption name Variant value fevga\nposition gnubgid {START_GNUBG}\n")
    assert lines[0].startswith("error bad_value position gnubgid: ") and "backgammon-movement" in lines[0]


def test_overlong_and_odd_lines_are_refused_and_blank_lines_ignored():
    lines = session("x" * 70_000 + "\n\n   \nisready\n\u00e9\u00e8 \u0000\nisready\n")
    assert lines[0] == "error bad_command line longer than 65536 characters ignored"
    assert lines[1] == "readyok"
    assert lines[2].startswith("error bad_command unknown command ")
    assert lines[3] == "readyok"


def test_quit_ends_the_session_and_end_of_input_ends_it_cleanly():
    assert session("ubgi\nquit\nisready\n")[-1] == "ubgiok"
    assert session("isready") == ["readyok"]  # no newline before the end
    assert session("") == []


def test_the_same_script_gives_the_same_answers():
    script = f"position id {FEVGA_MIDDLE.id()}\ndice 5 3\ngo depth 2\neval depth 2\nlegalmoves\n"
    clock = re.compile(r" (time_ms|nps) \d+")
    first, second = ([clock.sub("", line) for line in session(script)] for _ in range(2))
    assert first == second


# --- a real engine process --------------------------------------------------------------------------
class Engine:
    """`python -m tavli.ubgi` behind pipes; every read has a deadline, so nothing can hang."""

    def __init__(self) -> None:
        root = Path(tavli.__file__).resolve().parent.parent
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tavli.ubgi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, encoding="utf-8", env=env,
        )
        self.lines: "queue.Queue[str | None]" = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix: str, timeout: float = 30) -> list[str]:
        got = []
        while True:
            line = self.lines.get(timeout=timeout)  # queue.Empty: the engine hung
            assert line is not None, f"the engine ended before {prefix!r}: {got}"
            got.append(line)
            if line.startswith(prefix):
                return got

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)


def test_a_real_engine_process_stops_a_long_search_and_quits():
    engine = Engine()
    try:
        engine.send("ubgi")
        assert engine.read_until("ubgiok")[0] == "id name tavli"
        engine.send("isready")
        assert engine.read_until("readyok") == ["readyok"]
        engine.send(f"position id {FEVGA_MIDDLE.id()}")
        engine.send("dice 6 5")
        engine.send("go depth 8")  # many minutes of work (depth 5 alone takes tens of seconds)
        engine.read_until("info depth 1")
        engine.send("stop")
        answer = engine.read_until("bestmove")  # a deadline of 30 s, not the search's minutes
        best = answer[-1][len("bestmove "):]
        assert best in {str(p) for p in FEVGA_MIDDLE.legal_plays((6, 5))}
        depths = [int(field(line, "depth")) for line in answer if line.startswith("info depth ")]
        assert not depths or max(depths) < 5
        engine.send("isready")  # still answering after the stop
        assert engine.read_until("readyok") == ["readyok"]
        engine.send("position startpos moves 65 24/13")
        engine.send("dice 1 1")
        engine.send("go depth 1")
        assert engine.read_until("bestmove")[-1].startswith("bestmove ")
        engine.send("bogus")
        assert engine.read_until("error") == ["error bad_command unknown command 'bogus'"]
        engine.send("quit")
        assert engine.proc.wait(timeout=30) == 0
        assert engine.lines.get(timeout=30) is None  # nothing after quit
        assert engine.proc.stderr.read() == ""
    finally:
        engine.close()


def test_a_real_engine_process_ends_at_end_of_input():
    engine = Engine()
    try:
        engine.send("position startpos")
        engine.send("dice 6 5")
        engine.send("go depth 1")
        engine.proc.stdin.close()  # the GUI went away: the bounded search still answers
        assert engine.read_until("bestmove")[-1] == f"bestmove {tavli.Board('backgammon').analyze((6, 5))[0].play}"
        assert engine.proc.wait(timeout=30) == 0
    finally:
        engine.close()


# --- the cube and the score (issue 15: go cube, go take, setcube, setscore, XGIDs' cube fields) ----
# Hand-worked last-roll races (no gammons possible: every checker of both sides but these is off).
# White (bottom) one checker on his 1-point, Black one on his: White wins on any roll, p = 1.
CERTAIN_WIN = "-A----------------------a-"
# White two checkers on his 6-point: only 3-3, 4-4, 5-5, 6-6 bear both off (p = 4/36 = 1/9); if
# not, Black bears his last checker off. Money, centred cube, bear-off efficiency x = 0.6 (gnubg):
# dead E = 2p - 1 = -7/9; live (Janowski, W = L = 1, take point 0.2 > p) = -1; so No double =
# 0.4 * -7/9 + 0.6 * -1 = -0.911111, and Double/take twice that with Black owning the cube.
LAST_ROLL_9TH = "------B-----------------a-"


def cube_info(lines: list[str]) -> dict[str, str]:
    info = [line.split() for line in lines if line.startswith("info role ")]
    assert len(info) == 1, lines
    words = info[0][1:]
    return dict(zip(words[::2], words[1::2]))


def test_go_cube_and_go_take_on_hand_worked_last_roll_races():
    lines = session(f"position xgid XGID={LAST_ROLL_9TH}:0:0:1:00:0:0:0:0:10\ngo cube\ngo take\n"
                    f"position xgid XGID={CERTAIN_WIN}:0:0:1:00:0:0:0:0:10\ngo role cube\ngo role take depth 0\n")
    assert errors(lines) == []
    answers = [line for line in lines if not line.startswith("info ")]
    assert answers == ["bestcube nodouble", "take", "bestcube double", "drop"]
    info = [dict(zip(w[1::2], w[2::2])) for w in (line.split() for line in lines if line.startswith("info role "))]
    assert float(info[0]["pwin"]) == pytest.approx(1 / 9, abs=1e-6)
    assert float(info[0]["nd"]) == pytest.approx(0.4 * (2 / 9 - 1) - 0.6, abs=1e-5)
    assert float(info[0]["dt"]) == pytest.approx(2 * (0.4 * (2 / 9 - 1) - 0.6), abs=1e-5)
    assert float(info[0]["dp"]) == 1.0 and info[0]["efficiency"] == "0.6000"
    assert info[2]["action"] == "double_pass" and float(info[2]["pwin"]) == pytest.approx(1.0)


def test_bare_xgid_before_a_roll_answers_double_or_roll_and_to_a_double_take_or_drop():
    """Draft 0.01: a bare position asks for the best action: double/roll, or take/drop after D."""
    lines = session(f"XGID={LAST_ROLL_9TH}:0:0:1:00:0:0:0:0:10\nXGID={LAST_ROLL_9TH}:0:0:1:D:0:0:0:0:10\n"
                    f"XGID={CERTAIN_WIN}:0:0:1:00:0:0:0:0:10\nXGID={CERTAIN_WIN}:0:0:1:D:0:0:0:0:10\n"
                    # Black owns the 2-cube: White cannot double, so he rolls even with a sure win
                    f"XGID={CERTAIN_WIN}:1:-1:1:00:0:0:0:0:10\n")
    assert [line for line in lines if not line.startswith("info ")] == ["roll", "take", "double", "drop", "roll"]
    assert "action cube_not_available" in lines[-2]


def test_the_xgids_cube_and_score_are_the_decisions_and_agree_with_tavli_cube_decide():
    """A 7-point match at 3-1, White owning a 2-cube (the XGID's fields): the answer is
    tavli.cube.decide on the probabilities and efficiency the engine reports, with that state."""
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:1:0:7:10"
    lines = session(f"position xgid {xgid}\nget game.cube\nget game.score\ngo cube depth 0\n")
    assert lines[:2] == ["value game.cube value 2 owner p0", "value game.score length 7 score 3 1"]
    info = cube_info(lines)
    names = ("pwin", "pgammon", "pbg", "plgammon", "plbg")
    expected = tavli.cube.decide([float(info[n]) for n in names], tavli.CubeState(2, 0), tavli.MatchState(7, (3, 1)),
                                 mover=0, efficiency=float(info["efficiency"]))
    for key, value in (("nd", expected.nd), ("dt", expected.dt), ("dp", expected.dp), ("ndmwc", expected.nd_mwc),
                       ("dtmwc", expected.dt_mwc), ("dpmwc", expected.dp_mwc)):
        assert float(info[key]) == pytest.approx(value, abs=2e-6), key
    assert info["action"] == expected.action.replace(", ", "_").replace(" ", "_")
    assert lines[-1] == ("bestcube double" if expected.action.startswith("double") else "bestcube nodouble")


def test_setcube_and_setscore_set_the_state_go_cube_decides_with():
    script = ("newsession type match length 5\nsetscore 4 2 crawford\nget game.score\ngo cube depth 0\n"
              "setscore 2 3\nsetcube value 2 owner p1\nget game.cube\ngo cube depth 0\ngo take depth 0\n"
              "newgame\nget game.cube\nget game.score\nsetscore 5 0\nnewsession type money jacoby on\n"
              "setcube value 2 owner p0\ngo cube depth 0\n")
    lines = session(script)
    assert lines[0] == "value game.score length 5 score 4 2 crawford"
    assert "action cube_not_available" in lines[1] and lines[2] == "bestcube nodouble"  # the Crawford game
    assert lines[3] == "value game.cube value 2 owner p1"
    assert "action cube_not_available" in lines[4] and lines[5] == "bestcube nodouble"  # Black owns it
    assert lines[6] == "error bad_state go take: p0 to move does not own the cube, so cannot double"
    assert lines[7:9] == ["value game.cube value 1 owner center", "value game.score length 5 score 2 3"]
    assert lines[9].startswith("error bad_value setscore p0: expected an integer 0..4, got '5'")
    info = cube_info(lines[10:])
    assert "mwc" not in info and info["dt"] != "none" and lines[-1] in ("bestcube double", "bestcube nodouble")


def test_go_take_is_refused_where_the_doubler_has_no_cube_to_turn():
    """5-point match, White leading 4-2 post-Crawford: he wins the match with the cube at 1, so
    doubling gains him nothing and the cube is not available to him (gnubg's rule)."""
    lines = session("newsession type match length 5\nsetscore 4 2\ngo take depth 0\n")
    assert lines == ["error bad_state go take: p0 to move may not double here (cube not available)"]


def test_games_without_a_cube_refuse_cube_commands_and_take_the_score():
    lines = session("setoption name Variant value tavla\nnewsession type match length 5\nsetscore 1 3\n"
                    "get game.score\nsetcube value 1 owner center\nsetcube value 2 owner p0\ngo cube\ngo take\n"
                    "newsession type money jacoby on\n")
    assert lines == [
        "value game.score length 5 score 1 3",
        "error unsupported setcube value 2 owner p0: tavla has no doubling cube",
        "error unsupported go cube: tavla has no doubling cube",
        "error unsupported go take: tavla has no doubling cube",
        "error unsupported newsession jacoby/beavers: tavla has no doubling cube",
    ]


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_eval_depth_n_counts_plies_as_go_depth_n(depth):
    """`eval depth N` of the position after `go depth N`'s best play is minus that play's value
    (a play's value N plies deep is its result's value N plies deep, from the other side), with
    `info depth` 0..N and `depth N` in its answer: the two count depth alike."""
    start = tavli.Board.from_gnubg_id(START_GNUBG)
    lines = session(f"position id {start.id()}\ndice 6 5\ngo depth {depth}\n")
    _, multipv, best = search_lines(lines)
    go_eq = float(field(multipv[0], "eq"))
    assert int(field(multipv[0], "depth")) == depth
    lines = session(f"position id {start.id()} moves 65 {best}\neval depth {depth}\n")
    evals = [line for line in lines if line.startswith("eval ")]
    assert len(evals) == 1 and field(evals[0], "depth") == str(depth), lines
    assert [int(field(line, "depth")) for line in lines if line.startswith("info depth ")] == list(range(depth + 1))
    assert float(field(evals[0], "eq")) == pytest.approx(-go_eq, abs=2e-6)


# ---- checker play in the session's cube and match context ----------------------------------------

def test_checker_play_at_double_match_point_maximises_the_winning_chance():
    """At 4-4 in a 5-point Tavla match any win takes the match, so the MWC of a play is its
    probability of winning (the rule book's scoring, no table needed): `go` ranks by it and
    reports it as mwc."""
    board = tavli.Board("tavla")
    lines = session("setoption name Variant value tavla\nnewsession type match length 5\nsetscore 4 4\n"
                    "dice 6 4\ngo depth 0\n")
    depth_lines, multipv, best = search_lines(lines)
    plays = board.analyze((6, 4), plies=0)
    win = max(plays, key=lambda p: p.probabilities.win)
    assert best == format_play(win.play)
    first = multipv[0].split()
    assert float(first[first.index("mwc") + 1]) == pytest.approx(win.probabilities.win, abs=2e-6)
    assert float(first[first.index("eq") + 1]) == pytest.approx(2 * win.probabilities.win - 1, abs=2e-6)
    assert all(" mwc " in line for line in depth_lines)
    # Deeper, the replies are chosen by winning chance too: each play's mwc is its own pwin.
    lines = session("setoption name Variant value tavla\nnewsession type match length 5\nsetscore 4 4\n"
                    "dice 6 4\ngo depth 1\n")
    for line in search_lines(lines)[1]:
        words = line.split()
        assert words[words.index("mwc") + 1] == words[words.index("pwin") + 1]
    # Money play has no mwc.
    money = session("setoption name Variant value tavla\ndice 6 4\ngo depth 1\n")
    assert not any(" mwc " in line for line in money)


def test_evalmode_cubeful_ranks_by_the_cubeful_search():
    from tavli.cube import CubeState, MatchState
    from tavli.cube_search import analyze as cubeful_analyze

    board = tavli.Board("backgammon")
    for context, cube, match in [("", CubeState(), MatchState()),
                                 ("newsession type match length 7\nsetscore 2 4\nsetcube value 2 owner p1\n",
                                  CubeState(2, 1), MatchState(7, (2, 4)))]:
        lines = session(f"setoption name EvalMode value cubeful\n{context}dice 4 2\ngo depth 1\n")
        assert not errors(lines), lines
        _, multipv, best = search_lines(lines)
        want = cubeful_analyze(board, (4, 2), cube, match, plies=1)
        assert best == format_play(want.best.play)
        words = multipv[0].split()
        assert float(words[words.index("eq") + 1]) == pytest.approx(want.best.equity, abs=2e-6)
        assert ("mwc" in words) == (not match.money) and "pwin" not in words  # no cubeless probabilities
    lines = session("set engine.evalmode cubeful\nget engine.evalmode\ndice 4 2\ngo depth 9\n")
    assert lines == ["value engine.evalmode cubeful",
                     "error bad_value go depth: the cubeful search (EvalMode cubeful) goes 0..8 plies deep"]


def test_cubeless_checker_play_in_a_match_counts_the_dead_cube():
    """EvalMode cubeless at 7-point 5-5 with the cube at 2: every win takes the match, so the
    ranking is by the winning chance, as at double match point."""
    board = tavli.Board("backgammon")
    lines = session("newsession type match length 7\nsetscore 5 5\nsetcube value 2 owner p1\ndice 6 4\n"
                    "go depth 0\n")
    _, multipv, best = search_lines(lines)
    plays = board.analyze((6, 4), plies=0)
    assert best == format_play(max(plays, key=lambda p: p.probabilities.win).play)
    words = multipv[0].split()
    assert float(words[words.index("mwc") + 1]) == pytest.approx(max(p.probabilities.win for p in plays), abs=2e-6)


def test_evalmode_cubeful_cube_decisions_are_the_cubeful_searchs():
    from tavli.cube_search import decide

    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    board, cube, match = tavli.parse_position(xgid)
    lines = session(f"setoption name EvalMode value cubeful\nposition xgid {xgid}\ngo cube depth 1\n")
    d = decide(board, cube, match, 1)
    words = lines[0].split()
    assert words[:4] == ["info", "role", "cube", "depth"] and words[4] == "1"
    assert float(words[words.index("nd") + 1]) == pytest.approx(d.nd, abs=2e-6)
    assert float(words[words.index("dt") + 1]) == pytest.approx(d.dt, abs=2e-6)
    assert lines[1] == ("bestcube double" if d.action.startswith("double") else "bestcube nodouble")
    # A node limit below one ply's work answers with the 0-ply formula, saying so.
    cut = session(f"setoption name EvalMode value cubeful\nposition xgid {xgid}\ngo cube depth 2 nodes 50\n")
    assert cut[0].split()[4] == "0"
    assert session("setoption name EvalMode value cubeful\ngo cube depth 9\n") == [
        "error bad_value go cube depth: the cubeful search (EvalMode cubeful) goes 0..8 plies deep"]


def test_eval_values_the_position_in_the_session_context():
    """At double match point the MWC of the position is its winning chance (rule book); with
    EvalMode cubeful it is tavli.cube_search.evaluate's value (the cube action taken)."""
    from tavli.cube_search import evaluate as cubeful_value

    tavla = session("setoption name Variant value tavla\nnewsession type match length 5\nsetscore 4 4\n"
                    "eval depth 0\n")
    words = [line for line in tavla if line.startswith("eval ")][0].split()
    win = tavli.Board("tavla").evaluate(0).probabilities.win
    assert float(words[words.index("mwc") + 1]) == pytest.approx(win, abs=2e-6)
    assert float(words[words.index("eq") + 1]) == pytest.approx(2 * win - 1, abs=2e-6)
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:4:0:9:10"  # cube 2 White's, 9-point match 3-4
    board, cube, match = tavli.parse_position(xgid)
    lines = session(f"setoption name EvalMode value cubeful\nposition xgid {xgid}\neval depth 1\n")
    words = [line for line in lines if line.startswith("eval ")][0].split()
    equity, mwc = cubeful_value(board, cube, match, 1)
    assert float(words[words.index("eq") + 1]) == pytest.approx(equity, abs=2e-6)
    assert float(words[words.index("mwc") + 1]) == pytest.approx(mwc, abs=2e-6) and "pwin" not in words
    assert words[-2:] == ["depth", "1"]
