"""Property tests (hypothesis) over random LEGAL positions of every game.

Positions come from seeded random play: a hypothesis-drawn configuration (game and rule flags),
seed and ply count, then `board.legal_plays(rng.roll())` with `tavli.Rng(seed)` choosing each play.
Properties: every legal play leads to a valid position; IDs, dicts, arrays, gnubg IDs, XGIDs and
game records round-trip; `batch_legal_plays` agrees with `legal_plays`; the plays agree with the
pure-Python references tests/oracle/games.py and tests/oracle/fevga.py; illegal plays, steps and
move text are refused with IllegalMove and a message, leaving the board as it was.

Derandomized (a fixed seed per test), so CI runs the same examples every time; needs
`pip install hypothesis`.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import tavli  # noqa: E402
from oracle import fevga as fevga_ref  # noqa: E402
from oracle import games as games_ref  # noqa: E402

CONFIGS = [
    ("fevga", {}),
    ("fevga", {"runner_threshold": 12, "unblock": "R3_bkgm_start_of_turn"}),
    ("fevga", {"startq_check": "step", "opp_start_quarter": "R2b", "unblock_priority": "before_max_dice"}),
    ("fevga", {"startq_check": "off", "opp_start_quarter": "R2c", "unblock": "none"}),
    ("moultezim", {}),
    ("moultezim", {"primes": "R1", "startq_check": "step", "unblock": "R4_result"}),
    ("plakoto", {}),
    ("plakoto", {"mother": "off", "bearoff_with_pinned": True, "mother_points": 3}),
    ("plakoto", {"mother": "at_pin_only"}),
    ("portes", {}),
    ("tavla", {}),
    ("backgammon", {}),
    ("narde", {}),
    ("narde", {"head_doubles": "64", "prime_check": "step", "prime_borne_off_ahead": False, "koks": True}),
]
HITTING = {"backgammon", "portes", "tavla"}
FEVGA_LIKE = {"fevga", "moultezim"}
MAX_PLIES = 400


def _settings(n: int):
    return settings(
        max_examples=n,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


def random_play(variant: str, options: dict, seed: int, plies: int, live: bool) -> tavli.Board:
    """The board after `plies` plies of seeded random play (with its history). With `live`, the
    game is not over: play stops before the play that would end it."""
    rng = tavli.Rng(seed)
    b = tavli.Board(variant, **options)
    for _ in range(plies):
        plays = b.legal_plays(rng.roll())
        p = plays[rng.below(len(plays))]
        b.push(p)
        if b.is_game_over():
            if live:
                b.pop()
            break
    return b


PHASES = {"opening": (0, 10), "middle": (10, 80), "late": (80, MAX_PLIES)}


@st.composite
def boards(draw, config=None, live: bool = True):
    """A position of `config` (drawn from CONFIGS when None) after seeded random play; the phase
    is drawn first so that openings, middle games and bear-offs all come up."""
    variant, options = config if config is not None else draw(st.sampled_from(CONFIGS))
    lo, hi = PHASES[draw(st.sampled_from(sorted(PHASES)))]
    plies = draw(st.integers(lo, hi))
    seed = draw(st.integers(0, 2**64 - 1))
    return random_play(variant, options, seed, plies, live)


by_config = pytest.mark.parametrize(
    "config", CONFIGS, ids=[v + "".join(f"-{k}={o}" for k, o in opts.items()) for v, opts in CONFIGS]
)


dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


def snapshot(b: tavli.Board):
    return (b.id(), b.ply, [str(p) for p in b.move_stack], b.to_array().tobytes())


def check_valid(b: tavli.Board) -> None:
    """15 checkers a side, nothing negative, and from_dict accepts the position back."""
    d = b.to_dict()
    for side, counts in ((0, d["mover"]), (1, d["opponent"])):
        assert len(counts) == 24 and min(counts) >= 0
        assert sum(counts) + d["bar"][side] + d["off"][side] == 15, d
    if d["variant"] not in HITTING:
        assert d["bar"] == [0, 0]
    assert tavli.Board.from_dict(d) == b


# --- legal plays lead to valid positions ---------------------------------------------------------


@by_config
@_settings(40)
@given(data=st.data(), roll=dice)
def test_every_legal_play_leads_to_a_valid_position(config, data, roll):
    b = data.draw(boards(config))
    plays = b.legal_plays(roll)
    assert plays, "no play at all (a side that cannot move gets the empty play)"
    assert len({p.result_key for p in plays}) == len(plays), "two plays lead to the same position"
    assert b.count_plays(roll) == len(plays)
    before = snapshot(b)
    n_dice = 4 if roll[0] == roll[1] else 2
    for p in plays:
        assert len(p.steps) <= n_dice
        assert sorted(p.dice) == sorted(roll)
        nxt = b.play(p)
        assert nxt.turn == 1 - b.turn
        check_valid(nxt)
        assert snapshot(b) == before  # play() leaves the board alone
    if len(plays) > 1:
        assert all(len(p.steps) > 0 for p in plays), "a pass only when nothing else is legal"


# --- every form round-trips -------------------------------------------------------------------------


@by_config
@_settings(25)
@given(data=st.data())
def test_ids_dicts_arrays_and_records_round_trip(config, data):
    b = data.draw(boards(config, live=False))
    check_valid(b)
    opts = b.options
    assert tavli.Board.from_id(b.id()) == b
    assert tavli.Board.from_id(b.id()).id() == b.id()
    assert tavli.Board.from_dict(b.to_dict()).to_dict() == b.to_dict()
    assert tavli.Board.from_array(b.to_array(), b.variant, **opts) == b
    assert (tavli.Board.from_array(b.to_array(), b.variant, **opts).to_array() == b.to_array()).all()
    assert pickle.loads(pickle.dumps(b)) == b
    if b.variant in HITTING:
        assert tavli.Board.from_gnubg_id(b.gnubg_id(), b.variant, turn=b.turn) == b
        assert tavli.Board.from_xgid(b.xgid(), b.variant) == b
    rec = b.to_record()
    again = tavli.Board.from_record(rec)
    assert again == b and [str(p) for p in again.move_stack] == [str(p) for p in b.move_stack]
    assert again.to_record() == rec


@by_config
@_settings(25)
@given(data=st.data(), roll=dice)
def test_plays_round_trip_through_text_and_steps(config, data, roll):
    b = data.draw(boards(config))
    before = snapshot(b)
    for p in b.legal_plays(roll):
        assert b.parse_play(str(p), roll) == p
        assert b.parse_play(str(p), f"{roll[0]}-{roll[1]}") == p
        assert b.find_play(p.steps, roll) == p
        b.push(p)
        assert b.move_stack[-1] == p
        b.pop()
        assert snapshot(b) == before


# --- the batch call agrees ------------------------------------------------------------------------------


@by_config
@_settings(12)
@given(data=st.data(), rolls=st.lists(dice, min_size=1, max_size=8))
def test_batch_counts_equal_legal_plays(config, data, rolls):
    variant, options = config
    boards_ = [data.draw(boards(config)) for _ in rolls]
    rows = np.stack([b.to_array() for b in boards_])
    d = np.array(rolls, dtype=np.int64)
    counts = tavli.batch_legal_plays(rows, d, variant, **options)
    assert list(counts) == [len(b.legal_plays(r)) for b, r in zip(boards_, rolls)]
    counts2, offsets, children = tavli.batch_legal_plays(rows, d, variant, return_positions=True, threads=2, **options)
    assert list(counts2) == list(counts)
    for i, (b, r) in enumerate(zip(boards_, rolls)):
        got = sorted(bytes(x) for x in children[offsets[i] : offsets[i + 1]])
        assert got == sorted(b.play(p).to_array().tobytes() for p in b.legal_plays(r))


# --- the pure-Python references agree -------------------------------------------------------------------


def _ref_options(b: tavli.Board) -> dict:
    """The board's options as the references take them (booleans; no scoring-only options)."""
    out = {}
    for k, v in b.options.items():
        if k == "koks":  # scoring only (D-NARDE-SCORE): not a movement rule
            continue
        out[k] = {"true": True, "false": False}.get(v, v) if isinstance(v, str) else v
    return out


def _ref_pos(b: tavli.Board) -> games_ref.Pos:
    d = b.to_dict()
    pins = d.get("pinned", [[], []])
    ft = d.get("first_turn", [False, False])
    return games_ref.Pos(d["mover"], d["opponent"], d["bar"][0], d["bar"][1], d["off"][0], d["off"][1],
                         pins[0], pins[1], ft[0], ft[1])


def _result_pos(nxt: tavli.Board) -> games_ref.Pos:
    """The position after a play, seen from the side that played it (as the reference keys it)."""
    return _ref_pos(nxt).flipped()


@by_config
@_settings(100)
@given(data=st.data(), roll=dice)
def test_plays_agree_with_the_reference(config, data, roll):
    b = data.draw(boards(config))
    plays = b.legal_plays(roll)
    if b.variant in FEVGA_LIKE:
        d = b.to_dict()
        want = fevga_ref.legal_plays(d["mover"], d["opponent"], d["off"][0], d["off"][1], roll, b.variant, _ref_options(b))
        got = {(tuple(n.opponent), n.off[1]) for n in map(b.play, plays)}
    else:
        want = games_ref.legal_plays(b.variant, _ref_pos(b), roll, _ref_options(b))
        got = {_result_pos(b.play(p)) for p in plays}
    assert len(plays) == len(want), f"{b.id()} {roll}: engine {len(plays)} plays, reference {len(want)}"
    assert got == set(want), f"{b.id()} {roll}: engine-only {list(got - set(want))[:2]}, reference-only {list(set(want) - got)[:2]}"


# --- illegal plays are refused -----------------------------------------------------------------------------


def refused(b: tavli.Board, fn, *args) -> tavli.IllegalMove:
    before = snapshot(b)
    with pytest.raises(tavli.IllegalMove) as info:
        fn(*args)
    assert str(info.value).strip(), "IllegalMove without a message"
    assert snapshot(b) == before, "a refused call changed the board"
    return info.value


@by_config
@_settings(25)
@given(data=st.data(), roll=dice)
def test_a_play_of_another_position_is_refused(config, data, roll):
    b = data.draw(boards(config))
    other = data.draw(boards(config))  # the same game: its plays could pass for ours
    foreign = other.legal_plays(roll)
    own = {p.result_key: p for p in b.legal_plays(roll)}
    for p in foreign[:12]:
        if p.result_key in own:
            # It leads to a position this board can reach too. It is accepted only if its own steps,
            # applied here, lead there (e.g. equal positions); otherwise it belongs elsewhere.
            try:
                assert b.play(p) == b.play(own[p.result_key])
            except tavli.IllegalMove as e:
                assert "another position" in str(e) or "not a legal play" in str(e)
            continue
        refused(b, b.push, p)
        refused(b, b.play, p)
        if not any(q.steps == p.steps for q in own.values()):
            try:
                q = b.find_play(p.steps, roll)
            except tavli.IllegalMove as e:
                assert str(e).strip()
            else:  # other steps to a legal result of this position
                assert q.result_key in own


@by_config
@_settings(40)
@given(data=st.data(), roll=dice, steps=st.lists(st.tuples(st.integers(-2, 26), st.integers(-2, 26)), max_size=5))
def test_random_steps_are_refused_or_name_a_legal_play(config, data, roll, steps):
    b = data.draw(boards(config))
    own = {p.result_key for p in b.legal_plays(roll)}
    before = snapshot(b)
    try:
        p = b.find_play(steps, roll)
    except tavli.IllegalMove as e:
        assert str(e).strip()
        assert snapshot(b) == before
    else:
        assert p.result_key in own
        assert b.find_play(p.steps, roll) == p


@by_config
@_settings(25)
@given(data=st.data(), roll=dice)
def test_move_text_from_an_empty_point_is_refused(config, data, roll):
    b = data.draw(boards(config))
    empty = [r for r in range(24) if b.mover[r] == 0]
    assume(empty)
    r = data.draw(st.sampled_from(empty))
    die = data.draw(st.sampled_from(sorted(set(roll))))
    src, dst = 24 - r, 24 - r - die
    text = f"{src}/{dst if dst > 0 else 'off'}"
    err = refused(b, b.parse_play, text, roll)
    assert str(src) in str(err) or "legal" in str(err) or "checker" in str(err), str(err)
    # the same with a legal move added: still not a play of this position
    plays = [p for p in b.legal_plays(roll) if p.steps]
    if plays:
        refused(b, b.parse_play, f"{plays[0]} {text}", roll)


# --- constructed positions (valid, but not necessarily reached by random play) -------------------------


def _constructed(variant: str, seed: int) -> dict:
    """A random valid-looking position dict: both sides' checkers spread over points that the other
    side does not hold (no pins), some on the bar (hitting games) or borne off."""
    import random

    rnd = random.Random(seed)
    facing = (lambda r: 23 - r) if variant in ("backgammon", "portes", "tavla", "plakoto") else (lambda r: (r + 12) % 24)
    counts = [[0] * 24, [0] * 24]
    bar, off = [0, 0], [0, 0]
    home_only = rnd.random() < 0.25  # a race or bear-off
    for side in (0, 1):
        off[side] = rnd.choice([0, 0, 0, rnd.randint(0, 14)])
        if variant in HITTING and rnd.random() < 0.3:
            bar[side] = rnd.randint(1, 3)
        left = 15 - off[side] - bar[side]
        if left < 0:
            bar[side], left = 0, 15 - off[side]
        pool = list(range(18, 24)) if home_only and bar[side] == 0 else list(range(24))
        pool = [r for r in pool if side == 0 or counts[0][facing(r)] == 0]
        pts = rnd.sample(pool, k=min(len(pool), rnd.randint(1, 8)))
        for _ in range(left):
            counts[side][rnd.choice(pts)] += 1
    return {"variant": variant, "mover": counts[0], "opponent": counts[1], "bar": bar, "off": off, "turn": rnd.randint(0, 1)}


@by_config
@_settings(100)
@given(seed=st.integers(0, 2**64 - 1), roll=dice)
def test_constructed_positions_agree_with_the_reference(config, seed, roll):
    variant, options = config
    d = dict(_constructed(variant, seed), options=options)
    try:
        b = tavli.Board.from_dict(d)
    except tavli.InvalidPosition:
        assume(False)
    check_valid(b)
    assume(not b.is_game_over())
    plays = b.legal_plays(roll)
    for p in plays:
        check_valid(b.play(p))
    if variant in FEVGA_LIKE:
        want = fevga_ref.legal_plays(d["mover"], d["opponent"], d["off"][0], d["off"][1], roll, variant, _ref_options(b))
        got = {(tuple(n.opponent), n.off[1]) for n in map(b.play, plays)}
    else:
        want = games_ref.legal_plays(variant, _ref_pos(b), roll, _ref_options(b))
        got = {_result_pos(b.play(p)) for p in plays}
    assert len(plays) == len(want), f"{b.id()} {roll}: engine {len(plays)} plays, reference {len(want)}"
    assert got == set(want), f"{b.id()} {roll}: engine-only {list(got - set(want))[:2]}, reference-only {list(set(want) - got)[:2]}"
