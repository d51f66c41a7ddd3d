"""Self-play speed: games per second per game and player, with 1 and 2 threads, and backgammon
uniform-random games side by side with OpenSpiel's C++ random-bot loop (pyspiel.evaluate_bots
with uniform random bots), in the same run.

Run: python -m pytest bench/test_bench_sim.py --benchmark-only"""

from __future__ import annotations

import pytest

import tavli
from conftest import RESULTS, record

GAMES = ["fevga", "moultezim", "plakoto", "portes", "tavla", "backgammon", "narde"]
N = {"random": 4000, "greedy": 1000}


@pytest.fixture(scope="module", autouse=True)
def warm_up():
    # The one-sided bear-off table is built on first use (about a second): not part of a run.
    tavli.simulate("backgammon", 20, ("greedy", "greedy"))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("player", ["random", "greedy"])
@pytest.mark.parametrize("variant", GAMES)
def test_games_per_second(benchmark, variant, player, threads):
    n = N[player]
    benchmark.pedantic(tavli.simulate, args=(variant, n, (player, player)), kwargs={"seed": 1, "threads": threads},
                       rounds=3, iterations=1)
    record(f"{variant}: {player} self-play, {threads} thread{'s' if threads > 1 else ''}", benchmark, n, "games")
    one = RESULTS.get(f"{variant}: {player} self-play, 1 thread")
    two = RESULTS.get(f"{variant}: {player} self-play, 2 threads")
    if one and two:
        RESULTS[f"{variant}: {player}, 2 threads / 1 thread"] = {
            "rate": two["rate"] / one["rate"], "mean_rate": 0, "unit": "x", "seconds": 0}


def test_openspiel_random_bots(benchmark):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("backgammon")
    n = 300

    def run():
        for i in range(n):
            bots = [pyspiel.make_uniform_random_bot(0, 2 * i + 1), pyspiel.make_uniform_random_bot(1, 2 * i + 2)]
            pyspiel.evaluate_bots(game.new_initial_state(), bots, i)

    benchmark.pedantic(run, rounds=3, iterations=1)
    record("OpenSpiel evaluate_bots, backgammon random", benchmark, n, "games")
    mine = RESULTS.get("backgammon: random self-play, 1 thread")
    if mine:
        RESULTS["tavli / OpenSpiel, backgammon random games"] = {
            "rate": mine["rate"] / RESULTS["OpenSpiel evaluate_bots, backgammon random"]["rate"],
            "mean_rate": 0, "unit": "x", "seconds": 0}
