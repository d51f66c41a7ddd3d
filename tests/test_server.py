"""The HTTP API v1 (tavli.server, docs/server.md) through FastAPI's TestClient: every endpoint, bad
input for each, the limits, a whole Fevga game and a Tavli match played over HTTP, concurrent
requests, and the OpenAPI description."""

from __future__ import annotations

import json
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import tavli
from tavli import forms
from tavli.match import KINDS
from tavli.server import create_app
from tavli.server.app import MAX_BODY_BYTES, MAX_MATCH_GAMES, MAX_SIM_GAMES

from helpers import expected, make_board, result_of

with warnings.catch_warnings():  # newer Starlette prefers httpx2 for its test client; httpx works
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

API = "/api/v1"
SEED = 20261130
ROUTES = {
    ("GET", "/api/v1/health"), ("GET", "/api/v1/variants"), ("GET", "/api/v1/schema"),
    ("POST", "/api/v1/new"), ("POST", "/api/v1/roll"), ("POST", "/api/v1/plays"), ("POST", "/api/v1/play"),
    ("POST", "/api/v1/move"), ("POST", "/api/v1/analyze"), ("POST", "/api/v1/evaluate"),
    ("POST", "/api/v1/render"), ("POST", "/api/v1/simulate"), ("POST", "/api/v1/match/new"),
    ("POST", "/api/v1/match/opening"), ("POST", "/api/v1/match/play"), ("POST", "/api/v1/match/move"),
}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def post(client, path, body, status=200):
    r = client.post(API + path, json=body)
    assert r.status_code == status, r.text
    return r.json() if r.headers["content-type"].startswith("application/json") else r.text


def refused(client, path, body, field, status=422, method="post"):
    """The request is refused with `status` and an error body naming `field`; returns the message."""
    r = client.request(method.upper(), API + path, json=body)
    assert r.status_code == status, r.text
    err = r.json()
    assert set(err) == {"error"} and set(err["error"]) == {"field", "message"}, err
    assert err["error"]["field"] == field, err
    assert isinstance(err["error"]["message"], str) and err["error"]["message"]
    return err["error"]["message"]


def middle_game(variant="backgammon", ply=20, seed=SEED):
    rows, dice = tavli.random_positions(variant, ply + 1, seed=seed)
    return tavli.Board.from_array(rows[ply], variant), (int(dice[ply][0]), int(dice[ply][1]))


# --- facts ------------------------------------------------------------------------------------------------
def test_health_variants_and_schema(client):
    h = client.get(API + "/health").json()
    assert h == {"status": "ok", "version": tavli.__version__, "schema_version": forms.SCHEMA_VERSION,
                 "variants": tavli.variants()}
    v = client.get(API + "/variants").json()
    assert [g["name"] for g in v["variants"]] == tavli.variants()
    assert all(g["options"] == tavli.variant_options(g["name"]) for g in v["variants"])
    assert v["match_kinds"] == list(KINDS)
    assert {m["kind"]: (tuple(m["games"]), m["target"]) for m in v["matches"]} == KINDS
    assert client.get(API + "/schema").json() == forms.schema()


def test_the_page_and_its_files(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    missing = client.get("/static/no-such-file.js")
    assert missing.status_code == 404 and missing.json()["error"]["field"] is None


def test_unknown_routes_and_methods_are_json_errors(client):
    refused(client, "/nothing-here", None, None, status=404, method="get")
    refused(client, "/analyze", None, None, status=405, method="get")


def test_openapi_lists_every_route(client):
    spec = client.get("/openapi.json").json()
    listed = {(m.upper(), path) for path, ops in spec["paths"].items() for m in ops}
    assert ROUTES <= listed
    assert client.get("/docs").status_code == 200


# --- positions and plays ------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", tavli.variants())
def test_new_gives_the_starting_position(client, variant):
    r = post(client, "/new", {"variant": variant, "options": {}})
    assert r == {"position": tavli.Board(variant).to_dict(), "id": tavli.Board(variant).id()}


def test_new_with_options_and_bad_input(client):
    r = post(client, "/new", {"variant": "fevga", "options": {"runner_threshold": 12}})
    assert r["position"]["options"] == {"runner_threshold": 12} and r["id"].startswith("fevga,runner_threshold=12:")
    assert "unknown variant" in refused(client, "/new", {"variant": "chess"}, "variant")
    assert "unknown option" in refused(client, "/new", {"variant": "fevga", "options": {"colour": "red"}}, "options")
    refused(client, "/new", {"variant": "fevga", "options": {"runner_threshold": 14}}, "options")
    refused(client, "/new", {"variant": 5}, "variant")
    refused(client, "/new", {"variant": "fevga", "options": []}, "options")


def test_roll(client):
    for seed in (0, 1, 2**64 - 1):
        assert post(client, "/roll", {"seed": seed}) == {"dice": list(tavli.Rng(seed).roll()), "seed": seed}
    drawn = post(client, "/roll", {})
    assert 0 <= drawn["seed"] < 2**53 and drawn["dice"] == list(tavli.Rng(drawn["seed"]).roll())
    for seed in (-1, 2**64, "7", 1.5, True):
        refused(client, "/roll", {"seed": seed}, "seed")


def test_plays_of_the_backgammon_opening_6_5(client):
    # Backgammon start, 6-5: 24/19 and 6/1 land on Black's points, so die 6 has 24/18, 13/7, 8/2
    # and die 5 has 13/8, 8/3: their six pairs plus 24/13 (13/2 is 13/8 8/2 again).
    board = tavli.Board("backgammon")
    plays = post(client, "/plays", {"position": board.id(), "dice": [6, 5]})["plays"]
    want = expected(board, [[(0, 11)], [(0, 6), (11, 16)], [(0, 6), (16, 21)], [(11, 17), (11, 16)],
                            [(11, 17), (16, 21)], [(16, 22), (11, 16)], [(16, 22), (16, 21)]])
    assert {result_of(board, p["steps"]) for p in plays} == want and len(plays) == 7
    by_dict = post(client, "/plays", {"position": board.to_dict(), "dice": [6, 5]})["plays"]
    assert by_dict == plays
    for p in plays:
        assert p == forms.play_to_dict(board, board.find_play(p["steps"], (6, 5)))


BAD_POSITIONS = {
    "not a position": 5,
    "bad ID": "fevga:@@@",
    "unknown variant": dict(tavli.Board("fevga").to_dict(), variant="chess"),
    "16 checkers": dict(tavli.Board("fevga").to_dict(), off=[1, 0]),
    # from another variant: a Backgammon position with a checker on the bar, labelled Fevga (no
    # hitting in Fevga), and a Plakoto position with a pin, labelled Portes (no pins in Portes)
    "backgammon bar as fevga": dict(make_board("backgammon", {-1: 1, 0: 1, 11: 5, 16: 3, 18: 5},
                                               {0: 2, 11: 5, 16: 3, 18: 5}).to_dict(), variant="fevga"),
    "plakoto pin as portes": dict(make_board("plakoto", {5: 1, 0: 14}, {18: 1, 0: 14}, pinned=((), (18,))).to_dict(),
                                  variant="portes"),
}


@pytest.mark.parametrize("path", ["/plays", "/play", "/move", "/analyze", "/evaluate", "/render"])
def test_bad_positions_and_dice_are_refused_by_every_endpoint(client, path):
    good = {"position": tavli.Board("backgammon").id(), "dice": [6, 5]}
    if path == "/play":
        good["play"] = {"text": "24/13"}
    if path == "/evaluate":
        del good["dice"]
    post(client, path, good)
    for name, position in BAD_POSITIONS.items():
        refused(client, path, dict(good, position=position), "position")
    refused(client, path, {k: v for k, v in good.items() if k != "position"}, "position")
    if path not in ("/evaluate", "/render"):
        for dice in ([7, 1], [0, 1], [6], [6, 5, 4], "65x", [6.0, 5], None):
            refused(client, path, dict(good, dice=dice), "dice")
        refused(client, path, {k: v for k, v in good.items() if k != "dice"}, "dice")
    refused(client, path, dict(good, colour="white"), "colour")  # unknown fields are refused


def test_play_and_its_refusals(client):
    board = tavli.Board("backgammon")
    r = post(client, "/play", {"position": board.id(), "dice": [6, 5], "play": {"steps": [[0, 6], [6, 11]]}})
    after = board.play(board.parse_play("24/13", (6, 5)))
    assert r["position"] == after.to_dict() and r["id"] == after.id() and r["outcome"] is None
    assert r["play"]["text"] == "24/13" and r["play"]["result_id"] == after.id()
    same = post(client, "/play", {"position": board.to_dict(), "dice": [6, 5], "play": {"text": "24/18/13"}})
    assert same == r
    base = {"position": board.id(), "dice": [6, 5]}
    assert "not a legal play" in refused(client, "/play", dict(base, play={"text": "24/12"}), "play")
    refused(client, "/play", dict(base, play={"steps": [[0, 5], [11, 17]]}), "play")  # 24/19 is Black's point
    refused(client, "/play", dict(base, play={"steps": [[0, 6]]}), "play")  # both dice must be used
    refused(client, "/play", dict(base, play={"text": "24/13", "dice": [5, 5]}), "play")  # not this roll
    refused(client, "/play", dict(base, play="24/13"), "play")
    refused(client, "/play", dict(base, play={}), "play")
    refused(client, "/play", base, "play")
    # 6-6: 18/12 would land on Black's 13-point (our 12-point)
    refused(client, "/play", {"position": board.id(), "dice": [6, 6], "play": {"text": "24/18(2) 18/12(2)"}}, "play")


def test_a_whole_fevga_game_over_http(client):
    """/roll with seeds, /plays, then /play with a seeded choice, until /play reports the outcome; the same
    game played on a local board reaches the same positions."""
    choose = tavli.Rng(SEED)
    position = post(client, "/new", {"variant": "fevga"})["position"]
    local = tavli.Board("fevga")
    for ply in range(2000):
        dice = post(client, "/roll", {"seed": SEED + ply})["dice"]
        plays = post(client, "/plays", {"position": position, "dice": dice})["plays"]
        assert len(plays) == len(local.legal_plays(tuple(dice)))
        chosen = plays[choose.below(len(plays))]
        sent = {"steps": chosen["steps"]} if ply % 2 else {"text": chosen["text"]}
        r = post(client, "/play", {"position": position, "dice": dice, "play": sent})
        local.push(local.find_play(chosen["steps"], tuple(dice)))
        assert r["id"] == local.id() and r["play"] == chosen
        position = r["position"]
        if r["outcome"] is not None:
            break
    assert r["outcome"] == local.outcome()._asdict()
    winner = r["outcome"]["winner"]
    # RULES.md: the winner has borne off all 15; 2 points when the loser bore off none, else 1
    off = dict(zip((local.turn, 1 - local.turn), local.off))
    assert off[winner] == 15 and r["outcome"]["points"] == (2 if off[1 - winner] == 0 else 1)
    refused(client, "/plays", {"position": position, "dice": [6, 5]}, "position")  # the game is over
    refused(client, "/move", {"position": position, "dice": [6, 5]}, "position")


# --- the engine's opinion -------------------------------------------------------------------------------------
def test_analyze_move_and_evaluate_equal_the_direct_calls(client):
    board, dice = middle_game("fevga", 24)
    direct = board.analyze(dice, plies=1, time_limit=5.0)
    r = post(client, "/analyze", {"position": board.to_dict(), "dice": list(dice), "plies": 1})
    assert r == json.loads(json.dumps(forms.analysis_to_dict(board, direct)))
    assert len(r["plays"]) == len(board.legal_plays(dice)) and r["plies"] == 1
    top = post(client, "/analyze", {"position": board.id(), "dice": list(dice), "top": 3})
    assert top["plays"] == r["plays"][:3]
    m = post(client, "/move", {"position": board.id(), "dice": list(dice)})
    assert m["play"] == r["plays"][0]["play"] and m["id"] == r["plays"][0]["play"]["result_id"]
    assert m["equity"] == r["plays"][0]["equity"]
    for plies in (0, 2):
        e = post(client, "/evaluate", {"position": board.id(), "plies": plies})
        assert e == json.loads(json.dumps(forms.evaluation_to_dict(board.evaluate(plies=plies, time_limit=5.0))))


@pytest.mark.parametrize("path", ["/move", "/analyze", "/evaluate"])
def test_search_limits(client, path):
    board, dice = middle_game("backgammon")
    base = {"position": board.id()} if path == "/evaluate" else {"position": board.id(), "dice": list(dice)}
    post(client, path, dict(base, plies=0, time_limit=0.5))
    for plies in (4, -1, 1.0, "1", True):
        refused(client, path, dict(base, plies=plies), "plies")
    for seconds in (5.5, 0, -1, "1", None):
        refused(client, path, dict(base, time_limit=seconds), "time_limit")
    if path == "/analyze":
        refused(client, path, dict(base, top=0), "top")


def test_a_time_limit_returns_the_deepest_finished_depth(client):
    board, dice = middle_game("fevga", 25)  # several plays searched to 3 plies (no lone play)
    r = post(client, "/analyze", {"position": board.id(), "dice": list(dice), "plies": 3, "time_limit": 0.001})
    assert r["plies"] < 3 and r["interrupted"] and len(r["plays"]) == len(board.legal_plays(dice))


def test_render(client):
    board = tavli.Board("plakoto")
    r = client.post(API + "/render", json={"position": board.id()})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.lstrip().startswith("<") and 'data-variant="plakoto"' in r.text and "<svg" in r.text
    drawn = client.post(API + "/render", json={"position": board.to_dict(), "dice": [6, 5], "play": {"text": "24/13"},
                                               "viewer": 1, "highlight": [13, 24, "bar"]})
    assert drawn.status_code == 200 and drawn.text.count('class="arrow"') == 2  # one arrow per step
    assert 'data-dice="6-5"' in drawn.text
    refused(client, "/render", {"position": board.id(), "play": {"text": "24/13"}}, "dice")
    refused(client, "/render", {"position": board.id(), "dice": [6, 5], "play": {"text": "24/12"}}, "play")
    refused(client, "/render", {"position": board.id(), "viewer": 2}, "viewer")
    refused(client, "/render", {"position": board.id(), "highlight": [25]}, "highlight")
    refused(client, "/render", {"position": board.id(), "highlight": ["home"]}, "highlight")


def test_simulate_equals_the_direct_call(client):
    r = post(client, "/simulate", {"variant": "plakoto", "games": 60, "players": ["greedy", "random"], "seed": 3})
    direct = tavli.simulate("plakoto", 60, ("greedy", "random"), seed=3)
    w = direct["winner"]
    assert r["wins"] == [int((w == 0).sum()), int((w == 1).sum())]
    assert r["points"] == [int(direct["points"][w == 0].sum()), int(direct["points"][w == 1].sum())]
    assert r["games"] == 60 == sum(r["wins"]) + r["draws"] + r["unfinished"] == sum(r["kinds"].values())
    assert r["mean_plies"] == pytest.approx(float(direct["plies"].mean()))
    assert set(r["kinds"]) <= {"single", "double", "mother", "draw"}  # Plakoto's results (RULES.md)
    opts = post(client, "/simulate", {"variant": "fevga", "options": {"runner_threshold": 12}, "games": 5})
    assert opts["options"] == {"runner_threshold": 12}


def test_simulate_limits(client):
    refused(client, "/simulate", {"variant": "fevga", "games": MAX_SIM_GAMES + 1}, "games")
    refused(client, "/simulate", {"variant": "fevga", "games": 0}, "games")
    refused(client, "/simulate", {"variant": "fevga", "games": MAX_SIM_GAMES // 100 + 1, "players": ["search:1", "random"]},
            "games")
    refused(client, "/simulate", {"variant": "fevga", "games": 10, "players": ["search:4", "random"]}, "players")
    refused(client, "/simulate", {"variant": "fevga", "games": 10, "players": ["random"]}, "players")
    refused(client, "/simulate", {"variant": "chess", "games": 10}, "variant")
    refused(client, "/simulate", {"variant": "fevga", "games": 10, "options": {"mother": "off"}}, "options")
    for name, value in (("max_plies", 10**7), ("trajectories", True), ("threads", 64), ("seed", 1)):
        # simulate's own keyword arguments are not rule options
        refused(client, "/simulate", {"variant": "fevga", "games": 10, "options": {name: value}}, "options")


# --- matches --------------------------------------------------------------------------------------------------
def test_a_tavli_match_over_http(client):
    """Portes, Plakoto, Fevga in turn until one side has 3 points: opening rolls, plays chosen by the
    client (/match/play) and by the engine (/match/move), the record sent back every time."""
    rng = tavli.Rng(SEED)
    state = post(client, "/match/new", {"kind": "tavli", "target": 3})
    assert state["phase"] == "opening" and state["variant"] == "portes" and state["score"] == [0, 0]
    seen, requests = [], 0
    while state["phase"] != "over" and requests < 3000:
        requests += 1
        if state["phase"] == "opening":
            white, black = rng.die(), rng.die()
            nxt = post(client, "/match/opening", {"record": state["record"], "dice": [white, black]})
            # RULES.md §7.3: the higher die starts; a tie rolls again
            assert nxt["phase"] == ("opening" if white == black else "playing")
            if white != black:
                assert nxt["turn"] == (0 if white > black else 1)
            state = nxt
            continue
        if not seen or seen[-1] != state["variant"]:
            seen.append(state["variant"])
        dice = state["forced_dice"] or list(rng.roll())
        if requests % 2:
            plays = post(client, "/plays", {"position": state["position"], "dice": dice})["plays"]
            chosen = plays[rng.below(len(plays))]
            nxt = post(client, "/match/play", {"record": state["record"], "dice": dice, "play": {"steps": chosen["steps"]}})
            assert nxt["play"] == chosen
        else:
            nxt = post(client, "/match/move", {"record": state["record"], "dice": dice, "plies": 0})
        assert nxt["play"]["dice"] == dice
        state = nxt
    assert state["phase"] == "over" and max(state["score"]) >= 3 and state["winner"] == state["score"].index(max(state["score"]))
    cycle = ["portes", "plakoto", "fevga"]  # RULES.md §7.3
    assert len(state["results"]) >= 2 and seen == [cycle[i % 3] for i in range(len(seen))]
    assert [r["variant"] for r in state["results"]] == seen
    assert sum(r["points"] for r in state["results"] if r["winner"] == state["winner"]) == max(state["score"])
    replay = tavli.Match.from_record(state["record"])
    assert list(replay.score) == state["score"] and replay.results == state["results"]
    refused(client, "/match/move", {"record": state["record"], "dice": [6, 5]}, "record")  # the match is over


def test_backgammon_matches_play_the_opening_dice(client):
    state = post(client, "/match/new", {"kind": "backgammon", "target": 1})
    state = post(client, "/match/opening", {"record": state["record"], "dice": [3, 1]})
    assert state["forced_dice"] == [3, 1] and state["turn"] == 0
    refused(client, "/match/move", {"record": state["record"], "dice": [6, 5]}, "dice")
    refused(client, "/match/play", {"record": state["record"], "dice": [6, 5], "play": {"text": "24/13"}}, "play")
    state = post(client, "/match/play", {"record": state["record"], "dice": [3, 1], "play": {"text": "8/5 6/5"}})
    assert state["forced_dice"] is None and state["turn"] == 1


def test_match_refusals(client):
    fresh = post(client, "/match/new", {"kind": "tavli"})
    assert fresh["target"] == KINDS["tavli"][1]
    refused(client, "/match/new", {"kind": "chess"}, "kind")
    refused(client, "/match/new", {"kind": "tavli", "target": 0}, "target")
    refused(client, "/match/new", {"kind": "tavli", "target": 1000}, "target")
    record = fresh["record"]
    refused(client, "/match/play", {"record": record, "dice": [6, 5], "play": {"text": "24/13"}}, "play")  # opening due
    refused(client, "/match/move", {"record": record, "dice": [6, 5]}, "record")
    refused(client, "/match/opening", {"record": record, "dice": [7, 1]}, "dice")
    playing = post(client, "/match/opening", {"record": record, "dice": [6, 1]})
    refused(client, "/match/opening", {"record": playing["record"], "dice": [6, 1]}, "record")  # no opening due
    refused(client, "/match/opening", {"record": dict(record, score=[1, 0]), "dice": [6, 1]}, "record")  # does not replay
    refused(client, "/match/opening", {"record": dict(record, kind="chess"), "dice": [6, 1]}, "record")
    refused(client, "/match/opening", {"record": "tavli", "dice": [6, 1]}, "record")
    refused(client, "/match/opening", {"dice": [6, 1]}, "record")
    game = {"variant": "portes", "opening": [], "starter": None, "turns": []}
    too_long = dict(record, games=[game] * (MAX_MATCH_GAMES + 1))
    assert str(MAX_MATCH_GAMES) in refused(client, "/match/opening", {"record": too_long, "dice": [6, 1]}, "record")


# --- limits and concurrency -----------------------------------------------------------------------------------
def test_oversized_bodies_are_refused_with_413(client):
    board = tavli.Board("backgammon")
    big = {"position": board.id(), "dice": [6, 5], "padding": "x" * MAX_BODY_BYTES}
    refused(client, "/analyze", big, "body", status=413)

    def chunks():  # no Content-Length: counted while reading
        yield b'{"position": "' + b"x" * (MAX_BODY_BYTES // 2)
        yield b"x" * (MAX_BODY_BYTES // 2) + b'", "dice": [6, 5]}'

    r = client.post(API + "/analyze", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["field"] == "body"
    r = client.post(API + "/analyze", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "body"
    r = client.post(API + "/analyze", content=b"[6, 5]", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "body"


def test_concurrent_analyses_equal_sequential_ones(client):
    requests = []
    for i, variant in enumerate(["fevga", "backgammon", "plakoto", "narde"] * 4):
        board, dice = middle_game(variant, 16 + i, seed=SEED + i)
        requests.append({"position": board.id(), "dice": list(dice), "plies": 1})
    sequential = [post(client, "/analyze", body) for body in requests]
    with ThreadPoolExecutor(16) as pool:
        parallel = list(pool.map(lambda body: post(client, "/analyze", body), requests))
    assert parallel == sequential
