"""Search speed-ups that must not change answers (cpp/include/tavli/search.h, eval_cache.h): the
shared evaluation cache (results bit-identical with and without it, on 1 and 2 threads), the
narrowing between the root's plies (its defaults, its off switch, the filters' meaning kept),
and batch_legal_plays' positions path (the same rows as one call per position)."""

from __future__ import annotations

import numpy as np
import pytest

import tavli

FULL = [(1000, 0, 0.0)]


def key(a):
    return ([(str(p.play), tuple(p.probabilities), p.equity, p.plies) for p in a], a.plies, a.nodes, a.interrupted)


def middle_positions(n: int, seed: int):
    rows, dice = tavli.random_positions("backgammon", 80 * n, seed=seed)
    out = []
    for i in range(0, len(rows), 40):
        b = tavli.Board.from_array(rows[i], "backgammon")
        d = (int(dice[i][0]), int(dice[i][1]))
        if not b.is_game_over() and len(b.legal_plays(d)) > 1:
            out.append((b, d))
    assert len(out) >= n
    return out[:n]


@pytest.mark.parametrize("evaluator", [None, "heuristic"])
def test_cache_never_changes_a_result(evaluator):
    """2-ply analyses with the cache on 1 and 2 threads and without it: identical plays,
    probabilities (exact floats), depths and node counts."""
    for b, d in middle_positions(4, seed=3):
        runs = [key(b.analyze(d, plies=2, threads=t, cache=c, evaluator=evaluator))
                for t, c in ((1, True), (2, True), (1, False), (2, False))]
        assert all(r == runs[0] for r in runs), (b.id(), d)


def test_narrowing_defaults_and_off_switch():
    b, d = middle_positions(1, seed=7)[0]  # 3 plays within 0.16 at 0 plies, 2 left after 2 plies
    # full_depth: a play that the narrowing leaves alone still goes to 3 plies (the lone-play stop
    # is tested below)
    narrowed = b.analyze(d, plies=3, evaluator="heuristic", full_depth=True)
    full = b.analyze(d, plies=3, evaluator="heuristic", narrowing=[(-1, 0, 0.0)], full_depth=True)
    # Off: every play the root filter kept ({0, 8, 0.16}) reaches 3 plies.
    deep_full = [p for p in full if p.plies == 3]
    zero = b.analyze(d, plies=0, evaluator="heuristic")
    best0 = zero[0].equity
    assert len(deep_full) == min(9, sum(1 for p in zero if best0 - p.equity <= 0.16 + 1e-6))
    # Default: at most 3 plays at 3 plies, all within 0.04 of the best at 2 plies; the others keep
    # their 2-ply values, exactly those of a 2-ply analysis.
    deep = [p for p in narrowed if p.plies == 3]
    assert 1 <= len(deep) <= 3
    two = {str(p.play): p for p in b.analyze(d, plies=2, evaluator="heuristic")}
    kept_at_2 = [two[str(p.play)] for p in deep]
    best2 = max(p.equity for p in two.values() if p.plies == 2)
    assert all(best2 - p.equity <= 0.04 + 1e-6 for p in kept_at_2)
    assert any(p.equity == best2 for p in kept_at_2)
    for p in narrowed:
        if p.plies == 2:
            assert p.equity == two[str(p.play)].equity
    # Without full_depth the lone play that the narrowing leaves is not searched to 3 plies.
    lone = b.analyze(d, plies=3, evaluator="heuristic")
    assert len(deep) == 1  # this position's narrowing after 2 plies keeps one play of the 2
    assert lone[0].play == deep[0].play and lone[0].plies == 2 and lone[0].equity == two[str(deep[0].play)].equity
    # Plays searched to 3 plies have the same values as in the full-width analysis.
    full_by = {str(p.play): p.equity for p in full}
    assert all(p.equity == full_by[str(p.play)] for p in deep)
    # Deeper plays rank first.
    depths = [p.plies for p in narrowed]
    assert depths == sorted(depths, reverse=True)


def test_explicit_filters_keep_their_meaning():
    """Explicit filters (here: every root play, the statically best reply inside): no default
    narrowing, every root play reaches full depth, as before narrowing existed."""
    b, d = middle_positions(1, seed=4)[0]
    filters = FULL + [(0, 0, 0.0)]
    a = b.analyze(d, plies=3, filters=filters, evaluator="heuristic")
    assert all(p.plies == 3 for p in a)
    a2 = b.analyze(d, plies=3, filters=filters, evaluator="heuristic", narrowing=[(0, 0, 0.0)], full_depth=True)
    assert sum(p.plies == 3 for p in a2) == 1 and a2[0].plies == 3


def test_lone_play_stops_the_search():
    """search.h's lone play, as gnubg: a narrowing that keeps one play of several ends the search
    there; that play (the same one a full-depth search puts first) keeps its value from the last
    iteration, and the analysis is complete at the requested depth."""
    b, d = middle_positions(1, seed=4)[0]
    filters = FULL + [(0, 0, 0.0)]
    deep = b.analyze(d, plies=3, filters=filters, evaluator="heuristic", narrowing=[(0, 0, 0.0)], full_depth=True)
    lone = b.analyze(d, plies=3, filters=filters, evaluator="heuristic", narrowing=[(0, 0, 0.0)])
    one = b.analyze(d, plies=1, filters=filters, evaluator="heuristic")
    assert len(one) > 1 and lone.plies == 3 and not lone.interrupted
    assert lone[0].play == deep[0].play == one[0].play and lone[0].plies == 1
    assert [(str(p.play), p.equity, p.plies) for p in lone] == [(str(p.play), p.equity, p.plies) for p in one]
    assert lone.nodes < deep.nodes
    # A forced play keeps the full depth: test_search_exact.py's test_single_play_and_pass.


def test_narrowing_rejects_bad_values():
    b = tavli.Board("backgammon")
    for bad in ([(-2, 0, 0.0)], [(0, -1, 0.0)], [(0, 0, -0.1)], "x", [(0, 0)]):
        with pytest.raises(ValueError, match="narrowing"):
            b.analyze((3, 1), plies=2, narrowing=bad)


@pytest.mark.parametrize("threads", [1, 2, 3, 4, 5])
def test_batch_positions_path(threads):
    rows, dice = tavli.random_positions("backgammon", 600, seed=12)
    counts, offsets, res = tavli.batch_legal_plays(rows, dice, "backgammon", return_positions=True, threads=threads)
    assert np.array_equal(counts, tavli.batch_legal_plays(rows, dice, "backgammon"))
    assert offsets[0] == 0 and np.array_equal(np.diff(offsets), counts) and len(res) == offsets[-1]
    for i in range(0, 600, 37):
        b = tavli.Board.from_array(rows[i], "backgammon")
        want = {b.play(p).to_array().tobytes() for p in b.legal_plays((int(dice[i][0]), int(dice[i][1])))}
        got = {r.tobytes() for r in res[offsets[i]:offsets[i + 1]]}
        assert got == want, i
    res[0, 0] ^= 0  # the array owns its buffer and is writable
    assert res.flags.owndata or res.base is not None


def _result_sets(rows, dice, offsets, res, every=1):
    for i in range(0, len(rows), every):
        b = tavli.Board.from_array(rows[i], "backgammon")
        want = [b.play(p).to_array().tobytes() for p in b.legal_plays((int(dice[i][0]), int(dice[i][1])))]
        assert [r.tobytes() for r in res[offsets[i]:offsets[i + 1]]] == want, i


@pytest.mark.parametrize("threads", [2, 3, 4])
def test_batch_positions_outgrowing_the_estimate(threads):
    """Each worker sizes its part of the result buffer from a sample of its rows (64, evenly
    spaced); rows chosen so that the sampled ones have one play and the others many overflow it,
    and the results are still every row's plays in order (generated again into place)."""
    rows, dice = tavli.random_positions("backgammon", 3000, seed=5)
    counts = tavli.batch_legal_plays(rows, dice, "backgammon")
    few, many = int(np.argmin(counts)), int(np.argmax(counts))
    assert counts[few] == 1 and counts[many] >= 20
    n = 64 * 10 * threads  # worker w's range is [640 w, 640 (w + 1)): its samples are its rows 0, 10, 20, ...
    pick = np.array([few if (i % 640) % 10 == 0 else many for i in range(n)])
    rows, dice = rows[pick], dice[pick]
    one = tavli.batch_legal_plays(rows, dice, "backgammon", return_positions=True, threads=1)
    got = tavli.batch_legal_plays(rows, dice, "backgammon", return_positions=True, threads=threads)
    for a, b in zip(one, got):
        assert np.array_equal(a, b)
    _result_sets(rows, dice, got[1], got[2], every=97)


def test_batch_reports_the_lowest_bad_row():
    rows, dice = tavli.random_positions("backgammon", 100, seed=1)
    rows = rows.copy()
    rows[70, 0] = 15  # too many checkers
    rows[30, 1] = 15
    for t in (1, 2, 4):
        with pytest.raises(ValueError, match="row 30"):
            tavli.batch_legal_plays(rows, dice, "backgammon", threads=t)
    dice = dice.copy()
    dice[10] = (7, 1)
    with pytest.raises(ValueError, match="row 10"):
        tavli.batch_legal_plays(rows, dice, "backgammon", threads=2)
