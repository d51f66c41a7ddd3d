"""Reproducers of what fuzz/fuzz_inputs.py found, reduced to direct API calls.

Contract (README "Errors"): bad input raises ValueError or its subclasses tavli.InvalidPosition /
tavli.IllegalMove with a message that names the problem, never another exception, and leaves the
object it was called on unchanged. Every finding here has been fixed; a new one that cannot be fixed
at once is added marked xfail(strict=True), with its signature in fuzz_inputs.KNOWN.

The last test replays the committed seed corpus through the harness (skipped without atheris).
Nothing here passes dice other than int tuples to the core in this process (see
test_dice_as_text_does_not_abort_the_interpreter_at_exit).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tavli

ROOT = Path(__file__).resolve().parent.parent
# Child processes import the same tavli as this one (installed, or a source tree with the build).
PACKAGE_DIR = str(Path(tavli.__file__).resolve().parent.parent)


def finished_tavla_match() -> tavli.Match:
    """A Tavla match to 1 played out with seeded random play (one finished game)."""
    rng = tavli.Rng(5)
    m = tavli.Match("tavla", 1)
    while m.phase != "over":
        if m.phase == "opening":
            m.roll_opening(rng.die(), rng.die())
            continue
        plays = m.board.legal_plays(m.forced_dice or rng.roll())
        m.play(plays[rng.below(len(plays))])
    return m


def game_record() -> dict:
    b = tavli.Board("fevga")
    b.push(b.legal_plays((6, 5))[0])
    return b.to_record()


def refuses(fn, *args, **kwargs) -> ValueError:
    """fn(...) must raise ValueError (or a subclass) with a message; returns it."""
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    assert isinstance(info.value, ValueError), f"{type(info.value).__name__}: {info.value}"
    assert str(info.value).strip()
    assert "incompatible function arguments" not in str(info.value)
    return info.value


# --- Board.from_record ---------------------------------------------------------------------------


@pytest.mark.parametrize("result", [1, True, [1], 2.5])
def test_board_record_result_not_a_dict(result):
    rec = game_record()
    rec["result"] = result
    refuses(tavli.Board.from_record, rec)


# --- Match and Match.from_record -------------------------------------------------------------------


@pytest.mark.parametrize("options", [1, [1], 2.5, True])
def test_match_options_of_the_wrong_type(options):
    refuses(tavli.Match, "tavli", 3, options=options)
    rec = tavli.Match("tavli", 3).to_record()
    rec["options"] = options
    refuses(tavli.Match.from_record, rec)


@pytest.mark.parametrize(
    "kwargs", [{"opening": 5}, {"opening": ["reroll"]}, {"opening": {"fevga": 5}}, {"next_starter": 5}]
)
def test_match_opening_and_next_starter_of_the_wrong_type(kwargs):
    refuses(tavli.Match, "tavli", 3, **kwargs)
    rec = tavli.Match("tavli", 3).to_record()
    rec.update(kwargs)
    refuses(tavli.Match.from_json, json.dumps(rec))


@pytest.mark.parametrize("opening", [5, 2.5, True])
def test_match_record_game_opening_not_a_list(opening):
    rec = tavli.Match("tavla", 1).to_record()
    rec["games"] = [{"variant": "tavla", "opening": opening, "turns": []}]
    refuses(tavli.Match.from_record, rec)


@pytest.mark.parametrize("field, value", [("result", 1), ("result", [1]), ("score", 1), ("score", 2.5)])
def test_match_record_result_and_score_of_the_wrong_type(field, value):
    rec = finished_tavla_match().to_record()
    assert tavli.Match.from_record(copy.deepcopy(rec)).to_record() == rec  # the record itself replays
    if field == "result":
        rec["games"][0]["result"] = value
    else:
        rec["score"] = value
    refuses(tavli.Match.from_record, rec)


@pytest.mark.parametrize("dice", [(6, 2**31), (2**63, 1), (-(2**40), 3)])
def test_match_roll_opening_huge_integers(dice):
    m = tavli.Match("tavli", 3)
    before = m.to_record()
    refuses(m.roll_opening, *dice)
    assert m.to_record() == before
    rec = tavli.Match("tavli", 3).to_record()
    rec["games"] = [{"variant": "portes", "opening": [list(dice)], "turns": []}]
    refuses(tavli.Match.from_record, rec)


# --- C++ messages cut at a NUL of the input ------------------------------------------------------------


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: tavli.Board("backgammon").parse_play("x\x00y", (6, 5)), "is not a point"),
        (lambda: tavli.Board("backgammon").parse_play("13/8\x00 13/7", (6, 5)), "not"),
        (lambda: tavli.Board("fev\x00ga"), "known:"),
        (lambda: tavli.Board("fevga", unblock="R4\x00x"), "allowed"),
        (lambda: tavli.Board("fevga", **{"unb\x00lock": "R4"}), "options"),
        (lambda: tavli.Board.from_id("fevga,unblock=R4\x00x:AQAPAAAAAAAAAAAAAAAADwAAAAAAAAAAAAAAAA"), "allowed"),
    ],
)
def test_messages_keep_their_reason_after_a_nul(call, words):
    err = refuses(call)
    assert words in str(err), f"message {str(err)!r} lost its reason"


# --- the interpreter must not abort at exit ----------------------------------------------------------

EXIT_TEST = """
import tavli

def test_dice_as_text():
    assert tavli.Board("tavla").legal_plays("6-5")
"""


def test_dice_as_text_does_not_abort_the_interpreter_at_exit(tmp_path):
    """legal_plays("6-5") (any dice but a tuple of two ints 1..6) makes the core keep a Python object
    in a C++ static; in a pytest run (assertion rewriting on) the process then aborts at exit."""
    (tmp_path / "test_exit.py").write_text(EXIT_TEST)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PACKAGE_DIR, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_exit.py")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env,
    )
    assert "1 passed" in proc.stdout, proc.stdout + proc.stderr
    assert "Fatal Python error" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr}"


# --- the seed corpus replays without findings --------------------------------------------------------

REPLAY = """
import os, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
os.environ["TAVLI_FUZZ_SKIP_KNOWN"] = "1"
import fuzz_inputs
seeds = sorted(Path(sys.argv[1], "corpus").glob("*/*"))
assert len(seeds) >= 40, len(seeds)
for path in seeds:
    data = path.read_bytes()
    assert fuzz_inputs.describe(data) == path.parent.name, path
    fuzz_inputs.TestOneInput(data)
print("replayed", len(seeds))
"""


def test_seed_corpus_replays_clean():
    """Every committed seed goes through the harness with no finding other than the open ones (in a
    subprocess: the harness instruments tavli, and it passes dice as text, see the test above)."""
    pytest.importorskip("atheris")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PACKAGE_DIR, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run(
        [sys.executable, "-c", REPLAY, str(ROOT / "fuzz")], capture_output=True, text=True, timeout=300, env=env
    )
    assert proc.returncode == 0 and "replayed" in proc.stdout, proc.stdout[-2000:] + proc.stderr[-5000:]


def test_a_foreign_play_is_recorded_with_this_games_own_step_order():
    """Fuzz finding: a Fevga play pushed into a Plakoto game from the same start reaches a legal
    result with its steps in another order ((0,5),(5,10),(10,15),(0,5) against Plakoto's
    (0,5),(0,5),(5,10),(10,15)); the record kept the foreign order, so a replay differed."""
    fevga_play = tavli.Board("fevga").find_play([(0, 5), (5, 10), (10, 15), (0, 5)], (5, 5))
    own = tavli.Board("plakoto").find_play(list(fevga_play.steps), (5, 5))
    assert list(own.steps) != list(fevga_play.steps)  # the premise: same play, other step order

    board = tavli.Board("plakoto")
    board.push(fevga_play)
    assert list(board.move_stack[-1].steps) == list(own.steps)
    again = tavli.Board.from_record(board.to_record())
    assert [list(p.steps) for p in again.move_stack] == [list(own.steps)]

    m = tavli.Match("plakoto", 3)
    m.roll_opening(6, 5)  # White starts (plays are mover-relative either way)
    m.play(fevga_play)
    rec = m.to_record()
    assert rec["games"][0]["turns"][0]["steps"] == [list(s) for s in own.steps]
    assert tavli.Match.from_json(m.to_json()).to_record() == rec


def test_a_match_record_is_a_copy_of_the_matchs_state():
    """Fuzz finding (the text/steps target of issue 18): Match.to_record() handed out the match's
    own game lists, so editing a returned record (here, a turn's move text) rewrote the match, and
    its next record no longer replayed."""
    m = finished_tavla_match()
    rec = m.to_record()
    text = rec["games"][0]["turns"][0]["play"]
    rec["games"][0]["turns"][0]["play"] = "pass"
    rec["games"][0]["turns"][0]["steps"].append([0, 1])
    rec["games"][0]["opening"].append([1, 1])
    rec["options"]["tavla"] = {"bogus": 1}
    again = m.to_record()
    assert again["games"][0]["turns"][0]["play"] == text and again["games"][0]["opening"][-1] != [1, 1]
    assert "tavla" not in again["options"] or again["options"]["tavla"] != {"bogus": 1}
    assert tavli.Match.from_record(again).to_record() == again


@pytest.mark.parametrize("body", [b'{"position": ' * 5000 + b"1" + b"}" * 5000, b"[" * 100_000])
def test_http_bodies_nested_deep_are_a_4xx(body):
    """The HTTP target of issue 18: a request body nested deeper than any form is refused with a
    JSON error, not a 500 (and the server keeps answering)."""
    pytest.importorskip("fastapi")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from tavli.server import create_app

    with TestClient(create_app(workers=1)) as client:
        r = client.post("/api/v1/analyze", content=body, headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500 and set(r.json()["error"]) == {"field", "message"}, r.text
        assert client.get("/api/v1/health").status_code == 200


# --- the CI run's "hang" after stop 14: the bear-off table under a short budget ----------------------
# libFuzzer reported exit -14 at about 3,700 executions with -seed=1, read as a >10 s input; it was
# an uncaught ValueError (NaN in a JSON response), the process then killed by the fuzzer's pending
# SIGALRM while it exited. The input, minimised: POST /simulate {"variant": "hypergammon", "games": 3,
# "players": ["greedy", "random"]} at the harness's 0.05 s budget, in a process whose one-sided
# bear-off table (built on first use, about a CPU second) was not yet built. Every such request
# stopped the build at its time limit and threw it away, so the table never got built and every
# simulation reaching a bear-off played no game; the 0-game answer's mean_plies was NaN.
HYPERGAMMON_SIM = {"variant": "hypergammon", "games": 3, "players": ["greedy", "random"]}
FRESH_HTTP = """
import json, sys, warnings
from fastapi.testclient import TestClient
from tavli.server import create_app
warnings.simplefilter("error", RuntimeWarning)  # numpy's "Mean of empty slice" is a failure too
with TestClient(create_app(workers=1, cpu_budget=0.05)) as client:
    r = client.post("/api/v1/simulate", json=json.loads(sys.argv[1]))
print(r.status_code, r.text)
"""


def test_the_fuzz_input_in_a_fresh_server_plays_its_games():
    """The input in a fresh process: the app builds the bear-off table when it is made, so the
    games fit the 0.05 s budget from the first request."""
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PACKAGE_DIR, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-W", "ignore::DeprecationWarning", "-c", FRESH_HTTP,
                           json.dumps(HYPERGAMMON_SIM)], capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    status, text = proc.stdout.split(" ", 1)
    doc = json.loads(text)
    assert status == "200" and doc["games"] == 3 and not doc["interrupted"] and doc["mean_plies"] > 0, text


def test_simulate_with_no_game_inside_the_budget_answers_null_mean_plies(monkeypatch):
    """The 0-game answer itself (its first chunk stopped by the budget, forced here): JSON with
    games 0, interrupted, mean_plies null, and no second, unbudgeted call to simulate."""
    pytest.importorskip("fastapi")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from tavli.server import create_app

    calls = []

    def out_of_time(*args, time_limit=None, **kwargs):
        calls.append(time_limit)
        raise TimeoutError("the time limit was reached before the call finished")

    monkeypatch.setattr(tavli, "simulate", out_of_time)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "Mean of empty slice"
        with TestClient(create_app(workers=1, cpu_budget=0.05)) as client:
            r = client.post("/api/v1/simulate", json=HYPERGAMMON_SIM)
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["games"] == 0 and doc["interrupted"] is True and doc["mean_plies"] is None
    assert doc["wins"] == [0, 0] and doc["points"] == [0, 0] and doc["kinds"] == {}
    assert len(calls) == 1 and calls[0] is not None and calls[0] <= 0.05


def bearoff_races() -> list[str]:
    """Position IDs of backgammon races with every checker home, from 15 a side (the table's last
    entries, valued at the end of a build) down to a few."""
    from helpers import make_board

    sides = [({18: 3, 19: 3, 20: 3, 21: 2, 22: 2, 23: 2}, {18: 5, 19: 4, 20: 3, 21: 3}),
             ({18: 1, 20: 4, 23: 6}, {19: 2, 21: 2, 22: 3}), ({18: 2, 22: 1}, {21: 1, 23: 2})]
    return [make_board("backgammon", mine, theirs).id() for mine, theirs in sides]


def test_the_bearoff_table_built_in_stopped_pieces_equals_one_built_whole():
    """The table's build stopped by time limits resumes (a fresh process: the fuzz input's games,
    directly (the heuristic, which the table serves), under 20 ms limits until a call finishes; before, each call started the build over
    and none ever finished) and ends with the same table as an uninterrupted build: the same values
    of bear-off races."""
    script = """
import sys, tavli
races = [tavli.Board.from_id(x) for x in sys.argv[1:]]
for tries in range(1, 3001):  # about 75 when idle
    try:
        tavli.simulate("hypergammon", 3, ["heuristic", "random"], seed=0, threads=1, time_limit=0.02)
        break
    except TimeoutError:
        pass
else:
    raise SystemExit("the bear-off table is never built under 20 ms time limits")
print(tries, *(repr(b.evaluate(plies=0).equity) for b in races))
"""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PACKAGE_DIR, os.environ.get("PYTHONPATH", "")]))
    races = bearoff_races()
    proc = subprocess.run([sys.executable, "-c", script, *races], capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    tries, *equities = proc.stdout.split()
    assert int(tries) > 1  # the premise: the first call did not build it all
    assert equities == [repr(tavli.Board.from_id(x).evaluate(plies=0).equity) for x in races]


# --- stop 15's CI fuzz finding: an integer too big for the core's int fields in /cube -----------------
@pytest.mark.parametrize("body", [
    {"position": "4HPwATDgc/ABMA", "cube": {"value": 2**40}},
    {"position": "4HPwATDgc/ABMA", "cube": {"value": -2**63}},
    {"position": "4HPwATDgc/ABMA", "match": {"length": 7, "score": [2**40, 0]}},
])
def test_cube_request_with_a_huge_integer_is_a_4xx(body):
    """tavli.CubeState(value=2**40) fails pybind11's cast with an unnamed RuntimeError; the server
    refuses the field by name before it gets there (the server keeps answering)."""
    pytest.importorskip("fastapi")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from tavli.server import create_app

    with TestClient(create_app(workers=1)) as client:
        r = client.post("/api/v1/cube", json=body)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["field"] in ("cube", "match") and "out of range" in r.json()["error"]["message"]
        assert client.get("/api/v1/health").status_code == 200


def test_cube_owner_too_big_for_a_c_int_is_refused_by_name():
    """The core of the /cube finding: CubeState(owner=2**40) failed pybind11's cast with an unnamed
    RuntimeError; the binding compares the owner as a Python integer first."""
    with pytest.raises(ValueError, match="cube owner must be None"):
        tavli.CubeState(value=2, owner=2**40)
