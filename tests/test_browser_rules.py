"""The web page plays by the rule book (issue 17, item 6), in Chromium: a single game opens with
one die each (ties again; the starter plays those dice where the game says so, else rolls again);
a checker on the bar must enter first; the engine's moves are written in White's point numbers,
the ones the board shows; dice are shown high die first; pip counts are shown. Each test saves a
screenshot (to $TAVLI_SCREENSHOTS too, when set) and checks that it is a real picture of the page.

Expected values come from the rule book (RULES.md §1.1 frames, D-OPENING) and positions checked by hand.
"""

from __future__ import annotations

import json
import os
import re
import struct
import zlib

import pytest

import tavli

from test_browser import (  # noqa: F401 (fixtures)
    SEED, black_to_move, browser, log_entries, opening, page, region, rolled, server_url, wait_idle,
    white_frame_counts,
)

BACKGAMMON_START_PIPS = 167  # 2*24 + 5*13 + 3*8 + 5*6, each side


def checked_screenshot(pg, tmp_path, name: str) -> None:
    """A screenshot of the page: a PNG of the viewport's size whose pixels are not all one colour."""
    path = tmp_path / name
    pg.screenshot(path=str(path))
    if os.environ.get("TAVLI_SCREENSHOTS"):
        pg.screenshot(path=os.path.join(os.environ["TAVLI_SCREENSHOTS"], name))
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1280, 900)
    idat, at = b"", 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(idat)
    assert len(set(raw[::97])) > 16  # a blank page would have a handful of byte values


def new_game(pg, url: str, variant: str, seed: int = SEED, side: str = "0", query: str = "") -> None:
    """A new single game at 0 plies, waiting for its opening roll; side "0", "1" or "both"; `query`
    more of the address (such as "&lang=el")."""
    pg.goto(f"{url}/?seed={seed}{query}")
    wait_idle(pg)
    pg.select_option("#variant", variant)
    pg.select_option("#side", side)
    pg.select_option("#strength", "0")
    pg.click("#new-game")
    wait_idle(pg, "opening")


def opening_lines(pg) -> list[str]:
    return [t for t in pg.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)") if t.startswith("Opening")]


def shown_move_text(pg, index: int) -> tuple[str, str]:
    """(the text the log shows for move `index`, the mover's own notation)."""
    li = pg.query_selector_all("#log li[data-player]")[index]
    return li.text_content().split(" ", 3)[-1], li.get_attribute("data-text")


def test_backgammon_opening_tie_then_the_person_plays_the_opening_dice(page, server_url, tmp_path):
    # Seed 42: the first roll is 3 and 3 (a tie, roll again), the second White 5, Black 1: White
    # starts and, in backgammon, plays that 5-1 (gnubg; RULES.md D-OPENING): no roll, no double.
    assert tavli.Rng(42 * 1_000_000).roll() == (3, 3) and tavli.Rng(42 * 1_000_000 + 1).roll() == (5, 1)
    pg = page
    new_game(pg, server_url, "backgammon", 42)
    assert "roll one die each" in pg.inner_text("#status")
    assert pg.get_attribute("#pips", "data-white") == pg.get_attribute("#pips", "data-black") == str(BACKGAMMON_START_PIPS)
    pg.click("#roll")
    wait_idle(pg, "opening")
    pg.click("#roll")
    wait_idle(pg, "move")
    assert opening_lines(pg) == ["Opening roll: you 3, engine 3 — a tie: roll again",
                                 "Opening roll: you 5, engine 1 — you start"]
    assert pg.get_attribute("#board", "data-dice") == "5-1"
    assert not pg.is_enabled("#double")
    checked_screenshot(pg, tmp_path, "opening-you-start.png")


def test_portes_opening_the_engine_starts_and_rolls_again(page, server_url, tmp_path):
    # Seed 1: 4 and 4 (a tie), then White 2, Black 6: the engine starts, and in Portes the starter
    # throws both dice again (RULES.md D-OPENING): its first play uses roll 2, not the 6-2.
    rolls, starter, _ = opening(1)
    assert (rolls, starter) == (2, 1)
    pg = page
    new_game(pg, server_url, "portes", 1)
    pg.click("#roll")
    wait_idle(pg, "opening")
    pg.click("#roll")
    wait_idle(pg, "roll")
    assert opening_lines(pg)[-1] == "Opening roll: you 2, engine 6 — the engine starts"
    (engine,) = log_entries(pg)
    dice = rolled(2, 1)
    assert engine["player"] == 1 and engine["dice"] == f"{dice[0]}-{dice[1]}"
    before = black_to_move(tavli.Board("portes"))
    play = before.find_play(engine["steps"], dice)  # legal for Black from the start
    shown, own = shown_move_text(pg, 0)
    assert own == play.text
    # Portes moves contrary: Black's point n is White's 25 - n (RULES.md §1.1). Every source the
    # text names holds a Black checker on the board as drawn from White's side.
    assert shown == re.sub(r"(^|[ /])(\d+)", lambda m: m.group(1) + str(25 - int(m.group(2))), own)
    black_at = white_frame_counts(before)[1]
    for token in shown.split():
        source = token.split("/")[0]
        assert black_at[int(source) - 1] > 0, (shown, token)
    after = before.play(play)
    assert pg.get_attribute("#board", "data-id") == after.id()
    checked_screenshot(pg, tmp_path, "opening-engine-starts.png")


def test_fevga_engine_moves_in_white_numbers_and_dice_high_first(page, server_url):
    # The test seed's first roll is White 1, Black 5: the engine starts; its roll is 4 then 5, shown
    # 5-4. Fevga moves parallel: all of Black's checkers start on its point 24, White's point 12
    # (RULES.md §6.1), so its play's first source reads 12 from White's side.
    assert tavli.Rng(SEED * 1_000_000).roll() == (1, 5) and tavli.Rng(SEED * 1_000_000 + 1).roll() == (4, 5)
    pg = page
    new_game(pg, server_url, "fevga", SEED)
    pg.click("#roll")
    wait_idle(pg, "roll")
    (engine,) = log_entries(pg)
    assert engine["dice"] == "5-4"
    shown, own = shown_move_text(pg, 0)
    assert own.startswith("24/") and shown.startswith("12/")
    # Black's route r' is White's (r' + 12) % 24 in Fevga: its point n (r' = 24 - n) is White's point
    # 24 - (36 - n) % 24: 24 -> 12, 19 -> 7, 15 -> 3.
    white = {24: 12, 20: 8, 19: 7, 15: 3}
    for n_own, n_shown in zip(re.findall(r"\d+", own), re.findall(r"\d+", shown)):
        assert white.get(int(n_own), int(n_shown)) == int(n_shown)
    assert f"The engine played {shown} with 5-4" in pg.inner_text("#status")


def test_with_a_checker_on_the_bar_only_entering_is_offered(page, server_url, tmp_path):
    # Backgammon's start with one White checker moved from the 6-point to the bar: no opening roll
    # (a set-up position), the first roll 5-1 (seed). Entering comes first (every rule book), so
    # the bar is the only source offered, and a click on the 13-point is refused.
    d = tavli.Board("backgammon").to_dict()
    d["mover"][18] -= 1
    d["bar"] = [1, 0]
    board = tavli.Board.from_dict(d)
    body = json.dumps({"position": board.to_dict(), "id": board.id()})
    pg = page
    pg.route("**/api/v1/new", lambda route: route.fulfill(status=200, content_type="application/json", body=body))
    pg.goto(f"{server_url}/?seed={SEED}")
    wait_idle(pg, "roll")
    # 167 - 6 + 25: the checker from the 6-point now has the whole way to go.
    assert pg.get_attribute("#pips", "data-white") == "186" and pg.get_attribute("#pips", "data-black") == "167"
    pg.click("#roll")
    wait_idle(pg, "move")
    assert pg.get_attribute("#board", "data-dice") == "5-1"
    assert pg.eval_on_selector_all("#board svg g.point", "gs => gs.filter(g => g.querySelector('.highlight-mark')).length") == 0
    assert "highlight" in pg.get_attribute(region(-1), "class")
    # Some legal play moves a checker from the 13-point too: the click must still be refused.
    assert any(s[0] == 11 for p in board.legal_plays((5, 1)) for s in p.steps)
    pg.click(region(11))
    wait_idle(pg, "move")
    assert "No legal step starts at 13" in pg.inner_text("#status")
    pg.click(region(-1))
    wait_idle(pg, "move")
    targets = pg.eval_on_selector_all("#board svg g.point", "gs => gs.filter(g => g.querySelector('.highlight-mark')).map(g => +g.dataset.point)")
    assert sorted(targets) == [20, 24]  # enter with the 5 (point 20) or the 1 (point 24)
    checked_screenshot(pg, tmp_path, "bar-first.png")


def click_max_play(pg, board: tavli.Board, dice: tuple[int, int]) -> tavli.Play:
    from test_browser import click_play

    play = max(board.legal_plays(dice), key=len)
    click_play(pg, play)
    wait_idle(pg)
    return play


def test_the_person_plays_black(page, server_url, tmp_path):
    # The test seed's opening is White 1, Black 5: as Black the person starts; Portes re-rolls, so
    # the person's first roll is roll 1 (4-5, shown 5-4). The board is drawn from Black's side.
    pg = page
    new_game(pg, server_url, "portes", side="1")
    pg.click("#roll")
    wait_idle(pg, "roll")
    assert opening_lines(pg) == ["Opening roll: engine 1, you 5 — you start"]
    board = black_to_move(tavli.Board("portes"))
    pg.click("#roll")
    wait_idle(pg, "move")
    assert pg.get_attribute("#board", "data-dice") == "5-4"
    assert pg.get_attribute("#board svg", "data-viewer") == "1"
    mine = click_max_play(pg, board, (5, 4))
    board.push(mine)
    wait_idle(pg, "roll")
    entries = log_entries(pg)
    assert [e["player"] for e in entries] == [1, 0]  # the person (Black), then the engine (White)
    board.push(board.find_play(entries[1]["steps"], tuple(int(x) for x in entries[1]["dice"].split("-"))))
    assert pg.get_attribute("#board", "data-id") == board.id()
    assert "Your turn" in pg.inner_text("#status")
    checked_screenshot(pg, tmp_path, "playing-black.png")


def test_two_people_on_one_screen(page, server_url, tmp_path):
    # Both sides by clicks, the engine never asked for a move: Black starts (the seed's opening),
    # then White, then Black again, each on its own roll; the page's position is the replay's.
    moves: list[str] = []
    pg = page
    pg.on("request", lambda r: moves.append(r.url) if r.url.endswith("/api/v1/move") else None)
    new_game(pg, server_url, "fevga", side="both")
    pg.click("#roll")
    wait_idle(pg, "roll")
    assert opening_lines(pg) == ["Opening roll: White 1, Black 5 — Black starts"]
    assert "Black's turn" in pg.inner_text("#status")
    board = black_to_move(tavli.Board("fevga"))
    for k in (1, 2, 3):
        pg.click("#roll")
        wait_idle(pg, "move")
        dice = rolled(k)
        assert pg.get_attribute("#board", "data-dice") == f"{dice[0]}-{dice[1]}"
        board.push(click_max_play(pg, board, dice))
        wait_idle(pg, "roll")
        assert pg.get_attribute("#board", "data-id") == board.id()
        assert f"{('White', 'Black')[board.turn]}'s turn" in pg.inner_text("#status")
    assert [e["player"] for e in log_entries(pg)] == [1, 0, 1]
    assert moves == []
    checked_screenshot(pg, tmp_path, "two-people.png")


def test_rule_options_reach_the_game(page, server_url):
    # Fevga's runner rule with the first checker released at r >= 12 instead of 13 (D-RUNNER).
    requests: list[dict] = []
    pg = page
    pg.on("request", lambda r: requests.append(json.loads(r.post_data)) if r.url.endswith("/api/v1/new") else None)
    pg.goto(f"{server_url}/?seed={SEED}")
    wait_idle(pg)
    pg.select_option("#variant", "fevga")
    labels = pg.eval_on_selector_all("#rule-options select", "ss => ss.map(s => s.dataset.option)")
    assert labels == [o["name"] for o in tavli.variant_options("fevga")]
    pg.select_option('[data-option="runner_threshold"]', label="12")
    pg.click("#new-game")
    wait_idle(pg, "opening")
    assert requests[-1]["options"] == {"runner_threshold": 12}
    assert pg.get_attribute("#board", "data-id") == tavli.Board("fevga", runner_threshold=12).id()
    pg.select_option("#variant", "portes")  # a game without options shows none
    assert pg.is_hidden("#rule-options")


def test_save_the_game_as_a_record_and_load_one(page, server_url, tmp_path):
    # Save: the downloaded file is the project's game record, and Board.from_record replays it to
    # the page's position. Load: a record written by Board.to_record, played on from its end.
    pg = page
    new_game(pg, server_url, "portes")
    pg.click("#roll")
    wait_idle(pg, "roll")  # the engine won the opening and played
    pg.click("#roll")
    wait_idle(pg, "move")
    board = black_to_move(tavli.Board("portes"))
    first = log_entries(pg)[0]
    board.push(board.find_play(first["steps"], tuple(int(x) for x in first["dice"].split("-"))))
    board.push(click_max_play(pg, board, tuple(int(x) for x in pg.get_attribute("#board", "data-dice").split("-"))))
    wait_idle(pg, "roll")
    with pg.expect_download() as info:
        pg.click("#save-game")
    saved = json.loads(open(info.value.path(), encoding="utf-8").read())
    assert saved["format"] == "tavli.game" and len(saved["plays"]) == 3
    replayed = tavli.Board.from_record(saved)
    assert replayed.id() == pg.get_attribute("#board", "data-id")
    assert replayed.to_record()["plays"][:2] == board.to_record()["plays"]

    plakoto = tavli.Board("plakoto")
    rng = tavli.Rng(7)
    for _ in range(2):  # White, then Black: White to move at the end
        plakoto.push(plakoto.legal_plays(rng.roll())[-1])
    path = tmp_path / "plakoto.json"
    path.write_text(json.dumps(plakoto.to_record()), encoding="utf-8")
    pg.set_input_files("#load-file", str(path))
    wait_idle(pg, "roll")
    assert pg.get_attribute("#board", "data-id") == plakoto.id()
    assert pg.get_attribute("#board", "data-variant") == "plakoto"
    assert [e["steps"] for e in log_entries(pg)] == [p["steps"] for p in plakoto.to_record()["plays"]]

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tavli.match"}', encoding="utf-8")
    pg.set_input_files("#load-file", str(bad))
    pg.wait_for_selector("#error:not([hidden])")
    assert "not a tavli game record" in pg.inner_text("#error")


def test_a_rollout_of_the_position(page, server_url):
    # The engine's opening play of the test seed, then a rollout before the person's roll: the
    # page shows Board.rollout of that position (144 trials, greedy, the page's seed), for White.
    pg = page
    new_game(pg, server_url, "fevga", SEED)
    pg.click("#roll")
    wait_idle(pg, "roll")
    board = black_to_move(tavli.Board("fevga"))
    e = log_entries(pg)[0]
    board.push(board.find_play(e["steps"], tuple(int(x) for x in e["dice"].split("-"))))
    r = board.rollout(144, "greedy", seed=SEED)  # first: the net loads (once a process) outside the server's budget
    pg.click("#rollout")
    wait_idle(pg, "roll")
    el = "#rollout-result"
    assert pg.get_attribute(el, "data-id") == board.id() and pg.get_attribute(el, "data-trials") == "144"
    assert float(pg.get_attribute(el, "data-equity")) == pytest.approx(r.equity, abs=1e-12)
    text = pg.inner_text(el)
    assert "for You (White) to roll" in text and f"{r.equity:+.3f} ± {1.959963984540054 * r.equity_std_error:.3f}" in text


@pytest.mark.parametrize("code, new_game, opening_status, roll", [
    ("el", "Νέο παιχνίδι", "ρίξτε από ένα ζάρι για να δείτε ποιος ξεκινά", "Ρίξτε για την αρχή"),
    ("tr", "Yeni oyun", "kimin başlayacağını görmek için birer zar atın", "Başlamak için zar at"),
])
def test_the_page_in_greek_and_turkish(page, server_url, tmp_path, code, new_game, opening_status, roll):
    pg = page
    pg.goto(f"{server_url}/?seed={SEED}")
    wait_idle(pg, "opening")
    assert pg.get_attribute("html", "lang") == "en" and pg.inner_text("#new-game") == "New game"
    missing = pg.evaluate(f"Object.keys(TAVLI_I18N.en).filter(k => !(k in TAVLI_I18N.{code}))")
    assert missing == []  # every English phrase has its translation
    pg.select_option("#lang", code)
    assert pg.get_attribute("html", "lang") == code
    assert pg.inner_text("#new-game") == new_game and pg.inner_text("#roll") == roll
    assert opening_status in pg.inner_text("#status")
    pg.click("#roll")  # the engine wins the seed's opening and plays: the log speaks the language too
    wait_idle(pg, "roll")
    pg.click("#roll")
    wait_idle(pg, "move")
    assert {"el": "Φέρατε 3-3", "tr": "3-3 attınız"}[code] in pg.inner_text("#status")  # the seed's roll 2
    line = opening_lines(pg)[0] if code == "en" else pg.inner_text("#log li:first-child")
    assert {"el": "Ζάρι αρχής", "tr": "Başlangıç zarı"}[code] in line
    checked_screenshot(pg, tmp_path, f"page-{code}.png")
    pg.reload()  # the choice is remembered
    wait_idle(pg, "opening")
    assert pg.inner_text("#new-game") == new_game
    pg.select_option("#lang", "en")
    assert pg.inner_text("#new-game") == "New game"
