"""The web page in a real browser: the server (uvicorn, tavli.server.create_app) on 127.0.0.1 and
Chromium driven by Playwright. A person's clicks play Fevga and Plakoto against the engine; the
position the page ends at must be the one the same plays give through the Python API, the board
drawing must hold the checkers of that position, the hint table must list the engine's top plays
with their equities, and a server error must reach the page.

Skips unless Playwright (Python) is installed and a Chromium binary is on the system: nothing is
downloaded (no `playwright install`); Debian's `chromium` package is what CI uses.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

import tavli
from server_helpers import running_server

pytest.importorskip("fastapi", reason="the server needs FastAPI (pip install 'tavli[server]')")
uvicorn = pytest.importorskip("uvicorn", reason="the server needs uvicorn (pip install 'tavli[server]')")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser test needs Playwright (pip install playwright)")

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
TIMEOUT_MS = 20_000  # the longest any single wait may take (engine replies are 0-ply here)
SEED = 20261130
SEED_STRIDE = 1_000_000  # the page's documented rule: roll k of a game uses seed N * 1,000,000 + k
OFF = 24
BAR = -1


def _chromium() -> str | None:
    for path in CHROMIUM_CANDIDATES:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = _chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium binary found (looked for " + ", ".join(CHROMIUM_CANDIDATES) + ")")


# --- fixtures ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server_url():
    from tavli.server.app import create_app

    with running_server(create_app()) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


# --- driving the page ----------------------------------------------------------------------------
def wait_idle(pg, phase: str | None = None) -> None:
    """Waits until no request is in flight (and the page is in `phase`), failing on a shown error."""
    selector = '#board[data-busy="false"]' + (f'[data-phase="{phase}"]' if phase else "")
    pg.wait_for_selector(f'{selector}, #error:not([hidden])')
    if pg.is_visible("#error"):
        pytest.fail(f"the page shows an error: {pg.inner_text('#error')}")


def rolled(k: int, seed: int = SEED) -> tuple[int, int]:
    """Roll k of a game under ?seed=, as the page shows it: high die first."""
    return tuple(sorted(tavli.Rng(seed * SEED_STRIDE + k).roll(), reverse=True))


# The games whose opening roll is the starter's first roll (RULES.md D-OPENING); in the others the
# starter rolls both dice again.
OPENING_DICE = {"backgammon", "nackgammon", "hypergammon"}


def opening(seed: int = SEED) -> tuple[int, int, tuple[int, int]]:
    """The opening of a single game by the rule book: one die each (White's, Black's), ties again.
    (rolls used, the starter 0/1, the two dice high first)."""
    k = 0
    while True:
        white, black = tavli.Rng(seed * SEED_STRIDE + k).roll()
        k += 1
        if white != black:
            return k, 0 if white > black else 1, (max(white, black), min(white, black))


def black_to_move(board: tavli.Board) -> tavli.Board:
    """The starting position with Black to move (the engine won the opening roll)."""
    d = board.to_dict()
    d.update(turn=1, mover=d["opponent"], opponent=d["mover"])
    for pair in ("bar", "off", "pinned", "first_turn"):
        if pair in d:
            d[pair] = d[pair][::-1]
    return tavli.Board.from_dict(d)


def start(pg, url: str, variant: str, plies: int = 0, seed: int = SEED) -> None:
    """A new single game, through its opening roll (the engine's first play too, if it starts)."""
    pg.goto(f"{url}/?seed={seed}")
    wait_idle(pg)
    pg.select_option("#variant", variant)
    pg.select_option("#strength", str(plies))
    pg.click("#new-game")
    wait_idle(pg, "opening")
    while pg.get_attribute("#board", "data-phase") == "opening":
        pg.click("#roll")
        wait_idle(pg)


def page_dice(pg) -> tuple[int, int]:
    a, b = pg.get_attribute("#board", "data-dice").split("-")
    return int(a), int(b)


def region(route: int) -> str:
    """The board region of White's route index (White moves: point 24 - r, the bar, White's tray)."""
    if route == BAR:
        return '#board g[data-point="bar"]'
    if route == OFF:
        return '#board g[data-point="off"][data-side="0"]'
    return f'#board g[data-point="{24 - route}"]'


def click_play(pg, play: tavli.Play) -> None:
    """Clicks the play's steps one by one (source, then target) until the page submits it."""
    if not len(play):
        pg.click("#play-only")  # a pass: the page offers its only play as a button
        wait_idle(pg)
        return
    for frm, to in play.steps:
        for route in (frm, to):
            pg.click(region(route))
            wait_idle(pg)
        if pg.get_attribute("#board", "data-phase") != "move":
            return  # the steps so far fit only this play: the page made it
    pytest.fail(f"the page did not make the play {play} after all its steps")


def log_entries(pg) -> list[dict]:
    return pg.eval_on_selector_all(
        "#log li[data-player]",
        "els => els.map(e => ({player: +e.dataset.player, dice: e.dataset.dice, steps: JSON.parse(e.dataset.steps)}))",
    )


def white_frame_counts(board: tavli.Board) -> tuple[list[int], list[int]]:
    """Checkers per point number 1..24 (index N - 1) from White's side, by the rule book's frames:
    White's route r is point 24 - r; Black's route r' faces White's (r' + 12) % 24 in the
    parallel games and 23 - r' in the contrary ones (README, Frames)."""
    d = board.to_dict()
    white, black = (d["mover"], d["opponent"]) if board.turn == 0 else (d["opponent"], d["mover"])
    parallel = board.variant in ("fevga", "moultezim", "narde", "jacquet")
    w, b = [0] * 24, [0] * 24
    for r in range(24):
        w[(24 - r) - 1] += white[r]
        rw = (r + 12) % 24 if parallel else 23 - r
        b[(24 - rw) - 1] += black[r]
    return w, b


def svg_counts(pg) -> tuple[list[int], list[int]]:
    """Checkers per point as drawn: circles of each colour, or the count a full stack is labelled with."""
    return tuple(
        pg.eval_on_selector_all(
            "#board svg g.point",
            """(groups, colour) => {
                 const out = new Array(24).fill(0);
                 for (const g of groups) {
                   const label = g.querySelector(`text.count.${colour}`);
                   const n = label ? Number(label.textContent) : g.querySelectorAll(`circle.checker.${colour}`).length;
                   out[Number(g.dataset.point) - 1] = n;
                 }
                 return out;
               }""",
            colour,
        )
        for colour in ("white", "black")
    )


def play_turns(pg, variant: str, turns: int) -> tavli.Board:
    """Plays `turns` of the person's turns (each followed by the engine's reply) by clicking, and
    checks every roll and the page's position against a replay through the Python API."""
    board = tavli.Board(variant)
    rolls, starter, opening_dice = opening()
    if starter == 1:  # the engine's opening play, in the log before the person's first roll
        board = black_to_move(board)
        engine = log_entries(pg)[0]
        engine_dice = tuple(int(x) for x in engine["dice"].split("-"))
        if variant in OPENING_DICE:
            assert engine_dice == opening_dice
        else:
            assert engine_dice == rolled(rolls)
            rolls += 1
        board.push(board.find_play(engine["steps"], engine_dice))
    for turn in range(turns):
        if turn == 0 and starter == 0 and variant in OPENING_DICE:
            wait_idle(pg, "move")  # the person plays the opening dice
            assert page_dice(pg) == opening_dice
        else:
            pg.click("#roll")
            wait_idle(pg, "move")
            assert page_dice(pg) == rolled(rolls), "the page's dice do not follow ?seed="
            rolls += 1
        dice = page_dice(pg)
        assert pg.get_attribute("#board", "data-id") == board.id()
        plays = board.legal_plays(dice)
        mine = max(plays, key=len)  # the play with the most steps: the most clicking
        click_play(pg, mine)
        wait_idle(pg)
        board.push(mine)
        entries = log_entries(pg)
        assert entries[-2] == {"player": 0, "dice": f"{dice[0]}-{dice[1]}", "steps": [list(s) for s in mine.steps]}
        if board.is_game_over():
            break
        engine = entries[-1]
        assert engine["player"] == 1
        engine_dice = tuple(int(x) for x in engine["dice"].split("-"))
        assert engine_dice == rolled(rolls)
        rolls += 1
        board.push(board.find_play(engine["steps"], engine_dice))  # raises unless legal here
        assert pg.get_attribute("#board", "data-id") == board.id()
    return board


# --- tests ---------------------------------------------------------------------------------------
def test_fevga_then_plakoto_by_clicking(page, server_url):
    pg = page
    pg.goto(f"{server_url}/?seed={SEED}")
    wait_idle(pg)
    pg.select_option("#variant", "fevga")
    pg.click("#new-game")
    wait_idle(pg, "opening")
    # The start as the rule book sets it (RULES.md §1.2, §6.1): 15 White checkers on White's
    # point 24 (r0) and 15 Black ones on Black's r0, which is White's r12: point 12.
    w, b = svg_counts(pg)
    assert (w[23], sum(w), b[11], sum(b)) == (15, 15, 15, 15)
    start(pg, server_url, "fevga")

    board = play_turns(pg, "fevga", 3)
    pg.click("#roll")  # the person's next roll shows the position itself (no arrows)
    wait_idle(pg, "move")
    assert pg.get_attribute("#board", "data-id") == board.id()
    assert pg.get_attribute("#board svg", "data-id") == board.id()
    w, b = svg_counts(pg)
    assert (w, b) == white_frame_counts(board)
    assert sum(w) == 15 and sum(b) == 15  # Fevga has no hitting, and nobody bears off in 4 turns

    # Undo takes back the last turn pair: the position before the person's last play, same dice.
    before_last = board.copy()
    before_last.pop()
    before_last.pop()
    dice_before = pg.eval_on_selector_all("#log li[data-player='0']", "els => els.map(e => e.dataset.dice)")[-1]
    pg.click("#undo")
    wait_idle(pg, "move")
    assert pg.get_attribute("#board", "data-id") == before_last.id()
    assert pg.get_attribute("#board", "data-dice") == dice_before

    # Plakoto: contrary movement, so Black's r0 is White's r23, point 1 (RULES.md §1.2, §5.1).
    pg.select_option("#variant", "plakoto")
    pg.click("#new-game")
    wait_idle(pg, "opening")
    w, b = svg_counts(pg)
    assert (w[23], sum(w), b[0], sum(b)) == (15, 15, 15, 15)
    start(pg, server_url, "plakoto")
    board = play_turns(pg, "plakoto", 3)
    pg.click("#roll")
    wait_idle(pg, "move")
    assert pg.get_attribute("#board", "data-id") == board.id()
    w, b = svg_counts(pg)
    assert (w, b) == white_frame_counts(board)
    assert sum(w) == 15 and sum(b) == 15  # pinned checkers are drawn too (class "pinned")

    # The hint: the engine's top plays for this roll at the chosen strength (0 plies), best first.
    dice = page_dice(pg)
    pg.click("#hint")
    wait_idle(pg)
    assert pg.is_visible("#hints")
    rows = pg.eval_on_selector_all(
        "#hints tbody tr", "rows => rows.map(r => ({play: r.dataset.play, equity: Number(r.dataset.equity), "
        "shown: r.cells[2].textContent}))"
    )
    legal = board.legal_plays(dice)
    assert len(rows) == min(5, len(legal))
    equities = [r["equity"] for r in rows]
    assert equities == sorted(equities, reverse=True)
    for r in rows:
        board.parse_play(r["play"], dice)  # every hinted play is legal here
        assert float(r["shown"]) == pytest.approx(r["equity"], abs=5e-4)
    expected = board.analyze(dice, plies=0)[: len(rows)]
    assert [r["play"] for r in rows] == [a.play.text for a in expected]
    assert equities == pytest.approx([a.equity for a in expected], abs=1e-6)


def test_tavli_match_opening_and_turns(page, server_url):
    """A Greek Tavli match: the opening roll (one die each, ties again), then the person's and the
    engine's turns of Portes, replayed through tavli.Match from the page's move list."""
    pg = page
    pg.goto(f"{server_url}/?seed={SEED}")
    wait_idle(pg)
    pg.select_option("#variant", "match:tavli")
    pg.fill("#target", "3")
    pg.select_option("#strength", "0")
    pg.click("#new-game")
    wait_idle(pg, "opening")
    assert "Portes" in pg.inner_text("#status")  # RULES.md §7.3: a Tavli match opens with Portes
    match = tavli.Match("tavli", target=3)
    rolls = 0
    while match.phase == "opening":
        pg.click("#roll")
        wait_idle(pg)
        match.roll_opening(*tavli.Rng(SEED * SEED_STRIDE + rolls).roll())  # white die, black die
        rolls += 1
    replayed = 0
    for _ in range(2):
        wait_idle(pg, "roll")
        pg.click("#roll")
        wait_idle(pg, "move")
        for e in log_entries(pg)[replayed:]:  # the engine's opening play, if it started
            match.play(match.board.find_play(e["steps"], tuple(int(x) for x in e["dice"].split("-"))))
            replayed += 1
        assert match.board.turn == 0
        dice = page_dice(pg)
        click_play(pg, max(match.board.legal_plays(dice), key=len))
        wait_idle(pg)
        for e in log_entries(pg)[replayed:]:
            match.play(match.board.find_play(e["steps"], tuple(int(x) for x in e["dice"].split("-"))))
            replayed += 1
        assert pg.get_attribute("#board", "data-id") == match.board.id()
    assert match.phase == "playing" and match.board.variant == "portes"
    assert pg.get_attribute("#score", "data-score") == "0-0"


def test_server_errors_are_shown(page, server_url):
    pg = page
    start(pg, server_url, "portes")
    pg.click("#roll")
    wait_idle(pg, "move")
    body = json.dumps({"error": {"field": "dice", "message": "a refusal made up by the test"}})
    pg.route("**/api/v1/analyze", lambda route: route.fulfill(status=422, body=body, content_type="application/json"))
    pg.click("#hint")
    pg.wait_for_selector("#error:not([hidden])")
    text = pg.inner_text("#error")
    assert "dice: a refusal made up by the test" in text and "422" in text
    assert pg.get_attribute("#board", "data-phase") == "move"  # the game goes on

    # The engine's reply fails once: the error shows, and the Roll button asks the engine again.
    pg.unroute("**/api/v1/analyze")
    refusal = json.dumps({"error": {"field": "position", "message": "the engine is unwell"}})
    pg.route("**/api/v1/move", lambda route: route.fulfill(status=500, body=refusal, content_type="application/json"))
    if pg.is_visible("#play-only"):
        pg.click("#play-only")
    else:  # the hint table's Play button makes the engine's best play
        pg.click("#hint")
        wait_idle(pg)
        pg.click("#hints tbody tr:first-child button")
    pg.wait_for_selector("#error:not([hidden])")
    assert "the engine is unwell" in pg.inner_text("#error")
    pg.wait_for_selector('#board[data-busy="false"][data-phase="engine"]')
    assert pg.inner_text("#roll") == "Engine: try again"
    pg.unroute("**/api/v1/move")
    pg.click("#roll")
    wait_idle(pg, "roll")
    starter = opening()[1]
    assert [e["player"] for e in log_entries(pg)] == [1] * starter + [0, 1]  # after the engine's opening play


def test_bad_seed_in_the_address_is_reported(page, server_url):
    pg = page
    pg.goto(f"{server_url}/?seed=banana")
    pg.wait_for_selector('#board[data-busy="false"]')
    assert "seed" in pg.inner_text("#error") and not pg.is_hidden("#error")
    assert pg.get_attribute("#board", "data-phase") == "opening"  # still playable, with random dice


# --- the doubling cube (money play) ---------------------------------------------------------------
def cube_shown(pg) -> tuple[str, str, str | None, str | None]:
    """(the page's cube value and owner, the SVG cube's value and owner)."""
    info = (pg.get_attribute("#cube-info", "data-value"), pg.get_attribute("#cube-info", "data-owner"))
    return info + (pg.get_attribute("#board svg g.cube", "data-value"), pg.get_attribute("#board svg g.cube", "data-owner"))


def test_the_person_doubles_at_the_start_and_the_engine_takes(page, server_url, tmp_path):
    """After the opening play a double is an easy take (the doubler wins about half the games):
    the engine takes, and the cube goes to it at 2, drawn at its (top) end. (Backgammon's opening
    roll is the starter's first roll, so nobody can double before it: here the engine starts.)"""
    assert opening()[1] == 1
    moves: list[dict] = []  # the engine's /move requests: with the cube, its plays ranked cubefully
    page.on("request", lambda r: moves.append(json.loads(r.post_data or "{}")) if r.url.endswith("/api/v1/move") else None)
    start(page, server_url, "backgammon")
    wait_idle(page, "roll")
    assert moves and all(m["eval_mode"] == "cubeful" and m["cube"] == {"value": 1, "owner": None} and "match" not in m
                         for m in moves), moves
    assert cube_shown(page) == ("1", "centre", "1", "centre")
    assert page.text_content("#board svg g.cube text") == "64"  # a centred cube shows 64, as boards do
    assert page.is_enabled("#double") and not page.is_visible("#take")
    page.click("#double")
    wait_idle(page, "roll")
    assert cube_shown(page) == ("2", "1", "2", "black")
    assert "the engine takes" in page.inner_text("#log")
    assert not page.is_enabled("#double")  # the engine owns the cube now
    page.screenshot(path=str(tmp_path / "cube-taken.png"))
    if os.environ.get("TAVLI_SCREENSHOTS"):
        page.screenshot(path=os.path.join(os.environ["TAVLI_SCREENSHOTS"], "cube-taken.png"))


@pytest.mark.parametrize("answer", ["take", "pass"])
def test_the_engine_doubles_a_sure_win_and_the_person_answers(page, server_url, answer):
    """A last-roll race the engine (Black, to move) wins on any roll: one checker on its 1-point.
    The engine doubles before rolling; a pass loses 1 point, a take loses 2 when it bears off."""
    board, _, _ = tavli.parse_position("XGID=-A----------------------a-:0:0:-1:00:0:0:0:0:10")
    assert board.turn == 1
    body = json.dumps({"position": board.to_dict(), "id": board.id()})
    page.route("**/api/v1/new", lambda route: route.fulfill(status=200, content_type="application/json", body=body))
    page.goto(f"{server_url}/?seed={SEED}")
    wait_idle(page)
    page.select_option("#variant", "backgammon")
    page.select_option("#strength", "0")
    page.click("#new-game")
    wait_idle(page, "answer")
    assert "doubles to 2" in page.inner_text("#status") and page.is_visible("#take") and page.is_visible("#pass")
    if os.environ.get("TAVLI_SCREENSHOTS"):
        page.screenshot(path=os.path.join(os.environ["TAVLI_SCREENSHOTS"], f"cube-offered-{answer}.png"))
    page.click(f"#{answer}")
    wait_idle(page, "over")
    status = page.inner_text("#status")
    if answer == "take":
        assert cube_shown(page)[:2] == ("2", "0")
        assert "The engine wins 2 points" in status
    else:
        assert "The engine wins 1 point (pass)" in status


def test_a_match_with_the_cube_scores_the_cube_and_keeps_the_crawford_rule(page, server_url):
    """A 3-point match with the cube, every game starting from the sure win of the engine above:
    game 1 the engine doubles, the person takes and loses 2 (0-2, the engine one away); game 2 is
    the Crawford game: no double, the engine wins 1 and the match 3-0 (0-3 from White's side)."""
    board, _, _ = tavli.parse_position("XGID=-A----------------------a-:0:0:-1:00:0:0:0:0:10")
    body = json.dumps({"position": board.to_dict(), "id": board.id()})
    cube_requests: list[dict] = []
    move_requests: list[dict] = []
    page.route("**/api/v1/new", lambda route: route.fulfill(status=200, content_type="application/json", body=body))
    page.on("request", lambda r: cube_requests.append(json.loads(r.post_data)) if r.url.endswith("/api/v1/cube") else None)
    page.on("request", lambda r: move_requests.append(json.loads(r.post_data)) if r.url.endswith("/api/v1/move") else None)
    page.goto(f"{server_url}/?seed={SEED}")
    wait_idle(page)
    page.select_option("#variant", "cubematch:backgammon")
    page.fill("#target", "3")
    page.select_option("#strength", "0")
    cube_requests.clear()  # the page's first game (its default choice) got the same position
    page.click("#new-game")
    wait_idle(page, "answer")
    page.click("#take")
    wait_idle(page, "next")
    assert page.get_attribute("#score", "data-score") == "0-2"
    assert "Crawford" in page.inner_text("#score")
    page.click("#roll")  # "Next game"
    wait_idle(page, "over")
    assert "Match over: the engine wins 0–3" in page.inner_text("#status")
    assert page.get_attribute("#score", "data-score") == "0-3"
    # one cube question, in game 1 at 0-0 of 3; none in the Crawford game
    assert [r.get("match") for r in cube_requests] == [{"length": 3, "score": [0, 0], "crawford": False}]
    # the engine's plays ranked cubefully at the score: 0-0 with the cube at 2 it took, then Crawford
    assert [(r["eval_mode"], r["cube"]["value"], r["match"]["score"], r["match"]["crawford"]) for r in move_requests] \
        == [("cubeful", 2, [0, 0], False), ("cubeful", 1, [0, 2], True)], move_requests
