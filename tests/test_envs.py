"""The learning environments (tavli.envs, issue 9 item 4): the Gymnasium and PettingZoo API
checkers for every game, the step action space against the engine's legal plays, seeded
reproducibility, rewards against the rule book's scores, and bad input."""

from __future__ import annotations

import itertools
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tavli

gymnasium = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

import tavli.envs as envs  # noqa: E402  (registers the Gymnasium ids)
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402
from tavli.envs.actions import BAR, OFF, action_index, action_step, step_target  # noqa: E402
from tavli.envs.turn import Turn  # noqa: E402

VARIANTS = tavli.variants()
# Rule options that change the shape of a turn: six steps for a double, one checker, parallel Tawla.
KIN_OPTIONS = [("jacquet", {"doubles": "n_times"}), ("hypergammon", {"checkers": 1}), ("tawla31", {"movement": "parallel"})]


def masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    allowed = np.flatnonzero(mask)
    assert allowed.size, "the agent to act was given no allowed action"
    return int(rng.choice(allowed))


# --- packaging ----------------------------------------------------------------------------------
def test_import_tavli_does_not_import_the_rl_packages():
    code = "import sys, tavli; print('gymnasium' in sys.modules, 'pettingzoo' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_import_tavli_envs_does_not_import_pettingzoo_until_asked():
    code = ("import sys, tavli.envs as e; a = 'pettingzoo' in sys.modules; e.aec_env; "
            "print(a, 'pettingzoo' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def test_every_game_has_a_gymnasium_id():
    assert set(envs.ENV_IDS) == set(VARIANTS)
    for env_id in list(envs.ENV_IDS.values()) + [envs.GENERIC_ID]:
        assert env_id in gymnasium.registry


# --- API checkers ---------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_gymnasium_env_checker(variant):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_env's notes on wrappers and render modes
        check_env(envs.TavliEnv(variant))
        check_env(envs.TavliEnv(variant, opponent="random", agent_color=1), skip_render_check=True)
        made = gymnasium.make(envs.ENV_IDS[variant])
        check_env(made)
        check_env(made.unwrapped)
    assert made.unwrapped.variant == variant


def test_gymnasium_generic_id_takes_variant_and_rule_options():
    env = gymnasium.make(envs.GENERIC_ID, variant="plakoto", mother="at_pin_only", opponent="random")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    assert env.unwrapped.variant == "plakoto"
    assert env.unwrapped.game.board.options == {"mother": "at_pin_only"}


@pytest.mark.parametrize("variant,options", KIN_OPTIONS)
def test_gymnasium_env_checker_with_rule_options(variant, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gymnasium.make(envs.ENV_IDS[variant], **options).unwrapped)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_and_seed_tests(variant):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test notes that dict observations are not arrays
        api_test(envs.aec_env(variant), num_cycles=1000)
        api_test(envs.raw_aec_env(variant), num_cycles=1000)
        seed_test(lambda: envs.aec_env(variant), num_cycles=300)


@pytest.mark.parametrize("variant,options", KIN_OPTIONS)
def test_pettingzoo_api_test_with_rule_options(variant, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(envs.aec_env(variant, **options), num_cycles=1000)


# --- the action space against the engine's legal plays --------------------------------------------
def test_action_index_convention():
    # RULES.md §1.1 route indices: the bar is -1, a die d enters on d - 1, r + d >= 24 bears off.
    assert action_index(BAR, 1) == 0 and action_step(0) == (BAR, 1)
    assert action_index(0, 6) == 11 and action_index(23, 6) == 149
    assert [action_step(a) for a in (6, 149)] == [(0, 1), (23, 6)]
    assert step_target(BAR, 5) == 4 and step_target(18, 6) == OFF and step_target(20, 6) == OFF
    assert all(action_index(*action_step(a)) == a for a in range(envs.NUM_ACTIONS))
    for bad in (-1, 150, 2.0, True, "3", None):
        with pytest.raises(ValueError):
            action_step(bad)


def _walk(turn: Turn, found: dict) -> None:
    """Every complete sequence of masked actions from `turn`, each recorded as play -> step orders."""
    if turn.done:
        found.setdefault(turn.play().result_key, set()).add(tuple(turn.steps))
        return
    allowed = np.flatnonzero(turn.mask())
    assert allowed.size, f"no allowed action after {turn.steps}, the turn unfinished"
    for a in allowed:
        nxt = turn.copy()
        nxt.step(int(a))
        _walk(nxt, found)


def _source_valid_orders(board: tavli.Board, steps: list[tuple[int, int]]) -> set[tuple]:
    """The orders of a play's steps in which each step's checker is already there (mover's counts)."""
    orders = set()
    for order in set(itertools.permutations(steps)):
        counts = {BAR: board.bar[0], **dict(enumerate(board.mover))}
        ok = True
        for a, b in order:
            if counts.get(a, 0) == 0:
                ok = False
                break
            counts[a] -= 1
            counts[b] = counts.get(b, 0) + 1
        if ok:
            orders.add(order)
    return orders


MASK_CASES = [(v, {}) for v in VARIANTS] + KIN_OPTIONS


@pytest.mark.parametrize("variant,options", MASK_CASES)
def test_masked_steps_make_exactly_the_legal_plays(variant, options):
    """Every complete sequence of masked actions is a legal play by the engine's own find_play,
    every legal play is reached, in every order of its steps in which each checker is there, and
    an action outside the mask raises IllegalMove."""
    rows, dice = tavli.random_positions(variant, 200, seed=7, **options)
    checked = 0
    for row, (d1, d2) in zip(rows, dice):
        board = tavli.Board.from_array(row, variant, **options)
        if board.is_game_over():
            continue
        roll = (int(d1), int(d2))
        turn = Turn(board, roll)
        plays = {p.result_key: p for p in board.legal_plays(roll)}
        if turn.is_pass:
            assert len(plays) == 1 and turn.done and not turn.mask().any()
            continue
        found: dict = {}
        _walk(turn, found)
        assert set(found) == set(plays), board.id()
        for key, orders in found.items():
            for order in orders:
                assert board.find_play(list(order), roll).result_key == key
            # each play's own steps, in any order its checkers allow (the dice choosing the bear-offs)
            assert _source_valid_orders(board, list(plays[key].steps)) <= orders, (board.id(), plays[key])
        illegal = int(np.flatnonzero(turn.mask() == 0)[0])
        with pytest.raises(tavli.IllegalMove, match="is not a step of any legal play"):
            turn.copy().step(illegal)
        checked += 1
    assert checked >= 150


def test_finish_refuses_a_row_that_is_not_the_engines_result():
    turn = Turn(tavli.Board("fevga"), (6, 5))
    for a in (action_index(0, 6), action_index(6, 5)):
        turn.step(a)
    turn.row[23] += 1  # a checker the steps did not put there
    with pytest.raises(RuntimeError, match="do not lead where the engine"):
        turn.finish()


def test_a_turn_shows_the_position_between_steps():
    # Backgammon, 6-5 from the start, 13/7 first: a checker now sits on route index 17 (the
    # 7-point) and the 13-point (route index 11) has one checker fewer. The 5 may go on 7/2 or
    # 13/8, not 24/19: that is Black's 6-point (his r18 faces my r5).
    board = tavli.Board("backgammon")
    turn = Turn(board, (6, 5))
    turn.step(action_index(11, 6))
    assert turn.row[11] == 4 and turn.row[17] == 1 and not turn.done
    mask = turn.mask()
    assert mask[action_index(17, 5)] and mask[action_index(11, 5)] and not mask[action_index(0, 5)]
    assert turn.dice_left == [5]
    turn.step(action_index(17, 5))
    assert turn.done and str(turn.play()) == "13/2"
    turn.finish()  # checks the row against the engine's result
    assert board.turn == 1


def test_a_hit_between_steps_is_shown_and_matches_the_engine():
    # White enters from the bar with a 3 on Black's blot, then moves on: the blot is on the bar
    # in the middle of the turn, and the finished row is the engine's result.
    from helpers import make_board

    board = make_board("backgammon", {BAR: 1, 11: 5, 16: 3, 18: 6}, {21: 1, 0: 2, 11: 5, 16: 3, 18: 4})
    turn = Turn(board, (3, 1))
    assert turn.mask()[action_index(BAR, 3)]
    turn.step(action_index(BAR, 3))
    assert turn.row[49] == 1 and turn.row[24 + 21] == 0  # Black's blot (his r21 faces my r2) is hit
    turn.step(int(np.flatnonzero(turn.mask())[0]))
    turn.finish()


# --- playing whole games ------------------------------------------------------------------------
def _play_gym_game(env, seed: int) -> tuple[list, float]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace, total, done = [obs.tobytes()], 0.0, False
    while not done:
        a = masked_choice(rng, info["action_mask"])
        obs, reward, done, truncated, info = env.step(a)
        assert not truncated
        assert reward == 0.0 or done
        trace.append((a, obs.tobytes(), reward, info.get("plays")))
        total += reward
    return trace, total


def _points_by_the_rule_book(board: tavli.Board, color: int) -> int:
    """The points of a finished Backgammon or Tawla 31 game for `color`, from the final position
    alone (RULES.md §2: 2 for a gammon, 3 for a backgammon; RULES-KIN.md §3: the loser's checkers
    left). The side to move after the last play is the loser."""
    loser = board.turn
    d = board.to_dict()
    left = sum(d["mover"]) + d["bar"][0]
    if board.variant == "tawla31":
        points = left
    else:
        winner_home = d["mover"][:6]  # the loser's r 0..5 is the winner's home board
        points = 1 if d["off"][0] else (3 if d["bar"][0] or any(winner_home) else 2)
    return points if color != loser else -points


@pytest.mark.parametrize("variant", VARIANTS)
def test_gymnasium_seeded_game_is_reproducible_and_scores_the_outcome(variant):
    env = envs.TavliEnv(variant, opponent="random", illegal_action="raise")
    trace_a, total_a = _play_gym_game(env, seed=11)
    trace_b, total_b = _play_gym_game(env, seed=11)
    assert trace_a == trace_b and total_a == total_b
    outcome = env.game.board.outcome()
    assert outcome is not None
    expected = 0 if outcome.winner is None else (outcome.points if outcome.winner == 0 else -outcome.points)
    assert total_a == expected
    # the game replays from its record to the same result
    assert tavli.Board.from_record(env.game.board.to_record()).outcome() == outcome
    trace_c, _ = _play_gym_game(env, seed=12)
    assert trace_c != trace_a


@pytest.mark.parametrize("variant", ["backgammon", "tawla31"])
def test_rewards_are_the_rule_book_points(variant):
    seen = set()
    for seed in range(12):
        env = envs.TavliEnv(variant, opponent="random", agent_color=seed % 2)
        _, total = _play_gym_game(env, seed)
        assert total == _points_by_the_rule_book(env.game.board, env.agent_color)
        seen.add(abs(total))
    assert len(seen) > 1  # more than single wins came up


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_whole_game_rewards_are_zero_sum_points(variant):
    env = envs.raw_aec_env(variant)
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert env.game.board.turn == env.possible_agents.index(agent)
        env.step(masked_choice(rng, obs["action_mask"]))
    o = env.game.board.outcome()
    won = 0.0 if o.winner is None else float(o.points)
    white = won if o.winner == 0 else -won
    assert totals == {"player_0": white, "player_1": -white}


def test_greedy_opponent_plays_the_engines_zero_ply_choice():
    chosen = []

    def spy(board, dice):
        play = board.analyze(dice, plies=0)[0].play
        chosen.append(play.result_key)
        return play

    a = envs.TavliEnv("portes", opponent=spy)
    b = envs.TavliEnv("portes", opponent="greedy")
    trace_a, _ = _play_gym_game(a, seed=5)
    trace_b, _ = _play_gym_game(b, seed=5)
    assert chosen and trace_a == trace_b


def test_callable_opponent_gets_a_copy_and_must_return_a_legal_play():
    def cheat(board, dice):
        board.push(board.legal_plays(dice)[0])  # on its copy: the game is unaffected
        return board.legal_plays((1, 1))[0]  # a play of another position

    env = envs.TavliEnv("fevga", opponent=cheat, agent_color=1)
    with pytest.raises(tavli.IllegalMove, match="is not a legal play"):
        for seed in range(20):  # until White (the opponent) starts or moves
            _play_gym_game(env, seed)


# --- observations ---------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["backgammon", "plakoto", "fevga", "narde"])
def test_observation_is_the_engines_encoding_with_the_roll(variant):
    env = envs.TavliEnv(variant, opponent="random")
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    f = env.game.observe.encoding_size
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    for _ in range(40):
        turn = env.game.turn
        if not turn.steps:  # the start of the agent's turn: exactly tavli.encode of the board
            expected = tavli.encode(env.game.board.to_array()[None], variant, dice=[turn.dice])[0]
            assert np.array_equal(obs[: f + 21], expected)
            assert obs[f + 27] == turn.length / 4 and not obs[f + 21 : f + 27].any()
        else:
            assert obs[f + 21 : f + 27].sum() == len(turn.steps) / 4
        obs, _, done, _, info = env.step(masked_choice(rng, info["action_mask"]))
        if done:
            break


@pytest.mark.parametrize("variant", ["backgammon", "plakoto", "fevga", "narde"])
def test_other_sides_view_is_the_encoding_of_the_flipped_position(variant):
    # The observer swaps the encoding's two side blocks; for positions the encoder accepts from
    # either side that must equal encoding the position with the sides swapped.
    from tavli.envs.rows import flipped

    rows, _ = tavli.random_positions(variant, 200, seed=2)
    observer = envs.TavliEnv(variant).game.observe
    f = observer.encoding_size
    for row in rows:
        if tavli.Board.from_array(row, variant).is_game_over():
            continue
        other = flipped(row)
        other[52] = 1 - row[52]
        assert np.array_equal(observer(row, flip=True)[: f - 2], tavli.encode(other[None], variant)[0][: f - 2])


# --- starting positions and games that cannot end ---------------------------------------------------
def test_reset_from_a_position():
    board = tavli.Board("backgammon")
    board.push(board.parse_play("13/7 8/7", (6, 1)))  # Black to move
    env = envs.TavliEnv("backgammon", agent_color=1, opponent="random")
    obs, info = env.reset(seed=3, options={"position": board.id()})
    turn = env.game.turn
    assert env.game.board.id() == board.id() and env.game.board.turn == 1
    f = env.game.observe.encoding_size
    assert np.array_equal(obs[: f + 21], tavli.encode(board.to_array()[None], "backgammon", dice=[turn.dice])[0])
    assert info["plays"] == [str(p) for p in board.legal_plays(turn.dice)]
    with pytest.raises(ValueError, match="position: a game of fevga"):
        env.reset(options={"position": tavli.Board("fevga").id()})
    with pytest.raises(ValueError, match="reset options"):
        env.reset(options={"start": board.id()})


def test_a_game_nobody_can_finish_ends_as_a_draw():
    # Plakoto without the mother rule: each side's start checker is pinned under the other's
    # checkers on its last point, so nobody may bear off (RULES.md §5.6) and once both have played
    # their 1s (22 -> 23) nobody can move. Issue 18 made that position a draw (README: Plakoto's
    # terminal rule); before, the episode was truncated.
    from helpers import make_board

    board = make_board("plakoto", {0: 1, 22: 1, 23: 13}, {0: 1, 22: 1, 23: 13}, pinned=([0], [0]), mother="off")
    env = envs.TavliEnv("plakoto", mother="off", opponent="random")
    obs, info = env.reset(seed=0, options={"position": board.id()})
    done = truncated = False
    while not (done or truncated):
        obs, reward, done, truncated, info = env.step(masked_choice(np.random.default_rng(0), info["action_mask"]))
    assert done and not truncated and reward == 0.0 and not env.game.stuck
    assert env.game.board.outcome() == (None, 0, "draw")
    aec = envs.raw_aec_env("plakoto", mother="off")
    aec.reset(seed=0, options={"position": board.id()})
    for agent in aec.agent_iter():
        obs, reward, term, trunc, info = aec.last()
        aec.step(None if term or trunc else masked_choice(np.random.default_rng(0), obs["action_mask"]))
    assert not aec.game.stuck and not aec.agents


# --- bad input -----------------------------------------------------------------------------------
def test_illegal_actions_raise_or_cost_the_penalty():
    env = envs.TavliEnv("fevga", illegal_action="raise")
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(tavli.IllegalMove, match="not a step of any legal play"):
        env.step(illegal)
    env = envs.TavliEnv("fevga", illegal_penalty=0.5)  # the default: penalize
    obs, info = env.reset(seed=1)
    obs2, reward, done, trunc, info2 = env.step(illegal)
    assert reward == -0.5 and not done and np.array_equal(obs, obs2)
    assert "illegal_action" in info2 and np.array_equal(info["action_mask"], info2["action_mask"])
    for bad in (150, -1, 1.5, "7"):
        with pytest.raises(ValueError, match="action must be an integer"):
            env.step(bad)


def test_pettingzoo_illegal_action_raises_by_default():
    env = envs.aec_env("plakoto")
    env.reset(seed=4)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(tavli.IllegalMove):
        env.step(int(np.flatnonzero(mask == 0)[0]))


def test_step_after_the_end_needs_a_reset():
    env = envs.TavliEnv("hypergammon", checkers=1, opponent="random")
    _play_gym_game(env, seed=0)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"variant": "chess"}, "variant"),
        ({"variant": "fevga", "runner_threshold": 7}, "runner_threshold"),
        ({"variant": "fevga", "oponent": "random"}, "oponent"),
        ({"variant": "fevga", "opponent": "smart"}, "opponent"),
        ({"variant": "fevga", "opponent": np.zeros(3)}, "opponent"),
        ({"variant": "fevga", "agent_color": 2}, "agent_color"),
        ({"variant": "fevga", "illegal_action": "ignore"}, "illegal_action"),
        ({"variant": "fevga", "illegal_penalty": -1}, "illegal_penalty"),
        ({"variant": "fevga", "render_mode": "rgb_array"}, "render_mode"),
    ],
)
def test_bad_arguments_name_the_problem(kwargs, message):
    with pytest.raises(ValueError, match=message):
        envs.TavliEnv(**kwargs)


def test_render_ansi_shows_the_board_and_the_roll():
    env = envs.TavliEnv("fevga", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "fevga" in text and "roll" in text
