"""POST /api/v1/cube (tavli/server/cube.py, docs/server.md) and gnubg/XG IDs at the other endpoints:
the cube decision of hand-worked positions, the same numbers as tavli.cube.decide on the same
probabilities, the cube and score an XGID or Match ID carries, the JSON Schema forms, and refusals."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
jsonschema = pytest.importorskip("jsonschema")

import tavli
from tavli import forms
from tavli.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

API = "/api/v1"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
# White two checkers on his 6-point, Black one on his 1-point, all else off: White wins only with
# 3-3, 4-4, 5-5 or 6-6 (p = 1/9), no gammons. Money, centred cube, bear-off efficiency 0.6: No
# double = 0.4 (2p - 1) + 0.6 (-1) (Janowski: p below the take point 0.2); Double/take twice it.
LAST_ROLL = "XGID=------B-----------------a-:0:0:1:00:0:0:0:0:10"
ND_LAST_ROLL = 0.4 * (2 / 9 - 1) - 0.6


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def post(client, body, status=200):
    r = client.post(API + "/cube", json=body)
    assert r.status_code == status, r.text
    return r.json()


def refused(client, body, field):
    r = client.post(API + "/cube", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] == field, r.json()
    return r.json()["error"]["message"]


def valid(form, doc):
    schema = {**forms.schema(), "$ref": f"#/$defs/{form}"}
    jsonschema.Draft202012Validator(schema).validate(doc)


def test_a_hand_worked_last_roll_position(client):
    d = post(client, {"position": LAST_ROLL})
    valid("cubeDecision", d)
    assert d["probabilities"]["win"] == pytest.approx(1 / 9, abs=1e-6)
    assert d["nd"] == pytest.approx(ND_LAST_ROLL, abs=1e-5) and d["dt"] == pytest.approx(2 * ND_LAST_ROLL, abs=1e-5)
    assert d["dp"] == 1.0 and d["action"] == "no double" and d["take"] == "take"
    assert d["efficiency"] == pytest.approx(0.6) and d["plies"] == 1 and d["nd_mwc"] is None
    # the XGID's field 10 is log2 of the maximum cube: 10, a cap of 1024
    assert d["cube"] == {"value": 1, "owner": None, "jacoby": False, "beavers": False, "max_cube": 1024}
    assert d["match"] == {"length": 0, "score": [0, 0], "crawford": False} and d["turn"] == 0


def test_given_probabilities_give_tavli_cube_decide(client):
    """A 7-point match at 4-2, centred cube: the README's example state; the numbers must be
    decide()'s on the same probabilities at the start position's efficiency (contact, 0.68)."""
    p = [0.521514, 0.153921, 0.007563, 0.129847, 0.007546]
    body = {"position": tavli.Board("backgammon").id(), "match": {"length": 7, "score": [4, 2]}, "probabilities": p}
    d = post(client, body)
    valid("cubeDecision", d)
    e = tavli.cube.decide(p, None, tavli.MatchState(7, (4, 2)), mover=0, efficiency=0.68)
    for key, value in (("nd", e.nd), ("dt", e.dt), ("dp", e.dp), ("nd_mwc", e.nd_mwc), ("dt_mwc", e.dt_mwc),
                       ("dp_mwc", e.dp_mwc)):
        assert d[key] == pytest.approx(value, abs=1e-9), key
    assert (d["action"], d["take"], d["plies"]) == (e.action, e.take, None)
    assert (round(d["nd"], 4), round(d["dt"], 4), d["action"]) == (0.0074, -0.5399, "no double")  # README


def test_the_ids_carry_cube_and_score(client):
    board = tavli.Board("backgammon")
    cube, match = tavli.CubeState(2, 1), tavli.MatchState(7, (1, 3))
    gnubg = tavli.cube.gnubg_id(board, cube, match)
    for position in (gnubg, tavli.cube.xgid(board, cube, match)):
        d = post(client, {"position": position, "plies": 0})
        assert d["cube"]["value"] == 2 and d["cube"]["owner"] == 1
        assert d["match"] == {"length": 7, "score": [1, 3], "crawford": False}
        assert d["available"] is False and d["action"] == "cube not available" and d["dt"] is None
    message = refused(client, {"position": gnubg, "cube": {"value": 1}}, "cube")
    assert "already gives the cube" in message
    bare = post(client, {"position": gnubg.split(":")[0], "plies": 0, "cube": {"value": 2, "owner": 0}})
    assert bare["cube"]["owner"] == 0 and bare["available"] is True


def test_refusals_name_the_field(client):
    good = {"position": START_XGID}
    assert "cube" in refused(client, {**good, "cube": {"value": 3}}, "cube")
    refused(client, {**good, "cube": {"value": 2, "owner": 0, "colour": 1}}, "cube")
    refused(client, {**good, "match": {"length": 5, "score": [5, 0]}}, "match")
    refused(client, {**good, "match": {"length": 5, "score": [1, 1], "crawford": True}}, "match")
    refused(client, {**good, "plies": 4}, "plies")
    refused(client, {**good, "probabilities": [0.5, 0.1]}, "probabilities")
    refused(client, {**good, "probabilities": [1.5, 0, 0, 0, 0]}, "probabilities")
    refused(client, {"position": "XGID=nonsense"}, "position")
    refused(client, {"position": tavli.Board("tavla").id()}, "position")  # no cube in Tavla
    refused(client, {"position": "4HPwATDgc/ABMA", "variant": "fevga"}, "position")


def test_the_state_forms_validate():
    valid("cubeState", {"value": 4, "owner": 1})
    valid("matchScore", {"length": 7, "score": [3, 6], "crawford": True})
    valid("positionText", START_XGID)
    for form, bad in (("cubeState", {"value": 3}), ("cubeState", {"owner": 2}), ("matchScore", {"score": [1]})):
        with pytest.raises(jsonschema.ValidationError):
            valid(form, bad)


def test_analyze_and_plays_take_xgids_and_gnubg_ids(client):
    white = tavli.Board("backgammon")
    black = tavli.Board.from_gnubg_id("4HPwATDgc/ABMA", turn=1)  # the start, Black on roll
    # the Match ID cAkA... puts Black on roll (Board.from_gnubg_id turn=1); the other two: White
    for position, board in ((START_XGID, white), ("4HPwATDgc/ABMA", white), ("4HPwATDgc/ABMA:cAkAAAAAAAAA", black)):
        by_id = client.post(API + "/analyze", json={"position": board.id(), "dice": [6, 5], "plies": 0}).json()
        r = client.post(API + "/analyze", json={"position": position, "dice": [6, 5], "plies": 0})
        assert r.status_code == 200, r.text
        assert r.json() == by_id
        r = client.post(API + "/plays", json={"position": position, "dice": [3, 1]})
        assert r.status_code == 200 and len(r.json()["plays"]) == len(board.legal_plays((3, 1)))


def test_render_draws_the_cube_and_variants_say_which_games_have_one(client):
    r = client.post(API + "/render", json={"position": START_XGID, "cube": {"value": 4, "owner": 1}})
    assert r.status_code == 200 and 'class="cube" data-value="4" data-owner="black"' in r.text
    r = client.post(API + "/render", json={"position": tavli.Board("fevga").id(), "cube": {"value": 1}})
    assert r.status_code == 422 and r.json()["error"]["field"] == "cube"
    games = {g["name"]: g["cube"] for g in client.get(API + "/variants").json()["variants"]}
    assert {name for name, cube in games.items() if cube} == {"backgammon", "nackgammon", "hypergammon"}  # RULES.md


# Every endpoint that takes a position, with the extra fields it needs.
POSITION_ENDPOINTS = [
    ("/plays", {"dice": [6, 5]}),
    ("/play", {"dice": [6, 5], "play": {"text": "24/13"}}),
    ("/move", {"dice": [6, 5], "plies": 0}),
    ("/analyze", {"dice": [6, 5], "plies": 0, "top": 3}),
    ("/evaluate", {"plies": 0}),
    ("/render", {"dice": [6, 5]}),
]
CUBE_ENDPOINT = ("/cube", {"plies": 0})  # with the cube state an XGID or Match ID carries: tests above


@pytest.mark.parametrize("endpoint,extra", POSITION_ENDPOINTS)
def test_every_position_endpoint_takes_gnubg_ids_and_xgids(client, endpoint, extra):
    """gnubg's starting position ID (its manual: 4HPwATDgc/ABMA), with and without a Match ID, and
    XG's starting XGID answer exactly as the start sent by tavli ID (White on roll: RULES.md). The
    Match ID by hand from the manual's bit layout: bytes 0x30 (1-cube, centred, player 0 rolled)
    0x01 (a game playing, player 0's turn), then zeros (no dice, money): MAEAAAAAAAAA."""
    start = tavli.Board("backgammon").id()
    by_id = client.post(API + endpoint, json={"position": start, **extra})
    assert by_id.status_code == 200, by_id.text
    for position in (START_XGID, "4HPwATDgc/ABMA", " 4HPwATDgc/ABMA ", "4HPwATDgc/ABMA:MAEAAAAAAAAA"):
        r = client.post(API + endpoint, json={"position": position, **extra})
        assert r.status_code == 200, (position, r.text)
        assert r.content == by_id.content, position


@pytest.mark.parametrize("endpoint,extra", POSITION_ENDPOINTS + [CUBE_ENDPOINT])
@pytest.mark.parametrize("bad,words", [
    ("4HPwATDgc/ABM", "14 base64 characters"),
    ("4HPwATDgc/AB!A", "invalid character"),
    ("//////////////", "more than 15 checkers"),
    ("4HPwATDgc/ABMA:cAkA", "Match ID must have 12"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0", "10 ':'-separated fields"),
])
def test_bad_gnubg_ids_and_xgids_are_a_422_naming_the_position(client, endpoint, extra, bad, words):
    r = client.post(API + endpoint, json={"position": bad, **extra})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] == "position" and words in r.json()["error"]["message"]


# ---- plays ranked in the cube and match context (tavli.context_play) ------------------------------

def test_move_and_analyze_rank_at_the_score_and_cubefully_on_request(client):
    """At double match point (4-4 to 5) every win takes the match, so /move's play at 0 plies is
    the one most likely to win (the rule book's scoring, no table needed); eval_mode cubeful
    gives the cubeful search's ranking (tavli.cube_search, checked against an exact solution in
    test_cube_search); a money position without eval_mode keeps Board.analyze's answer."""
    from tavli.cube_search import analyze as cubeful_analyze

    tavla = tavli.Board("tavla")
    r = client.post(API + "/move", json={"position": tavla.id(), "dice": [6, 4], "plies": 0,
                                         "match": {"length": 5, "score": [4, 4]}})
    assert r.status_code == 200, r.text
    win = max(tavla.analyze((6, 4), plies=0), key=lambda p: p.probabilities.win)
    assert r.json()["play"]["text"] == str(win.play) and r.json()["mwc"] == pytest.approx(win.probabilities.win)
    assert r.json()["cubeful"] is False

    bg = tavli.Board("backgammon")
    cube, match = tavli.CubeState(2, 1), tavli.MatchState(7, (2, 4))
    body = {"position": bg.id(), "dice": [4, 2], "plies": 1, "eval_mode": "cubeful",
            "cube": {"value": 2, "owner": 1}, "match": {"length": 7, "score": [2, 4]}}
    a = client.post(API + "/analyze", json=body)
    assert a.status_code == 200, a.text
    want = cubeful_analyze(bg, (4, 2), cube, match, plies=1)
    got = a.json()
    assert got["cubeful"] is True and got["cube"]["value"] == 2 and got["match"]["score"] == [2, 4]
    assert [p["play"]["text"] for p in got["plays"]] == [str(p.play) for p in want.plays]
    assert [p["equity"] for p in got["plays"]] == pytest.approx([p.equity for p in want.plays])
    assert [p["mwc"] for p in got["plays"]] == pytest.approx([p.mwc for p in want.plays])
    jsonschema.validate(got, {"$ref": "#/$defs/analysis", **forms.schema()})
    m = client.post(API + "/move", json=body).json()
    assert m["play"]["text"] == str(want.best.play) and m["cubeful"] is True

    plain = client.post(API + "/analyze", json={"position": START_XGID, "dice": [4, 2], "plies": 0}).json()
    assert "cubeful" not in plain and plain == forms.analysis_to_dict(bg, bg.analyze((4, 2), plies=0))
    for bad, where in [({"eval_mode": "cubefull"}, "eval_mode"), ({"eval_mode": "cubeful", "cube": {"value": 3}}, "cube"),
                       ({"match": {"length": 5, "score": [5, 0]}}, "match")]:
        r = client.post(API + "/analyze", json={"position": bg.id(), "dice": [4, 2], "plies": 0, **bad})
        assert r.status_code == 422 and r.json()["error"]["field"] == where, r.text


def test_match_move_plays_to_the_score(client):
    """/match/move ranks by match winning chance at the match's score (tavli.Match.analyze)."""
    m = tavli.Match("tavla", 5)
    m.roll_opening(6, 4)
    state = client.post(API + "/match/new", json={"kind": "tavla", "target": 5}).json()
    state = client.post(API + "/match/opening", json={"record": state["record"], "dice": [6, 4]}).json()
    r = client.post(API + "/match/move", json={"record": state["record"], "dice": [6, 4], "plies": 0})
    assert r.status_code == 200, r.text
    assert r.json()["play"]["text"] == str(m.analyze((6, 4), 0)[0].play)


def test_cube_decision_by_the_cubeful_search_on_request(client):
    from tavli.cube_search import decide

    board, cube, match = tavli.parse_position(START_XGID)
    for plies in (1, 2):
        d = post(client, {"position": START_XGID, "plies": plies, "eval_mode": "cubeful"})
        want = decide(board, cube, match, plies)
        assert d["plies"] == plies and d["nd"] == pytest.approx(want.nd) and d["dt"] == pytest.approx(want.dt)
        assert d["action"] == want.action
        jsonschema.validate(d, {"$ref": "#/$defs/cubeDecision", **forms.schema()})
    zero = post(client, {"position": START_XGID, "plies": 0, "eval_mode": "cubeful"})
    assert zero["nd"] == pytest.approx(post(client, {"position": START_XGID, "plies": 0})["nd"])
    bad = post(client, {"position": START_XGID, "eval_mode": "cubefull"}, 422)
    assert bad["error"]["field"] == "eval_mode"
    bad = post(client, {"position": START_XGID, "eval_mode": "cubeful", "probabilities": [0.5, 0.1, 0, 0.1, 0]}, 422)
    assert bad["error"]["field"] == "eval_mode"
