"""Pruning inside the search (cpp/include/tavli/search.h, "Pruning"): a node whose filter searches
only the statically best play values its plays by the evaluator's pruning net first and only the
pruner's best `prune` of them by the evaluator. Expected values come from an expectiminimax written
here on the engine's 0-ply values of each play (by the evaluator and by the pruner separately), and
from the rules of the scheme: a pruner that ranks as the evaluator does changes nothing, full-width
filters never prune, pruning off is the plain search."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tavli
from tavli import _core
from tavli.nn import Net, shipped, shipped_manifest, shipped_pruner
from tavli.pruning import recall

ROLLS = [((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(1, a + 1)]
FIELDS = ("win", "win_double", "win_triple", "lose_double", "lose_triple")


def a_middle_game() -> tavli.Board:
    """A contact position some plies into a seeded game (many plays for most rolls)."""
    rng = np.random.default_rng(4)
    b = tavli.Board("backgammon")
    while len(b.move_stack) < 6 or sum(b.bar) or min(b.count_plays(d) for d, _ in ROLLS if d[0] != d[1]) < 6:
        b.push(b.analyze(tuple(int(x) for x in rng.integers(1, 7, 2)), 0)[0].play)
    return b


def suite_with(pruner: Net) -> _core.NetSuite:
    s = _core.NetSuite()
    s.assign(["backgammon"], shipped("backgammon")._net)
    s.assign_pruner(["backgammon"], pruner._net)
    return s


def random_pruner(seed: int = 7) -> Net:
    return Net("backgammon", 4, seed=seed, encoding="tesauro")


def training_args(command: str) -> list[str]:
    words = command.split()
    out, skip = [], False
    for w in words:
        if skip:
            skip = False
        elif w in ("--threads", "--work", "--out"):
            skip = True
        else:
            out.append(w)
    return out


def probs(p) -> tuple[float, ...]:
    return tuple(getattr(p, f) for f in FIELDS)


def pruned_reply(board: tavli.Board, dice, net: Net, pruner: Net, prune: int):
    """The opponent's choice at a pruned node: the evaluator's best among the pruner's best
    `prune` plays (the pruner's ties in generation order, as analyze lists them)."""
    by_net = {str(p.play): p for p in board.analyze(dice, 0, evaluator=net)}
    by_pruner = board.analyze(dice, 0, evaluator=pruner)
    kept = [by_net[str(p.play)] for p in by_pruner[:prune]] if len(by_pruner) > prune else list(by_net.values())
    best = max(kept, key=lambda p: p.equity)  # max keeps the first of equal ones
    return best, best.equity < max(p.equity for p in by_net.values())


def test_one_ply_is_the_evaluators_best_among_the_pruners_best():
    """analyze(1 ply): each play is worth the average over the opponent's rolls of his reply at a
    pruned node, seen from our side; the root's plays are all valued (never pruned)."""
    board, pruner, net = a_middle_game(), random_pruner(), shipped("backgammon")
    dice = (4, 2)
    for prune in (1, 3):
        got = board.analyze(dice, 1, evaluator=suite_with(pruner), prune=prune)
        assert len(got) == board.count_plays(dice) and all(p.plies == 1 for p in got)
        changed = 0
        for p in got:
            after = board.play(p.play)
            want = np.zeros(5)
            for roll, w in ROLLS:
                reply, lost = pruned_reply(after, roll, net, pruner, prune)
                changed += lost
                q = reply.probabilities  # the opponent's; ours is its inversion
                want += w * np.array([1 - q.win - q.draw, q.lose_double, q.lose_triple, q.win_double, q.win_triple])
            assert probs(p.probabilities) == pytest.approx(tuple(want), abs=2e-6), (prune, p)
        assert changed > 0  # a random pruner loses the best reply somewhere: the test can tell
    # evaluate() prunes its rolls' choices as an analysis prunes the replies: a play's value is the
    # value of the position after it.
    for p in got:
        after = board.play(p.play).evaluate(1, evaluator=suite_with(pruner), prune=3).probabilities
        assert probs(p.probabilities)[0] == pytest.approx(1 - after.win - after.draw, abs=1e-6)


def test_a_pruner_that_ranks_as_the_evaluator_changes_nothing():
    board, net = a_middle_game(), shipped("backgammon")
    same = suite_with(net)
    plain = board.analyze((6, 3), 2, evaluator=net, full_depth=True)
    pruned = board.analyze((6, 3), 2, evaluator=same, prune=1, full_depth=True)
    assert [str(p.play) for p in pruned] == [str(p.play) for p in plain]
    for a, b in zip(pruned, plain):
        assert probs(a.probabilities) == pytest.approx(probs(b.probabilities), abs=1e-6)
    assert pruned.nodes < plain.nodes / 3  # each inner node valued one play by the evaluator


def test_no_pruning_without_a_pruner_when_off_or_full_width():
    board, net = a_middle_game(), shipped("backgammon")
    suite = suite_with(random_pruner())
    plain = board.analyze((5, 2), 2, evaluator=net, full_depth=True)
    for kwargs in ({"prune": 0}, {"prune": 1000}, {"prune": 2, "filters": [(1000, 0, 0)]}):
        a = board.analyze((5, 2), 2, evaluator=suite, full_depth=True, **kwargs)
        ref = plain if "filters" not in kwargs else board.analyze((5, 2), 2, evaluator=net, filters=[(1000, 0, 0)], full_depth=True)
        assert [(str(p.play), p.equity) for p in a] == [(str(p.play), p.equity) for p in ref], kwargs
        assert a.nodes == ref.nodes
    # The heuristic and a lone net have no pruner: prune changes nothing there.
    for ev in ("heuristic", net):
        a, b = (board.analyze((4, 1), 2, evaluator=ev, prune=k) for k in (0, 2))
        assert [(str(p.play), p.equity) for p in a] == [(str(p.play), p.equity) for p in b]


def test_pruned_search_does_not_depend_on_threads():
    board = a_middle_game()
    a1 = board.analyze((6, 1), 2, threads=1, full_depth=True)
    a2 = board.analyze((6, 1), 2, threads=2, full_depth=True)
    assert [(str(p.play), p.equity) for p in a1] == [(str(p.play), p.equity) for p in a2]
    assert a1.nodes == a2.nodes
    e1, e2 = board.evaluate(2, threads=1), board.evaluate(2, threads=3)
    assert e1.equity == e2.equity and e1.nodes == e2.nodes


def test_the_shipped_backgammon_net_prunes_by_default():
    board = a_middle_game()
    pruned, plain = board.analyze((6, 4), 2, full_depth=True), board.analyze((6, 4), 2, prune=0, full_depth=True)
    assert pruned.nodes < plain.nodes / 2
    assert pruned.best.play == plain.best.play
    assert abs(pruned.best.equity - plain.best.equity) < 0.05
    entry = shipped_manifest()["backgammon"]["pruner"]
    net = shipped_pruner("backgammon")
    assert net is not None and net.family == "backgammon" and net.encoding == entry["encoding"] == "tesauro"
    assert [net.inputs, net.hidden, 5] == entry["layers"]
    assert entry["command"].startswith("python -m tavli.pruning ")
    # The net was made by the manifest's command (threads and paths aside: they change no weight).
    assert training_args(json.loads(net.metadata)["command"]) == training_args(entry["command"])
    assert shipped_pruner("fevga") is None


@pytest.mark.parametrize("bad", [-1, 1001, 2.5, True, "5"])
def test_prune_is_validated(bad):
    board = tavli.Board("backgammon")
    with pytest.raises(ValueError, match="prune"):
        board.analyze((3, 1), 2, prune=bad)
    with pytest.raises(ValueError, match="prune"):
        board.evaluate(1, prune=bad)


def test_a_pruner_must_be_of_the_family():
    with pytest.raises(ValueError, match="pruning net of family 'fevga'"):
        _core.NetSuite().assign_pruner(["backgammon"], Net("fevga", 4, seed=1)._net)


def test_recall_counts_the_nodes_whose_best_play_the_pruner_keeps():
    # Two nodes of 3 plays and one of 1 (too few to prune: not counted). Lower is better for the
    # mover (the positions are seen by the opponent).
    equity = np.array([0.1, -0.2, 0.3, 0.5, 0.4, -0.9, 0.0])
    pruner = np.array([0.0, 0.1, 0.2, 0.9, -0.1, 0.0, 0.0])
    offsets = np.array([0, 3, 6, 7])
    # node 0: best play 1, pruner's order 0, 1, 2; node 1: best play 5, pruner's order 4, 5, 3.
    assert recall(pruner, equity, offsets, 1) == 0.0
    assert recall(pruner, equity, offsets, 2) == 1.0
    assert recall(pruner, -equity, offsets, 1) == 0.0  # node 0's best is then play 2, node 1's play 3


def test_pruning_pipeline_resumes_to_the_same_net(tmp_path):
    from tavli.pruning import main

    args = ["--games", "6", "--hidden", "4", "--seed", "3", "--threads", "1"]
    main(args + ["--epochs", "2", "--work", str(tmp_path / "a"), "--out", str(tmp_path / "a.tnet")])
    main(args + ["--epochs", "1", "--work", str(tmp_path / "b")])  # one epoch, then resumed
    main(args + ["--epochs", "2", "--work", str(tmp_path / "b"), "--out", str(tmp_path / "b.tnet")])
    a, b = Net.load(tmp_path / "a.tnet"), Net.load(tmp_path / "b.tnet")
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    assert json.loads(a.metadata)["epoch"] == 2


def test_evaluate_batch_prunes_as_evaluate_does():
    boards = [a_middle_game(), tavli.Board("backgammon")]
    rows = np.stack([b.to_array() for b in boards])
    for prune in (0, 2, _core.DEFAULT_PRUNE):
        got = tavli.evaluate_batch(rows, "backgammon", plies=2, prune=prune)
        for b, row in zip(boards, got):
            e = b.evaluate(2, prune=prune)
            assert row.tolist() == pytest.approx(list(e.probabilities) + [e.equity], abs=1e-6), prune
    assert tavli.evaluate_batch(rows, "backgammon", plies=2, prune=0)[0, 7] != \
        tavli.evaluate_batch(rows, "backgammon", plies=2, prune=1)[0, 7]
    with pytest.raises(ValueError, match="prune"):
        tavli.evaluate_batch(rows, "backgammon", plies=1, prune=-1)
