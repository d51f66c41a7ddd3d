"""Ctrl-C stops every long call (issue 18): a child process starts the call, the parent sends
SIGINT a second after it started, and the child must end within 2 s with KeyboardInterrupt, its
board unchanged. Also the `time_limit=` of the long calls (TimeoutError) and node limits that do
not depend on the thread count."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import tavli

BG_MIDDLE = "backgammon:AQAAAgAAAAAQAAIHAgABEwAAAAAQAAATIAESAA"  # the repro position

# Child scripts: `setup` runs first (not timed), then the child prints "started" and runs `call`,
# which must outlast the parent's wait; on KeyboardInterrupt the child checks `check` (the state
# left intact) and prints "interrupted".
CASES = {
    "analyze_1_thread": ("b = tavli.Board.from_id(BG); before = b.id()",
                         "b.analyze((6, 5), plies=6, full_depth=True)", "b.id() == before and b.ply == 0"),
    "analyze_2_threads": ("b = tavli.Board.from_id(BG); before = b.id()",
                          "b.analyze((6, 5), plies=6, threads=2, full_depth=True)", "b.id() == before"),
    "evaluate_deep": ("b = tavli.Board.from_id(BG); before = b.id()",
                      "b.evaluate(plies=32, time_limit=3600, threads=2)", "b.id() == before"),
    "rollout_many_trials": ("b = tavli.Board('backgammon'); before = b.id()",
                            "b.rollout(10_000_000, 'heuristic', threads=2)", "b.id() == before"),
    "rollout_search_players": ("b = tavli.Board.from_id(BG); before = b.id()",
                               "b.rollout(1296, 'heuristic:2')", "b.id() == before"),
    "evaluate_batch": ("rows, _ = tavli.random_positions('backgammon', 100_000, seed=1)",
                       "tavli.evaluate_batch(rows, 'backgammon', plies=3, evaluator='heuristic', threads=2)", "True"),
    "perft": ("b = tavli.Board('backgammon'); before = b.id()", "b.perft(6)", "b.id() == before"),
    "random_positions": ("", "tavli.random_positions('fevga', 10**8)", "True"),
    "batch_legal_plays": ("rows, dice = tavli.random_positions('backgammon', 1000, seed=2)\n"
                          "rows = np.tile(rows, (5000, 1)); dice = np.tile(dice, (5000, 1))",
                          "tavli.batch_legal_plays(rows, dice, 'backgammon', return_positions=True)", "True"),
    "simulate_in_a_chunk": ("", "tavli.simulate('fevga', 2048, ('heuristic:1', 'heuristic:1'), threads=2)", "True"),
    "simulate_matches_in_a_chunk": ("", "tavli.simulate_matches('tavli', 256, ('heuristic:1', 'heuristic:1'))",
                                    "True"),
    "self_play_data": ("", "tavli.selfplay.self_play_data('portes', 2048, ('heuristic:1', 'heuristic:1'), features=False)",
                       "True"),
    "rollout_data": ("rows, _ = tavli.random_positions('backgammon', 40, seed=3)\n"
                     "rows = rows[[not tavli.Board.from_array(r, 'backgammon').is_game_over() for r in rows]]",
                     "tavli.rollout_data.rollout_data(rows, 'backgammon', 1296, 'heuristic:1')", "True"),
}

CHILD = """
import sys, numpy as np, tavli, tavli.selfplay, tavli.rollout_data
BG = {bg!r}
{setup}
print("started", flush=True)
try:
    {call}
except KeyboardInterrupt:
    ok = {check}
    print("interrupted" if ok else "state changed", flush=True)
    sys.exit(0 if ok else 3)
print("finished", flush=True)
sys.exit(2)
"""


def _child(source: str) -> subprocess.Popen:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [os.path.dirname(os.path.dirname(tavli.__file__)),
                                                    env.get("PYTHONPATH", "")] if p)
    return subprocess.Popen([sys.executable, "-c", source], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
@pytest.mark.parametrize("case", sorted(CASES))
def test_sigint_stops_the_call(case):
    setup, call, check = CASES[case]
    proc = _child(textwrap.dedent(CHILD).format(bg=BG_MIDDLE, setup=setup, call=call, check=check))
    try:
        line = proc.stdout.readline()
        assert line.strip() == "started", proc.stderr.read()
        time.sleep(1.0)
        assert proc.poll() is None, f"the call ended before the signal: {proc.stdout.read()} {proc.stderr.read()}"
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert out.strip() == "interrupted", (out, err)
    assert proc.returncode == 0, err
    assert took < 2.0, f"{case}: ended {took:.2f} s after SIGINT"


# --- time limits -------------------------------------------------------------------------------

def test_time_limits_raise_timeout_error():
    b = tavli.Board("backgammon")
    with pytest.raises(TimeoutError):
        b.perft(6, time_limit=0.05)
    with pytest.raises(TimeoutError):
        b.rollout(10_000_000, "heuristic", time_limit=0.05)
    with pytest.raises(TimeoutError):
        tavli.random_positions("fevga", 10**8, time_limit=0.05)
    with pytest.raises(TimeoutError):
        tavli.simulate("fevga", 4096, ("heuristic:1", "heuristic:1"), time_limit=0.05)
    with pytest.raises(TimeoutError):
        tavli.simulate_matches("tavli", 256, ("heuristic:1", "heuristic:1"), time_limit=0.05)
    rows, dice = tavli.random_positions("backgammon", 2000, seed=4)
    with pytest.raises(TimeoutError):
        tavli.evaluate_batch(rows, "backgammon", plies=2, evaluator="heuristic", time_limit=0.05)
    big_rows, big_dice = np.tile(rows, (500, 1)), np.tile(dice, (500, 1))
    with pytest.raises(TimeoutError):
        tavli.batch_legal_plays(big_rows, big_dice, "backgammon", return_positions=True, time_limit=0.01)
    assert b.id() == tavli.Board("backgammon").id()


def test_a_generous_time_limit_changes_nothing():
    b = tavli.Board("backgammon")
    assert b.perft(2, time_limit=60) == b.perft(2)
    a = tavli.simulate("fevga", 20, seed=5, time_limit=60)
    z = tavli.simulate("fevga", 20, seed=5)
    assert all((a[k] == z[k]).all() for k in z)
    r1 = b.rollout(72, "heuristic", seed=3, time_limit=60)
    r2 = b.rollout(72, "heuristic", seed=3)
    assert r1.equity == r2.equity


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), "1", True])
def test_bad_time_limits_are_refused(bad):
    with pytest.raises(ValueError, match="time_limit"):
        tavli.Board("fevga").perft(1, time_limit=bad)
    with pytest.raises(ValueError, match="time_limit"):
        tavli.random_positions("fevga", 10, time_limit=bad)


def test_a_search_time_limit_returns_the_deepest_iteration():
    e = tavli.Board.from_id(BG_MIDDLE).evaluate(plies=32, time_limit=0.2, evaluator="heuristic")
    assert e.interrupted and 0 <= e.plies < 32


# --- node limits do not depend on the thread count ----------------------------------------------

NODE_CASES = [
    ("fevga:AQAJAQAQAAIQAAAAABAACgEQAAEAAAAAAAIAAA", 3, 5100),  # the case
    ("fevga:AQAJAQAQAAIQAAAAABAACgEQAAEAAAAAAAIAAA", 3, 30_000),
    (BG_MIDDLE, 2, 800),
    (BG_MIDDLE, 3, 20_000),
]


@pytest.mark.parametrize("position, plies, limit", NODE_CASES)
def test_node_limited_evaluation_is_the_same_for_any_thread_count(position, plies, limit):
    b = tavli.Board.from_id(position)
    runs = [b.evaluate(plies=plies, node_limit=limit, threads=t, evaluator="heuristic") for t in (1, 2, 3)]
    assert len({(r.equity, r.plies, r.nodes, r.interrupted) for r in runs}) == 1, runs
    assert runs[0].nodes <= limit


@pytest.mark.parametrize("position, plies, limit", NODE_CASES)
def test_node_limited_analysis_is_the_same_for_any_thread_count(position, plies, limit):
    b = tavli.Board.from_id(position)
    runs = [b.analyze((6, 5), plies=plies, node_limit=limit, threads=t, evaluator="heuristic") for t in (1, 2, 3)]
    keys = [([(str(p.play), p.equity, p.plies) for p in r], r.plies, r.nodes, r.interrupted) for r in runs]
    assert keys[0] == keys[1] == keys[2]


def test_unlimited_node_counts_do_not_depend_on_threads():
    b = tavli.Board.from_id(BG_MIDDLE)
    assert len({b.evaluate(plies=2, threads=t, evaluator="heuristic").nodes for t in (1, 2, 4)}) == 1
