"""Rollouts (cpp/include/tavli/rollout.h, Board.rollout): seeded and thread-independent, exact where
the answer is known, stratified first and second rolls, truncation, shards that combine to the
rollout exactly, bad input."""

from __future__ import annotations

import statistics

import numpy as np
import pytest

import tavli
from tavli import nn


def _backgammon(mover: dict[int, int], opponent: dict[int, int], off: tuple[int, int]) -> tavli.Board:
    """A backgammon position, White to move; points by each side's own route index."""
    return tavli.Board.from_dict(
        {
            "variant": "backgammon",
            "mover": [mover.get(r, 0) for r in range(24)],
            "opponent": [opponent.get(r, 0) for r in range(24)],
            "bar": [0, 0],
            "off": list(off),
            "turn": 0,
        }
    )


def _middle_game() -> tavli.Board:
    b = tavli.Board("backgammon")
    for dice in ((6, 2), (4, 1), (5, 3), (6, 6)):
        b.push(b.legal_plays(dice)[3])
    return b


def test_seeded_and_independent_of_threads():
    b = _middle_game()
    one = b.rollout(144, seed=7, threads=1)
    assert b.rollout(144, seed=7, threads=1) == one
    assert b.rollout(144, seed=7, threads=2) == one
    assert b.rollout(144, seed=8, threads=1) != one
    assert one.trials == 144 and one.truncated == 0
    r = b.rollout(72, "random", seed=3, threads=2)
    assert r == b.rollout(72, "random", seed=3, threads=1)


def test_net_evaluator_and_search_player_are_thread_independent():
    b = _middle_game()
    net = nn.Net("backgammon", 16, seed=1)
    r = b.rollout(36, evaluator=net, truncate=6, seed=2, threads=2)
    assert r == b.rollout(36, evaluator=net, truncate=6, seed=2, threads=1)
    assert r != b.rollout(36, truncate=6, seed=2)  # the net, not the heuristic, played and valued
    s = b.rollout(36, "search:1", truncate=2, seed=2, threads=2)
    assert s == b.rollout(36, "search:1", truncate=2, seed=2, threads=1)


def test_finished_in_one_roll_is_exact():
    # One checker on the last point: every roll bears it off. The opponent has none off and one
    # checker in our home board (his route index 1, our 22): a backgammon, worth 3.
    b = _backgammon({23: 1}, {1: 1, 12: 14}, (14, 0))
    r = b.rollout(72, seed=1, truncate=1)
    assert r.probabilities == (1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0)
    assert r.equity == 3.0 and r.equity_std_error == 0.0
    assert all(e == 0.0 for e in r.std_errors)
    assert r.truncated == 0  # the game ended on the first ply: nothing for the evaluator
    # Without the checker in our home board it is a gammon.
    g = _backgammon({23: 1}, {12: 15}, (14, 0)).rollout(36)
    assert g.probabilities[:3] == (1.0, 1.0, 0.0) and g.equity == 2.0


def test_bearoff_race_matches_the_exact_value():
    # Both sides home, no contact: the evaluator is the exact one-sided bear-off table, so the
    # greedy player plays perfectly and the rollout estimates the exact value.
    b = _backgammon({18: 1, 20: 1, 21: 1, 23: 1}, {19: 1, 20: 1, 22: 2}, (11, 11))
    exact = b.evaluate(plies=0).probabilities.win
    deep = b.evaluate(plies=2, filters=[(1000, 0, 0)]).probabilities.win
    assert deep == pytest.approx(exact, abs=1e-6)
    r = b.rollout(2592, seed=5, threads=2)
    assert 0.05 < exact < 0.95
    assert r.std_errors.win > 0
    assert abs(r.probabilities.win - exact) < 4 * r.std_errors.win
    assert r.probabilities.win_double == 0.0 and r.truncated == 0


def test_first_roll_stratified_exactly():
    # Truncated after one ply, a greedy rollout values each first roll by the best play's static
    # value: with 36 trials, one per ordered roll, that is exactly the 1-ply evaluation, whatever
    # the seed.
    b = _middle_game()
    e = b.evaluate(plies=1)
    for seed in (0, 1):
        r = b.rollout(36, truncate=1, seed=seed)
        assert r.truncated == 36
        assert r.equity == pytest.approx(e.equity, abs=1e-5)
        assert r.probabilities.win == pytest.approx(e.probabilities.win, abs=1e-6)
    # Unstratified, the 36 first rolls are random: not the 1-ply value.
    assert b.rollout(36, truncate=1, stratify=False).equity != pytest.approx(e.equity, abs=1e-5)


def test_second_roll_stratified_in_blocks_of_1296():
    # Truncated after two plies, greedy both sides: 1296 trials are every pair of first two rolls
    # once, i.e. the 2-ply evaluation in which only the statically best play is searched deeper.
    b = _middle_game()
    # Greedy players choose among all plays: the search without pruning (search.h).
    e = b.evaluate(plies=2, filters=[(0, 0, 0)], prune=0)
    r = b.rollout(1296, truncate=2, seed=3, threads=2)
    assert r.truncated == 1296
    assert r.equity == pytest.approx(e.equity, abs=1e-4)


def test_stratification_reduces_the_spread_of_the_mean():
    # The reported standard error is the plain sample one (conservative under stratification); the
    # reduction shows in the seed-to-seed spread of the mean. A short race decided mostly by the
    # first roll (we need doubles to get off first; he needs one good roll): 36-trial rollouts over
    # 30 seeds, stratified and not. Measured: spreads 0.071 and 0.132 (0.068 and 0.128 over 300
    # seeds), while the reported standard error of one 36-trial rollout is about 0.126 either way.
    b = _backgammon({20: 1, 22: 2}, {21: 1, 23: 1}, (12, 13))
    spread = {
        s: statistics.pstdev(b.rollout(36, seed=k, stratify=s).equity for k in range(30)) for s in (True, False)
    }
    assert spread[True] < 0.7 * spread[False]


def test_truncation_counts():
    b = _middle_game()
    assert b.rollout(36, truncate=3).truncated == 36
    assert b.rollout(36, truncate=None).truncated == 0
    # A race that always ends by the third ply, by the first if we roll doubles: truncated after
    # two plies, some trials are valued and some are not.
    race = _backgammon({22: 2, 23: 2}, {21: 2, 22: 1}, (11, 12))
    assert race.rollout(72, truncate=3, seed=1).truncated == 0
    n = race.rollout(72, truncate=2, seed=1).truncated
    assert 0 < n < 72


@pytest.mark.parametrize(
    "kwargs, word",
    [
        ({"trials": 0}, "trials"),
        ({"trials": 10_000_001}, "trials"),
        ({"trials": 1.5}, "trials"),
        ({"player": "bogus"}, "player"),
        ({"player": "search:9"}, "player"),
        ({"truncate": 0}, "truncate"),
        ({"threads": 0}, "threads"),
        ({"seed": -1}, "seed"),
        ({"evaluator": "net"}, "evaluator"),
    ],
)
def test_bad_input(kwargs, word):
    with pytest.raises(ValueError, match=word):
        _middle_game().rollout(**kwargs)


def test_bad_input_game_over_and_wrong_net():
    b = _backgammon({23: 1}, {12: 1}, (14, 14))
    b.push(b.legal_plays((6, 5))[0])
    assert b.is_game_over()
    with pytest.raises(ValueError, match="over"):
        b.rollout(36)
    with pytest.raises(ValueError, match="evaluator"):
        _middle_game().rollout(36, evaluator=nn.Net("fevga", 8, seed=1))


@pytest.mark.parametrize("splits", [[1300], [144, 1156], [288, 432, 580], [144] * 9 + [4]])
def test_shards_combine_to_the_rollout_bit_for_bit(splits):
    # The shards of tavli.distributed.rollout, without Ray: consecutive block-aligned ranges of
    # one rollout's trials, folded by the core in order, give exactly the one-call rollout.
    from tavli import _core
    from tavli.board import _rollout_blocks

    b = _middle_game()
    whole = b.rollout(1300, seed=9, truncate=8, threads=2)
    assert sum(splits) == 1300
    parts, first = [], 0
    for count in splits:
        parts.append(_rollout_blocks(b, first, count, trials=1300, seed=9, truncate=8))
        first += count
    blocks = np.concatenate(parts)
    assert blocks.shape == (10, 18) and blocks[:, 0].sum() == 1300
    probs, equity, errors, equity_error, trials, truncated = _core._rollout_combine(blocks)
    assert tavli.analysis.Rollout(tavli.Probabilities(*probs), equity, tavli.Probabilities(*errors), equity_error,
                                  trials, truncated) == whole


def test_shards_bad_ranges_and_blocks():
    from tavli import _core
    from tavli.board import _rollout_blocks

    b = _middle_game()
    with pytest.raises(ValueError, match="multiple of 144"):
        _rollout_blocks(b, 100, 44, trials=288)
    with pytest.raises(ValueError, match="count"):
        _rollout_blocks(b, 144, 145, trials=288)  # past the last trial
    with pytest.raises(ValueError, match="shape"):
        _core._rollout_combine(np.zeros((2, 5)))
    with pytest.raises(ValueError, match="counts"):
        _core._rollout_combine(np.zeros((1, 18)))  # a block of no trials
    with pytest.raises(ValueError, match="none"):
        _core._rollout_combine(np.zeros((0, 18)))


# --- variance reduction by luck adjustment (cpp/include/tavli/rollout_luck.h) -------------------
def test_variance_reduction_is_exact_where_the_lookahead_is():
    # The bear-off race above: the evaluator is exact and the greedy player perfect, so each roll's
    # lookahead value is the exact value after it and the mean over the 21 rolls the exact value
    # before it. A trial less its lucks telescopes to the exact value of the start: every trial
    # the same, the standard error 0 (float rounding aside), the plain one not.
    b = _backgammon({18: 1, 20: 1, 21: 1, 23: 1}, {19: 1, 20: 1, 22: 2}, (11, 11))
    exact = b.evaluate(plies=0).probabilities.win
    plain = b.rollout(720, seed=5, stratify=False)
    reduced = b.rollout(720, seed=5, stratify=False, variance_reduction=True)
    assert abs(reduced.probabilities.win - exact) <= 3 * reduced.std_errors.win + 1e-6
    assert plain.std_errors.win > 0.01
    assert reduced.std_errors.win < 0.001 * plain.std_errors.win
    assert reduced == b.rollout(720, seed=5, stratify=False, variance_reduction=True, threads=2)


def test_variance_reduction_shrinks_the_error_and_keeps_the_mean():
    # The shipped net's greedy player in the middle game, trials truncated after 6 plies (the
    # estimand is the same with and without the adjustment: the value of those 6 plies of play,
    # then the evaluator). The reference is an independent plain rollout of 9 times the trials.
    # Measured (seed 5, 288 trials): standard errors 0.0277 plain, 0.0047 reduced (ratio 0.17).
    b = _middle_game()
    plain = b.rollout(288, seed=5, truncate=6)
    reduced = b.rollout(288, seed=5, truncate=6, variance_reduction=True)
    reference = b.rollout(2592, seed=77, truncate=6)
    assert reduced.equity_std_error < 0.35 * plain.equity_std_error
    assert reduced.std_errors.win < 0.35 * plain.std_errors.win
    combined = (reduced.equity_std_error ** 2 + reference.equity_std_error ** 2) ** 0.5
    assert abs(reduced.equity - reference.equity) <= 3 * combined
    assert reduced.truncated == plain.truncated  # the same games, only what each trial counts differs


def test_variance_reduction_bad_input_and_shards():
    from tavli import _core
    from tavli.board import _rollout_blocks

    b = _middle_game()
    with pytest.raises(ValueError, match="variance_reduction needs a greedy or search player"):
        b.rollout(36, "random", variance_reduction=True)
    with pytest.raises(TypeError, match="variance_reduction"):
        b.rollout(36, variance_reduction="yes")
    with pytest.raises(TypeError, match="unexpected keyword argument 'variance_reductions'"):
        b.rollout(36, variance_reductions=True)  # type: ignore[call-arg]
    whole = b.rollout(300, "heuristic", seed=2, truncate=3, variance_reduction=True)
    parts = [_rollout_blocks(b, first, count, trials=300, player="heuristic", seed=2, truncate=3,
                             variance_reduction=True) for first, count in ((0, 144), (144, 156))]
    probs, equity, errors, equity_error, trials, truncated = _core._rollout_combine(np.concatenate(parts))
    assert (equity, equity_error, trials) == (whole.equity, whole.equity_std_error, whole.trials)


# --- the luck judged by another evaluator (RolloutOptions.luck_evaluator) ------------------------
def test_luck_evaluator_equal_to_the_greedy_players_own_lookahead():
    # A greedy player's own lookahead is the 0-ply lookahead of its evaluator, so naming that
    # evaluator as the luck evaluator changes nothing, bit for bit, on any number of threads.
    b = _middle_game()
    net = nn.shipped("backgammon")
    own = b.rollout(144, net, seed=4, truncate=8, variance_reduction=True)
    assert b.rollout(144, net, seed=4, truncate=8, variance_reduction=True, luck_evaluator=net) == own
    assert b.rollout(144, net, seed=4, truncate=8, variance_reduction=True, luck_evaluator=net, threads=2) == own


def test_luck_evaluator_keeps_the_mean_and_most_of_the_reduction():
    # A search:1 player (the expensive case: its own lookahead is 21 one-ply searches a ply) with
    # the luck judged by its net at 0 plies, and by the hand-written heuristic: the same games, so
    # the same truncations; means within the intervals of an independent plain rollout of 8 times
    # the trials. Any judge keeps the mean; only one that tracks the player's values removes noise:
    # measured (seed 6, 144 trials), equity errors 0.0320 plain, 0.0057 with the net's 0-ply luck,
    # 0.0537 with the heuristic's (its values are on another scale: its "luck" adds noise).
    b = _middle_game()
    player = {"search": 1, "evaluator": nn.shipped_stage("backgammon", "td")}
    plain = b.rollout(144, player, seed=6, truncate=4)
    by_net = b.rollout(144, player, seed=6, truncate=4, variance_reduction=True, luck_evaluator=player["evaluator"])
    by_heuristic = b.rollout(144, player, seed=6, truncate=4, variance_reduction=True, luck_evaluator="heuristic")
    reference = b.rollout(1152, player, seed=61, truncate=4, threads=2)
    assert by_net.equity_std_error < 0.3 * plain.equity_std_error
    for r in (by_net, by_heuristic):
        combined = (r.equity_std_error ** 2 + reference.equity_std_error ** 2) ** 0.5
        assert abs(r.equity - reference.equity) <= 3 * combined
        assert r.truncated == plain.truncated


def test_luck_evaluator_bad_input_and_shards():
    from tavli import _core
    from tavli.board import _rollout_blocks

    b = _middle_game()
    td = nn.shipped_stage("backgammon", "td")
    with pytest.raises(ValueError, match="luck_evaluator .* needs variance_reduction=True"):
        b.rollout(36, luck_evaluator=td)
    with pytest.raises(ValueError, match="evaluator: expected"):
        b.rollout(36, variance_reduction=True, luck_evaluator="nonsense")
    with pytest.raises(ValueError, match="luck evaluator: .*"):
        b.rollout(36, variance_reduction=True, luck_evaluator=nn.shipped("fevga"))
    whole = b.rollout(300, "heuristic", seed=2, truncate=3, variance_reduction=True, luck_evaluator=td)
    assert whole != b.rollout(300, "heuristic", seed=2, truncate=3, variance_reduction=True)
    parts = [_rollout_blocks(b, first, count, trials=300, player="heuristic", seed=2, truncate=3,
                             variance_reduction=True, luck_evaluator=td) for first, count in ((0, 144), (144, 156))]
    probs, equity, errors, equity_error, trials, truncated = _core._rollout_combine(np.concatenate(parts))
    assert (equity, equity_error, trials) == (whole.equity, whole.equity_std_error, whole.trials)


def test_rollout_data_takes_the_luck_evaluator():
    from tavli.rollout_data import rollout_data

    rows = np.stack([_middle_game().to_array(), tavli.Board("backgammon").to_array()])
    td = nn.shipped_stage("backgammon", "td")
    data = rollout_data(rows, "backgammon", 36, "heuristic", seed=3, truncate=3, variance_reduction=True,
                        luck_evaluator=td)
    for k, row in enumerate(rows):
        one = tavli.Board.from_array(row, "backgammon").rollout(
            36, "heuristic", seed=tavli.Rng.derive(3, k), truncate=3, variance_reduction=True, luck_evaluator=td)
        assert data["equity"][k] == one.equity and data["equity_std_error"][k] == one.equity_std_error
