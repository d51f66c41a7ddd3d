"""TD(lambda) self-play training (cpp/include/tavli/train.h, tavli.train): reproducibility for a
seed, checkpoint + resume equal to an uninterrupted run, the TD update against a numpy finite-
difference computation of the header's formulas (lambda = 0, and the trace across a change of side),
learning on a small game, argument checks, and the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tavli
import tavli.nn as nn
import tavli.train as tt

H2 = {"checkers": 2}  # Hypergammon with 2 checkers: short games, fast to learn


def weights(net: nn.Net) -> list[np.ndarray]:
    return [net.w1, net.b1, net.w2, net.b2]


def same_weights(a: nn.Net, b: nn.Net) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(weights(a), weights(b)))


def trained(variant: str, games: int, hidden: int = 16, seed: int = 3, **kw) -> nn.Net:
    net = nn.Net(nn.family(variant), hidden, seed=seed)
    t = tt.TdTrainer(net, variant, seed=seed, **kw)
    t.train(games)
    assert t.games == games
    return net


# --- reproducibility ---------------------------------------------------------------------------------

@pytest.mark.parametrize("variant, games, opts", [("hypergammon", 300, H2), ("fevga", 20, {}), ("backgammon", 10, {})])
def test_same_seed_same_weights(variant, games, opts):
    a = trained(variant, games, **opts)
    b = trained(variant, games, **opts)
    assert same_weights(a, b)
    c = trained(variant, games, seed=4, **opts)
    assert not np.array_equal(a.w1, c.w1)


def test_epsilon_and_lambda_are_reproducible_and_matter():
    a = trained("hypergammon", 200, epsilon=0.1, lambda_=0.5, **H2)
    b = trained("hypergammon", 200, epsilon=0.1, lambda_=0.5, **H2)
    c = trained("hypergammon", 200, epsilon=0.0, lambda_=0.5, **H2)
    assert same_weights(a, b)
    assert not same_weights(a, c)


def test_checkpoint_and_resume_equal_an_uninterrupted_run(tmp_path):
    full = trained("hypergammon", 400, alpha=0.05, lambda_=0.8, **H2)

    net = nn.Net("backgammon", 16, seed=3)
    t = tt.TdTrainer(net, "hypergammon", seed=3, alpha=0.05, lambda_=0.8, **H2)
    t.train(150)
    t.train(100)  # chunking does not matter
    path = tmp_path / "ckpt.tnet"
    t.save(path)
    meta = json.loads(nn.Net.load(path).metadata)
    assert meta["games"] == 250 and meta["alpha"] == 0.05 and meta["lambda"] == 0.8 and meta["seed"] == 3
    assert meta["variant"] == "hypergammon" and meta["options"] == {"checkers": 2}

    r = tt.TdTrainer.resume(path)
    assert r.games == 250
    r.train(150)
    assert same_weights(r.net, full)


# --- the TD update against numpy ---------------------------------------------------------------------

def forward64(w, x):
    w1, b1, w2, b2 = w
    h = 1 / (1 + np.exp(-(x @ w1 + b1)))
    return 1 / (1 + np.exp(-(h @ w2.T + b2)))


def fd_jacobian(w, x, eps=1e-6):
    """d out[o] / d w for every weight (central differences, float64): (5, total weights)."""
    flat = np.concatenate([a.ravel() for a in w])
    shapes = [a.shape for a in w]

    def unflat(v):
        out, k = [], 0
        for s in shapes:
            n = int(np.prod(s))
            out.append(v[k:k + n].reshape(s))
            k += n
        return out

    jac = np.empty((5, flat.size))
    for j in range(flat.size):
        p, m = flat.copy(), flat.copy()
        p[j] += eps
        m[j] -= eps
        jac[:, j] = (forward64(unflat(p), x) - forward64(unflat(m), x)) / (2 * eps)
    return jac


def flat64(net):
    return np.concatenate([a.astype(np.float64).ravel() for a in weights(net)])


def random_setup(seed):
    net = nn.Net("backgammon", 6, seed=seed)
    g = np.random.default_rng(seed)
    net.w1 = g.normal(0, 0.4, net.w1.shape)
    net.b1 = g.normal(0, 0.4, net.b1.shape)
    net.w2 = g.normal(0, 0.8, net.w2.shape)
    net.b2 = g.normal(0, 0.4, net.b2.shape)
    x = np.where(g.random(net.inputs) < 0.15, g.uniform(0, 1.5, net.inputs), 0.0).astype(np.float32)
    return net, x, g


M = np.array([[-1, 0, 0, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0]], dtype=np.float64)


@pytest.mark.parametrize("seed", [1, 2])
def test_td_step_lambda0_matches_finite_differences(seed):
    net, x, g = random_setup(seed)
    alpha = 0.05
    t = tt.TdTrainer(net, "hypergammon", alpha=alpha, lambda_=0.0, **H2)
    w0 = [a.astype(np.float64) for a in weights(net)]
    v0 = forward64(w0, x.astype(np.float64))
    target = g.uniform(0, 1, 5).astype(np.float32)
    before = t._core._td_step(x, target, True)
    np.testing.assert_allclose(before, v0, atol=1e-5)

    jac = fd_jacobian(w0, x.astype(np.float64))
    delta = target - v0
    predicted_dw = alpha * delta @ jac                       # w += alpha sum_o delta_o grad V_o
    actual_dw = flat64(net) - np.concatenate([a.ravel() for a in w0])
    scale = np.abs(predicted_dw).max()
    assert scale > 1e-3
    np.testing.assert_allclose(actual_dw, predicted_dw, atol=1e-4 * scale + 1e-7)

    # The outputs move toward the target by the first-order amount grad V . dw.
    v1 = forward64([a.astype(np.float64) for a in weights(net)], x.astype(np.float64))
    predicted_dv = jac @ predicted_dw
    np.testing.assert_allclose(v1 - v0, predicted_dv, rtol=0.05, atol=2e-3 * np.abs(predicted_dv).max())
    assert np.sum((target - v1) ** 2) < np.sum((target - v0) ** 2)


def test_td_trace_changes_side_between_steps():
    """Two steps (the second state is the other side's): e2 = lambda M e1 + grad V(x2)."""
    net, x1, g = random_setup(5)
    x2 = np.where(g.random(net.inputs) < 0.15, g.uniform(0, 1.5, net.inputs), 0.0).astype(np.float32)
    alpha, lam = 0.05, 0.6
    t = tt.TdTrainer(net, "hypergammon", alpha=alpha, lambda_=lam, **H2)
    w0 = [a.astype(np.float64) for a in weights(net)]
    e1 = fd_jacobian(w0, x1.astype(np.float64))
    t._core._td_step(x1, g.uniform(0, 1, 5).astype(np.float32), True)
    w1 = [a.astype(np.float64) for a in weights(net)]
    v2 = forward64(w1, x2.astype(np.float64))
    target2 = g.uniform(0, 1, 5).astype(np.float32)
    t._core._td_step(x2, target2, False)
    e2 = lam * (M @ e1) + fd_jacobian(w1, x2.astype(np.float64))
    predicted_dw = alpha * (target2 - v2) @ e2
    actual_dw = flat64(net) - np.concatenate([a.ravel() for a in w1])
    scale = np.abs(predicted_dw).max()
    np.testing.assert_allclose(actual_dw, predicted_dw, atol=2e-4 * scale + 1e-7)


# --- learning ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2])
def test_training_beats_the_untrained_net_against_random(seed):
    net = nn.Net("backgammon", 40, seed=seed)
    before = tt.evaluate_vs(net, "hypergammon", "random", 600, seed=100 + seed, **H2)
    tt.TdTrainer(net, "hypergammon", seed=seed, alpha=0.1, lambda_=0.7, **H2).train(2000)
    after = tt.evaluate_vs(net, "hypergammon", "random", 600, seed=100 + seed, **H2)
    assert after["score"] > 0.6
    assert after["score"] > before["score"] + 0.06, (before, after)


def test_evaluate_vs_mirrors_and_counts():
    net = nn.Net("fevga", 16, seed=1)
    r = tt.evaluate_vs(net, "fevga", "heuristic", 20, seed=9)
    assert r["games"] == 20 and r["net_wins"] + r["opponent_wins"] + r["other"] == 20
    assert r["net_points"] >= r["net_wins"] and r["opponent_points"] >= r["opponent_wins"]
    assert r["low"] <= r["score"] <= r["high"]
    assert tt.evaluate_vs(net, "fevga", "heuristic", 20, seed=9) == r
    assert tt.evaluate_vs(net, "fevga", "heuristic", 20, seed=9, threads=2) == r
    # The random opponent is deterministic for a seed too.
    assert tt.evaluate_vs(net, "fevga", "random", 10, seed=9) == tt.evaluate_vs(net, "fevga", "random", 10, seed=9)


# --- bad arguments -------------------------------------------------------------------------------------

def test_bad_arguments_raise_value_error():
    net = nn.Net("backgammon", 8, seed=1)
    with pytest.raises(ValueError, match="variant"):
        tt.TdTrainer(net, "nosuchgame")
    with pytest.raises(ValueError, match="family"):
        tt.TdTrainer(net, "fevga")
    with pytest.raises(ValueError, match="family"):
        tt.evaluate_vs(net, "plakoto", "random", 2)
    for alpha in (0, -0.1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="alpha"):
            tt.TdTrainer(net, "backgammon", alpha=alpha)
    with pytest.raises(ValueError, match="lambda"):
        tt.TdTrainer(net, "backgammon", lambda_=1.5)
    with pytest.raises(ValueError, match="epsilon"):
        tt.TdTrainer(net, "backgammon", epsilon=-0.1)
    t = tt.TdTrainer(net, "backgammon")
    with pytest.raises(ValueError, match="games"):
        t.train(-1)
    with pytest.raises(ValueError, match="games"):
        tt.evaluate_vs(net, "backgammon", "random", -2)
    with pytest.raises(ValueError, match="opponent"):
        tt.evaluate_vs(net, "backgammon", "gnubg", 2)
    raw = nn.Net("backgammon", 8, encoding="raw", inputs=10)
    with pytest.raises(ValueError, match="raw"):
        tt.TdTrainer(raw, "backgammon")
    with pytest.raises(ValueError):
        tt.TdTrainer(net, "hypergammon", checkers=9)


# --- the command line ----------------------------------------------------------------------------------

def test_cli_trains_checkpoints_and_resumes_exactly(tmp_path, capsys):
    base = ["--variant", "hypergammon", "--option", "checkers=2", "--hidden", "12", "--alpha", "0.1",
            "--lambda", "0.7", "--seed", "5", "--checkpoint-every", "100", "--chunk", "60"]
    a, b = tmp_path / "a.tnet", tmp_path / "b.tnet"
    assert tt.main(base + ["--games", "200", "--out", str(a), "--eval-every", "100", "--eval-games", "20"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "vs heuristic" in out and "vs random" in out
    net = nn.Net.load(a)
    assert net.hidden == 12 and net.family == "backgammon"
    meta = json.loads(net.metadata)
    assert meta["games"] == 200 and meta["command"].startswith("python -m tavli.train")

    assert tt.main(base + ["--games", "120", "--out", str(b)]) == 0
    assert json.loads(nn.Net.load(b).metadata)["games"] == 120
    assert tt.main(["--resume", str(b), "--games", "200", "--out", str(b)]) == 0
    assert same_weights(nn.Net.load(a), nn.Net.load(b))

    # Disagreeing with the checkpoint, or nonsense, is an error (status 2), not a traceback.
    assert tt.main(["--resume", str(b), "--games", "300", "--alpha", "0.5", "--out", str(b)]) == 2
    assert tt.main(["--variant", "nosuch", "--games", "10", "--out", str(tmp_path / "c.tnet")]) == 2
    assert tt.main(["--variant", "fevga", "--games", "-1", "--out", str(tmp_path / "c.tnet")]) == 2
    assert tt.main(["--variant", "fevga", "--games", "1", "--alpha", "0", "--out", str(tmp_path / "c.tnet")]) == 2


# --- the learning-rate schedule ----------------------------------------------------------------------

def test_alpha_steps_equal_changing_alpha_by_hand(tmp_path):
    """A schedule is the same as training to each step with the old rate, then resuming the same
    run (same game counter: the same games) with the new rate."""
    net = nn.Net("backgammon", 16, seed=3)
    t = tt.TdTrainer(net, "hypergammon", seed=3, alpha=0.1, alpha_steps=[(120, 0.02), (200, 0.3)], **H2)
    t.train(70)
    t.train(190)  # a call may span steps
    assert t.games == 260 and t.alpha == 0.3 and t.alpha_at(119) == 0.1 and t.alpha_at(120) == 0.02

    by_hand = nn.Net("backgammon", 16, seed=3)
    done = 0
    for until, alpha in ((120, 0.1), (200, 0.02), (260, 0.3)):
        h = tt.TdTrainer(by_hand, "hypergammon", seed=3, alpha=alpha, games_done=done, **H2)
        h.train(until - done)
        done = until
    assert same_weights(net, by_hand)
    assert not same_weights(net, trained("hypergammon", 260, alpha=0.1, **H2))

    path = tmp_path / "s.tnet"
    t.save(path)
    assert json.loads(nn.Net.load(path).metadata)["alpha_steps"] == [[120, 0.02], [200, 0.3]]
    assert tt.TdTrainer.resume(path).alpha_steps == [(120, 0.02), (200, 0.3)]


def test_cli_resume_may_add_later_alpha_steps_only(tmp_path):
    base = ["--variant", "hypergammon", "--option", "checkers=2", "--hidden", "12", "--alpha", "0.1",
            "--seed", "5", "--checkpoint-every", "0"]
    full, part = tmp_path / "full.tnet", tmp_path / "part.tnet"
    assert tt.main(base + ["--games", "200", "--alpha-step", "150:0.03", "--out", str(full)]) == 0
    assert tt.main(base + ["--games", "100", "--out", str(part)]) == 0
    # A step at or after the checkpoint's game 100: the same as the uninterrupted run above.
    assert tt.main(["--resume", str(part), "--games", "200", "--alpha-step", "150:0.03", "--out", str(part)]) == 0
    assert same_weights(nn.Net.load(full), nn.Net.load(part))
    # A step inside the games already played would rewrite history: refused.
    assert tt.main(["--resume", str(part), "--games", "300", "--alpha-step", "50:0.2", "--out", str(part)]) == 2
    for bad in ("x:0.1", "0:0.1", "10:-1", "10"):
        assert tt.main(base + ["--games", "10", "--alpha-step", bad, "--out", str(tmp_path / "bad.tnet")]) == 2
    assert tt.main(base + ["--games", "10", "--alpha-step", "20:0.1", "--alpha-step", "10:0.1",
                           "--out", str(tmp_path / "bad.tnet")]) == 2


def test_cli_init_starts_a_new_run_from_a_net(tmp_path):
    """--init: games from 0 on the weights of a given net (e.g. one trained under another game's
    rules of its family), the same weights as training a copy of it by hand."""
    start = trained("hypergammon", 60, hidden=10, seed=4, **H2)
    src = tmp_path / "start.tnet"
    start.save(src)
    out = tmp_path / "out.tnet"
    assert tt.main(["--init", str(src), "--variant", "hypergammon", "--option", "checkers=3", "--alpha", "0.05",
                    "--seed", "8", "--games", "40", "--chunk", "15", "--out", str(out)]) == 0
    by_hand = start.copy()
    tt.TdTrainer(by_hand, "hypergammon", alpha=0.05, seed=8, checkers=3).train(40)
    got = nn.Net.load(out)
    assert same_weights(got, by_hand) and not same_weights(got, start)
    assert json.loads(got.metadata)["games"] == 40 and got.hidden == 10
    # The net must serve the variant's family and may be widened, not narrowed (--hidden, --encoding:
    # tavli.nn.widen); --init and --resume together are an error.
    bad = tmp_path / "bad.tnet"
    assert tt.main(["--init", str(src), "--variant", "fevga", "--games", "5", "--out", str(bad)]) == 2
    assert tt.main(["--init", str(src), "--variant", "hypergammon", "--hidden", "9", "--games", "5",
                    "--out", str(bad)]) == 2
    assert tt.main(["--init", str(src), "--variant", "hypergammon", "--encoding", "expert3", "--games", "5",
                    "--out", str(bad)]) == 2
    assert tt.main(["--init", str(src), "--resume", str(out), "--games", "50", "--out", str(bad)]) == 2
    assert not bad.exists()


def test_cli_init_widens_the_net(tmp_path):
    """--init with more --hidden units: the run starts from tavli.nn.widen's net (the same outputs
    as the narrow one), drawn by --widen-seed, and trains it as by hand."""
    from tavli.nn.widen import widen

    start = trained("hypergammon", 60, hidden=10, seed=4, **H2)
    src = tmp_path / "start.tnet"
    start.save(src)
    wide = widen(start, start.encoding, 14, seed=3)
    rows, _ = tavli.random_positions("hypergammon", 200, seed=5, checkers=3)
    np.testing.assert_array_equal(wide.evaluate_positions(rows, "hypergammon", checkers=3),
                                  start.evaluate_positions(rows, "hypergammon", checkers=3))
    out = tmp_path / "out.tnet"
    assert tt.main(["--init", str(src), "--variant", "hypergammon", "--option", "checkers=3", "--hidden", "14",
                    "--widen-seed", "3", "--alpha", "0.05", "--seed", "8", "--games", "40", "--out", str(out)]) == 0
    tt.TdTrainer(wide, "hypergammon", alpha=0.05, seed=8, checkers=3).train(40)
    got = nn.Net.load(out)
    assert got.hidden == 14 and same_weights(got, wide)


# --- rounds of games on every core (train.h, "Rounds") -------------------------------------------

def test_round_is_the_sum_of_its_games_changes():
    """A round of B games from weights W ends at W + sum_g (W_g - W), W_g being game g trained
    alone from W by the one-by-one trainer (same game index, so the same dice), the changes added
    in game order in float32: computed here with numpy from B separate runs."""
    start = nn.Net("backgammon", 12, seed=6)
    B, first = 3, 6  # the second round of 3: games 6, 7, 8
    alone = []
    for g in range(first, first + B):
        copy = start.copy()
        tt.TdTrainer(copy, "hypergammon", seed=9, alpha=0.05, games_done=g, **H2).train(1)
        alone.append(copy)
    expected = []
    for k, w0 in enumerate(weights(start)):
        acc = w0.copy()
        for c in alone:
            acc += weights(c)[k] - w0
        expected.append(acc)
    net = start.copy()
    t = tt.TdTrainer(net, "hypergammon", seed=9, alpha=0.05, games_done=first, batch_games=B, **H2)
    st = t.train(B)
    assert st["games"] == B and t.games == first + B
    assert all(np.array_equal(a, b) for a, b in zip(weights(net), expected))
    assert not same_weights(net, alone[-1])


@pytest.mark.parametrize("variant, opts", [("hypergammon", H2), ("backgammon", {})])
def test_rounds_do_not_depend_on_threads(variant, opts):
    games = 48 if variant == "hypergammon" else 8
    nets = []
    for threads in (1, 2, 3):
        net = nn.Net(nn.family(variant), 16, seed=2)
        tt.TdTrainer(net, variant, seed=5, batch_games=4, threads=threads, **opts).train(games)
        nets.append(net)
    assert same_weights(nets[0], nets[1]) and same_weights(nets[0], nets[2])
    one_by_one = trained(variant, games, seed=2, **opts)
    assert not same_weights(nets[0], one_by_one)


def test_batch_of_one_is_the_online_trainer():
    a = trained("hypergammon", 120, batch_games=1, threads=3, **H2)
    b = trained("hypergammon", 120, **H2)
    assert same_weights(a, b)


def test_rounds_learn_like_the_online_trainer():
    """Rounds of 8 games on 2 threads learn about as much as the online trainer in 2,000 games (the
    learning test above, both against random on the same 600 mirrored games)."""
    scores = {}
    before = tt.evaluate_vs(nn.Net("backgammon", 40, seed=1), "hypergammon", "random", 600, seed=101, **H2)
    for batch in (1, 8):
        net = nn.Net("backgammon", 40, seed=1)
        tt.TdTrainer(net, "hypergammon", seed=1, alpha=0.1, lambda_=0.7, batch_games=batch, threads=2,
                     **H2).train(2000)
        scores[batch] = tt.evaluate_vs(net, "hypergammon", "random", 600, seed=101, **H2)["score"]
    assert scores[8] > 0.6 and scores[8] > before["score"] + 0.06, (before, scores)
    assert abs(scores[8] - scores[1]) < 0.07, scores


def test_rounds_checkpoint_and_resume_exactly(tmp_path):
    base = ["--variant", "hypergammon", "--option", "checkers=2", "--hidden", "12", "--alpha", "0.1",
            "--seed", "5", "--batch-games", "6", "--alpha-step", "96:0.03"]
    full, part = tmp_path / "full.tnet", tmp_path / "part.tnet"
    assert tt.main(base + ["--games", "180", "--chunk", "36", "--checkpoint-every", "0", "--threads", "2",
                           "--out", str(full)]) == 0
    assert tt.main(base + ["--games", "60", "--chunk", "12", "--checkpoint-every", "30", "--out", str(part)]) == 0
    meta = json.loads(nn.Net.load(part).metadata)
    assert meta["batch_games"] == 6 and meta["games"] == 60
    # Chunks and checkpoints that fall inside a round end with it: the same weights.
    odd = tmp_path / "odd.tnet"
    assert tt.main(base + ["--games", "60", "--chunk", "7", "--checkpoint-every", "25", "--out", str(odd)]) == 0
    assert same_weights(nn.Net.load(odd), nn.Net.load(part))
    assert tt.main(["--resume", str(part), "--games", "180", "--chunk", "18", "--threads", "3",
                    "--out", str(part)]) == 0
    assert same_weights(nn.Net.load(full), nn.Net.load(part))
    # A run or a rate step that ends inside a round, or a different round size on resume: refused.
    for bad in (["--games", "100"], ["--alpha-step", "50:0.1", "--games", "60"]):
        assert tt.main(base + bad + ["--out", str(tmp_path / "bad.tnet")]) == 2
    assert tt.main(["--resume", str(part), "--games", "240", "--batch-games", "4", "--out", str(part)]) == 2


def test_batch_games_is_validated():
    net = nn.Net("backgammon", 8, seed=1)
    for bad in (0, -1, 4097, 1.5, True):
        with pytest.raises(ValueError, match="batch_games"):
            tt.TdTrainer(net, "hypergammon", batch_games=bad, **H2)
    for bad in (0, 1025):
        with pytest.raises(ValueError, match="threads"):
            tt.TdTrainer(net, "hypergammon", threads=bad, **H2)
    with pytest.raises(ValueError, match="multiple of 4"):
        tt.TdTrainer(net, "hypergammon", batch_games=4, alpha_steps=[(10, 0.01)], **H2)
