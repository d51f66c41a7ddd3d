"""Neural nets (cpp/include/tavli/nnet.h): inference against a plain numpy forward pass, both the
AVX2 and the portable path, the weight file (round trip, and every kind of damage refused with a
message naming it), and the evaluator (consistent probabilities, exact races, searches).

The file-format helpers below are written from the format table in nnet.h, not from the C++."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import tavli
import tavli.nn as nn
from helpers import make_board

AVX2 = tavli._core.NeuralNet.cpu_has_avx2()
PATHS = [pytest.param(False, id="avx2", marks=pytest.mark.skipif(not AVX2, reason="CPU without AVX2/FMA")),
         pytest.param(True, id="scalar")]
TOL = 1e-5  # nnet.h: kScalarTolerance, and the bound against the float64 reference

# Every variant, by the family of nets that serves it.
FAMILIES = {
    "backgammon": ["backgammon", "portes", "tavla", "nackgammon", "hypergammon"],
    "plakoto": ["plakoto"],
    "fevga": ["fevga", "moultezim", "jacquet"],
    "narde": ["narde"],
    "tawla31": ["tawla31"],
}


def sigmoid(z):
    with np.errstate(over="ignore"):  # exp(-z) overflows to inf for very negative z: sigmoid 0
        return 1.0 / (1.0 + np.exp(-z))


def reference(net: nn.Net, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The forward pass of nnet.h's formulas, in float64."""
    w1, b1, w2, b2 = (getattr(net, k).astype(np.float64) for k in ("w1", "b1", "w2", "b2"))
    hidden = sigmoid(x.astype(np.float64) @ w1 + b1)
    return sigmoid(hidden @ w2.T + b2), hidden


def random_net(inputs: int, hidden: int, seed: int, scale: float = 0.5) -> nn.Net:
    """A raw net with random normal weights (larger than the initial ones, so that the hidden
    units are not all near 0.5)."""
    net = nn.Net("backgammon", hidden, encoding="raw", inputs=inputs, seed=seed)
    g = np.random.default_rng(seed)
    net.w1 = g.normal(0, scale, (inputs, hidden))
    net.b1 = g.normal(0, scale, hidden)
    net.w2 = g.normal(0, scale, (5, hidden))
    net.b2 = g.normal(0, scale, 5)
    return net


def sparse_inputs(n: int, inputs: int, seed: int, density: float) -> np.ndarray:
    g = np.random.default_rng(seed)
    x = g.uniform(-1, 2, (n, inputs)).astype(np.float32)
    x[g.random((n, inputs)) >= density] = 0.0
    return x


# --- inference -------------------------------------------------------------------------------------

@pytest.mark.parametrize("scalar", PATHS)
@pytest.mark.parametrize("batch", [1, 7, 64])
# Hidden sizes cover the AVX2 path's pieces: blocks of 16 units, a block of 8, single units.
@pytest.mark.parametrize("inputs,hidden", [(250, 128), (198, 80), (60, 29), (37, 13), (5, 1)])
@pytest.mark.parametrize("density", [1.0, 0.15])
def test_forward_matches_numpy(scalar, batch, inputs, hidden, density):
    net = random_net(inputs, hidden, seed=inputs * 1000 + hidden)
    net.force_scalar = scalar
    assert net.avx2 == (not scalar)
    x = sparse_inputs(batch, inputs, seed=batch, density=density)
    out = net.forward(x)
    assert out.shape == (batch, 5) and out.dtype == np.float32
    ref, ref_hidden = reference(net, x)
    np.testing.assert_allclose(out, ref, atol=TOL, rtol=0)
    out2, hid = net.forward_hidden(x)
    assert np.array_equal(out2, out)
    np.testing.assert_allclose(hid, ref_hidden, atol=TOL, rtol=0)


def test_single_row_and_extremes():
    net = random_net(20, 24, seed=5, scale=20.0)  # saturated units: exp's clamp must hold
    x = sparse_inputs(9, 20, seed=1, density=1.0) * 10
    for scalar in (True, False):
        net.force_scalar = scalar
        ref, _ = reference(net, x)
        out = net.forward(x)
        assert np.all(np.isfinite(out)) and np.all((out >= 0) & (out <= 1))
        np.testing.assert_allclose(out, ref, atol=TOL, rtol=0)
        np.testing.assert_array_equal(net.forward(x[3]), out[3])


@pytest.mark.skipif(not AVX2, reason="CPU without AVX2/FMA")
@pytest.mark.parametrize("density", [1.0, 0.1])
def test_avx2_and_scalar_agree(density):
    net = random_net(250, 128, seed=11)
    x = sparse_inputs(200, 250, seed=3, density=density)
    net.force_scalar = True
    s = net.forward(x)
    net.force_scalar = False
    a = net.forward(x)
    assert np.max(np.abs(a - s)) <= TOL


@pytest.mark.parametrize("scalar", PATHS)
def test_rows_do_not_depend_on_their_batch(scalar):
    """nnet.h: a row's outputs are the same bits alone or in any batch (searches stay
    deterministic whatever positions they group)."""
    net = random_net(198, 128, seed=2)
    net.force_scalar = scalar
    x = sparse_inputs(23, 198, seed=4, density=0.2)
    whole = net.forward(x)
    for i in range(len(x)):
        assert np.array_equal(net.forward(x[i : i + 1]), whole[i : i + 1])
    perm = np.random.default_rng(0).permutation(len(x))
    assert np.array_equal(net.forward(x[perm]), whole[perm])


@pytest.mark.parametrize("scalar", PATHS)
def test_sparse_equals_dense_reference_on_encodings(scalar):
    """Real encodings (mostly zeros, skipped) against the dense float64 product."""
    rows, _ = tavli.random_positions("backgammon", 300, seed=7)
    x = tavli.encode(rows, "backgammon")
    assert (x != 0).mean() < 0.3
    net = random_net(x.shape[1], 128, seed=9)
    net.force_scalar = scalar
    np.testing.assert_allclose(net.forward(x), reference(net, x)[0], atol=TOL, rtol=0)


def test_initial_weights_are_seeded_and_small():
    a, b, c = (nn.Net("backgammon", 40, seed=s) for s in (1, 1, 2))
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    assert not np.array_equal(a.w1, c.w1)
    assert a.w1.shape == (198, 40) and a.w2.shape == (5, 40) and a.b1.shape == (40,) and a.b2.shape == (5,)
    assert np.abs(a.w1).max() <= 1 / np.sqrt(198) and np.abs(a.w2).max() <= 1 / np.sqrt(40)
    assert not a.b1.any() and not a.b2.any()


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown net family"):
        nn.Net("chess")
    with pytest.raises(ValueError, match="unknown encoding"):
        nn.Net("fevga", encoding="nope")
    with pytest.raises(ValueError, match="encoded with 'block'"):
        nn.Net("fevga", encoding="tesauro")
    with pytest.raises(ValueError, match="198 units, but the net has 100 inputs"):
        nn.Net("backgammon", inputs=100)
    with pytest.raises(ValueError, match="hidden must be"):
        nn.Net("backgammon", hidden=0)
    net = nn.Net("fevga", 16)
    with pytest.raises(ValueError, match=r"x must be a float32 array of shape \(N, 152\)"):
        net.forward(np.zeros((3, 151), np.float32))
    with pytest.raises(ValueError, match=r"w1 must have shape \(152, 16\)"):
        net.w1 = np.zeros((16, 152))
    with pytest.raises(ValueError, match=r"b2 must have shape \(5,\)"):
        net.b2 = np.zeros(4)
    bad = net.w2
    bad[2, 3] = np.nan
    with pytest.raises(ValueError, match=r"w2 has a NaN or infinite value at \[2, 3\]"):
        net.w2 = bad
    x = np.zeros((2, 152), np.float32)
    x[1, 7] = np.inf
    with pytest.raises(ValueError, match=r"x has a NaN or infinite value at \[1, 7\]"):
        net.forward(x)
    assert np.isfinite(net.w2).all()  # refused values leave the net unchanged


# --- the weight file -------------------------------------------------------------------------------

def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def parse(blob: bytes) -> dict:
    """A reader of nnet.h's format table: field offsets and values."""
    f = {"magic": blob[:8]}
    f["version"], layers = struct.unpack_from("<II", blob, 8)
    f["layers"] = layers
    pos = 16
    f["sizes"] = list(struct.unpack_from(f"<{layers + 1}I", blob, pos))
    pos += 4 * (layers + 1)
    for name in ("encoding", "family", "metadata"):
        (n,) = struct.unpack_from("<I", blob, pos)
        f[name] = blob[pos + 4 : pos + 4 + n].decode()
        pos += 4 + n
    f["weights_at"] = pos
    i, h, o = f["sizes"]
    count = i * h + h + o * h + o
    f["weights"] = np.frombuffer(blob, "<f4", count, pos)
    f["checksum_at"] = pos + 4 * count
    (f["checksum"],) = struct.unpack_from("<Q", blob, f["checksum_at"])
    return f


def resealed(blob: bytes) -> bytes:
    """The file with its checksum recomputed (damage that only the later checks can see)."""
    return blob[:-8] + struct.pack("<Q", fnv1a64(blob[:-8]))


@pytest.fixture
def saved(tmp_path):
    net = nn.Net("plakoto", 24, seed=3)
    net.b2 = np.array([0.1, -0.2, 0.3, -0.4, 0.5])
    path = tmp_path / "p.tnet"
    net.save(path, metadata="python -m tavli.train --variant plakoto --seed 3 (test)")
    return net, path


def test_file_layout_as_documented(saved):
    net, path = saved
    blob = path.read_bytes()
    f = parse(blob)
    assert f["magic"] == b"TAVLINET" and f["version"] == 1 and f["layers"] == 2
    assert f["sizes"] == [198, 24, 5]
    assert (f["encoding"], f["family"]) == ("plakoto", "plakoto")
    assert f["metadata"].startswith("python -m tavli.train")
    assert f["checksum_at"] + 8 == len(blob)
    assert f["checksum"] == fnv1a64(blob[:-8])
    w = f["weights"]
    parts = np.split(w, np.cumsum([198 * 24, 24, 5 * 24]))
    assert np.array_equal(parts[0].reshape(198, 24), net.w1)
    assert np.array_equal(parts[1], net.b1)
    assert np.array_equal(parts[2].reshape(5, 24), net.w2)
    assert np.array_equal(parts[3], net.b2)
    assert [p.name for p in path.parent.iterdir()] == ["p.tnet"]  # no temporary left behind


@pytest.mark.parametrize("scalar", PATHS)
def test_save_load_bit_identical(saved, scalar):
    net, path = saved
    back = nn.Net.load(path)
    assert (back.inputs, back.hidden, back.encoding, back.family) == (198, 24, "plakoto", "plakoto")
    assert back.metadata == net.metadata
    for k in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(back, k), getattr(net, k))
    rows, _ = tavli.random_positions("plakoto", 50, seed=1)
    x = tavli.encode(rows, "plakoto")
    net.force_scalar = back.force_scalar = scalar
    assert np.array_equal(back.forward(x), net.forward(x))
    back.save(path)  # over the existing file
    assert nn.Net.load(path).metadata == net.metadata


def damaged(blob: bytes, how: str) -> bytes:
    f = parse(blob)
    b = bytearray(blob)
    if how == "magic":
        b[0:8] = b"TAVLINEX"
    elif how == "version":
        struct.pack_into("<I", b, 8, 2)
    elif how == "flipped weight":
        b[f["weights_at"] + 101] ^= 0x10
    elif how == "flipped metadata":
        b[f["weights_at"] - 3] ^= 0x01
    elif how == "flipped checksum":
        b[-1] ^= 0x80
    elif how == "nan weight":
        struct.pack_into("<f", b, f["weights_at"] + 4 * 30, float("nan"))
        return resealed(bytes(b))
    elif how == "inf bias":
        struct.pack_into("<f", b, f["checksum_at"] - 4, float("inf"))
        return resealed(bytes(b))
    elif how == "two hidden layers":
        struct.pack_into("<I", b, 12, 3)
    elif how == "six outputs":
        struct.pack_into("<I", b, 24, 6)
    elif how == "unknown encoding":
        i = f["weights_at"] - len(f["metadata"]) - 4 - len(f["family"]) - 4 - len(f["encoding"])
        b[i : i + 7] = b"plakotx"
        return resealed(bytes(b))
    elif how == "trailing bytes":
        return bytes(b) + b"\0\0\0"
    return bytes(b)


@pytest.mark.parametrize("how,message", [
    ("magic", "bad magic"),
    ("version", "unsupported format version 2 .this build reads version 1."),
    ("flipped weight", "checksum mismatch"),
    ("flipped metadata", "checksum mismatch"),
    ("flipped checksum", "checksum mismatch"),
    ("nan weight", r"weight w1\[1\]\[6\] is NaN"),
    ("inf bias", r"weight b2\[4\] is infinite"),
    ("two hidden layers", "2 hidden layers: this build reads nets with one hidden layer"),
    ("six outputs", "6 outputs"),
    ("unknown encoding", "unknown encoding 'plakotx'"),
    ("trailing bytes", "3 unexpected bytes after the checksum"),
])
def test_damaged_files_are_refused(saved, tmp_path, how, message):
    _, path = saved
    bad = tmp_path / "bad.tnet"
    bad.write_bytes(damaged(path.read_bytes(), how))
    with pytest.raises(ValueError, match=message) as e:
        nn.Net.load(bad)
    assert str(bad) in str(e.value)  # the message names the file


@pytest.mark.parametrize("keep", [0, 5, 11, 20, 40, 300, -9, -1])
def test_truncated_files_are_refused(saved, tmp_path, keep):
    _, path = saved
    blob = path.read_bytes()
    bad = tmp_path / "cut.tnet"
    bad.write_bytes(blob[:keep] if keep >= 0 else blob[:keep])
    with pytest.raises(ValueError, match="bad magic" if 0 <= keep < 8 else "truncated file"):
        nn.Net.load(bad)


def test_failed_save_leaves_nothing(tmp_path):
    net = nn.Net("narde", 8)
    with pytest.raises(RuntimeError, match="cannot write"):
        net.save(tmp_path / "no such dir" / "n.tnet")
    assert list(tmp_path.iterdir()) == []


def test_missing_file(tmp_path):
    with pytest.raises(ValueError, match="cannot open"):
        nn.Net.load(tmp_path / "none.tnet")


# --- the evaluator ---------------------------------------------------------------------------------

def check_consistent(p: np.ndarray, variant: str) -> None:
    win, wd, wt, ld, lt, draw, margin, equity = p.T.astype(np.float64)
    assert np.all((win >= 0) & (win <= 1))
    assert np.all((wt >= 0) & (wt <= wd) & (wd <= win))
    assert np.all((lt >= 0) & (lt <= ld) & (ld <= 1 - win + 1e-7))
    assert not draw.any() and not margin.any()
    lose = 1 - win
    np.testing.assert_allclose(equity, win - lose + wd - ld + wt - lt, atol=1e-5)
    if variant == "tawla31":  # scores checkers left: no doubles
        assert not (wd.any() or ld.any())
    if variant in ("fevga", "moultezim", "portes", "tavla", "narde", "plakoto", "jacquet"):  # no triples
        assert not (wt.any() or lt.any())


@pytest.mark.parametrize("family", list(FAMILIES))
def test_evaluator_probabilities_are_consistent(family):
    net = nn.Net(family, 32, seed=5)
    g = np.random.default_rng(1)
    net.b2 = g.normal(0, 2, 5)  # outputs far apart, so that the clamping is exercised
    net.w1 = net.w1 * 4
    for variant in FAMILIES[family]:
        assert nn.family(variant) == family
        rows, _ = tavli.random_positions(variant, 400, seed=2)
        p = net.evaluate_positions(rows, variant)
        assert p.shape == (400, 8) and p.dtype == np.float32
        check_consistent(p, variant)
        # The net sees the game's own encoding, side to move first; for white to move that is
        # exactly tavli.encode's row (the evaluator encodes every position as white to move).
        # Apart from exact races, the win column is the net's first output unchanged (up to the
        # rounding of the evaluator's point columns, nnet.h).
        white = rows[:, 52] == 0
        raw = net.forward(tavli.encode(rows[white], variant))
        plain = np.abs(p[white, 0] - raw[:, 0]) <= 1e-6
        assert plain.mean() > 0.5
        races = [tavli.Board.from_array(r, variant) for r in rows[white][~plain]]
        assert all(b.evaluate().probabilities.win == pytest.approx(q, abs=1e-6)
                   for b, q in zip(races, p[white, 0][~plain]))


def test_evaluator_uses_exact_bearoff_races():
    """Races with every checker home: the bear-off table's values, as the heuristic gives them."""
    net = nn.Net("backgammon", 16, seed=1)
    boards = [
        make_board("backgammon", {18: 3, 20: 2, 23: 4}, {19: 2, 22: 5}),
        make_board("backgammon", {21: 5, 23: 10}, {18: 15}),
        make_board("portes", {18: 1}, {23: 1}),
    ]
    for b in boards:
        p = net.evaluate_positions(b.to_array()[None, :], b.variant)[0]
        h = tavli.evaluate_batch(b.to_array()[None, :], b.variant)[0]
        np.testing.assert_allclose(p[:5], h[:5], atol=1e-6)
        np.testing.assert_allclose(p[7], h[7], atol=1e-5)


def test_evaluator_refuses_other_families_and_raw_nets():
    net = nn.Net("fevga", 8)
    board = tavli.Board("backgammon")
    with pytest.raises(ValueError, match="family 'fevga' cannot evaluate backgammon"):
        net.analyze(board, (3, 1))
    rows, _ = tavli.random_positions("backgammon", 3, seed=1)
    with pytest.raises(ValueError, match="cannot evaluate"):
        net.evaluate_positions(rows, "backgammon")
    raw = nn.Net("backgammon", 8, encoding="raw", inputs=10)
    with pytest.raises(ValueError, match="'raw' encoding cannot evaluate"):
        raw.evaluate(board)


@pytest.mark.parametrize("variant", ["backgammon", "plakoto", "fevga", "narde", "tawla31", "moultezim"])
def test_untrained_net_in_a_search(variant):
    net = nn.Net(nn.family(variant), 32, seed=4)
    board = tavli.Board(variant)
    rows, dice = tavli.random_positions(variant, 60, seed=8)
    for k in range(0, 60, 15):
        b = tavli.Board.from_array(rows[k], variant)
        roll = tuple(int(d) for d in dice[k])
        a1 = net.analyze(b, roll, plies=1)
        a2 = net.analyze(b, roll, plies=1, threads=2)
        assert [(str(p.play), p.equity) for p in a1] == [(str(p.play), p.equity) for p in a2]
        assert len(a1) == len(b.legal_plays(roll))
        for p in a1:
            pr = p.probabilities
            assert 0 <= pr.win <= 1 and pr.win_triple <= pr.win_double + 1e-6 <= pr.win + 2e-6
    e1 = net.evaluate(board, plies=1)
    e2 = net.evaluate(board, plies=1, threads=2)
    assert e1 == e2 and e1.plies == 1 and e1.nodes > 0
    deep = net.analyze(board, (6, 5), plies=2, filters=[(0, 2, 0.1)])
    assert deep == net.analyze(board, (6, 5), plies=2, filters=[(0, 2, 0.1)])
    assert deep.plies == 2


def test_board_search_takes_a_net_or_nothing_else():
    board = tavli.Board("fevga")
    net = nn.Net("fevga", 16, seed=2)
    via_board = board.analyze((6, 5), plies=1, evaluator=net)
    assert [(str(p.play), p.equity) for p in via_board] == [(str(p.play), p.equity) for p in net.analyze(board, (6, 5))]
    assert board.evaluate(1, evaluator=net) == net.evaluate(board, 1)
    # The heuristic is the default, and the net changes the values.
    assert [p.equity for p in board.analyze((6, 5), plies=0)] != [p.equity for p in board.analyze((6, 5), plies=0, evaluator=net)]
    for bad in ("neural", 3, tavli.Board("fevga")):
        with pytest.raises(ValueError, match="evaluator: expected None"):
            board.analyze((6, 5), evaluator=bad)
        with pytest.raises(ValueError, match="evaluator: expected None"):
            board.evaluate(evaluator=bad)


def test_a_pickled_net_gives_identical_outputs():
    import pickle

    net = tavli.nn.Net("fevga", hidden=16, seed=3)
    net.metadata = "pickled"
    back = pickle.loads(pickle.dumps(net))
    x = np.random.default_rng(0).random((9, net.inputs), dtype=np.float32)
    assert back.metadata == "pickled" and back.family == "fevga" and back.hidden == 16
    assert np.array_equal(back.forward(x), net.forward(x))
    back.b2 = back.b2 + 1  # a copy, not a view of the original
    assert not np.array_equal(back.forward(x), net.forward(x))
