"""GET /api/v1/variants gives each game's facts (issue 17): the expected values are the rule book's
tables, typed in here from /work/shared/RULES.md §9 ("Summary of game profiles"), RULES-KIN.md §1
("Where the kin games sit") and the match sections (RULES.md §7.3, §4, §6; RULES-KIN.md §3.7), not
read from the engine.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the server needs FastAPI (pip install 'tavli[server]')")
from fastapi.testclient import TestClient  # noqa: E402

from tavli.server.app import create_app  # noqa: E402

API = "/api/v1"

# game: (movement, cube, opening, next game started by) — RULES.md §9 and RULES-KIN.md §1. Narde's
# and Jacquet's openings and Jacquet's next starter are the books' recommendations (D-OPENING;
# "no source (rec.: roll-off)"); Hypergammon and Nackgammon are "as backgammon" (roll-off).
RULE_BOOK = {
    "backgammon": ("contrary", True, "use_opening_dice", "roll_off"),
    "portes": ("contrary", False, "reroll", "previous_winner"),
    "tavla": ("contrary", False, "reroll", "previous_winner"),
    "plakoto": ("contrary", False, "reroll", "previous_winner"),
    "fevga": ("parallel", False, "reroll", "previous_winner"),
    "moultezim": ("parallel", False, "reroll", "roll_off"),
    "narde": ("parallel", False, "reroll", "previous_winner"),
    "jacquet": ("parallel", False, "reroll", "roll_off"),
    "tawla31": ("contrary", False, "reroll", "previous_winner"),
    "nackgammon": ("contrary", True, "use_opening_dice", "roll_off"),
    "hypergammon": ("contrary", True, "use_opening_dice", "roll_off"),
}


@pytest.fixture(scope="module")
def variants() -> dict:
    body = TestClient(create_app()).get(API + "/variants").json()
    return body


def test_every_game_has_the_rule_books_facts(variants):
    games = {g["name"]: g for g in variants["variants"]}
    assert set(games) == set(RULE_BOOK)
    for name, (movement, cube, opening, next_starter) in RULE_BOOK.items():
        g = games[name]
        assert (g["movement"], g["cube"], g["opening"], g["next_starter"]) == (movement, cube, opening, next_starter), name


def test_match_targets(variants):
    games = {g["name"]: g for g in variants["variants"]}
    assert games["tawla31"]["match_target"] == 31  # RULES-KIN.md §3.7: "until ... reaches 31"
    assert games["narde"]["match_target"] == 5  # RULES.md §6: "usually to 5 points"
    matches = {m["kind"]: m for m in variants["matches"]}
    # RULES.md §7.3: the Tavli match cycles Portes, Plakoto, Fevga; "usually five or seven".
    assert matches["tavli"]["games"] == ["portes", "plakoto", "fevga"] and matches["tavli"]["target"] == 5
    assert matches["tawla31"]["target"] == 31
    for g in games.values():  # a one-game match kind plays to its game's target
        assert matches[g["name"]]["games"] == [g["name"]] and matches[g["name"]]["target"] == g["match_target"]


def test_tawla31_offers_parallel_movement_as_an_option(variants):
    # RULES-KIN.md §3.2: flag tawla31.movement = parallel exists for the infobox reading; default contrary.
    tawla = next(g for g in variants["variants"] if g["name"] == "tawla31")
    movement = next(o for o in tawla["options"] if o["name"] == "movement")
    assert movement["default"] == "contrary" and set(movement["choices"]) == {"contrary", "parallel"}
