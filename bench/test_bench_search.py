"""Search speed: n-ply analyses per game, the static evaluator alone, and backgammon against
OpenSpiel's Python ``expectiminimax`` on the same positions, in the same process.

Run: python -m pytest bench/test_bench_search.py --benchmark-only

1. Per game, PAIRS (position, roll) pairs from the seeded random-games set (the first SET_SIZE
   pairs of ``random_positions(variant, SET_SIZE, SEED)``), keeping those where neither side has
   borne off and the roll has more than one distinct play, spread evenly over the set. Timed: a
   1-ply analysis (``analyze(dice, plies=1)``: full width, the default) and a 2-ply one (default
   filters: the best play and up to 8 more within 0.16 at the root, only the statically best reply
   inside the tree), as ms per analysis, and leaf evaluations per second (the sum of
   ``Analysis.nodes``, static evaluations, over the time). One thread.
   Portes, Tavla and Backgammon move alike, so their random games, hence their sets, coincide.
2. ``evaluate_batch(rows, variant, plies=0)`` on the whole SET_SIZE-row set: positions per
   second. This includes decoding and validating every row (with the GIL held), which costs more
   than the evaluation itself: it is the batch call's throughput, not the evaluator's.
3. Backgammon against OpenSpiel (PyPI ``open-spiel``; skipped when it is not importable).

   Positions: OS_POSITIONS states reached by seeded uniform-random play from OpenSpiel's start,
   each at least OS_MIN_MOVES history entries in (chance outcomes and decisions) and OS_SPACING after
   the previous pick, with a non-double
   roll to play, nothing borne off and more than one distinct play; the same positions are built in
   tavli with ``Board.from_dict`` (X moves 0 -> 23, so its route index is the point; O's is 23 - the
   point). The fixture checks, for every position, that the two engines reach exactly the same set of
   resulting positions.

   What depth means.
   * tavli (gnubg's plies): ``analyze(dice, plies=1)`` values each play by the average over the
     opponent's 21 rolls of his best reply's static value: our decision, a chance node, his decision,
     leaf. ``evaluate(plies=1)``, before the roll: the average over our 21 rolls of our best play's
     static value. A double is one decision of four moves.
   * OpenSpiel's ``expectiminimax(state, depth, value_function, player)`` lowers ``depth`` at every
     decision node and not at chance nodes, and stops with ``value_function`` at 0. From a state
     with the dice rolled, depth 2 is our decision, a chance node, his decision, leaf: the tree of
     tavli's 1-ply analysis. From a chance state, depth 1 is tavli's ``evaluate(plies=1)``. tavli's
     2-ply analysis would be OpenSpiel's depth 3 (about 36 times depth 2: tens of seconds per
     position here), so it is not run on the OpenSpiel side; its tavli time is recorded for reference.
   * Differences that remain. OpenSpiel plays a double as two decision turns of two moves each
     (RULES.md §2; open_spiel issue #514), so at depth 2 the opponent's doubles (6 rolls of 36) are
     only half played before the leaf. ``expectiminimax_by_turns`` below is OpenSpiel's function
     with one change, the first half of a double does not use up depth, which makes the tree the
     same as tavli's; both versions are timed. OpenSpiel's chance nodes have 36 ordered outcomes
     (1-2 and 2-1 are searched separately; tavli searches 21 rolls), and its legal actions are not
     deduplicated (the same play by two move orders is two actions, about twice tavli's distinct
     plays): its tree has several times tavli's leaves for the same question, which is part of what
     is measured in the time per search, and is why leaves per second are reported as well.
   * Leaf values. OpenSpiel needs a Python value function: the pip-count difference (the fastest
     of the forms tried, about 6 us a call); a free one (a constant) is timed too, to show the cost of
     the tree walk alone. tavli uses its own heuristic evaluator (gnubg's five probabilities), a richer
     function than a pip count.
   * tavli's ``evaluate()`` builds a move generator and a move list per call (``analyze()`` reuses
     thread-local ones); after deeper searches have run in the process that allocation page-faults,
     and the 1-ply evaluation of these positions was seen to take from 45 to 105 us by run order:
     read the before-roll ratio with that in mind.

Install: ``pip install open-spiel`` (2.0.2 has a cp311 manylinux x86_64 wheel of 16 MB; its
``expectiminimax`` lives in ``open_spiel/python/algorithms/minimax.py``).
"""

from __future__ import annotations

import random
from functools import lru_cache
from operator import mul

import numpy as np
import pytest

import tavli
from conftest import SEED, record, record_ms

try:  # a missing or unloadable OpenSpiel skips part 3 only
    import pyspiel

    try:
        from open_spiel.python.algorithms.expectiminimax import expectiminimax
    except ImportError:  # open_spiel 2.0.2 keeps it in minimax.py
        from open_spiel.python.algorithms.minimax import expectiminimax
    _OS_ERROR = None
except ImportError as e:
    pyspiel = expectiminimax = None
    _OS_ERROR = f"open_spiel not usable ({e}); pip install open-spiel"

requires_openspiel = pytest.mark.skipif(expectiminimax is None, reason=_OS_ERROR or "")

GAMES = ["fevga", "moultezim", "plakoto", "portes", "tavla", "backgammon", "narde"]
SET_SIZE = 4000
PAIRS = 40
OS_POSITIONS = 5
OS_MIN_MOVES = 20
OS_SPACING = 12  # history entries between two picks in one game


# --- 1 and 2: tavli per game -------------------------------------------------------------------
@lru_cache(maxsize=None)
def middle_game_set(variant: str):
    """(rows, dice, boards, rolls) of PAIRS pairs: nothing borne off, more than one distinct play."""
    rows, dice = tavli.random_positions(variant, SET_SIZE, seed=SEED)
    counts = tavli.batch_legal_plays(rows, dice, variant)
    ok = np.flatnonzero((rows[:, 50] == 0) & (rows[:, 51] == 0) & (counts > 1))
    assert len(ok) >= PAIRS, (variant, len(ok))
    pick = ok[np.linspace(0, len(ok) - 1, PAIRS).astype(int)]
    boards = [tavli.Board.from_array(rows[i], variant) for i in pick]
    rolls = [(int(dice[i][0]), int(dice[i][1])) for i in pick]
    return rows, dice, boards, rolls


def _analyses(boards, rolls, plies: int) -> int:
    return sum(b.analyze(d, plies=plies, threads=1).nodes for b, d in zip(boards, rolls))


@pytest.mark.parametrize("variant", GAMES)
def test_analyze_1ply(benchmark, variant):
    _, _, boards, rolls = middle_game_set(variant)
    nodes = _analyses(boards, rolls, 1)
    benchmark.pedantic(_analyses, args=(boards, rolls, 1), rounds=5, iterations=1)
    record_ms(f"{variant}: analyze 1-ply, full width", benchmark, len(boards))
    record(f"{variant}: 1-ply leaf evaluations", benchmark, nodes, "evals")
    benchmark.extra_info["leaf evaluations per analysis"] = nodes / len(boards)


@pytest.mark.parametrize("variant", GAMES)
def test_analyze_2ply(benchmark, variant):
    _, _, boards, rolls = middle_game_set(variant)
    nodes = _analyses(boards, rolls, 2)
    benchmark.pedantic(_analyses, args=(boards, rolls, 2), rounds=3, iterations=1)
    record_ms(f"{variant}: analyze 2-ply, default filters", benchmark, len(boards))
    record(f"{variant}: 2-ply leaf evaluations", benchmark, nodes, "evals")
    benchmark.extra_info["leaf evaluations per analysis"] = nodes / len(boards)


@pytest.mark.parametrize("variant", GAMES)
def test_evaluate_batch_0ply(benchmark, variant):
    rows = middle_game_set(variant)[0]
    tavli.evaluate_batch(rows, variant, plies=0)
    benchmark.pedantic(tavli.evaluate_batch, args=(rows, variant), kwargs={"plies": 0}, rounds=10, iterations=1)
    record(f"{variant}: evaluate_batch 0-ply", benchmark, len(rows), "positions")


# --- 3: backgammon against OpenSpiel -----------------------------------------------------------
_POINTS = list(range(24)) + [100]  # OpenSpiel's points, then its bar position (kBarPos)
_X_PIPS = [24 - q for q in range(24)] + [25]  # X moves 0 -> 23
_O_PIPS = [q + 1 for q in range(24)] + [25]  # O moves 23 -> 0
_ZEROS, _ONES = [0] * 25, [1] * 25


def pip_value(state, player: int) -> float:
    """The pip-count difference, positive when `player` leads the race."""
    b = state.board
    lead_x = sum(map(mul, _O_PIPS, map(b, _ONES, _POINTS))) - sum(map(mul, _X_PIPS, map(b, _ZEROS, _POINTS)))
    return float(lead_x if player == 0 else -lead_x)


def expectiminimax_by_turns(state, depth, value_function, maximizing_player_id):
    """OpenSpiel's ``expectiminimax`` with one change: depth counts turns, so the first half of a
    double (the same player moves again, no chance node between) does not use up a level."""
    if state.is_terminal():
        return state.player_return(maximizing_player_id), None
    if depth == 0:
        return value_function(state), None
    if state.is_chance_node():
        value = 0
        for outcome, prob in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            value += prob * expectiminimax_by_turns(child, depth, value_function, maximizing_player_id)[0]
        return value, None
    player = state.current_player()
    maximize = player == maximizing_player_id
    value, best = (-float("inf") if maximize else float("inf")), None
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        next_depth = depth if child.current_player() == player else depth - 1
        v, _ = expectiminimax_by_turns(child, next_depth, value_function, maximizing_player_id)
        if (v > value) if maximize else (v < value):
            value, best = v, action
    return value, best


def _side(state, player: int):
    pts = [state.board(0, q) for q in range(24)] if player == 0 else [state.board(1, 23 - r) for r in range(24)]
    bar = state.board(player, 100)
    return pts, bar, 15 - sum(pts) - bar


def os_to_tavli(state, mover: int) -> tavli.Board:
    """The OpenSpiel position with `mover` to play, as a tavli board (OpenSpiel's X is White)."""
    m, mb, mo = _side(state, mover)
    o, ob, oo = _side(state, 1 - mover)
    return tavli.Board.from_dict(
        {"variant": "backgammon", "turn": mover, "mover": m, "opponent": o, "bar": [mb, ob], "off": [mo, oo]}
    )


def _os_results(state, mover: int) -> set:
    out = set()
    for a in state.legal_actions():
        c = state.clone()
        c.apply_action(a)
        m, mb, _ = _side(c, mover)
        o, ob, _ = _side(c, 1 - mover)
        out.add((tuple(m), mb, tuple(o), ob))
    return out


def _tavli_results(board: tavli.Board, roll) -> set:
    out = set()
    for p in board.legal_plays(roll):
        c = board.play(p)  # the other side to move: its opponent is our mover
        out.add((tuple(c.opponent), c.bar[1], tuple(c.mover), c.bar[0]))
    return out


@pytest.fixture(scope="module")
def os_positions():
    return make_os_positions()


def make_os_positions():
    """[(chance state before the roll, state with the roll, mover, tavli board, roll)]."""
    game = pyspiel.load_game("backgammon")
    rng = random.Random(SEED)
    out = []
    while len(out) < OS_POSITIONS:
        state, before, next_pick = game.new_initial_state(), None, OS_MIN_MOVES
        while not state.is_terminal() and len(out) < OS_POSITIONS:
            if state.is_chance_node():
                before = state.clone()
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            mover = state.current_player()
            t = state.observation_tensor(0)
            d1, d2 = int(t[-2]), int(t[-1])
            fresh = before is not None and before.history() == state.history()[:-1]  # not a double's 2nd half
            if fresh and d1 != d2 and state.move_number() >= next_pick:
                board = os_to_tavli(state, mover)
                if board.off == [0, 0] and len(board.legal_plays((d1, d2))) > 1:
                    assert _os_results(state, mover) == _tavli_results(board, (d1, d2))
                    out.append((before, state.clone(), mover, board, (d1, d2)))
                    next_pick = state.move_number() + OS_SPACING
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def _os_search(positions, search, depth, value, before_roll=False):
    leaves = [0]

    def vf(state, player):
        leaves[0] += 1
        return value(state, player)

    for chance_state, state, mover, _, _ in positions:
        root = chance_state if before_roll else state
        search(root, depth, lambda s, m=mover: vf(s, m), mover)
    return leaves[0]


@requires_openspiel
def test_openspiel_depth2(benchmark, os_positions):
    leaves = benchmark.pedantic(_os_search, args=(os_positions, expectiminimax, 2, pip_value), rounds=2, iterations=1)
    record_ms("OpenSpiel expectiminimax depth 2", benchmark, len(os_positions))
    record("OpenSpiel depth 2 leaf evals", benchmark, leaves, "evals")
    benchmark.extra_info["leaves per search"] = leaves / len(os_positions)


@requires_openspiel
def test_openspiel_depth2_by_turns(benchmark, os_positions):
    args = (os_positions, expectiminimax_by_turns, 2, pip_value)
    leaves = benchmark.pedantic(_os_search, args=args, rounds=1, iterations=1)  # about 5 s a round
    record_ms("OpenSpiel expectiminimax depth 2 by turns", benchmark, len(os_positions))
    record("OpenSpiel depth 2 by turns leaf evals", benchmark, leaves, "evals")
    benchmark.extra_info["leaves per search"] = leaves / len(os_positions)


@requires_openspiel
def test_openspiel_depth2_free_leaf(benchmark, os_positions):
    free = lambda state, player: 0.0  # noqa: E731
    benchmark.pedantic(_os_search, args=(os_positions, expectiminimax, 2, free), rounds=4, iterations=1)
    record_ms("OpenSpiel expectiminimax depth 2, free leaf", benchmark, len(os_positions))


@requires_openspiel
def test_openspiel_before_roll_depth1(benchmark, os_positions):
    args = (os_positions, expectiminimax_by_turns, 1, pip_value, True)
    leaves = benchmark.pedantic(_os_search, args=args, rounds=3, iterations=1)
    record_ms("OpenSpiel before roll depth 1 by turns", benchmark, len(os_positions))
    benchmark.extra_info["leaves per search"] = leaves / len(os_positions)


@requires_openspiel
def test_tavli_analyze_1ply_os_positions(benchmark, os_positions):
    boards = [p[3] for p in os_positions]
    rolls = [p[4] for p in os_positions]
    nodes = _analyses(boards, rolls, 1)
    benchmark.pedantic(_analyses, args=(boards, rolls, 1), rounds=20, iterations=1)
    record_ms("tavli analyze 1-ply (OpenSpiel positions)", benchmark, len(boards))
    record("tavli analyze 1-ply leaf evals (OS positions)", benchmark, nodes, "evals")
    benchmark.extra_info["leaves per search"] = nodes / len(boards)


@requires_openspiel
def test_tavli_analyze_2ply_os_positions(benchmark, os_positions):
    """Reference only: one ply deeper than OpenSpiel's depth 2, default filters."""
    boards = [p[3] for p in os_positions]
    rolls = [p[4] for p in os_positions]
    benchmark.pedantic(_analyses, args=(boards, rolls, 2), rounds=10, iterations=1)
    record_ms("tavli analyze 2-ply (OpenSpiel positions)", benchmark, len(boards))


@requires_openspiel
def test_tavli_evaluate_1ply_os_positions(benchmark, os_positions):
    boards = [p[3] for p in os_positions]

    def run():
        return sum(b.evaluate(plies=1, threads=1).nodes for b in boards)

    nodes = benchmark.pedantic(run, rounds=20, iterations=1)
    record_ms("tavli evaluate 1-ply (OpenSpiel positions)", benchmark, len(boards))
    benchmark.extra_info["leaves per search"] = nodes / len(boards)
