"""The per-game facts of the variant table (cpp/src/variant.cpp), as _core.variant_info exports them
and the match layer reads them. Expected values from the rule book: RULES.md §8 D-OPENING (backgammon
plays the opening dice, the Greek and Turkish games and Narde re-roll) and D-NEXTSTART (the previous
winner starts, Moultezim rolls off); RULES-KIN.md §1 for the kin games (Tawla 31 plays to 31)."""

import pytest

from tavli import _core, match


def test_rule_book_defaults():
    info = {v: _core.variant_info(v) for v in _core.variants()}
    assert info["backgammon"]["opening"] == "use_opening_dice"
    for v in ("portes", "plakoto", "fevga", "tavla", "narde"):
        assert info[v]["opening"] == "reroll", v
    assert info["moultezim"]["next_starter"] == "roll_off"
    for v in ("portes", "plakoto", "fevga", "tavla", "narde"):
        assert info[v]["next_starter"] == "previous_winner", v
    assert info["tawla31"]["match_target"] == 31
    assert info["fevga"]["movement"] == "parallel" and info["plakoto"]["movement"] == "contrary"
    assert info["backgammon"]["takes_cube"] and not info["portes"]["takes_cube"]


def test_nets_and_matches_read_the_table():
    for v in _core.variants():
        f = _core.variant_info(v)
        assert f["name"] == v
        assert f["net_family"] == _core.net_family(v)
        assert f["encoding"] in ("tesauro", "plakoto", "block")
        if v in match.KINDS:
            assert match.KINDS[v] == ((v,), f["match_target"])
            assert match.OPENING.get(v, "reroll") == f["opening"]
            assert match.NEXT_STARTER.get(v, "previous_winner") == f["next_starter"]


def test_unknown_variant():
    with pytest.raises(ValueError, match="unknown variant"):
        _core.variant_info("chess")
