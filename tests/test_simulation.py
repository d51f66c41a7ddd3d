"""Bulk simulation (issue: self-play at scale): determinism whatever the threads and chunks,
trajectories that replay, starting positions, whole matches, progress and interruption."""

import numpy as np
import pytest

import tavli

GAMES = ["fevga", "moultezim", "plakoto", "portes", "tavla", "backgammon", "narde"]


@pytest.mark.parametrize("variant", GAMES)
def test_same_games_whatever_threads_and_chunks(variant):
    base = tavli.simulate(variant, 30, ("random", "greedy"), seed=5, threads=1, trajectories=True)
    for threads, chunk in ((2, 7), (3, 30), (2, 1)):
        other = tavli.simulate(variant, 30, ("random", "greedy"), seed=5, threads=threads, chunk=chunk, trajectories=True)
        for key in base:
            assert np.array_equal(base[key], other[key]), (key, threads, chunk)


@pytest.mark.parametrize("variant", GAMES)
def test_trajectories_replay_to_the_same_results(variant):
    r = tavli.simulate(variant, 12, ("random", "random"), seed=8, trajectories=True)
    assert len(r["positions"]) == r["plies"].sum()
    for g in range(12):
        idx = np.flatnonzero(r["game"] == g)
        assert len(idx) == r["plies"][g]
        board = tavli.Board.from_array(r["positions"][idx[0]], variant)
        assert board == tavli.Board(variant) or board.turn == r["starter"][g]  # the opening position
        for k, i in enumerate(idx):
            assert board == tavli.Board.from_array(r["positions"][i], variant), (g, k)
            steps = [tuple(s) for s in r["steps"][i].tolist() if s[0] != -2]
            board.push(board.find_play(steps, tuple(int(d) for d in r["dice"][i])))
        out = board.outcome()
        assert out is not None, f"game {g} did not end where the trajectory does"
        assert (out.winner if out.winner is not None else -1) == r["winner"][g]
        assert out.points == r["points"][g]


def test_flat_results_without_trajectories():
    r = tavli.simulate("backgammon", 50, ("random", "random"), seed=1)
    assert set(r) == {"winner", "points", "kind", "starter", "plies"}
    assert all(len(v) == 50 for v in r.values())


def test_uniform_random_play_is_fair_and_the_starter_is_random():
    r = tavli.simulate("fevga", 4000, ("random", "random"), seed=4, threads=2)
    assert abs((r["winner"] == 0).mean() - 0.5) < 0.03  # 4000 games: 3 sigma is about 0.024
    assert abs(r["starter"].mean() - 0.5) < 0.03


def test_start_position():
    b = tavli.Board.from_dict({"variant": "backgammon", "turn": 1, "mover": [0] * 23 + [1],
                               "opponent": [0] * 12 + [15] + [0] * 11, "off": [14, 0]})
    r = tavli.simulate("backgammon", 20, ("random", "random"), start=b.to_array())
    # Black has one checker on his 1-point and bears it off with any roll: he wins a backgammon?
    # No: White's 15 checkers are on his 12-point, outside Black's home: a gammon, 2 points.
    assert (r["winner"] == 1).all() and (r["points"] == 2).all() and (r["plies"] == 1).all()
    assert (r["starter"] == 1).all()
    with pytest.raises(ValueError):
        tavli.simulate("backgammon", 2, start=np.zeros(64, np.uint8))


def test_matches_end_at_their_target():
    m = tavli.simulate_matches("tavli", 40, ("greedy", "random"), target=5, seed=2, threads=2)
    assert ((m["winner"] == 0) | (m["winner"] == 1)).all()
    top = m["score"].max(axis=1)
    assert (top >= 5).all() and (top <= 6).all()  # the last game scores 1 or 2
    assert (m["winner"] == m["score"].argmax(axis=1)).all()
    assert (m["winner"] == 0).mean() > 0.8
    tavla = tavli.simulate_matches("tavla", 10, ("random", "random"), target=1, seed=3)
    assert (tavla["games"] == 1).all()


def test_progress_and_interrupt():
    seen = []
    tavli.simulate("narde", 20, ("random", "random"), chunk=6, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(6, 20), (12, 20), (18, 20), (20, 20)]

    def stop(done, total):
        if done >= 10:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tavli.simulate("narde", 40, ("random", "random"), chunk=5, progress=stop)
    # The engine is still usable afterwards.
    assert len(tavli.simulate("narde", 3, ("random", "random"))["winner"]) == 3


@pytest.mark.parametrize("bad", [dict(chunk=0), dict(progress=5), dict(start="x"), dict(players=("random",))])
def test_bad_arguments(bad):
    kwargs = dict(variant="fevga", games=2, players=("random", "random"))
    kwargs.update(bad)
    with pytest.raises(ValueError):
        tavli.simulate(**kwargs)


def test_cli_simulate():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "tavli", "simulate", "--variant", "fevga", "--games", "300",
                          "--threads", "2", "--players", "random,greedy", "--quiet"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "win rate" in out.stdout and "95% CI" in out.stdout and "mean length" in out.stdout


def test_first_game_plays_that_part_of_the_run():
    whole = tavli.simulate("portes", 20, ("random", "greedy"), seed=7, trajectories=True, chunk=6)
    part = tavli.simulate("portes", 8, ("random", "greedy"), seed=7, trajectories=True, first_game=12, chunk=3)
    per_play = {"positions", "dice", "steps", "game"}
    for key in whole:
        expected = whole[key][whole["game"] >= 12] if key in per_play else whole[key][12:]
        assert np.array_equal(part[key], expected), key
    m = tavli.simulate_matches("tavla", 10, ("greedy", "random"), target=3, seed=1)
    tail = tavli.simulate_matches("tavla", 4, ("greedy", "random"), target=3, seed=1, first_match=6)
    assert all(np.array_equal(m[k][6:], tail[k]) for k in m)
    with pytest.raises(ValueError, match="first_game"):
        tavli.simulate("portes", 2, first_game=-1)


def test_progress_bar(capsys):
    tavli.simulate("fevga", 10, ("random", "random"), chunk=4, progress=True)
    err = capsys.readouterr().err
    assert "10/10" in err or "100%" in err  # a plain line, or tqdm's bar when it is installed
