"""The dice grammar and the bounds live in the C++ core: the extension reads dice itself (no import
of the Python package) and exports the bounds it checks, which the Python checks name."""

import subprocess
import sys

import pytest

import tavli
from tavli import _core


@pytest.mark.parametrize("text, dice", [("6-5", (6, 5)), ("65", (6, 5)), (" 6, 5 ", (6, 5)), ("1 2", (1, 2))])
def test_core_reads_dice_text(text, dice):
    assert _core.parse_dice(text) == dice


@pytest.mark.parametrize("bad, message", [
    ("6x", "dice '6x': expected two digits such as '6-5'"),
    ("6'", "dice \"6'\": expected two digits such as '6-5'"),
    ("7-1", r"dice must be integers 1\.\.6, got \(7, 1\)"),
    ((6,), r"dice must be a pair of integers 1\.\.6, got \(6,\)"),
    ({1, 2}, r"dice must be an ordered pair \(d1, d2\), got a set"),
    ((True, 2), r"dice must be integers 1\.\.6, got \(True, 2\)"),
])
def test_core_names_bad_dice(bad, message):
    with pytest.raises(ValueError, match=message):
        _core.parse_dice(bad)


def test_legal_plays_reads_text_dice_without_the_python_package():
    # Only the compiled module is loaded (its package's __init__ is not run): the text form of the
    # dice is read all the same.
    code = ("import importlib.util, sys, types; import tavli as t; path = t._core.__file__\n"
            "for k in [k for k in sys.modules if k == 'tavli' or k.startswith('tavli.')]: del sys.modules[k]\n"
            "sys.modules['tavli'] = types.ModuleType('tavli')\n"
            "spec = importlib.util.spec_from_file_location('tavli._core', path)\n"
            "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
            "b = m.Board('backgammon')\n"
            "print(b.legal_plays('6-5') == b.legal_plays((6, 5)), b.legal_plays(' 6, 5') == b.legal_plays([6, 5]),\n"
            "      any(k.startswith('tavli.') and k != 'tavli._core' for k in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "True", "False"]


def test_python_bounds_are_the_core_bounds():
    # the ranges the API's messages name (threads 1..1024, search plies 0..32: tests/test_cli.py)
    assert (_core.MAX_THREADS, _core.MAX_SEARCH_PLIES) == (1024, 32)
    with pytest.raises(ValueError, match=r"threads must be an integer 1\.\.1024"):
        tavli.Board("backgammon").evaluate(threads=_core.MAX_THREADS + 1)
    with pytest.raises(ValueError, match=r"plies must be an integer 0\.\.32"):
        tavli.Board("backgammon").evaluate(plies=_core.MAX_SEARCH_PLIES + 1)


def test_player_and_cubeful_bounds_are_the_core_bounds():
    # The player grammar and the cubeful search read their bounds from the core (sim.h, cubeful_search.h);
    # 4 cube plies is the bound tests/test_match_players.py relies on ('greedy+cube:5' is refused).
    from tavli import cube_search, players

    assert (_core.MAX_PLAYER_PLIES, _core.MAX_CUBE_PLAYER_PLIES, _core.MAX_CUBEFUL_PLIES) == (8, 4, 8)
    assert (players.MAX_PLIES, players.MAX_CUBE_PLIES, cube_search.MAX_PLIES) == (8, 4, 8)
    assert players.player_arg("search:8")[:2] == ("search", 8)
    with pytest.raises(ValueError, match=r"N = 0\.\.8"):
        players.player_arg("search:9")
    with pytest.raises(ValueError, match=r"plies must be an integer 0\.\.8"):
        cube_search.decide(tavli.Board("backgammon"), plies=9)
