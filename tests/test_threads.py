"""Thread safety: concurrent calls from several Python threads, on separate boards and on one
shared board, give the same results as serial calls (the core releases the GIL in legal_plays,
analyze, evaluate and the bulk calls)."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

import tavli

VARIANTS = ["fevga", "plakoto", "backgammon", "narde"]


def work(variant: str, seed: int):
    rows, dice = tavli.random_positions(variant, 60, seed=seed)
    out = []
    for row, d in zip(rows, dice):
        b = tavli.Board.from_array(row, variant)
        d = (int(d[0]), int(d[1]))
        plays = b.legal_plays(d)
        out.append(tuple(p.result_key for p in plays))
        out.append(round(b.evaluate(0).equity, 6))
    b = tavli.Board.from_array(rows[30], variant)
    a = b.analyze((int(dice[30][0]), int(dice[30][1])), plies=1)
    out.append(tuple((str(x.play), round(x.equity, 6)) for x in a))
    out.append(tavli.batch_legal_plays(rows, dice, variant).tolist())
    out.append(tavli.simulate(variant, 10, ("greedy", "random"), seed=seed)["winner"].tolist())
    return out


def test_separate_boards_in_threads_match_serial():
    jobs = [(v, s) for v in VARIANTS for s in (1, 2)]
    serial = [work(v, s) for v, s in jobs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(lambda j: work(*j), jobs))
    assert threaded == serial


def test_one_shared_board_read_by_many_threads():
    rows, dice = tavli.random_positions("backgammon", 200, seed=7)
    b = tavli.Board.from_array(rows[120], "backgammon")
    rolls = [(a, c) for a in range(1, 7) for c in range(1, a + 1)]
    serial = {r: [p.result_key for p in b.legal_plays(r)] for r in rolls}
    serial_eval = b.evaluate(1).equity

    def read(i):
        r = rolls[i % len(rolls)]
        keys = [p.result_key for p in b.legal_plays(r)]
        return r, keys, b.evaluate(1).equity if i % 7 == 0 else serial_eval

    with ThreadPoolExecutor(max_workers=4) as pool:
        for r, keys, eq in pool.map(read, range(200)):
            assert keys == serial[r]
            assert eq == serial_eval
    assert b.id() == tavli.Board.from_array(rows[120], "backgammon").id()


def test_threaded_bulk_calls_match_serial():
    rows, dice = tavli.random_positions("plakoto", 3000, seed=11)
    one = tavli.batch_legal_plays(rows, dice, "plakoto", return_positions=True, threads=1)
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(lambda t: tavli.batch_legal_plays(rows, dice, "plakoto", return_positions=True, threads=t),
                                [1, 2, 3]))
    for r in results:
        for a, b in zip(one, r):
            assert np.array_equal(a, b)
    enc = tavli.encode(rows, "plakoto")
    with ThreadPoolExecutor(max_workers=3) as pool:
        for e in pool.map(lambda _: tavli.encode(rows, "plakoto"), range(3)):
            assert np.array_equal(e, enc)


def _threaded_analysis() -> list:
    b = tavli.Board("backgammon")
    return [(str(x.play), round(x.equity, 6)) for x in b.analyze((6, 5), plies=2, threads=2)]


def _in_child(queue) -> None:
    queue.put(_threaded_analysis())


def test_worker_threads_after_fork():
    """The core keeps its worker threads between calls (thread_pool.h); a forked child has none of
    the parent's, so its threaded calls must start their own rather than wait for workers that do
    not exist there (a hang), and give the parent's results."""
    import multiprocessing as mp

    expected = _threaded_analysis()  # the parent's pool now has idle workers
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_in_child, args=(queue,))
    child.start()
    try:
        got = queue.get(timeout=60)
        child.join(60)
    finally:
        if child.is_alive():
            child.kill()
    assert child.exitcode == 0
    assert got == expected == _threaded_analysis()


def test_nested_and_repeated_threaded_calls_from_python_threads():
    """Many short threaded calls from several Python threads at once share the pool's workers (a
    call that finds none idle starts one): all finish with the serial results."""
    b = tavli.Board("backgammon")
    serial = [round(b.analyze(d, plies=1, threads=1).best.equity, 6) for d in [(6, 5), (3, 1), (4, 4)]]

    def calls(_):
        return [round(b.analyze(d, plies=1, threads=3).best.equity, 6) for d in [(6, 5), (3, 1), (4, 4)]]

    with ThreadPoolExecutor(4) as ex:
        results = list(ex.map(calls, range(40)))
    assert all(r == serial for r in results)
