"""The front ends cap deep searches by default (issue 18): `tavli analyze --plies 9` and a UBGI
search stop after FRONTEND_TIME_LIMIT (60 s) unless told otherwise, and say so in their help; the
HTTP API's cap is its per-request budget (tests/test_server_load.py)."""

from __future__ import annotations

import contextlib
import io

import pytest

import tavli
from tavli import __main__ as cli
from tavli import ubgi
from tavli._base.limits import FRONTEND_TIME_LIMIT


@pytest.fixture
def searches(monkeypatch):
    """The time limits `tavli analyze` passes to Board.analyze (each search made 0-ply: fast)."""
    seen = []
    real = tavli.Board.analyze

    def analyze(self, dice, plies=1, **kw):
        seen.append((plies, kw.get("time_limit")))
        return real(self, dice, plies=0)

    monkeypatch.setattr(tavli.Board, "analyze", analyze)
    return seen


def run_cli(*argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(list(argv)) == 0
    return out.getvalue()


def test_cli_analyze_is_capped_by_default(searches):
    assert FRONTEND_TIME_LIMIT == 60.0
    run_cli("analyze", "--plies", "9", "--dice", "6-5", "--evaluator", "heuristic")
    assert searches == [(9, 60.0)]
    run_cli("analyze", "--plies", "9", "--dice", "6-5", "--evaluator", "heuristic", "--time-limit", "0")
    assert searches[-1] == (9, 0.0)  # 0: no limit, asked for in so many words
    run_cli("analyze", "--plies", "3", "--dice", "6-5", "--evaluator", "heuristic", "--time-limit", "2.5")
    assert searches[-1] == (3, 2.5)


def test_the_caps_are_stated_in_the_help():
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli.main(["analyze", "--help"])
    assert "default 60; 0: no limit" in " ".join(out.getvalue().split())
    assert ubgi._BY_NAME["maxtime"].default == 60_000  # ms: the same cap
