"""Records are checked whole (issue 18): every record loader validates against the package's JSON
Schema first (tavli/_base/json_check.py interprets the schema file; here it is checked to agree
with the jsonschema package on a corpus of good and bad documents), each turn's move text must name
the play its steps make, and deep nesting is a ValueError, not a RecursionError."""

from __future__ import annotations

import copy
import json
import random

import pytest

import tavli
from tavli._base import json_check

jsonschema = pytest.importorskip("jsonschema")


def random_game(variant, seed, max_plies=20):
    board, rng = tavli.Board(variant), tavli.Rng(seed)
    while not board.is_game_over() and board.ply < max_plies:
        plays = board.legal_plays(rng.roll())
        board.push(plays[rng.below(len(plays))])
    return board


def played_match(kind, seed, plays=16):
    m, rng = tavli.Match(kind, 1), tavli.Rng(seed)
    while m.phase != "over" and plays:
        if m.phase == "opening":
            m.roll_opening(rng.die(), rng.die())
            continue
        legal = m.board.legal_plays(m.forced_dice or rng.roll())
        m.play(legal[rng.below(len(legal))])
        plays -= 1
    return m


def backgammon_opening_game():
    """Backgammon start, 6-5 played 24/13 (the running play), as a record."""
    board = tavli.Board("backgammon")
    board.push(board.parse_play("24/13", (6, 5)))
    return board.to_record()


# --- the text must name the play of the steps ---------------------------------------------------------------
def test_a_play_whose_text_and_steps_differ_is_refused():
    rec = backgammon_opening_game()
    assert rec["plays"][0]["steps"] == [[0, 6], [6, 11]] and rec["plays"][0]["play"] == "24/13"
    assert tavli.Board.from_record(copy.deepcopy(rec)) == tavli.Board.from_record(rec)
    # 13/7 13/8 is another legal 6-5 from the start: the steps still say 24/13
    rec["plays"][0]["play"] = "13/7 13/8"
    with pytest.raises(ValueError, match=r"plays\[0\]: the text '13/7 13/8' and the steps .* different plays"):
        tavli.Board.from_record(rec)
    rec["plays"][0]["play"] = "24/12"  # not a play of 6-5 at all
    with pytest.raises(ValueError, match=r"plays\[0\]\.play"):
        tavli.Board.from_record(rec)
    del rec["plays"][0]["play"]  # no text: the steps alone
    assert tavli.Board.from_record(rec).ply == 1


@pytest.mark.parametrize("text", [2413, None, ["24/13"], {"text": "24/13"}, True])
def test_a_play_text_that_is_not_a_string_is_refused(text):
    rec = backgammon_opening_game()
    rec["plays"][0]["play"] = text
    with pytest.raises(ValueError, match=r"plays\[0\]\.play"):
        tavli.Board.from_record(rec)
    assert not jsonschema.Draft202012Validator(_form("gameRecord")).is_valid(rec)


def test_a_match_turn_whose_text_and_steps_differ_is_refused():
    m = tavli.Match("backgammon", 1)
    m.roll_opening(6, 5)  # White starts with 6-5
    m.play(m.board.parse_play("24/13", (6, 5)))
    rec = m.to_record()
    turn = rec["games"][0]["turns"][0]
    assert turn["play"] == "24/13" and tavli.Match.from_record(copy.deepcopy(rec)).to_record() == rec
    turn["play"] = "13/7 13/8"
    with pytest.raises(ValueError, match=r"games\[0\]\.turns\[0\]: the text '13/7 13/8'"):
        tavli.Match.from_record(rec)
    with pytest.raises(ValueError, match="different plays"):
        tavli.Match.from_json(json.dumps(rec))
    turn["play"] = 13
    with pytest.raises(ValueError, match=r"games\[0\]\.turns\[0\]\.play"):
        tavli.Match.from_record(rec)


# --- nesting -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000,
                                  '{"format": "tavli.match", "games": ' + "[" * 65 + "]" * 65 + "}"])
def test_deep_nesting_is_a_value_error(text):
    with pytest.raises(ValueError, match="nested"):
        tavli.Match.from_json(text)


def test_nesting_is_measured_outside_strings():
    assert json_check.json_depth('[{"a": "[[[{{{"}, [1, [2]]]') == 3
    assert json_check.json_depth('"\\"[["') == 0 and json_check.json_depth("7") == 0
    deep_in_a_string = json.dumps({"note": "[" * 1000})
    assert json_check.loads(deep_in_a_string) == {"note": "[" * 1000}


# --- the checker agrees with jsonschema ---------------------------------------------------------------------
def _form(name):
    s = json_check.schema()
    return {"$schema": s["$schema"], "$defs": s["$defs"], "$ref": f"#/$defs/{name}"}


_ODD_VALUES = [None, True, False, 0, 1, -1, 1.0, 2.5, 16, 25, 10**12, "", "x", "24/13", "fevga", [], [1, 2], [6, 5],
               [[0, 6]], {}, {"winner": 0, "points": 1, "kind": "single"}, "tavli.game", "tavli.match"]


def _paths(doc, path=()):
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, path + (i,))


def _mutated(doc, rng):
    doc = copy.deepcopy(doc)
    path = rng.choice(list(_paths(doc))[1:])
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    action = rng.random()
    if action < 0.15 and isinstance(parent, dict):
        del parent[path[-1]]
    elif action < 0.25 and isinstance(parent, dict):
        parent["unknown_key"] = rng.choice(_ODD_VALUES)
    elif action < 0.3 and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[path[-1]]))
    else:
        parent[path[-1]] = copy.deepcopy(rng.choice(_ODD_VALUES))
    return doc


def _corpus():
    games = [random_game(v, 7 + i).to_record() for i, v in enumerate(["backgammon", "plakoto", "fevga", "narde"])]
    matches = [played_match(k, 3 + i).to_record() for i, k in enumerate(["tavli", "backgammon", "narde"])]
    rng = random.Random(18)
    corpus = [("gameRecord", g) for g in games] + [("matchRecord", m) for m in matches]
    corpus += [("gameRecord", _mutated(g, rng)) for g in games for _ in range(60)]
    corpus += [("matchRecord", _mutated(m, rng)) for m in matches for _ in range(80)]
    positions = [tavli.Board(v).to_dict() for v in ("plakoto", "narde", "backgammon")]
    corpus += [("position", p) for p in positions]
    corpus += [("position", _mutated(p, rng)) for p in positions for _ in range(40)]
    for name in json_check.schema()["$defs"]:  # every form against odd values
        corpus += [(name, v) for v in _ODD_VALUES]
    return corpus


def test_the_checker_agrees_with_jsonschema_on_good_and_bad_documents():
    verdicts = {True: 0, False: 0}
    validators = {}
    for form, doc in _corpus():
        validator = validators.setdefault(form, jsonschema.Draft202012Validator(_form(form)))
        expected = validator.is_valid(doc)
        try:
            json_check.check(form, doc)
            got = True
        except json_check.SchemaError:
            got = False
        shown = doc if len(json.dumps(doc)) < 400 else "(long)"
        assert got == expected, (form, shown, list(validator.iter_errors(doc))[:1])
        verdicts[got] += 1
    assert verdicts[True] >= 30 and verdicts[False] >= 300, verdicts


def test_every_record_the_schema_refuses_is_refused_by_its_loader():
    rng = random.Random(1818)
    game, match = random_game("portes", 5).to_record(), played_match("tavli", 6).to_record()
    for form, base, load in (("gameRecord", game, tavli.Board.from_record),
                             ("matchRecord", match, tavli.Match.from_record)):
        validator = jsonschema.Draft202012Validator(_form(form))
        refused = 0
        for _ in range(80):
            doc = _mutated(base, rng)
            if validator.is_valid(doc):
                continue
            refused += 1
            with pytest.raises(ValueError):
                load(doc)
        assert refused >= 40


def test_schema_errors_name_the_field():
    rec = played_match("tavli", 6).to_record()
    rec["games"][0]["turns"][1]["dice"] = [6, 7]
    with pytest.raises(ValueError, match=r"games\[0\]\.turns\[1\]\.dice\[1\]: 7 is over 6"):
        tavli.Match.from_record(rec)
    with pytest.raises(ValueError, match="target: expected integer, got string .3."):
        json_check.check("matchRecord", dict(played_match("tavli", 6).to_record(), target="3"))
