"""The Ray backend (tavli.distributed, docs/distributed.md) on a local two-CPU cluster: sharded
simulations, matches, self-play data, rollouts, rollout data, bulk evaluation and the supervised
training's labels give exactly the local results (the local call is the independent computation),
a worker that dies is replaced without changing a bit, progress covers the whole run, and bad
arguments fail before any task starts."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import tavli
from tavli import distributed, nn
from tavli.rollout_data import rollout_data
from tavli.selfplay import self_play_data

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, address="local", _node_ip_address="127.0.0.1",
             log_to_driver=False)
    yield ray
    ray.shutdown()


def assert_same(local: dict, remote: dict) -> None:
    assert set(local) == set(remote)
    for key in local:
        assert local[key].dtype == remote[key].dtype, key
        assert np.array_equal(local[key], remote[key]), key


def test_sharded_simulation_with_trajectories_equals_local(cluster):
    local = tavli.simulate("plakoto", 60, ("random", "greedy"), seed=11, trajectories=True)
    seen = []
    remote = distributed.simulate("plakoto", 60, ("random", "greedy"), seed=11, trajectories=True, shard=7,
                                  progress=lambda done, total: seen.append((done, total)))
    assert_same(local, remote)
    assert remote["game"].max() == 59  # the global game index, not the shard's
    # One report per shard (9 shards: 8 of 7 games and one of 4), counting up to the whole run.
    assert len(seen) == 9 and seen[-1] == (60, 60)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_simulate_backend_ray_and_first_game(cluster):
    rules = dict(checkers=2)  # the variant's options travel to the workers too
    local = tavli.simulate("hypergammon", 40, ("greedy", "random"), seed=3, **rules)
    assert_same(local, tavli.simulate("hypergammon", 40, ("greedy", "random"), seed=3, backend="ray", **rules))
    assert not np.array_equal(local["plies"], tavli.simulate("hypergammon", 40, ("greedy", "random"), seed=3)["plies"])
    # A part of a run is that part of the whole run, on either backend.
    part = tavli.simulate("hypergammon", 15, ("greedy", "random"), seed=3, first_game=25, backend="ray", **rules)
    assert_same({k: v[25:] for k, v in local.items()}, part)
    assert_same(part, tavli.simulate("hypergammon", 15, ("greedy", "random"), seed=3, first_game=25, **rules))


def test_a_net_evaluator_travels_to_the_workers(cluster):
    net = nn.Net("fevga", 8, seed=5)
    board = tavli.Board("fevga")
    local = board.rollout(288, evaluator=net, truncate=4, seed=1)
    assert board.rollout(288, evaluator=net, truncate=4, seed=1, backend="ray") == local
    assert local != board.rollout(288, truncate=4, seed=1)  # the net was used, not the heuristic


def test_sharded_matches_equal_local(cluster):
    local = tavli.simulate_matches("tavli", 24, ("greedy", "random"), target=3, seed=9)
    assert_same(local, distributed.simulate_matches("tavli", 24, ("greedy", "random"), target=3, seed=9, shard=5))
    assert_same(local, tavli.simulate_matches("tavli", 24, ("greedy", "random"), target=3, seed=9, backend="ray"))
    part = tavli.simulate_matches("tavli", 4, ("greedy", "random"), target=3, seed=9, first_match=20)
    assert_same({k: v[20:] for k, v in local.items()}, part)


def test_cube_sessions_and_matches_equal_local(cluster):
    cube = {"players": (True, False), "jacoby": True}
    local = tavli.simulate("backgammon", 12, ("greedy", "heuristic"), seed=4, cube=cube)
    assert "scored" in local
    assert_same(local, distributed.simulate("backgammon", 12, ("greedy", "heuristic"), seed=4, cube=cube, shard=5))
    local = tavli.simulate_matches("backgammon", 6, ("greedy", "heuristic"), target=3, seed=2, cube=True,
                                   met="Kazaross-XG2")
    met = tavli.cube.default_met()  # a table object travels to the workers too (it pickles)
    assert_same(local, tavli.simulate_matches("backgammon", 6, ("greedy", "heuristic"), target=3, seed=2,
                                              cube=True, met=met, backend="ray"))


@pytest.mark.parametrize("shard", [144, 432, 1296])
def test_distributed_rollout_equals_local_bit_for_bit(cluster, shard):
    board = tavli.Board("backgammon")
    for dice in ((6, 2), (4, 1), (5, 3)):
        board.push(board.legal_plays(dice)[2])
    local = board.rollout(1300, seed=4, truncate=10, threads=2)  # not a multiple of the block
    remote = distributed.rollout(board, 1300, seed=4, truncate=10, shard=shard)
    assert remote == local  # means and standard errors, exactly: the blocks fold in order


def test_cubeful_rollouts_equal_local_bit_for_bit(cluster):
    # Board.rollout(cube=...) and the cube decision by rollout, sharded: the local results exactly
    # (the trials' blocks fold in order as the local run folds them), in money and match play,
    # with variance reduction too; the progress covers the whole run.
    board = tavli.Board("backgammon")
    for dice in ((6, 2), (4, 1), (5, 3)):
        board.push(board.legal_plays(dice)[2])
    cube, match = tavli.CubeState(2, 1), tavli.MatchState(7, (3, 4))
    local = board.rollout(300, "heuristic", cube=cube, match=match, truncate=6, seed=3)
    seen = []
    remote = distributed.rollout(board, 300, "heuristic", cube=cube, match=match, truncate=6, seed=3, shard=144,
                                 progress=lambda done, total: seen.append((done, total)))
    assert remote == local and remote.mwc is not None
    assert [total for _, total in seen] == [300] * 3 and seen[-1][0] == 300
    assert board.rollout(300, "heuristic", cube=cube, match=match, truncate=6, seed=3, backend="ray") == local
    options = {"trials": 300, "player": "heuristic", "truncate": 4, "seed": 5, "variance_reduction": True}
    local_d = board.cube_decision(rollout=options)
    assert board.cube_decision(rollout={**options, "backend": "ray"}) == local_d
    assert local_d.available and local_d.dt is not None


def test_self_play_data_equals_local_and_matches_the_games(cluster):
    local = self_play_data("portes", 20, ("greedy", "random"), seed=2, roll_units=True)
    assert_same(local, self_play_data("portes", 20, ("greedy", "random"), seed=2, roll_units=True,
                                      backend="ray"))
    assert_same(local, distributed.self_play_data("portes", 20, ("greedy", "random"), seed=2, roll_units=True,
                                                  shard=3))
    # The rows are the simulation's trajectories, labelled from the side to move's view.
    sim = tavli.simulate("portes", 20, ("greedy", "random"), seed=2, trajectories=True)
    assert np.array_equal(local["positions"], sim["positions"]) and np.array_equal(local["game"], sim["game"])
    g = local["game"]
    mover_won = sim["winner"][g] == local["positions"][:, 52]
    assert np.array_equal(local["result"], np.where(mover_won, 1, -1) * sim["points"][g])
    assert np.array_equal(local["features"], tavli.encode(sim["positions"], "portes", dice=sim["dice"]))


def test_rollout_data_equals_local_and_the_boards_rollouts(cluster):
    rows, _ = tavli.random_positions("backgammon", 5, seed=8)
    local = rollout_data(rows, "backgammon", 72, truncate=6, seed=4)
    assert_same(local, distributed.rollout_data(rows, "backgammon", 72, truncate=6, seed=4, shard=2))
    assert_same(local, rollout_data(rows, "backgammon", 72, truncate=6, seed=4, backend="ray"))
    # Row k is Board.rollout of that position with the seed derived from (seed, k).
    for k, row in enumerate(rows):
        r = tavli.Board.from_array(row, "backgammon").rollout(72, truncate=6, seed=tavli.Rng.derive(4, k))
        assert tuple(local["probabilities"][k]) == tuple(np.float32(r.probabilities))
        assert local["equity"][k] == r.equity and local["equity_std_error"][k] == r.equity_std_error
    assert len(set(local["equity"])) == 5


def test_rollout_plays_data_equals_local(cluster):
    from tavli.jobs.rollouts import rollout_plays_data

    rows, dice = tavli.random_positions("backgammon", 5, seed=8)
    local = rollout_plays_data(rows, dice, "backgammon", 2, 36, truncate=3, seed=4)
    assert_same(local, distributed.rollout_plays_data(rows, dice, "backgammon", 2, 36, truncate=3, seed=4, shard=2))
    assert_same(local, rollout_plays_data(rows, dice, "backgammon", 2, 36, truncate=3, seed=4, backend="ray"))
    assert int(local["counts"].sum()) == len(local["equity"]) > 5


def test_rollouts_with_a_luck_evaluator_equal_local(cluster):
    # The luck evaluator (a tavli.nn.Net) travels with the job: the shards' blocks and the rows'
    # rollouts are the local ones bit for bit, cubeless and cubeful.
    td = tavli.nn.shipped_stage("backgammon", "td")
    board = tavli.Board("backgammon")
    for dice in ((6, 2), (4, 1), (5, 3)):
        board.push(board.legal_plays(dice)[2])
    options = {"seed": 4, "truncate": 3, "variance_reduction": True, "luck_evaluator": td}
    local = board.rollout(300, "heuristic", **options)
    assert distributed.rollout(board, 300, "heuristic", shard=144, **options) == local
    assert local != board.rollout(300, "heuristic", seed=4, truncate=3, variance_reduction=True)
    cube = tavli.CubeState()
    assert board.rollout(300, "heuristic", cube=cube, backend="ray", **options) == \
        board.rollout(300, "heuristic", cube=cube, **options)
    rows, _ = tavli.random_positions("backgammon", 3, seed=8)
    assert_same(rollout_data(rows, "backgammon", 36, "heuristic", **options),
                rollout_data(rows, "backgammon", 36, "heuristic", backend="ray", **options))


def test_evaluate_batch_equals_local(cluster):
    # Deep values of many positions, sharded by rows: the local array exactly, whatever the shard,
    # with the shipped net, a net given as an object and class nets (they pickle to the workers).
    rows, _ = tavli.random_positions("backgammon", 60, seed=9)
    local = tavli.evaluate_batch(rows, "backgammon", plies=1)
    seen = []
    remote = distributed.evaluate_batch(rows, "backgammon", plies=1, shard=7,
                                        progress=lambda done, total: seen.append((done, total)))
    assert remote.dtype == np.float32 and np.array_equal(local, remote)
    assert len(seen) == 9 and seen[-1] == (60, 60)  # 8 shards of 7 rows, one of 4
    assert np.array_equal(local, tavli.evaluate_batch(rows, "backgammon", plies=1, backend="ray"))
    net = nn.Net("backgammon", 6, seed=3)
    local_net = tavli.evaluate_batch(rows, "backgammon", evaluator=net, threads=2)
    assert np.array_equal(local_net, distributed.evaluate_batch(rows, "backgammon", evaluator=net, shard=25))
    assert not np.array_equal(local_net, tavli.evaluate_batch(rows, "backgammon"))  # the net was used
    from tavli.classnets import ClassNets

    nets = ClassNets(tavli.nn.shipped("backgammon"), race=net)
    assert np.array_equal(tavli.evaluate_batch(rows, "backgammon", evaluator=nets),
                          distributed.evaluate_batch(rows, "backgammon", evaluator=nets, shard=13))
    assert distributed.evaluate_batch(rows[:0], "backgammon").shape == (0, 8)


def test_supervised_labels_on_ray_are_the_local_files(cluster, tmp_path):
    # `python -m tavli.supervised --backend ray`: the self-play positions and every label chunk
    # (a search's here, rollouts' below) are the local run's files bit for bit, so a run may resume
    # on the other backend.
    from tavli import supervised

    argv = ["--class", "contact", "--games", "4", "--max-positions", "30", "--label-plies", "1", "--chunk", "16",
            "--hidden", "4", "--epochs", "0", "--seed", "2", "--threads", "1"]
    supervised.main(argv + ["--work", str(tmp_path / "local")])
    supervised.main(argv + ["--work", str(tmp_path / "ray"), "--backend", "ray"])
    names = sorted(f.name for f in (tmp_path / "local").glob("*.npy"))
    assert names == ["labels_00000.npy", "labels_00001.npy", "positions.npy"]
    assert names == sorted(f.name for f in (tmp_path / "ray").glob("*.npy"))
    for name in names:
        assert np.array_equal(np.load(tmp_path / "local" / name), np.load(tmp_path / "ray" / name)), name
    rows = np.load(tmp_path / "local" / "positions.npy")[:5]
    labeller = supervised.ClassNets(tavli.nn.shipped("backgammon"))
    local = supervised.label_positions(rows, "backgammon", labeller, rollout_trials=4, variance_reduction=True,
                                       seed=3, first_row=7)
    assert np.array_equal(local, supervised.label_positions(rows, "backgammon", labeller, rollout_trials=4,
                                                            variance_reduction=True, seed=3, first_row=7,
                                                            backend="ray"))


class _DieOnceWhenUnpickled(str):
    """The player 'random', whose first unpickling in a worker process kills that process: a
    machine lost in the middle of a task. The flag file makes it happen exactly once."""

    def __new__(cls, flag: str):
        obj = super().__new__(cls, "random")
        obj.flag = flag
        return obj

    def __reduce__(self):
        return (_die_once_then_random, (self.flag, os.getpid()))


def _die_once_then_random(flag: str, driver: int) -> str:
    if os.getpid() == driver:  # never the test process itself
        return "random"
    try:
        os.close(os.open(flag, os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return "random"
    os._exit(1)


def test_a_dead_worker_is_replaced_and_the_result_unchanged(cluster, tmp_path):
    module = sys.modules[__name__]
    ray.cloudpickle.register_pickle_by_value(module)  # the workers cannot import this test module
    try:
        flag = str(tmp_path / "died")
        local = tavli.simulate("fevga", 30, ("random", "greedy"), seed=6)
        remote = distributed.simulate("fevga", 30, (_DieOnceWhenUnpickled(flag), "greedy"), seed=6, shard=10)
        assert os.path.exists(flag)  # a worker did die
        assert_same(local, remote)
        # Without retries the same death ends the run with Ray's error.
        os.remove(flag)
        with pytest.raises(ray.exceptions.RayError):
            distributed.simulate("fevga", 30, (_DieOnceWhenUnpickled(flag), "greedy"), seed=6, shard=10, retries=0)
    finally:
        ray.cloudpickle.unregister_pickle_by_value(module)


def test_a_failing_progress_callback_cancels_the_run(cluster):
    def stop(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        distributed.simulate("narde", 40, ("random", "random"), shard=5, progress=stop)
    # The cluster is still usable afterwards.
    assert_same(tavli.simulate("narde", 4, ("random", "random")),
                tavli.simulate("narde", 4, ("random", "random"), backend="ray"))


def test_threads_beyond_the_largest_node_are_refused(cluster):
    # Each task reserves `threads` CPUs: 3 on a 2-CPU cluster would wait forever.
    with pytest.raises(ValueError, match="threads=3"):
        distributed.simulate("fevga", 4, threads=3)
    assert_same(tavli.simulate("fevga", 6, threads=2), distributed.simulate("fevga", 6, threads=2, shard=2))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: tavli.simulate("fevga", 4, backend="spark"), "backend"),
        (lambda: tavli.simulate("fevga", 4, ray_address="127.0.0.1:6379"), "ray_address"),
        (lambda: tavli.simulate("nosuchgame", 4, backend="ray"), "nosuchgame"),
        (lambda: tavli.simulate("fevga", 4, ("random",), backend="ray"), "players"),
        (lambda: tavli.simulate("fevga", -1, backend="ray"), "games"),
        (lambda: tavli.simulate("fevga", 4, first_game=-1, backend="ray"), "first_game"),
        (lambda: tavli.simulate_matches("tavli", 4, first_match=-1, backend="ray"), "first_match"),
        (lambda: distributed.simulate("fevga", 4, shard=0), "shard"),
        (lambda: distributed.simulate("fevga", 4, retries=-1), "retries"),
        (lambda: distributed.simulate("fevga", 4, address=6379), "address"),
        (lambda: distributed.simulate("fevga", 4, progress="yes"), "progress"),
        (lambda: distributed.simulate_matches("nosuchmatch", 4), "nosuchmatch"),
        (lambda: distributed.self_play_data("fevga", 4, encoding="nosuchencoding"), "nosuchencoding"),
        (lambda: distributed.rollout(tavli.Board("fevga"), 288, shard=100), "multiple of 144"),
        (lambda: distributed.rollout(tavli.Board("fevga"), 0), "trials"),
        (lambda: distributed.rollout("not a board", 288), "board"),
        (lambda: tavli.Board("fevga").rollout(36, "nosuchplayer", backend="ray"), "nosuchplayer"),
        (lambda: distributed.rollout(tavli.Board("backgammon"), 288, cube=tavli.CubeState(), shard=100),
         "multiple of 144"),
        (lambda: distributed.rollout(tavli.Board("backgammon"), 36, "random", cube=tavli.CubeState()), "random"),
        (lambda: distributed.rollout(tavli.Board("portes"), 36, cube=tavli.CubeState()), "no doubling cube"),
        (lambda: tavli.Board("backgammon").rollout(36, cube=tavli.CubeState(), backend="ray", time_limit=1),
         "time_limit"),
        (lambda: tavli.Board("backgammon").cube_decision(rollout={"trials": 0, "backend": "ray"}), "trials"),
        (lambda: distributed.rollout_data(np.zeros((2, 64), np.uint8), "backgammon"), r"positions\[0\]"),
        (lambda: distributed.rollout_data(np.zeros((2, 63), np.uint8), "backgammon"), "shape"),
        (lambda: rollout_data(tavli.Board("fevga").to_array()[None], "fevga", 0, backend="ray"), "trials"),
        (lambda: distributed.evaluate_batch(np.zeros((2, 64), np.uint8), "backgammon"), "row 0"),
        (lambda: distributed.evaluate_batch(np.zeros((2, 63), np.uint8), "backgammon"), "shape"),
        (lambda: tavli.evaluate_batch(tavli.Board("fevga").to_array()[None], "fevga", plies=-1, backend="ray"),
         "plies"),
        (lambda: tavli.evaluate_batch(tavli.Board("fevga").to_array()[None], "fevga", evaluator="nosuch",
                                      backend="ray"), "nosuch"),
        (lambda: tavli.evaluate_batch(tavli.Board("fevga").to_array()[None], "fevga", time_limit=1, backend="ray"),
         "time_limit"),
        (lambda: distributed.evaluate_batch(tavli.Board("fevga").to_array()[None], "fevga", shard=0), "shard"),
    ],
)
def test_bad_arguments_fail_before_ray_is_reached(call, message, monkeypatch):
    monkeypatch.setattr(tavli.backends.ray, "_ray", lambda: pytest.fail("Ray was reached"))  # the executor
    with pytest.raises(ValueError, match=message):
        call()
