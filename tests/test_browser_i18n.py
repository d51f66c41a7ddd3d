"""The web page in Greek and Turkish beyond its buttons (issue 17, item 6), in Chromium: the cube's
offers and answers, a match's score, the Crawford game and the match's end, the hint table, the
rollout line and error messages go through the language switch, and switching language mid-game
rewrites what is on screen. Then the page's per-game facts: it reads them from GET /variants
(opening, movement, match targets) instead of knowing them itself.

Expected phrases are written here by hand (what a Greek or Turkish reader should see), not read
from i18n.js; screenshots are checked as in test_browser_rules.
"""

from __future__ import annotations

import json
import re

import pytest

import tavli
import tavli.io

from test_browser import SEED, black_to_move, browser, log_entries, opening, page, rolled, server_url, wait_idle  # noqa: F401
from test_browser_rules import checked_screenshot, new_game, shown_move_text

# The engine (Black, to move) wins this last-roll race on any roll: it doubles before rolling.
SURE_WIN = "XGID=-A----------------------a-:0:0:-1:00:0:0:0:0:10"
# English words of the page's messages: none may be left on screen in the other languages.
ENGLISH = re.compile(r"\b(engine|Engine|Cube|cube|doubles?|take|Take|pass|Pass|You|you|Match|match|Hint|Rollout|failed|Press|points?)\b")


def shown_text(pg) -> str:
    """The text a person reads in the messages, log, cube and score areas."""
    return "\n".join(pg.inner_text(s) for s in ("#status", "#log", "#cube-info", "#score", "#steps") if pg.is_visible(s))


def sure_win_game(pg, url: str, variant: str, lang: str, target: str | None = None) -> None:
    board, _, _ = tavli.parse_position(SURE_WIN)
    body = json.dumps({"position": board.to_dict(), "id": board.id()})
    pg.route("**/api/v1/new", lambda route: route.fulfill(status=200, content_type="application/json", body=body))
    pg.goto(f"{url}/?seed={SEED}&lang={lang}")
    wait_idle(pg)
    pg.select_option("#variant", variant)
    if target is not None:
        pg.fill("#target", target)
    pg.select_option("#strength", "0")
    pg.click("#new-game")
    wait_idle(pg, "answer")


def test_the_cube_in_greek_then_turkish(page, server_url, tmp_path):
    pg = page
    sure_win_game(pg, server_url, "backgammon", "el")
    assert "Η μηχανή διπλασιάζει στο 2: δέχεστε ή πάσο;" in pg.inner_text("#status")
    assert pg.inner_text("#take") == "Δέχομαι" and pg.inner_text("#pass") == "Πάσο"
    assert pg.inner_text("#cube-info") == "Κύβος: 1 (στη μέση)"
    assert "Η μηχανή διπλασιάζει στο 2" in pg.inner_text("#log")
    assert not ENGLISH.search(shown_text(pg)), shown_text(pg)
    pg.select_option("#lang", "tr")  # mid-game: what is on screen is written again
    assert "Motor katlıyor (2): kabul mü, pas mı?" in pg.inner_text("#status")
    assert pg.inner_text("#take") == "Kabul" and pg.inner_text("#cube-info") == "Katlama zarı: 1 (ortada)"
    assert "Motor katladı: 2" in pg.inner_text("#log")
    pg.click("#take")
    wait_idle(pg, "over")
    assert pg.inner_text("#cube-info") == "Katlama zarı: 2 (sizde)"
    assert "Kabul ettiniz: katlama zarı 2" in pg.inner_text("#log")
    assert "Oyun bitti. Backgammon: Motor kazandı 2 puan" in pg.inner_text("#status")
    assert not ENGLISH.search(shown_text(pg)), shown_text(pg)
    checked_screenshot(pg, tmp_path, "cube-tr.png")
    pg.select_option("#lang", "en")
    assert "The engine wins 2 points" in pg.inner_text("#status") and "You take: the cube is at 2" in pg.inner_text("#log")


def test_a_pass_in_greek(page, server_url):
    pg = page
    sure_win_game(pg, server_url, "backgammon", "el")
    pg.click("#pass")
    wait_idle(pg, "over")
    assert "Πάτε πάσο" in pg.inner_text("#log")
    assert "Τέλος παιχνιδιού. Backgammon: Κερδίζει η μηχανή 1 πόντο (πάσο)." in pg.inner_text("#status")


def test_a_match_with_the_cube_in_turkish_then_greek(page, server_url, tmp_path):
    pg = page
    sure_win_game(pg, server_url, "cubematch:backgammon", "tr", target="3")
    labels = pg.eval_on_selector_all("#variant optgroup", "gs => gs.map(g => g.label)")
    assert labels == ["Tek oyun", "Maç"]
    assert "Katlama zarıyla Backgammon maçı" in pg.eval_on_selector_all("#variant option", "os => os.map(o => o.text)")
    pg.click("#take")
    wait_idle(pg, "next")  # the take loses 2: 0-2, the engine is one away, the next game is the Crawford game
    assert "“Sonraki oyun” düğmesine basın." in pg.inner_text("#status") and pg.inner_text("#roll") == "Sonraki oyun"
    assert pg.inner_text("#score") == "3 puanlık maç: Siz 0 – Motor 2 · Crawford oyunu (katlama yok)"
    pg.select_option("#lang", "el")
    assert pg.inner_text("#score") == "Αγώνας στους 3: Εσείς 0 – Μηχανή 2 · το παιχνίδι Crawford (χωρίς διπλασιασμό)"
    assert "Πατήστε «Επόμενο παιχνίδι»." in pg.inner_text("#status")
    pg.click("#roll")
    wait_idle(pg, "over")
    assert "Τέλος αγώνα: κερδίζει η μηχανή 0–3." in pg.inner_text("#status")
    checked_screenshot(pg, tmp_path, "cube-match-el.png")
    pg.select_option("#lang", "tr")
    assert "Maç bitti: motor kazandı, 0–3." in pg.inner_text("#status")


def test_a_tavli_match_in_greek(page, server_url):
    pg = page
    pg.goto(f"{server_url}/?seed={SEED}&lang=el")
    wait_idle(pg)
    pg.select_option("#variant", "match:tavli")
    assert pg.input_value("#target") == "5"  # RULES.md §7.3: "usually five or seven" (GET /variants)
    pg.click("#new-game")
    wait_idle(pg, "opening")
    assert "Παιχνίδι 1 του αγώνα (Πόρτες): ρίξτε από ένα ζάρι" in pg.inner_text("#status")
    assert pg.inner_text("#score") == "Αγώνας στους 5: Εσείς 0 – Μηχανή 0 · παιχνίδι 1: Πόρτες"
    pg.click("#roll")  # the seed's opening: the engine starts
    wait_idle(pg)
    assert "ξεκινά η μηχανή" in pg.inner_text("#log")
    assert not ENGLISH.search(shown_text(pg)), shown_text(pg)


def test_hint_rollout_and_errors_follow_the_language(page, server_url, tmp_path):
    pg = page
    new_game(pg, server_url, "portes", SEED, query="&lang=el")
    pg.click("#roll")  # the engine starts and plays
    wait_idle(pg, "roll")
    pg.click("#roll")
    wait_idle(pg, "move")
    pg.click("#hint")
    wait_idle(pg, "move")
    caption = pg.inner_text("#hints caption")
    assert caption.startswith("Υπόδειξη για ") and "οι καλύτερες κινήσεις της μηχανής" in caption
    assert set(pg.eval_on_selector_all("#hints tbody button", "bs => bs.map(b => b.textContent)")) == {"Παίξτε"}
    assert pg.eval_on_selector_all("#hints thead th", "hs => hs.map(h => h.textContent)")[1:4] == ["Κίνηση", "Αξία", "Νίκη"]
    pg.click("#rollout")
    wait_idle(pg, "move")
    assert pg.inner_text("#rollout-result").startswith("Προσομοίωση της θέσης, πριν ρίξει: Εσείς (Λευκά) (144 παιχνίδια")
    checked_screenshot(pg, tmp_path, "hint-rollout-el.png")
    pg.select_option("#lang", "tr")  # the table and the line are written again
    assert " için ipucu: motorun en iyi hamleleri" in pg.inner_text("#hints caption")
    assert pg.inner_text("#rollout-result").startswith("Pozisyonun simülasyonu, zar sırası: Siz (Beyaz) (144 oyun")
    body = json.dumps({"error": {"field": "dice", "message": "a refusal made up by the test"}})
    pg.route("**/api/v1/analyze", lambda route: route.fulfill(status=422, body=body, content_type="application/json"))
    pg.click("#hint")
    pg.wait_for_selector("#error:not([hidden])")
    # the page's words translated; the server's own message stays as the server wrote it
    assert pg.inner_text("#error") == "analyze başarısız oldu (HTTP 422): dice: a refusal made up by the test"


def test_the_page_takes_the_games_facts_from_variants(page, server_url):
    """GET /variants is faked to say Portes plays its opening dice and moves parallel (the rule
    book says neither): the page follows the endpoint, so the facts are not written into it."""
    rolls, starter, opening_dice = opening(1)
    assert starter == 1 and opening_dice == (6, 2) and rolled(rolls, 1) != opening_dice  # seed 1: the engine starts
    pg = page
    real = pg.request.get(f"{server_url}/api/v1/variants").json()
    for g in real["variants"]:
        if g["name"] == "portes":
            assert (g["opening"], g["movement"]) == ("reroll", "contrary")  # RULES.md §9
            g.update(opening="use_opening_dice", movement="parallel")
    fake = json.dumps(real)
    pg.route("**/api/v1/variants", lambda route: route.fulfill(status=200, content_type="application/json", body=fake))
    new_game(pg, server_url, "portes", 1)
    while pg.get_attribute("#board", "data-phase") == "opening":
        pg.click("#roll")
        wait_idle(pg)
    (engine,) = log_entries(pg)
    assert engine["dice"] == "6-2"  # the opening dice, not a new roll
    black_to_move(tavli.Board("portes")).find_play(engine["steps"], opening_dice)  # legal with them
    shown, own = shown_move_text(pg, 0)
    # parallel: Black's point n is White's 24 - (36 - n) % 24 (contrary would be 25 - n)
    assert shown == re.sub(r"(^|[ /])(\d+)", lambda m: m.group(1) + str(24 - (36 - int(m.group(2))) % 24), own)


@pytest.mark.parametrize("choice, target", [("match:tawla31", "31"), ("match:tavli", "5"), ("match:fevga", "5")])
def test_the_match_target_is_the_kinds_usual_length(page, server_url, choice, target):
    # RULES-KIN.md §3.7 (Tawla 31 is played to 31), RULES.md §7.3 (a Tavli match: usually five).
    pg = page
    pg.goto(f"{server_url}/?seed={SEED}")
    wait_idle(pg)
    pg.select_option("#variant", choice)
    assert pg.is_visible("#target") and pg.input_value("#target") == target


def test_the_match_file_viewer_in_greek_then_turkish(page, server_url, tmp_path):
    # hand_3pt.mat (written by hand; tests/test_review_cube.py): a wrong pass, judged "very bad".
    from tavli.io.record import replay

    from io_helpers import DATA

    hand = DATA / "hand_3pt.mat"
    drop = next(i for i, s in enumerate(replay(tavli.io.read(hand))) if s.action.kind == "drop")
    pg = page
    pg.goto(f"{server_url}/static/record.html?lang=el")
    assert pg.inner_text("#status") == "Δεν έχει ανοιχτεί αρχείο." and pg.inner_text("#next") == "Επόμενο ▶"
    pg.set_input_files("#file", str(hand))
    pg.wait_for_selector('#board[data-step="0"] svg')
    assert "αγώνας στους 3" in pg.inner_text("#status") and ", παιχνίδι 1" in pg.inner_text("#status")
    assert "πολύ κακή" in pg.inner_text(f'#steps li[data-step="{drop}"]')
    pg.click(f'#steps li[data-step="{drop}"]')
    pg.wait_for_selector(f'#board[data-step="{drop}"] svg')
    line = pg.inner_text('[data-testid="cube-line"]')
    assert line.startswith("Κύβος: πάσο. Χωρίς διπλασιασμό ") and "λάθος πάσο" in line and "Απώλεια" in line
    checked_screenshot(pg, tmp_path, "record-el.png")
    pg.select_option("#lang", "tr")  # written again, on the same step
    pg.wait_for_function("() => document.querySelector('[data-testid=\"cube-line\"]').textContent.startsWith('Katlama')")
    assert pg.get_attribute("#board", "data-step") == str(drop)
    line = pg.inner_text('[data-testid="cube-line"]')
    assert line.startswith("Katlama: pas. Katlamadan ") and "yanlış paslar" in line and "Kayıp" in line
    assert "çok kötü" in pg.inner_text(f'#steps li[data-step="{drop}"]') and "3 puanlık maç" in pg.inner_text("#status")


def test_every_rule_option_is_named_and_described_in_greek_and_turkish(page, server_url):
    pg = page
    pg.goto(f"{server_url}/?seed={SEED}&lang=el")
    wait_idle(pg)
    options = [o for g in pg.request.get(f"{server_url}/api/v1/variants").json()["variants"] for o in g["options"]]
    assert len(options) > 20
    for code in ("el", "tr"):
        missing = pg.evaluate("([code, options]) => options.filter(o => !(`opt_${o.name}` in TAVLI_I18N[code])"
                              " || !(`help_${o.help}` in TAVLI_I18N[code])).map(o => o.name)", [code, options])
        assert missing == [], code
    pg.select_option("#variant", "plakoto")
    label = pg.locator('#rule-options label:has([data-option="mother"])')
    assert label.inner_text().startswith("κανόνας της μάνας")
    assert label.get_attribute("title").startswith("κανόνας της μάνας: κρίνεται σε κάθε θέση")
    pg.select_option('[data-option="mother_points"]', label="3")
    pg.select_option("#lang", "tr")  # the same game keeps the choice made
    assert pg.locator('#rule-options label:has([data-option="mother"])').inner_text().startswith("ana taş kuralı")
    assert pg.eval_on_selector('[data-option="mother_points"]', "s => s.options[s.selectedIndex].text") == "3"
