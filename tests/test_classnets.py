"""Position classes, the class-net evaluator, the two-sided bear-off database, the "race" and
"expert2" encodings and supervised training (cpp/include/tavli/{position_class,class_net,bearoff2,
encode_race,contact_features,supervised}.h).

Expected values are counted by hand from the dice (36 rolls, doubles play four times) or come
from GNU Backgammon's own two-sided bear-off database (gnubg-nn), never from tavli's output."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tavli
from helpers import mover_row as row
from tavli import _core
from tavli import classnets as C
from tavli import supervised as S
from tavli.nn import Net

BG = "backgammon"


# --- the two-sided bear-off database ---------------------------------------------------------------

def test_bearoff2_hand_counted():
    rows = np.stack([
        row({23: 1}, {23: 1}),       # one checker each on the 1-point: the mover is off first
        row({18: 1}, {23: 1}),       # one on the 6-point: off this roll with 27 of 36 rolls
        row({18: 2}, {23: 1}),       # two on the 6-point: only 3-3, 4-4, 5-5, 6-6 take both off
        row({23: 2}, {23: 1}),       # two on the 1-point: every roll takes both off
        row({22: 1}, {18: 6}),       # one on the 2-point: the mover always finishes first
    ])
    want = [1.0, 27 / 36, 4 / 36, 1.0, 1.0]
    np.testing.assert_allclose(C.bearoff2_win(rows, BG), want, atol=1e-6)


def test_bearoff2_one_checker_each_matches_independent_dice_counting():
    """One checker each: the mover on its p-point, the other on its q-point. Each turn a lone
    checker on point x is off with the rolls whose pips (doubles x4) reach x along the way, which
    for one checker is simply pips >= x; otherwise it moves the whole roll. Counted here by a
    recursion over the 36 rolls that knows nothing of tavli."""
    from functools import lru_cache

    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]

    @lru_cache(maxsize=None)
    def win(p: int, q: int) -> float:  # mover on p, other on q (points 1..6 or 0 = off)
        total = 0.0
        for a, b in rolls:
            pips = 4 * a if a == b else a + b
            total += 1.0 if pips >= p else 1.0 - win(q, p - pips)
        return total / 36

    rows, want = [], []
    for p in range(1, 7):
        for q in range(1, 7):
            rows.append(row({24 - p: 1}, {24 - q: 1}))
            want.append(win(p, q))
    np.testing.assert_allclose(C.bearoff2_win(np.stack(rows), BG), want, atol=1e-5)


def random_bearoff_rows(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        me, op = {}, {}
        for side in (me, op):
            for _ in range(int(rng.integers(1, 7))):
                r = 18 + int(rng.integers(0, 6))
                side[r] = side.get(r, 0) + 1
        out.append(row(me, op))
    return np.stack(out)


def test_bearoff2_against_gnubg_two_sided_database():
    gnubg = pytest.importorskip("gnubg_nn")
    rows = random_bearoff_rows(150, seed=3)

    def gb(r):
        r = [int(x) for x in r]
        return [[r[47 - i] for i in range(24)] + [r[49]], [r[23 - i] for i in range(24)] + [r[48]]]

    theirs = np.array([gnubg.probabilities(gb(r), 0)[0] for r in rows])
    # gnubg stores its two-sided database in 16 bits
    np.testing.assert_allclose(C.bearoff2_win(rows, BG), theirs, atol=1e-4)


def test_bearoff2_within_the_one_sided_approximation():
    """The one-sided table assumes both sides minimise their expected rolls: close to the exact
    values (within 1%), equal where each side has one checker (no choice of play)."""
    rows = random_bearoff_rows(300, seed=4)
    exact = C.bearoff2_win(rows, BG)
    one_sided = tavli.nn.shipped(BG).evaluate_positions(rows, BG)[:, 0]
    assert np.abs(exact - one_sided).max() < 0.01
    assert np.abs(exact - one_sided).max() > 0  # a strategy difference somewhere


def test_bearoff2_refuses_positions_outside_it():
    with pytest.raises(ValueError, match="two-sided bear-off"):
        C.bearoff2_win(row({17: 1}, {23: 1})[None], BG)
    with pytest.raises(ValueError, match="two-sided bear-off"):
        C.bearoff2_win(row({23: 7}, {23: 1})[None], BG)


# --- position classes ------------------------------------------------------------------------------

def test_position_classes():
    rows = np.stack([
        tavli.Board(BG).to_array(),                      # the start: contact
        row({10: 5, 20: 10}, {18: 15}),                  # no contact, mover not home: race
        row({18: 15}, {19: 15}),                         # both home, none off: one-sided
        row({18: 3}, {20: 2}),                           # both home, few left: two-sided
        row({18: 8}, {20: 2}),                           # 8 left: one-sided
        row({0: 2, 23: 5}, {1: 2, 12: 5, 18: 8}),        # contact, mover has 7 - 4 = 3 in play
        row({0: 2, 12: 6, 18: 7}, {0: 2, 12: 6, 18: 7}),  # contact, both with 15 in play
    ])
    assert list(C.position_classes(rows, BG)) == ["contact", "race", "bearoff1", "bearoff2", "bearoff1",
                                                  "crashed", "contact"]


# --- the class-net evaluator -----------------------------------------------------------------------

def small_net(encoding: str, seed: int) -> Net:
    return Net(BG, 8, seed=seed, encoding=encoding)


def test_class_nets_dispatch_each_class_to_its_net():
    contact, race, crashed = small_net("expert", 1), small_net("race", 2), small_net("expert2", 3)
    nets = C.ClassNets(contact, race, crashed)
    rows = np.stack([tavli.Board(BG).to_array(), row({10: 5, 20: 10}, {18: 15}),
                     row({0: 2, 23: 5}, {1: 2, 12: 5, 18: 8}), row({18: 1}, {23: 1}), row({18: 15}, {19: 15})])
    got = tavli.evaluate_batch(rows, BG, evaluator=nets)
    for k, (net, enc) in {0: (contact, "expert"), 1: (race, "race"), 2: (crashed, "expert2")}.items():
        want = net.forward(S.net_inputs(rows[k:k + 1], BG, enc))[0]
        assert got[k, 0] == pytest.approx(want[0], abs=1e-6)
    assert got[3, 0] == pytest.approx(27 / 36, abs=1e-6)  # the two-sided database
    one_sided = tavli.evaluate_batch(rows[4:5], BG, evaluator=contact)
    np.testing.assert_allclose(got[4], one_sided[0], atol=1e-7)


def test_class_nets_without_own_nets_are_the_contact_net_off_the_bear_off():
    net = tavli.nn.shipped(BG)
    rows, _ = tavli.random_positions(BG, 200, seed=5)
    rows = rows[C.position_classes(rows, BG) != "bearoff2"]
    np.testing.assert_array_equal(tavli.evaluate_batch(rows, BG, evaluator=C.ClassNets(net)),
                                  tavli.evaluate_batch(rows, BG, evaluator=net))


def test_class_nets_follow_their_nets_changes():
    """ClassNets keeps its core evaluator until a net is changed or replaced (their versions)."""
    nets = C.ClassNets(small_net("expert", 1), small_net("race", 2))
    rows = np.stack([tavli.Board(BG).to_array(), row({10: 5, 20: 10}, {18: 15})])  # contact, race
    before = tavli.evaluate_batch(rows, BG, evaluator=nets)
    assert nets._evaluator() is nets._evaluator()
    nets.contact.b1 = nets.contact.b1 + 0.5
    changed = tavli.evaluate_batch(rows, BG, evaluator=nets)
    assert changed[0, 0] != before[0, 0] and changed[1, 0] == before[1, 0]
    nets.race = small_net("race", 7)
    assert tavli.evaluate_batch(rows, BG, evaluator=nets)[1, 0] != before[1, 0]


def test_class_nets_play_in_search_and_simulation():
    nets = C.ClassNets(tavli.nn.shipped(BG), small_net("race", 2))
    a = tavli.Board(BG).analyze((6, 5), plies=1, evaluator=nets)
    assert a.best is not None
    r = tavli.simulate(BG, 2, (nets, "heuristic"), seed=1)
    assert len(r["winner"]) == 2


def test_class_nets_refuse_mixed_families_and_missing_contact():
    with pytest.raises(ValueError, match="contact"):
        C.ClassNets(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="family"):
        _core.ClassNetEvaluator(small_net("expert", 1)._net, Net("fevga", 4, seed=1)._net)


def test_class_net_files_round_trip(tmp_path):
    race = small_net("race", 7)
    race.save(tmp_path / "race.tnet", metadata="race net")
    back = Net.load(tmp_path / "race.tnet")
    assert back.encoding == "race" and back.inputs == 224 and back.metadata == "race net"
    small_net("expert", 1).save(tmp_path / "contact.tnet")
    nets = C.ClassNets.load(tmp_path / "contact.tnet", race=tmp_path / "race.tnet")
    x = S.net_inputs(row({10: 5, 20: 10}, {18: 15})[None], BG, "race")
    np.testing.assert_array_equal(nets.race.forward(x), race.forward(x))


# --- encodings -------------------------------------------------------------------------------------

def test_race_encoding_hand_position():
    r = row({5: 2, 12: 1, 20: 4}, {19: 15})
    x = S.net_inputs(r[None], BG, "race")[0]
    assert x.shape == (224,)
    me, op = x[:112], x[112:]
    assert list(me[5 * 4:5 * 4 + 4]) == [1, 1, 0, 0]
    assert me[20 * 4 + 3] == pytest.approx(0.5)          # 4 checkers: (4 - 3) / 2
    assert list(me[96:110]) == [1] * 8 + [0] * 6         # 8 off
    assert me[110] == pytest.approx((2 * 19 + 12 + 4 * 4) / 167)
    assert me[111] == pytest.approx((2 * 3 + 1 * 1 + 0) / 45)  # r 5: 3 crossings, r 12: 1, home: 0
    assert op[111] == 0 and op[110] == pytest.approx(15 * 5 / 167)


def expert2_units(r: np.ndarray) -> np.ndarray:
    x = S.net_inputs(r[None], BG, "expert2")[0]
    assert x.shape == (219,)
    np.testing.assert_array_equal(x[:205], S.net_inputs(r[None], BG, "expert")[0])
    return x[205:]


def test_expert2_double_shots_and_pip_loss():
    # My blots on r 17 and 18 (the other side's 6 and 5 away from its checker on its r 0); my
    # point r 22 (its r 1) blocks its 1s.
    u = expert2_units(row({17: 1, 18: 1, 22: 13}, {0: 1, 23: 14}))
    # Both blots are hit together only by 6-5 and 5-1 (4 of 36 rolls).
    assert u[0] == pytest.approx(4 / 36)
    # One blot on r 18, 5 away: hit by any 5 (11 rolls), 4-1 and 3-2 (4); each costs 19 pips.
    u = expert2_units(row({18: 1, 22: 14}, {0: 1, 23: 14}))
    assert u[0] == 0
    assert u[2] == pytest.approx(15 * 19 / 36 / 24)


def test_expert2_escapes_prime_home_back_timing():
    # My last checker on r 0 behind their single made point at my r 6 (their r 17).
    u = expert2_units(row({0: 1, 18: 2, 19: 2, 20: 2, 23: 8}, {17: 2}))
    # Escape past r 6: non-doubles with a + b >= 7 (18 rolls), and 4-4, 5-5 (3-3 and 6-6 land on 6).
    assert u[1] == pytest.approx(20 / 36)
    assert u[3] == pytest.approx(3 / 6)      # my points r 18, 19, 20 in a row
    assert u[4] == pytest.approx(4 / 6)      # 18, 19, 20, 23 made at home
    assert u[5] == pytest.approx(1 / 15)     # one checker on r 0..5
    assert u[6] == pytest.approx(18 / 100)   # it has 18 pips to the home board
    assert u[7 + 1] == pytest.approx(1.0)    # their checkers have nothing of mine made ahead


def expert3_units(r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = S.net_inputs(r[None], BG, "expert3")[0]
    assert x.shape == (239,)
    np.testing.assert_array_equal(x[:219], S.net_inputs(r[None], BG, "expert2")[0])
    return x[219:229], x[229:239]  # mover's ten units, then the opponent's


def spread_of(checkers: dict[int, int]) -> float:
    return float(np.std(np.repeat(list(checkers), list(checkers.values())))) / 12


def test_expert3_containment_escapes_contact_entering():
    # My six-point prime on r 17..22 (their r 6..1) and a point on r 10 (their r 13); their one
    # checker on the bar and a point on their r 12 (my r 11).
    me, op = expert3_units(row({10: 3, 17: 2, 18: 2, 19: 2, 20: 2, 21: 2, 22: 2}, {12: 2}, op_bar=1))
    # Nothing behind my prime escapes it: full containment.
    assert me[0] == 1 and me[1] == 1
    # Their point on my r 11 holds my checkers on r 10 only against 1-1 (35 rolls); nothing of
    # theirs stands ahead of my r 17.
    assert me[2] == pytest.approx((3 * 35 + 2 * 36) / (5 * 36))
    # Their checker on the bar: all mine must reach r 25 to pass it.
    assert me[3] == pytest.approx((3 * 15 + 2 * (8 + 7 + 6 + 5 + 4 + 3)) / 167)
    assert me[4] == 0 and me[5] == 0                    # no free pips; I am not on the bar
    assert me[6] == pytest.approx(11 / 12) and me[7] == pytest.approx(11 / 12)  # my point r 10
    assert me[8] == 0                                   # no anchor in their home board
    assert me[9] == pytest.approx(spread_of({10: 3, 17: 2, 18: 2, 19: 2, 20: 2, 21: 2, 22: 2}))
    # Their point holds my r 10 checkers somewhat, not fully.
    assert 0 < op[0] < 1 and op[1] == pytest.approx(op[0] ** 2)
    # Their bar checker cannot pass the prime (0 rolls); their r 12 pair passes my r 10 (their
    # r 13) with all but 1-1.
    assert op[2] == pytest.approx((0 + 2 * 35) / (3 * 36))
    # My rearmost checker is their r 13: the bar checker has 15 pips to pass it, the pair 2 each.
    assert op[3] == pytest.approx((15 + 2 * 2) / 167)
    assert op[5] == pytest.approx(25 / 36)              # five of my home points closed
    assert op[6] == 0 and op[7] == 0 and op[8] == 0
    assert op[9] == pytest.approx(spread_of({-1: 1, 12: 2}))


def test_expert3_anchors_and_free_pips():
    me, op = expert3_units(row({0: 2, 3: 2, 8: 2, 23: 9}, {19: 3, 22: 2}))
    assert me[6] == pytest.approx(1 / 12)               # rear anchor r 0
    assert me[7] == pytest.approx(9 / 12)               # forward anchor r 8
    assert me[8] == pytest.approx(2 / 3)                # r 0 and r 3 in their home board
    # Their rearmost checker is their r 19, my r 4: my r 0 pair is 5 pips from passing it, my
    # r 3 pair 2 pips; the r 8 and r 23 checkers are past it (2 * 16 + 9 * 1 pips to go).
    assert me[3] == pytest.approx((2 * 5 + 2 * 2) / 167)
    assert me[4] == pytest.approx((2 * 16 + 9) / 167)
    # My rearmost pair is their r 23: all of theirs are behind it.
    assert op[3] == pytest.approx((3 * 5 + 2 * 2) / 167)
    assert op[4] == 0
    assert op[6] == 0 and op[8] == 0                    # no point of theirs in my half


def test_expert3_contact_free_pips_and_spread_by_a_walk_over_the_checkers():
    """Units 3, 4 and 9 (contact pips, free pips, spread; encoded from one SIMD pass over the
    counts) against their definitions walked checker by checker, on 400 self-play positions."""
    rows, _ = tavli.random_positions(BG, 400, seed=12)
    x = S.net_inputs(rows, BG, "expert3")
    for r, units in zip(rows, x):
        for side in (0, 1):
            mine, theirs = r[24 * side:24 * side + 24], r[24 * (1 - side):24 * (1 - side) + 24]
            my_bar, their_bar = int(r[48 + side]), int(r[49 - side])
            checkers = [-1] * my_bar + [p for p in range(24) for _ in range(mine[p])]
            # Their rearmost checker, in my route index (their p is my 23 - p; their bar my 24).
            if their_bar:
                line = 25
            else:
                their = [p for p in range(24) if theirs[p]]
                line = 24 - min(their) if their else 0
            contact = sum(line - c for c in checkers if c < line)
            free = sum(24 - c for c in checkers if c >= line)
            spread = float(np.std(checkers)) if len(checkers) > 1 else 0.0
            u = units[219 + 10 * side:229 + 10 * side]
            assert u[3] == pytest.approx(contact / 167, abs=1e-6)
            assert u[4] == pytest.approx(free / 167, abs=1e-6)
            assert u[9] == pytest.approx(spread / 12, abs=1e-5)


def test_the_expert_net_still_loads_and_evaluates():
    """The TD stage of the shipped net reads "expert" (205 units), the shipped net "expert3"."""
    net = tavli.nn.shipped_stage(BG, "td")
    assert net.encoding == "expert" and net.inputs == 205
    assert tavli.nn.shipped(BG).encoding == "expert3" and tavli.nn.shipped(BG).inputs == 239
    rows, _ = tavli.random_positions(BG, 20, seed=6)
    assert np.isfinite(net.evaluate_positions(rows, BG)).all()


# --- supervised training ---------------------------------------------------------------------------

def test_supervised_fit_is_seeded_and_learns():
    rng = np.random.default_rng(0)
    rows = np.stack([row({10: 5, int(18 + k % 6): 10}, {18: 15}) for k in range(60)])
    x = S.net_inputs(rows, BG, "race")
    y = np.tile(np.array([[0.7, 0.1, 0.0, 0.05, 0.0]], np.float32), (len(x), 1))
    y[:, 0] += rng.uniform(-0.1, 0.1, len(x)).astype(np.float32)
    a, b = small_net("race", 9), small_net("race", 9)
    before = S.error(a, x, y)
    for e in range(5):
        S.fit(a, x, y, alpha=0.1, seed=4, epoch=e)
        S.fit(b, x, y, alpha=0.1, seed=4, epoch=e)
    np.testing.assert_array_equal(a.w1, b.w1)
    np.testing.assert_array_equal(a.w2, b.w2)
    assert S.error(a, x, y) < before / 2
    c = small_net("race", 9)
    S.fit(c, x, y, alpha=0.1, seed=5, epoch=0)  # another shuffle, other weights
    a2 = small_net("race", 9)
    S.fit(a2, x, y, alpha=0.1, seed=4, epoch=0)
    assert not np.array_equal(c.w1, a2.w1)


def test_supervised_refuses_bad_targets():
    x = np.zeros((2, 224), np.float32)
    with pytest.raises(ValueError, match="target"):
        S.fit(small_net("race", 1), x, np.full((2, 5), 1.5, np.float32), alpha=0.1, seed=1, epoch=0)
    with pytest.raises(ValueError, match="shape"):
        S.fit(small_net("race", 1), x, np.zeros((2, 4), np.float32), alpha=0.1, seed=1, epoch=0)


def test_supervised_pipeline_resumes_to_the_same_net(tmp_path):
    argv = ["--class", "race", "--games", "10", "--max-positions", "30", "--label-plies", "0", "--chunk", "16",
            "--hidden", "8", "--epochs", "3", "--alpha", "0.05", "--seed", "2", "--threads", "1"]
    S.main(argv + ["--work", str(tmp_path / "a"), "--epochs", "1"])   # stopped after one epoch
    S.main(argv + ["--work", str(tmp_path / "a")])                    # resumed to three
    S.main(argv + ["--work", str(tmp_path / "b")])                    # uninterrupted
    a, b = Net.load(tmp_path / "a" / "net.tnet"), Net.load(tmp_path / "b" / "net.tnet")
    np.testing.assert_array_equal(a.w1, b.w1)
    meta = json.loads(b.metadata)
    assert meta["epoch"] == 3 and meta["class"] == "race" and "tavli.supervised" in meta["command"]
    assert len(np.load(tmp_path / "b" / "positions.npy")) == 30


def test_widened_expert_net_evaluates_as_before():
    net = tavli.nn.shipped_stage(BG, "td")
    wide = S.widen(net, "expert2")
    assert wide.encoding == "expert2" and wide.inputs == 219
    rows, _ = tavli.random_positions(BG, 100, seed=6)
    np.testing.assert_allclose(tavli.evaluate_batch(rows, BG, evaluator=wide),
                               tavli.evaluate_batch(rows, BG, evaluator=net), atol=1e-6)
    with pytest.raises(ValueError, match="widened"):
        S.widen(net, "race")


def test_manifest_classes_make_the_default_evaluator_use_class_nets(monkeypatch):
    """A manifest entry with "classes" names the file of each class beyond contact; the default
    evaluator then serves the family's variants with class nets (here the shipped file stands in
    as a race net: any net of the family fits)."""
    import tavli.nn as nn

    manifest = {k: dict(v) for k, v in nn.shipped_manifest().items()}
    manifest[BG]["classes"] = {"race": manifest[BG]["file"]}
    monkeypatch.setattr(nn, "shipped_manifest", lambda: manifest)
    nets = C.shipped_classes(BG)
    assert nets.race is not None and nets.crashed is None
    suite = nn.default_evaluator.__wrapped__()
    rows = np.stack([row({18: 1}, {23: 1}), row({10: 5, 20: 10}, {18: 15})])
    got = _core._evaluate_batch(BG, [], rows, 0, 1, suite, 0.0)
    assert got[0, 0] == pytest.approx(27 / 36, abs=1e-6)  # two-sided database: class nets serve it
    manifest[BG]["classes"] = {"midgame": manifest[BG]["file"]}
    with pytest.raises(ValueError, match="unknown class"):
        C.shipped_classes(BG)


def test_hypergammon_uses_the_two_sided_database_only_once_no_gammon_is_left():
    rows = np.stack([row({23: 2}, {22: 3}, checkers=3),   # the other side has none off: a gammon is possible
                     row({23: 2}, {22: 2}, checkers=3)])
    assert list(C.position_classes(rows, "hypergammon", checkers=3)) == ["bearoff1", "bearoff2"]


def test_candidates_are_near_alternatives_to_the_zero_ply_pick():
    """Each candidate is a successor of one of the rows for the roll drawn for it, ranked 2..5 by
    the labeller at 0-ply — checked through Board.analyze, not the batch calls the function uses."""
    rows = S.class_positions(BG, 6, "contact", players="greedy", seed=3, threads=1)[:40]
    nets = C.ClassNets(tavli.nn.shipped(BG))
    cand = S.candidate_positions(rows, BG, "contact", labeller=nets, count=len(rows), ranks=5, seed=8, threads=1)
    dice = np.random.default_rng([8, 2]).integers(1, 7, size=(len(rows), 2))
    near, best = set(), set()
    for r, d in zip(rows, dice):
        board = tavli.Board.from_array(r, BG)
        plays = board.analyze((int(d[0]), int(d[1])), plies=0, evaluator=nets)
        after = []
        for p in plays:
            b = board.copy()
            b.push(p.play)
            key = bytes(b.to_array()[:52])
            if key not in after:
                after.append(key)
        if len(after) >= 2:
            best.add(after[0])
            near.update(after[1:5])
    assert 20 <= len(cand) <= len(rows)
    got = {bytes(c[:52]) for c in cand}
    assert got <= near and not (got & best)
    assert set(C.position_classes(cand, BG)) == {"contact"}


def test_supervised_pipeline_with_candidates_resumes(tmp_path):
    argv = ["--class", "contact", "--games", "4", "--max-positions", "40", "--candidates", "20", "--label-plies", "0",
            "--chunk", "16", "--hidden", "8", "--epochs", "2", "--alpha", "0.05", "--seed", "2", "--threads", "1"]
    S.main(argv + ["--work", str(tmp_path / "a"), "--epochs", "0"])
    S.main(argv + ["--work", str(tmp_path / "a")])
    S.main(argv + ["--work", str(tmp_path / "b")])
    np.testing.assert_array_equal(Net.load(tmp_path / "a" / "net.tnet").w1, Net.load(tmp_path / "b" / "net.tnet").w1)
    cand = np.load(tmp_path / "b" / "candidates.npy")
    assert 0 < len(cand) <= 20
    assert sum(len(np.load(f)) for f in (tmp_path / "b").glob("candidate_labels_*.npy")) == len(cand)


def test_rollout_labels_with_variance_reduction_are_the_luck_adjusted_rollouts(tmp_path):
    """label_positions(variance_reduction=True) is tavli.rollout_data's luck-adjusted rollout of the
    rows with the labeller playing 0-ply (row seeds from seed + first_row), clipped to [0, 1]; the
    plain rollout of the same games differs (the adjustment is applied), and the command line takes
    the flag."""
    from tavli.jobs.rollouts import rollout_data

    labeller = C.ClassNets(tavli.nn.shipped(BG))
    rows = np.stack([tavli.Board(BG).to_array()] * 2 + [tavli.Board.from_xgid(
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", BG).to_array()])
    got = S.label_positions(rows, BG, labeller, rollout_trials=8, variance_reduction=True, seed=3, first_row=5)
    want = rollout_data(rows, BG, 8, {"search": 0, "evaluator": labeller}, seed=8, evaluator=labeller,
                        variance_reduction=True)["probabilities"][:, :5]
    np.testing.assert_array_equal(got, np.clip(want, 0, 1).astype(np.float32))
    plain = S.label_positions(rows, BG, labeller, rollout_trials=8, seed=3, first_row=5)
    assert not np.array_equal(got, plain)
    # The command line's labels are those of the same call.
    S.main(["--class", "contact", "--games", "4", "--max-positions", "6", "--rollout-trials", "2",
            "--variance-reduction", "--chunk", "6", "--hidden", "4", "--epochs", "1", "--seed", "2", "--threads", "1",
            "--work", str(tmp_path)])
    positions = np.load(tmp_path / "positions.npy")
    np.testing.assert_array_equal(np.load(tmp_path / "labels_00000.npy"),
                                  S.label_positions(positions, BG, labeller, rollout_trials=2, variance_reduction=True,
                                                    seed=2, first_row=0))


def test_rollout_labels_by_a_search_player_with_the_luck_at_0_ply(tmp_path):
    """label_positions(rollout_plies=1, luck_evaluator=...) is rollout_data's rollout by the
    labeller searching 1 ply, its luck valued by the given evaluator at 0 plies; the command line's
    --rollout-plies, --rollout-truncate and --luck (own, 0-ply, a net file) make the same labels."""
    from tavli.jobs.rollouts import rollout_data

    labeller = C.ClassNets(tavli.nn.shipped(BG))
    td = tavli.nn.shipped_stage(BG, "td")
    rows = np.stack([tavli.Board(BG).to_array(), tavli.Board.from_xgid(
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", BG).to_array()])
    got = S.label_positions(rows, BG, labeller, rollout_trials=2, rollout_plies=1, variance_reduction=True,
                            luck_evaluator=td, seed=3, first_row=5)
    want = rollout_data(rows, BG, 2, {"search": 1, "evaluator": labeller}, seed=8, evaluator=labeller,
                        variance_reduction=True, luck_evaluator=td)["probabilities"][:, :5]
    np.testing.assert_array_equal(got, np.clip(want, 0, 1).astype(np.float32))
    own = S.label_positions(rows, BG, labeller, rollout_trials=2, rollout_plies=1, variance_reduction=True, seed=3,
                            first_row=5)
    assert not np.array_equal(got, own)
    td_file = tmp_path / "td.tnet"
    td.save(td_file)
    for luck, judge, truncate in (("0-ply", labeller, None), (str(td_file), td, 3)):
        work = tmp_path / luck.replace("/", "_")
        S.main(["--class", "contact", "--games", "4", "--max-positions", "3", "--rollout-trials", "2",
                "--rollout-plies", "1", "--variance-reduction", "--luck", luck, "--chunk", "3", "--hidden", "4",
                "--epochs", "1", "--seed", "2", "--threads", "1", "--work", str(work)]
               + (["--rollout-truncate", str(truncate)] if truncate else []))
        positions = np.load(work / "positions.npy")
        np.testing.assert_array_equal(np.load(work / "labels_00000.npy"), S.label_positions(
            positions, BG, labeller, rollout_trials=2, rollout_plies=1, rollout_truncate=truncate,
            variance_reduction=True, luck_evaluator=judge, seed=2, first_row=0))
    # Truncated trials are valued by the labeller after so many plies: other labels.
    assert not np.array_equal(S.label_positions(positions, BG, labeller, rollout_trials=2, rollout_truncate=2, seed=2),
                              S.label_positions(positions, BG, labeller, rollout_trials=2, seed=2))


def reference_escapes(start: int, blocks: set[int]) -> int:
    """Rolls of 36 that carry a checker on `start` (-1: the bar) past every point in `blocks` ahead
    of it, by walking each roll's dice: one die or both in either order (doubles up to four
    steps), every landing on an open point."""
    ahead = [b for b in blocks if b > start]
    if not ahead:
        return 36
    last = max(ahead)
    count = 0
    for a in range(1, 7):
        for b in range(1, 7):
            steps = [a] * 4 if a == b else None
            if steps:
                at, ok = start, False
                for d in steps:
                    at += d
                    if at in blocks:
                        break
                    ok = ok or at > last
                count += ok
            else:
                ok = False
                for first, second in ((a, b), (b, a)):
                    mid = start + first
                    if mid in blocks:
                        continue
                    ok = ok or mid > last or (start + a + b > last)
                count += ok
    return count


def test_escape_units_match_a_walk_over_the_rolls():
    # The rearmost checker's escapes (expert2) and the escape mean (expert3) against the walk
    # above, on the positions of seeded random games (both sides of each).
    rows, _ = tavli.random_positions(BG, 400, seed=21)
    x = S.net_inputs(rows, BG, "expert3")
    assert len(np.unique(x[:, 206])) > 20  # many different escape counts, not all 36
    for r, u in zip(rows, x):
        for s, (me, them) in enumerate(((r[:24], r[24:48]), (r[24:48], r[:24]))):
            bar = int(r[48 + s])
            blocks = {23 - k for k in range(24) if them[k] >= 2}
            points = ([-1] * bar) + [k for k in range(24) for _ in range(int(me[k]))]
            if not points:
                continue
            assert u[205 + 7 * s + 1] == pytest.approx(reference_escapes(min(points), blocks) / 36)
            outside = [p for p in points if p < 18]
            mean = np.mean([reference_escapes(p, blocks) for p in outside]) / 36 if outside else 1.0
            assert u[219 + 10 * s + 2] == pytest.approx(mean, abs=1e-6)


def reference_hits(me: np.ndarray, them: np.ndarray, them_bar: int) -> tuple[int, int]:
    """Double shots and the pips lost to a hit (expert2's units before scaling), by walking each of
    the 36 rolls for every checker of `them` (the bar too): one die or both in either order through
    an open middle point, a double up to four steps, every landing open (not a point I hold with
    two or more). A roll counts once: as a double shot if it reaches two or more of my blots, and for
    the loss, with the pips of the most advanced blot it reaches (my r + 1)."""
    blots = {23 - r for r in range(24) if me[r] == 1}  # in `them`'s route index
    closed = {23 - r for r in range(24) if me[r] >= 2}
    starts = [-1] * (them_bar > 0) + [q for q in range(24) if them[q] > 0]

    def reach(start: int, steps: list[int]) -> set[int]:
        out, at = set(), start
        for d in steps:
            at += d
            if at > 23 or at in closed:
                break
            out.add(at)
        return out

    double_shots = pip_loss = 0
    for a in range(1, 7):
        for b in range(1, 7):
            hit: set[int] = set()
            for s in starts:
                if a == b:
                    hit |= reach(s, [a] * 4) & blots
                else:
                    hit |= (reach(s, [a, b]) | reach(s, [b, a])) & blots
            double_shots += len(hit) >= 2
            if hit:
                pip_loss += (23 - min(hit)) + 1
    return double_shots, pip_loss


def test_double_shots_and_pip_loss_match_a_walk_over_the_rolls():
    # expert2's double shots and pip loss against the walk above, on seeded random games' positions
    # (both sides of each).
    rows, _ = tavli.random_positions(BG, 400, seed=23)
    x = S.net_inputs(rows, BG, "expert2")
    assert len(np.unique(x[:, 205])) > 5 and len(np.unique(x[:, 207])) > 20
    for r, u in zip(rows, x):
        for s, (me, them) in enumerate(((r[:24], r[24:48]), (r[24:48], r[:24]))):
            shots2, loss = reference_hits(me, them, int(r[48 + 1 - s]))
            assert u[205 + 7 * s] == pytest.approx(shots2 / 36)
            assert u[205 + 7 * s + 2] == pytest.approx(loss / (36 * 24))
