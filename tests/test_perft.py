"""Perft fixtures (tests/data/perft_fevga.json): distinct plays summed over the 21 rolls, two plies
deep, computed by the pure-Python reference (tests/oracle/make_perft.py), checked against the
engine."""

import json
from pathlib import Path

import pytest

from helpers import make_board, perft_case_board

CASES = json.loads((Path(__file__).parent / "data" / "perft_fevga.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['name']}-d{c['depth']}" for c in CASES])
def test_perft_matches_reference_fixture(case):
    assert perft_case_board(case).perft(case["depth"]) == case["nodes"]


def test_perft_depth_zero_and_start_position():
    board = make_board("fevga", {0: 15}, {0: 15})
    assert board.perft(0) == 1
    # From the start only the runner moves (RULES.md §6.4, F01-F06): one play per roll, except
    # 5-5, where the third 5 lands the runner on r15 >= 13 and frees the fourth: 0->20 or 0->15 + 0->5.
    assert board.perft(1) == 20 + 2
