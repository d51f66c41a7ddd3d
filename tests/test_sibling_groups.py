"""tools/sibling_groups.py, the experiment tool that labels every play of sampled decisions for
tools/fit_adam.py --groups: each decision's plays are its roll's distinct resulting positions, the
other side to move (checked through the Board API, not the batch path the tool uses), and --keep is
a prefix of a larger run of the same draw."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import tavli
from tavli.classnets import ClassNets

pytestmark = pytest.mark.skipif(tavli.nn.shipped("backgammon") is None, reason="no shipped backgammon net")

TOOL = Path(__file__).resolve().parent.parent / "tools" / "sibling_groups.py"


def tool():
    spec = importlib.util.spec_from_file_location("sibling_groups", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    d = tmp_path_factory.mktemp("work")
    rows = tavli.selfplay.self_play_data("backgammon", 6, ("greedy", "greedy"), seed=3, features=False)["positions"]
    np.save(d / "positions.npy", np.unique(rows, axis=0)[:120])
    return d


def run(work, out, *extra):
    tool().main(["--work", str(work), "--decisions", "30", "--plies", "0", "--threads", "1", "--out", str(out), *extra])
    return np.load(out)


def test_plays_are_each_rolls_distinct_results(work, tmp_path):
    z = run(work, tmp_path / "g.npz")
    pos = np.load(work / "positions.npy")
    held = len(pos) // 10
    assert len(z["rows"]) == len(z["dice"]) == len(z["counts"]) == 30
    assert len(z["succ"]) == len(z["lab"]) == z["counts"].sum()
    assert all(any((r == p).all() for p in pos[held:]) for r in z["rows"])  # never the held-out tenth
    first = 0
    for row, dice, n in zip(z["rows"], z["dice"], z["counts"]):
        board = tavli.Board.from_array(row, "backgammon")
        d = (int(dice[0]), int(dice[1]))
        expected = {board.play(p).to_array().tobytes() for p in board.legal_plays(d)}
        got = [s.tobytes() for s in z["succ"][first:first + n]]
        assert len(got) == len(set(got)) and set(got) == expected
        first += n
    lab = z["lab"]
    assert ((lab >= 0) & (lab <= 1)).all() and (lab[:, 1] <= lab[:, 0] + 1e-6).all()


def test_keep_is_a_prefix_of_the_same_draw(work, tmp_path):
    whole = run(work, tmp_path / "whole.npz")
    part = run(work, tmp_path / "part.npz", "--keep", "7")
    m = int(part["counts"].sum())
    assert len(part["rows"]) == 7 and (part["rows"] == whole["rows"][:7]).all()
    assert (part["succ"] == whole["succ"][:m]).all() and np.allclose(part["lab"], whole["lab"][:m])


def test_test_draws_from_the_held_out_tenth(work, tmp_path):
    z = run(work, tmp_path / "t.npz", "--test")
    pos = np.load(work / "positions.npy")
    held = pos[:len(pos) // 10]
    assert len(z["rows"]) == len(held)
    assert all(any((r == p).all() for p in held) for r in z["rows"])


def test_class_keeps_one_class(work, tmp_path):
    from tavli.classnets import position_classes

    pos = np.load(work / "positions.npy")
    cls = position_classes(pos[len(pos) // 10:], "backgammon")
    want = "race" if (cls == "race").sum() >= 3 else "contact"
    z = run(work, tmp_path / "c.npz", "--class", want)
    assert len(z["rows"]) == min(30, int((cls == want).sum())) > 0
    assert (position_classes(z["rows"], "backgammon") == want).all()


def test_label_contact_labels_with_the_given_net(work, tmp_path):
    # At 0 plies a label is the labeller's own evaluation of the play (the bear-off classes by
    # the exact databases): a random net's labels are its outputs, not the shipped net's.
    net = tavli.nn.Net("backgammon", 16, seed=5, encoding="expert3")
    net.save(tmp_path / "random.tnet")
    shipped = run(work, tmp_path / "s.npz")
    other = run(work, tmp_path / "o.npz", "--label-contact", str(tmp_path / "random.tnet"))
    assert (other["succ"] == shipped["succ"]).all()
    from tavli.classnets import position_classes

    contact = position_classes(other["succ"], "backgammon") == "contact"
    assert contact.sum() > 20
    want = net.evaluate_positions(other["succ"][contact], "backgammon")
    np.testing.assert_allclose(other["lab"][contact], want[:, :5], atol=1e-6)
    assert not np.allclose(other["lab"][contact], shipped["lab"][contact], atol=1e-3)


def test_an_interrupted_run_resumes_from_its_chunks(work, tmp_path, monkeypatch):
    """Labels are kept chunk by chunk beside --out: a run stopped after its first chunk resumes
    without labelling that chunk again and writes the uninterrupted run's file; the parts go once
    the file is written."""
    module = tool()
    argv = ["--work", str(work), "--decisions", "30", "--plies", "0", "--threads", "1", "--chunk", "40"]
    module.main(argv + ["--out", str(tmp_path / "whole.npz")])
    calls = []
    real = module.label_positions

    def stop_after_one(rows, *args, **kwargs):
        if calls:
            raise KeyboardInterrupt
        calls.append(len(rows))
        return real(rows, *args, **kwargs)

    monkeypatch.setattr(module, "label_positions", stop_after_one)
    out = tmp_path / "resumed.npz"
    with pytest.raises(KeyboardInterrupt):
        module.main(argv + ["--out", str(out)])
    assert not out.exists() and sorted(p.name for p in (tmp_path / "resumed.npz.parts").iterdir()) == [
        "lab_00000.npy", "rows_00000.npy"]
    calls.clear()
    monkeypatch.setattr(module, "label_positions", lambda rows, *a, **k: calls.append(len(rows)) or real(rows, *a, **k))
    module.main(argv + ["--out", str(out)])
    whole, resumed = np.load(tmp_path / "whole.npz"), np.load(out)
    assert len(calls) == -(-len(whole["succ"]) // 40) - 1  # every chunk but the first
    for key in whole.files:
        assert np.array_equal(whole[key], resumed[key]), key
    assert not (tmp_path / "resumed.npz.parts").exists()



def test_rollout_labels_are_the_candidates_play_rollouts(work, tmp_path):
    out = tmp_path / "ro.npz"
    extra = ["--keep", "10", "--rollout-trials", "36", "--rollout-truncate", "2", "--candidates", "3", "--chunk", "4",
             "--variance-reduction"]
    z = run(work, out, *extra)
    labeller = ClassNets(tavli.nn.shipped("backgammon"), None, None)  # the tool's, without --label-* nets
    assert not (tmp_path / "ro.npz.parts").exists()
    assert len(z["rows"]) == len(z["counts"]) == 10 and len(z["succ"]) == len(z["lab"]) == z["counts"].sum()
    first = 0
    for k, (row, dice, n) in enumerate(zip(z["rows"], z["dice"], z["counts"])):
        board = tavli.Board.from_array(row, "backgammon")
        d = (int(dice[0]), int(dice[1]))
        chunk_start = k // 4 * 4
        r = board.rollout_plays(d, 3, 36, labeller, truncate=2, variance_reduction=True,
                                seed=tavli.Rng.derive(123 + chunk_start, k - chunk_start))
        assert n == len(r) == min(3, len(board.legal_plays(d)))
        for j, p in enumerate(r):
            after = board.play(p.play)
            assert z["succ"][first + j].tobytes() == after.to_array().tobytes()
            pr = p.rollout.probabilities  # for the side that played; the label is the other side's
            expected = np.clip([pr.lose, pr.lose_double, pr.lose_triple, pr.win_double, pr.win_triple], 0, 1)
            assert z["lab"][first + j] == pytest.approx(expected, abs=1e-6)
        first += n
    # An interrupted run resumes from its parts: a chunk left there is read back, not redone.
    parts = tmp_path / "ro2.npz.parts"
    parts.mkdir()
    kept = {k: v for k, v in np.load(tmp_path / "ro.npz").items()}
    first_chunk = int(kept["counts"][:4].sum())
    fake_lab = np.zeros((first_chunk, 7), np.float32)  # a part that says all zeros: must be used as it is
    np.savez(parts / "rolled_00000.npz", rows=kept["rows"][:4], dice=kept["dice"][:4], counts=kept["counts"][:4],
             results=kept["succ"][:first_chunk], probabilities=fake_lab)
    z2 = run(work, tmp_path / "ro2.npz", *extra)
    assert (z2["lab"][:first_chunk] == np.clip([1, 0, 0, 0, 0], 0, 1)).all()  # lose = 1 - 0 - 0 for the other side
    assert np.array_equal(z2["lab"][first_chunk:], z["lab"][first_chunk:])
