"""The record viewer: POST /api/v1/record/open (a match file replayed, with its review) and the
page static/record.html driving it in a real browser (skipped without FastAPI, Playwright or
Chromium, as test_browser.py)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the server needs FastAPI (pip install 'tavli[server]')")

from fastapi.testclient import TestClient  # noqa: E402

import tavli.io as io  # noqa: E402
from tavli.io.record import replay  # noqa: E402
from tavli.server.app import create_app  # noqa: E402

from io_helpers import DATA  # noqa: E402

HAND = DATA / "hand_3pt.mat"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def test_open_returns_every_action_with_its_positions_and_review(client):
    r = client.post("/api/v1/record/open", json={"text": HAND.read_text(), "format": "mat", "review_plies": 0})
    assert r.status_code == 200
    view = r.json()
    rec = io.read(HAND)
    steps = list(replay(rec))
    assert len(view["steps"]) == len(steps) and view["players"] == ["Alice", "Bob"] and view["final_score"] == [1, 3]
    for entry, step in zip(view["steps"], steps):
        assert entry["position"] == step.board.id() and entry["kind"] == step.action.kind
        if step.action.kind == "move":
            assert entry["after"] == step.board.play(step.play).id() and entry["move"] == step.action.move
            assert entry["review"]["played"] == step.action.move
    assert [g["crawford"] for g in view["games"]] == [False, False, True]
    sgf = client.post("/api/v1/record/open", json={"text": io.dumps(rec, "sgf"), "format": "sgf"}).json()
    assert [s["position"] for s in sgf["steps"]] == [s["position"] for s in view["steps"]]
    assert not sgf["reviewed"] and "review" not in sgf["steps"][0]


def test_bad_files_and_requests_are_refused_naming_the_problem(client):
    text = HAND.read_text()
    r = client.post("/api/v1/record/open", json={"text": text[:300], "format": "mat"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "text" and "truncated" in r.json()["error"]["message"]
    r = client.post("/api/v1/record/open", json={"text": text, "format": "doc"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "format"
    r = client.post("/api/v1/record/open", json={"text": text, "review_plies": 7})
    assert r.status_code == 422


def test_a_review_stops_at_the_requests_cpu_budget():
    """A 2-ply review of the hand-made 3-point match (12 plays, 0.7 CPU s here) under a 0.05 s
    budget: a 422 naming review_plies, with how far it got; the file alone still opens."""
    with TestClient(create_app(workers=1, cpu_budget=0.05)) as c:
        r = c.post("/api/v1/record/open", json={"text": HAND.read_text(), "format": "mat", "review_plies": 2})
        assert r.status_code == 422, r.text
        err = r.json()["error"]
        assert err["field"] == "review_plies" and "CPU budget" in err["message"] and "tavli review" in err["message"]
        assert c.post("/api/v1/record/open", json={"text": HAND.read_text(), "format": "mat"}).status_code == 200


try:  # test_browser's fixtures (a live server, Chromium); without Playwright only the API is tested
    import playwright.sync_api  # noqa: F401
except ImportError:
    CHROMIUM = None
else:
    from test_browser import CHROMIUM, TIMEOUT_MS, browser, server_url  # noqa: E402,F401


@pytest.mark.skipif(CHROMIUM is None, reason="needs Playwright and a Chromium binary")
def test_viewer_in_browser(browser, server_url, tmp_path):  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{server_url}/")
    pg.click('[data-testid="open-record"]')
    pg.wait_for_selector("#file")
    pg.set_input_files("#file", str(HAND))
    pg.wait_for_selector('#board[data-step="0"] svg')
    n = len(list(replay(io.read(HAND))))
    assert pg.locator("#steps li").count() == n
    pg.click("#next")
    pg.wait_for_selector('#board[data-step="1"] svg')
    pg.click("#next")
    pg.wait_for_selector('#board[data-step="2"] svg')
    text = pg.inner_text("#review-box")
    assert "Alice rolls 62: 13/7*/5" in text and "millipoints" in text
    assert pg.locator("#board .arrow").count() == 2  # 13/7*, 7/5
    pg.keyboard.press("ArrowLeft")
    pg.wait_for_selector('#board[data-step="1"] svg')
    bad = tmp_path / "bad.mat"
    bad.write_text(HAND.read_text()[:300])
    pg.set_input_files("#file", str(bad))
    pg.wait_for_selector("#error:not([hidden])")
    assert "truncated" in pg.inner_text("#error")
    context.close()
    assert not errors, errors


def test_save_turns_a_match_of_the_page_into_a_file(client):
    m = client.post("/api/v1/match/new", json={"kind": "backgammon", "target": 1}).json()
    rec = m["record"]
    for fmt in ("mat", "sgf"):
        r = client.post("/api/v1/record/save", json={"record": rec, "format": fmt})
        assert r.status_code == 422 and "no finished game" in r.json()["error"]["message"]
    r = client.post("/api/v1/record/save", json={"record": rec, "format": "json"})
    assert json.loads(r.json()["text"]) == rec  # tavli's own match record, in progress, as it is
    rec2 = io.to_dict(io.read(HAND))
    r = client.post("/api/v1/record/save", json={"record": rec2, "format": "mat"})
    assert io.loads(r.json()["text"], "mat") == io.read(HAND)
    bad = dict(rec2, length=0)
    r = client.post("/api/v1/record/save", json={"record": bad, "format": "mat"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "record"
    plak = client.post("/api/v1/match/new", json={"kind": "plakoto", "target": 1}).json()["record"]
    r = client.post("/api/v1/record/save", json={"record": plak, "format": "sgf"})
    assert r.status_code == 422 and "backgammon only" in r.json()["error"]["message"]


@pytest.mark.skipif(CHROMIUM is None, reason="needs Playwright and a Chromium binary")
def test_the_main_page_saves_a_match(browser, server_url):  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    pg.goto(f"{server_url}/")
    pg.wait_for_selector('#board[data-busy="false"]')
    assert not pg.is_visible("#save")  # a single game keeps no record
    pg.select_option("#variant", "match:backgammon")
    pg.click("#new-game")
    pg.wait_for_selector('#board[data-busy="false"][data-phase="opening"], #board[data-busy="false"][data-phase="roll"]')
    assert pg.is_visible("#save")
    pg.select_option("#save-format", "json")
    with pg.expect_download() as dl:
        pg.click("#save")
    saved = json.loads(open(dl.value.path()).read())
    assert saved["format"] == "tavli.match" and saved["kind"] == "backgammon"
    pg.select_option("#save-format", "mat")
    pg.click("#save")
    pg.wait_for_selector("#error:not([hidden])")
    assert "no finished game" in pg.inner_text("#error")
    context.close()
