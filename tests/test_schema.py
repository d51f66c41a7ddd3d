"""The JSON forms (tavli.forms, docs/json.md) and their JSON Schema.

Every document the engine writes — positions of every game and option setting, plays, analyses,
evaluations, rolls, game and match records — validates against its form in the schema and reads
back (Board.from_dict, Board.from_record, Match.from_record, forms.play_from_dict) to an equal
object; documents the schema refuses are refused by those readers too."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

jsonschema = pytest.importorskip("jsonschema")

import tavli
from tavli import forms
from tavli.match import KINDS

from helpers import make_board

SEED = 20261130


@pytest.fixture(scope="module")
def schema():
    return forms.schema()


_validators: dict[str, object] = {}


def validator(form: str):
    """A validator for one form: the whole schema with its root pointing at #/$defs/<form>."""
    if form not in _validators:
        s = forms.schema()
        assert form in s["$defs"], form
        s["$ref"] = f"#/$defs/{form}"
        _validators[form] = jsonschema.Draft202012Validator(s)
    return _validators[form]


def assert_valid(form: str, doc) -> None:
    doc = json.loads(json.dumps(doc))  # what a client would see: JSON types only
    errors = sorted(validator(form).iter_errors(doc), key=str)
    assert not errors, f"{form}: {errors[0].message} at {list(errors[0].absolute_path)}"


def is_valid(form: str, doc) -> bool:
    return validator(form).is_valid(doc)


def option_settings():
    """(variant, options): every game with its defaults, and every non-default choice of every option."""
    for variant in tavli.variants():
        yield variant, {}
        for opt in tavli.variant_options(variant):
            for choice in opt["choices"]:
                if choice != opt["default"]:
                    yield variant, {opt["name"]: choice}


SETTINGS = list(option_settings())


def sample_boards(variant, options, n, seed=SEED):
    rows, dice = tavli.random_positions(variant, n, seed=seed, **options)
    return [(tavli.Board.from_array(r, variant, **options), (int(d[0]), int(d[1]))) for r, d in zip(rows, dice)]


def random_game(variant, seed, max_plies=10_000, **options):
    board, rng = tavli.Board(variant, **options), tavli.Rng(seed)
    while not board.is_game_over() and board.ply < max_plies:
        plays = board.legal_plays(rng.roll())
        board.push(plays[rng.below(len(plays))])
    return board


# --- the schema itself ---------------------------------------------------------------------------------
def test_schema_is_a_valid_versioned_draft_2020_12_schema(schema):
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert forms.SCHEMA_VERSION == 1 and schema["$id"].endswith(f"v{forms.SCHEMA_VERSION}")
    for form in ("position", "positionId", "play", "playInput", "dice", "roll", "probabilities", "evaluation",
                 "analysis", "gameRecord", "matchRecord", "matchState", "simulation", "error"):
        assert form in schema["$defs"], form
    spoiled = forms.schema()
    spoiled["$defs"].clear()  # schema() hands out a copy: callers cannot spoil it
    assert "position" in forms.schema()["$defs"]


def test_the_match_kinds_of_the_schema_are_tavli_match_KINDS(schema):
    assert schema["$defs"]["matchKind"]["enum"] == list(KINDS)


def test_the_core_does_not_need_the_server_extras():
    code = "import sys, tavli, tavli.forms; assert 'fastapi' not in sys.modules and 'jsonschema' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


# --- positions -----------------------------------------------------------------------------------------
def test_the_settings_cover_every_game_and_option_choice():
    assert {v for v, _ in SETTINGS} == set(tavli.variants())
    assert len(SETTINGS) == len(tavli.variants()) + sum(
        len(o["choices"]) - 1 for v in tavli.variants() for o in tavli.variant_options(v))


@pytest.mark.parametrize("variant,options", SETTINGS, ids=[f"{v}-{o}" for v, o in SETTINGS])
def test_positions_validate_and_round_trip(variant, options):
    boards = [tavli.Board(variant, **options)] + [b for b, _ in sample_boards(variant, options, 40)]
    for board in boards:
        d = board.to_dict()
        assert_valid("position", d)
        assert_valid("positionId", board.id())
        assert_valid("positionRef", d)
        back = tavli.Board.from_dict(json.loads(json.dumps(d)))
        assert back == board and back.to_dict() == d and back.options == options
        assert forms.board_from_json(board.id()) == board and forms.board_from_json(d) == board


def test_pins_and_first_turn_flags_are_written_where_the_game_has_them():
    plakoto = make_board("plakoto", {5: 1, 0: 14}, {18: 1, 0: 14}, pinned=((), (18,)))
    d = plakoto.to_dict()
    assert d["pinned"] == [[], [18]] and "first_turn" not in d
    assert_valid("position", d)
    assert tavli.Board.from_dict(d).pinned == [[], [18]]
    narde = tavli.Board("narde").to_dict()
    assert narde["first_turn"] == [True, True] and "pinned" not in narde  # both sides still to play
    assert_valid("position", narde)


# --- plays ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant,options", SETTINGS, ids=[f"{v}-{o}" for v, o in SETTINGS])
def test_plays_validate_and_round_trip(variant, options):
    for board, dice in sample_boards(variant, options, 4, seed=SEED + 1):
        for play in board.legal_plays(dice):
            d = forms.play_to_dict(board, play)
            assert_valid("play", d)
            assert_valid("playInput", d)
            after = board.play(play)
            assert d["result"] == after.to_dict() and d["result_id"] == after.id()
            assert d["outcome"] == (None if after.outcome() is None else after.outcome()._asdict())
            assert d["dice"] == list(dice) and len(d["hits"]) == len(d["steps"])
            assert d["hits"].count(True) == d["text"].count("*")  # one marked point per hit
            d = json.loads(json.dumps(d))
            assert forms.play_from_dict(board, d) == play
            assert forms.play_from_dict(board, {"steps": d["steps"], "dice": d["dice"]}) == play
            assert forms.play_from_dict(board, {"text": d["text"]}, dice) == play


def test_hits_mark_the_step_that_sends_a_checker_to_the_bar():
    # Backgammon start, but one of Black's 8-point checkers sits alone on his bar point (his r 17,
    # our r 23 - 17 = 6, our 18-point): 6-5 "24/18*/13" hits with its first step only.
    board = make_board("backgammon", {0: 2, 11: 5, 16: 3, 18: 5}, {0: 2, 11: 5, 16: 2, 17: 1, 18: 5})
    play = board.parse_play("24/18*/13", (6, 5))
    d = forms.play_to_dict(board, play)
    assert d["steps"] == [[0, 6], [6, 11]] and d["hits"] == [True, False]
    assert d["result"]["turn"] == 1 and d["result"]["bar"] == [1, 0]  # Black, to move, is on the bar
    quiet = forms.play_to_dict(board, board.parse_play("13/7 13/8", (6, 5)))
    assert quiet["hits"] == [False, False]
    # GammOnLine's example (README): two checkers move 21/17 onto one blot, only the first hits.
    gol = tavli.Board.from_gnubg_id("sG/BgCGMM+YAIw")
    d = forms.play_to_dict(gol, gol.parse_play("21/17*(2) 11/7(2)", (4, 4)))
    assert [tuple(s) for s, hit in zip(d["steps"], d["hits"]) if hit] == [(3, 7)]
    # Plakoto pins: not hits (nothing goes to the bar); the pin shows in the result's "pinned".
    # Black's blot on his r 18 is our r 23 - 18 = 5, our 19-point.
    plakoto = make_board("plakoto", {0: 15}, {18: 1, 0: 14})
    pinning = [p for p in plakoto.legal_plays((5, 3)) if plakoto.play(p).pinned != [[], []]]
    assert pinning and all((0, 5) in p.steps for p in pinning)
    for p in pinning:
        d = forms.play_to_dict(plakoto, p)
        assert d["hits"] == [False] * len(d["steps"]) and d["result"]["pinned"] == [[18], []]


def test_the_pass_play_has_no_steps():
    # White's checker on the bar of a Backgammon board against a closed Black home board: 6-6 passes.
    board = make_board("backgammon", {-1: 1, 23: 14}, {18: 2, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2})
    (play,) = board.legal_plays((6, 6))
    d = forms.play_to_dict(board, play)
    assert d["steps"] == [] and d["hits"] == [] and d["text"] == "pass"
    assert_valid("play", d)
    assert forms.play_from_dict(board, {"text": "pass", "dice": [6, 6]}) == play
    assert forms.play_from_dict(board, {"steps": [], "dice": [6, 6]}) == play


def test_play_from_dict_wants_steps_or_text_that_agree():
    board = tavli.Board("backgammon")
    assert str(forms.play_from_dict(board, {"text": "24/18 13/8", "dice": [6, 5]})) == "24/18 13/8"
    with pytest.raises(ValueError, match="different plays"):
        forms.play_from_dict(board, {"text": "24/13", "steps": [[11, 17], [11, 16]], "dice": [6, 5]})
    with pytest.raises(ValueError, match="differ from the roll"):
        forms.play_from_dict(board, {"text": "24/13", "dice": [6, 5]}, (5, 6))
    with pytest.raises(ValueError, match="missing dice"):
        forms.play_from_dict(board, {"text": "24/13"})
    with pytest.raises(tavli.IllegalMove):
        forms.play_from_dict(board, {"text": "24/12", "dice": [6, 5]})


# --- values ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", tavli.variants())
def test_analyses_and_evaluations_validate(variant):
    for board, dice in sample_boards(variant, {}, 2, seed=SEED + 2):
        analysis = board.analyze(dice, plies=1)
        d = forms.analysis_to_dict(board, analysis)
        assert_valid("analysis", d)
        assert d["id"] == board.id() and d["dice"] == list(dice) and d["plies"] == 1
        assert len(d["plays"]) == len(board.legal_plays(dice))
        equities = [p["equity"] for p in d["plays"]]
        assert equities == sorted(equities, reverse=True)  # best first
        for entry, a in zip(d["plays"], analysis):
            assert forms.play_from_dict(board, entry["play"]) == a.play
            pr = entry["probabilities"]
            assert pr["lose"] == pytest.approx(1 - pr["win"] - pr["draw"])
            assert 0 <= pr["win_triple"] <= pr["win_double"] <= pr["win"] <= 1
        top = forms.analysis_to_dict(board, analysis, top=2)
        assert top["plays"] == d["plays"][:2]
        for plies in (0, 1):
            e = forms.evaluation_to_dict(board.evaluate(plies=plies))
            assert_valid("evaluation", e)
            assert e["plies"] == plies and e["equity"] == pytest.approx(board.evaluate(plies=plies).equity)


def test_rankings_in_a_cube_and_match_context_validate():
    from tavli.context_play import rank_plays

    board = tavli.Board("backgammon")
    for cube, match, mode in [(tavli.CubeState(2, 1), tavli.MatchState(7, (2, 4)), "cubeful"),
                              (None, None, "cubeful"), (None, tavli.MatchState(5, (1, 3)), "cubeless")]:
        r = rank_plays(board, (4, 2), cube, match, mode, 1)
        d = forms.ranking_to_dict(board, r, cube, match)
        assert_valid("analysis", d)
        assert d["cubeful"] == (mode == "cubeful") and len(d["plays"]) == len(board.legal_plays((4, 2)))
        assert all((p["probabilities"] is None) == (mode == "cubeful") for p in d["plays"])
        assert all((p["mwc"] is None) == (match is None) for p in d["plays"])
        assert forms.ranking_to_dict(board, r, cube, match, top=2)["plays"] == d["plays"][:2]


def test_rolls_validate_and_replay():
    for seed in (0, 1, 2**53 - 1, 2**64 - 1):
        d = forms.roll_to_dict(tavli.Rng(seed).roll(), seed)
        assert_valid("roll", d)
        assert tuple(d["dice"]) == tavli.Rng(d["seed"]).roll()


# --- records ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant,options", SETTINGS[::3], ids=[f"{v}-{o}" for v, o in SETTINGS[::3]])
def test_game_records_validate_and_replay(variant, options):
    for seed in (1, 2):
        board = random_game(variant, seed, max_plies=3000, **options)
        # without the mother rule two start checkers can pin each other for good (README)
        assert board.is_game_over() or options == {"mother": "off"}
        for b in (board, random_game(variant, seed, max_plies=7, **options)):  # finished and unfinished
            record = b.to_record()
            assert_valid("gameRecord", record)
            back = tavli.Board.from_record(json.loads(json.dumps(record)))
            assert back == b and back.to_record() == record


def play_match(kind, seed, target=1, max_plays=10_000):
    m, rng = tavli.Match(kind, target), tavli.Rng(seed)
    plays = 0
    while m.phase != "over" and plays < max_plays:
        if m.phase == "opening":
            m.roll_opening(rng.die(), rng.die())
            continue
        board = m.board
        legal = board.legal_plays(m.forced_dice or rng.roll())
        m.play(legal[rng.below(len(legal))])
        plays += 1
    return m


@pytest.mark.parametrize("kind", list(KINDS))
def test_match_records_validate_and_replay(kind):
    target = 3 if kind == "tavli" else 1  # a Tavli match to 3 plays more than one game
    for m in (play_match(kind, 7, target), play_match(kind, 8, target, max_plays=9), tavli.Match(kind)):
        record = m.to_record()
        assert_valid("matchRecord", record)
        back = tavli.Match.from_record(json.loads(json.dumps(record)))
        assert back.to_record() == record and back.score == m.score and back.phase == m.phase
        for result in record["games"]:
            if "result" in result:
                assert_valid("matchResult", result["result"])


# --- what the schema refuses, the readers refuse ----------------------------------------------------------
def _set(path, value):
    def mutate(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value
    return mutate


_DELETE = object()

POSITION_MUTATIONS = {
    "mover not a list": _set(["mover"], "15"),
    "mover of 23 points": _set(["mover"], [15] + [0] * 22),
    "mover count 16": _set(["mover", 0], 16),
    "mover count -1": _set(["mover", 3], -1),
    "mover count as text": _set(["mover", 0], "15"),
    "mover count 1.5": _set(["mover", 0], 1.5),
    "mover count true": _set(["mover", 0], True),
    "opponent missing": _set(["opponent"], _DELETE),
    "turn 2": _set(["turn"], 2),
    "turn as text": _set(["turn"], "0"),
    "turn true": _set(["turn"], True),
    "bar of one side": _set(["bar"], [0]),
    "bar -1": _set(["bar"], [-1, 0]),
    "off 16": _set(["off"], [16, 0]),
    "variant a number": _set(["variant"], 5),
    "options a list": _set(["options"], []),
    "option value 1.5": _set(["options"], {"mother_points": 1.5}),
    "pinned point 24": _set(["pinned"], [[24], []]),
    "pinned twice": _set(["pinned"], [[0, 0], []]),
    "pinned as text": _set(["pinned"], "0"),
    "first_turn as text": _set(["first_turn"], ["yes", False]),
    "unknown key": _set(["colour"], "white"),
}


@pytest.mark.parametrize("name", list(POSITION_MUTATIONS))
def test_positions_the_schema_refuses_are_refused_by_from_dict(name):
    base = tavli.Board("plakoto").to_dict()
    assert is_valid("position", base)
    doc = copy.deepcopy(base)
    POSITION_MUTATIONS[name](doc)
    assert not is_valid("position", doc)
    with pytest.raises(ValueError):
        tavli.Board.from_dict(doc)
    with pytest.raises(ValueError):
        forms.board_from_json(doc)


PLAY_MUTATIONS = {
    "die 7": _set(["dice"], [7, 1]),
    "die 0": _set(["dice"], [0, 1]),
    "dice as text": _set(["dice"], "6-5"),
    "three dice": _set(["dice"], [6, 5, 4]),
    "step of one index": _set(["steps"], [[0], [0, 11]]),
    "step to 25": _set(["steps"], [[0, 25]]),
    "step from -2": _set(["steps"], [[-2, 4]]),
    "steps as text": _set(["steps"], "24/13"),
    "text a number": lambda d: (d.pop("steps"), d.update(text=2413)),
    "neither steps nor text": lambda d: d.pop("steps"),
    "unknown key": _set(["colour"], "white"),
}


@pytest.mark.parametrize("name", list(PLAY_MUTATIONS))
def test_plays_the_schema_refuses_are_refused_by_play_from_dict(name):
    board = tavli.Board("backgammon")
    base = {"steps": [[0, 6], [6, 11]], "dice": [6, 5]}
    assert is_valid("playInput", base) and str(forms.play_from_dict(board, base)) == "24/13"
    doc = copy.deepcopy(base)
    PLAY_MUTATIONS[name](doc)
    assert not is_valid("playInput", doc)
    with pytest.raises(ValueError):
        forms.play_from_dict(board, doc)


GAME_MUTATIONS = {
    "format": _set(["format"], "tavli.match"),
    "version 2": _set(["version"], 2),
    "start count 16": _set(["start", "mover", 0], 16),
    "plays as text": _set(["plays"], "24/13"),
    "play without steps": _set(["plays", 0, "steps"], _DELETE),
    "play with die 0": _set(["plays", 0, "dice"], [0, 1]),
    "play step to 30": _set(["plays", 0, "steps", 0], [0, 30]),
    "result winner 2": _set(["result"], {"winner": 2, "points": 1, "kind": "single"}),
    "result kind": _set(["result"], {"winner": 0, "points": 1, "kind": "gammon"}),
}


@pytest.mark.parametrize("name", list(GAME_MUTATIONS))
def test_game_records_the_schema_refuses_are_refused_by_from_record(name):
    base = random_game("portes", 3).to_record()
    assert is_valid("gameRecord", base)
    doc = copy.deepcopy(base)
    GAME_MUTATIONS[name](doc)
    assert not is_valid("gameRecord", doc)
    with pytest.raises(ValueError):
        tavli.Board.from_record(doc)


MATCH_MUTATIONS = {
    "format": _set(["format"], "tavli.game"),
    "kind": _set(["kind"], "chess"),
    "target 0": _set(["target"], 0),
    "target as text": _set(["target"], "3"),
    "opening rule": _set(["opening"], "best_of_three"),
    "next starter": _set(["next_starter"], "loser"),
    "games as text": _set(["games"], "all"),
    "game not a dict": _set(["games", 0], 5),
    "opening die 7": _set(["games", 0, "opening", 0], [7, 1]),
    "turn of player 2": _set(["games", 0, "turns", 0, "player"], 2),
    "turn without steps": _set(["games", 0, "turns", 0, "steps"], _DELETE),
    "score of one side": _set(["score"], [1]),
}


@pytest.mark.parametrize("name", list(MATCH_MUTATIONS))
def test_match_records_the_schema_refuses_are_refused_by_from_record(name):
    base = play_match("tavli", 5, target=3).to_record()
    assert is_valid("matchRecord", base)
    doc = copy.deepcopy(base)
    MATCH_MUTATIONS[name](doc)
    assert not is_valid("matchRecord", doc)
    with pytest.raises(ValueError):
        tavli.Match.from_record(doc)
