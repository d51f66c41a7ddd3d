"""The cube and the match state: hand-worked take points, the Jacoby rule, Crawford and
post-Crawford, match equity tables, validation, and the cube/score fields of the GNU Match ID and
the XGID. Expected values are worked by hand from the formulas in cpp/include/tavli/cubeful.h
(Janowski's model as gnubg documents it) or taken from gnubg's MET files."""

from __future__ import annotations

import glob
import os

import pytest

import tavli
from tavli import cube as tc
from tavli.cube import CubeState, MatchState

NO_GAMMONS = (0.0, 0.0, 0.0, 0.0)
BG = tavli.Board("backgammon")  # White (0) to move


def decide(p, efficiency, cube=None, match=None, board=BG, **kw):
    return board.cube_decision(cube=cube, match=match, probabilities=p, efficiency=efficiency, **kw)


# ---- money play: take points without gammons --------------------------------------------------

@pytest.mark.parametrize("efficiency, take_point", [
    (0.0, 0.25),     # dead cube: risk 1 to gain 2 -> 25%
    (1.0, 0.20),     # fully live cube: the taker's redouble is worth 5% more -> 20%
    (0.68, 0.2137),  # contact efficiency: 2.34 p = 1.84, p = 0.7863 for the doubler -> 21.4%
])
def test_take_point_without_gammons(efficiency, take_point):
    at = decide((1 - take_point,) + NO_GAMMONS, efficiency)
    assert at.dt == pytest.approx(at.dp, abs=2e-4)  # the taker is indifferent at his take point
    assert decide((1 - take_point + 0.01,) + NO_GAMMONS, efficiency).take == "pass"
    assert decide((1 - take_point - 0.01,) + NO_GAMMONS, efficiency).take == "take"


def test_dead_cube_equities_are_cubeless():
    d = decide((0.6, 0.2, 0.05, 0.1, 0.0), 0.0)
    cubeless = 2 * 0.6 - 1 + (0.2 - 0.1) + (0.05 - 0.0)
    assert d.nd == pytest.approx(cubeless)
    assert d.dt == pytest.approx(2 * cubeless)
    assert d.dp == 1.0


def test_live_cube_centred_is_linear_between_take_and_cash_points():
    # No gammons, x = 1: W = L = 1, TP = 0.5 / 2.5 = 0.2, CP = 2 / 2.5 = 0.8; between them the
    # equity runs linearly from -1 to +1: at p = 0.65, -1 + 2 * 0.45 / 0.6 = 0.5.
    assert decide((0.65,) + NO_GAMMONS, 1.0).nd == pytest.approx(0.5)
    # Owning the cube: (0, -1) to (CP, +1): at 0.4, -1 + 2 * 0.4 / 0.8 = 0.
    mine = CubeState(2, owner=0)
    assert decide((0.4,) + NO_GAMMONS, 1.0, cube=mine).nd == pytest.approx(0.0, abs=1e-6)
    # The opponent's cube: (TP, -1) to (1, +1): at 0.6, -1 + 2 * 0.4 / 0.8 = 0; the mover may not double.
    theirs = decide((0.6,) + NO_GAMMONS, 1.0, cube=CubeState(2, owner=1))
    assert theirs.nd == pytest.approx(0.0, abs=1e-6)
    assert not theirs.available and theirs.dt is None and theirs.action == "cube not available"


def test_jacoby_rule_gammons_count_only_once_the_cube_is_turned():
    p = (0.6, 0.3, 0.0, 0.0, 0.0)
    assert decide(p, 0.0, cube=CubeState(jacoby=True)).nd == pytest.approx(0.2)  # 2 * 0.6 - 1, gammons ignored
    assert decide(p, 0.0, cube=CubeState()).nd == pytest.approx(0.5)
    # Once turned the gammons count again: Double/take and an owned cube are unaffected by Jacoby.
    assert decide(p, 0.0, cube=CubeState(jacoby=True)).dt == pytest.approx(1.0)
    owned = CubeState(2, owner=0, jacoby=True)
    assert decide(p, 0.0, cube=owned).nd == pytest.approx(0.5)
    # Live: above the cash point a centred Jacoby cube is worth exactly +1 (cash rather than play on).
    big = (0.9, 0.6, 0.0, 0.0, 0.0)
    assert decide(big, 1.0, cube=CubeState(jacoby=True)).nd == pytest.approx(1.0)
    assert decide(big, 1.0, cube=CubeState()).nd > 1.0


def test_beavers_name_the_answer():
    # Double/take below zero for the doubler: the taker does better than even and beavers.
    d = decide((0.45,) + NO_GAMMONS, 0.68, cube=CubeState(beavers=True))
    assert d.dt < 0 and d.take == "beaver" and d.action in ("no double, beaver", "double, beaver")
    assert decide((0.45,) + NO_GAMMONS, 0.68).take == "take"


def test_too_good_needs_gammon_chances():
    d = decide((0.95, 0.6, 0.0, 0.0, 0.0), 0.68)
    assert d.nd > d.dp and d.action == "too good to double, pass"
    assert decide((0.99,) + NO_GAMMONS, 0.68).action == "double, pass"


# ---- match play ------------------------------------------------------------------------------

MET = tc.default_met()


def test_crawford_game_has_no_cube():
    # White 3-away, Black 1-away, the Crawford game: the cube is dead, the MWC is cubeless: a win
    # takes White to 2-away post-Crawford (the table's 0.48803), a loss ends the match.
    m = MatchState(5, (2, 4), crawford=True)
    d = decide((0.4,) + NO_GAMMONS, 0.68, match=m)
    assert not d.available and d.action == "cube not available"
    assert d.nd_mwc == pytest.approx(0.4 * MET.post_crawford(2))
    assert MET.post_crawford(2) == pytest.approx(0.48803)


def test_post_crawford_free_drop():
    # Post-Crawford, White trails 2-away against 1-away. His double is free (he wins the match
    # with a doubled win either way); the leader passes to double match point (50%) whenever the
    # trailer is the favourite, and takes otherwise: his take point is exactly 50%.
    m = MatchState(5, (3, 4))
    assert m.post_crawford
    for p, answer in ((0.45, "take"), (0.55, "pass")):
        d = decide((p,) + NO_GAMMONS, 0.68, match=m)
        assert d.available
        assert d.dp_mwc == pytest.approx(0.5)  # 1-away 1-away
        assert d.dt_mwc == pytest.approx(p)    # a game for the match
        assert d.take == answer
    # The leader may not double post-Crawford (a one-point win is all he needs).
    black_on_roll = tavli.Board.from_gnubg_id(BG.gnubg_id(), turn=1)
    assert not decide((0.5,) + NO_GAMMONS, 0.68, match=m, board=black_on_roll).available


def test_two_away_two_away_cube_is_dead():
    # 2-away 2-away: a double makes the game one for the match, so gnubg treats the cube as dead
    # (the doubler should double at once): No double is the cubeless MWC, Double/take the winning chance.
    d = decide((0.6,) + NO_GAMMONS, 0.68, match=MatchState(5, (3, 3)))
    assert d.nd_mwc == pytest.approx(0.6 * MET.pre_crawford(1, 2) + 0.4 * MET.pre_crawford(2, 1))
    assert d.dt_mwc == pytest.approx(0.6)
    assert d.dp_mwc == pytest.approx(MET.pre_crawford(1, 2))
    assert d.action == "double, take"


def test_emg_converts_mwc_linearly_between_winning_and_losing_the_cube():
    m = MatchState(7, (2, 4))
    d = decide((0.55, 0.15, 0.01, 0.12, 0.01), 0.68, match=m)
    win, lose = MET.pre_crawford(4, 3), MET.pre_crawford(5, 2)
    for eq, mwc in ((d.nd, d.nd_mwc), (d.dt, d.dt_mwc), (d.dp, d.dp_mwc)):
        assert eq == pytest.approx((2 * mwc - (win + lose)) / (win - lose))
    assert d.dp == pytest.approx(1.0)


# ---- match equity tables -----------------------------------------------------------------------

def test_kazaross_xg2_identities_and_entries():
    n = MET.length
    assert n == 25 and MET.name == "Kazaross XG2 25 point MET"
    for i in range(1, n + 1):
        assert MET.pre_crawford(i, i) == pytest.approx(0.5)
        for j in range(1, n + 1):
            assert MET.pre_crawford(i, j) + MET.pre_crawford(j, i) == pytest.approx(1.0, abs=1e-9)
    assert MET.pre_crawford(1, 2) == pytest.approx(0.67736)   # gnubg's Kazaross-XG2.xml, row 1
    assert MET.pre_crawford(2, 1) == pytest.approx(0.32264)
    assert MET.post_crawford(1) == 0.5 and MET.post_crawford(2) == pytest.approx(0.48803)
    assert MET.post_crawford(3) == pytest.approx(0.32264)
    # Entries rise with the opponent's distance and fall with one's own.
    assert all(MET.pre_crawford(3, j) < MET.pre_crawford(3, j + 1) for j in range(1, n))
    # The 25-away post-Crawford entry is recomputed (gnubg: the first legal one is 24-away).
    pc = MET.post_crawford_table[0]
    assert pc[24] == pytest.approx(0.25 * 0.5 * pc[20] + 0.75 * 0.5 * pc[22])


def test_gammon_values_at_the_score():
    # Money-like at long scores; worthless to a side who wins the match with a single game.
    g = MET.gammon_values(1, 5)  # I am 1-away (post-Crawford or Crawford): my gammons count nothing extra
    assert g[0] == 0.0 and g[2] == 0.0 and g[1] > 0.0
    g = MET.gammon_values(2, 2, cube=2)  # a doubled single already decides the match: gammons add nothing
    assert g == pytest.approx((0.0, 0.0, 0.0, 0.0))
    # By hand at 3-away 3-away, cube 1: win single -> 2a3a, gammon -> 1a3a; lose -> 3a2a.
    win, gam, lose = MET.pre_crawford(2, 3), MET.pre_crawford(1, 3), MET.pre_crawford(3, 2)
    assert MET.gammon_values(3, 3)[0] == pytest.approx(2 * (gam - win) / (win - lose))


GNUBG_METS = sorted(glob.glob("/usr/share/gnubg/met/*.xml"))


@pytest.mark.skipif(not GNUBG_METS, reason="gnubg-data's MET files are not installed")
def test_gnubg_met_files_load():
    loaded = 0
    for path in GNUBG_METS:
        name = os.path.basename(path)
        if name == "catalog.xml":
            continue
        if name in ("zadeh.xml", "mec.xml"):
            with pytest.raises(ValueError, match="parametric"):
                tc.load_met(path)
            continue
        met = tc.load_met(path)
        loaded += 1
        assert met.length in (15, 25)
        if not name.startswith("jac"):  # jac050/jac100 skew the table for players of unequal skill
            tol = 0.0025 if name == "ortega.xml" else 1e-9
            n = met.length
            assert all(abs(met.pre_crawford(i, j) + met.pre_crawford(j, i) - 1) <= tol
                       for i in range(1, n + 1) for j in range(1, n + 1))
    assert loaded >= 8
    # The shipped copy is gnubg's Kazaross-XG2.xml, number for number.
    kz = tc.load_met("/usr/share/gnubg/met/Kazaross-XG2.xml")
    assert kz.pre_crawford_table == MET.pre_crawford_table and kz.post_crawford_table == MET.post_crawford_table


def test_bad_met_files(tmp_path):
    with pytest.raises(ValueError, match="no match equity table"):
        tc.load_met("no-such-table")
    f = tmp_path / "bad.xml"
    f.write_text("<met><pre-crawford-table><row><me>0.5</me><me>x</me></row></pre-crawford-table></met>")
    with pytest.raises(ValueError, match="not a number"):
        tc.load_met(str(f))
    f.write_text("<met><pre-crawford-table><row><me>0.5</me><me>0.6</me></row></pre-crawford-table>"
                 "<post-crawford-table player='both'><row><me>0.5</me></row></post-crawford-table></met>")
    with pytest.raises(ValueError, match="square"):
        tc.load_met(str(f))
    f.write_text("<html/>")
    with pytest.raises(ValueError, match="not <met>"):
        tc.load_met(str(f))


# ---- validation ------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, message", [
    (dict(value=3), "power of two"),
    (dict(value=0), "power of two"),
    (dict(value=1, owner=0), "owned cube"),
    (dict(value=2, owner=2), "owner"),
    (dict(value=8, max_cube=4), "exceeds the maximum cube"),
    (dict(max_cube=6), "maximum cube"),
])
def test_impossible_cubes(kwargs, message):
    with pytest.raises(ValueError, match=message):
        CubeState(**kwargs)


@pytest.mark.parametrize("kwargs, message", [
    (dict(length=7, score=(7, 0)), "must be 0..6"),
    (dict(length=7, score=(0, -1)), "must be 0..6"),
    (dict(length=7, score=(3, 3), crawford=True), "one side at one point away"),
    (dict(length=7, score=(6, 6), crawford=True), "both sides"),
    (dict(length=0, score=(1, 0)), "money play"),
    (dict(length=0, crawford=True), "money play"),
    (dict(length=-3), "match length"),
])
def test_impossible_match_states(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MatchState(**kwargs)


@pytest.mark.parametrize("cube, match, message", [
    (CubeState(jacoby=True), MatchState(7), "Jacoby"),
    (CubeState(beavers=True), MatchState(7), "beavers"),
    (CubeState(2), MatchState(7), "centred cube is at 1"),
    (CubeState(2, owner=0), MatchState(7, (6, 3), crawford=True), "Crawford"),
    # Black could have doubled to 8 only while needing more than 4 points; at 3-away he could not.
    (CubeState(8, owner=0), MatchState(7, (0, 4)), "beyond what the match can use"),
])
def test_impossible_combinations(cube, match, message):
    with pytest.raises(ValueError, match=message):
        tc.cube_decision(BG, cube, match, probabilities=(0.5,) + NO_GAMMONS)


def test_cubeless_games_refuse_the_cube_by_name_but_take_match_scores():
    tavla = tavli.Board("tavla")
    with pytest.raises(ValueError, match="tavla has no doubling cube"):
        tc.xgid(tavla, cube=CubeState(2, owner=0))
    with pytest.raises(ValueError, match="has no doubling cube"):
        tavla.cube_decision(probabilities=(0.5,) + NO_GAMMONS)
    x = tc.xgid(tavla, match=MatchState(5, (1, 2)))
    board, cube, match = tavli.parse_position(x, "tavla")
    assert board == tavla and cube == CubeState() and match == MatchState(5, (1, 2))
    for game in ("backgammon", "nackgammon", "hypergammon"):
        tavli.Board(game).cube_decision(probabilities=(0.5,) + NO_GAMMONS)


def test_bad_probabilities():
    for p in ((0.5, 0.6, 0, 0, 0), (0.5, 0.2, 0.3, 0, 0), (0.8, 0, 0, 0.3, 0), (0.5, 0, 0, 0.2, 0.3), (1.5, 0, 0, 0, 0),
              (0.5,)):
        with pytest.raises(ValueError, match="probabilities"):
            BG.cube_decision(probabilities=p)


def test_evaluated_probabilities_and_efficiency():
    d = BG.cube_decision()  # the shipped net at 0 plies
    assert d.plies == 0 and d.cube_class == "contact" and d.efficiency == pytest.approx(0.68)
    assert d.probabilities == BG.evaluate(0).probabilities
    import json
    with open(os.path.join(os.path.dirname(__file__), "data", "gnubg_cube_reference.json")) as f:
        races = [it for it in json.load(f)["cube_decisions"] if it["class"] == "race"]
    for it in races[:20]:
        race = tavli.Board.from_gnubg_id(it["position_id"], turn=it["mover"])
        cls, x = tavli._core._cube_efficiency(race)
        pips = sum(n * (24 - r) for r, n in enumerate(race.mover))
        assert cls == "race" and x == pytest.approx(min(0.7, max(0.6, 0.55 + 0.00125 * pips)))


# ---- IDs -------------------------------------------------------------------------------------

def test_gnubg_combined_id_round_trip():
    b = tavli.Board.from_gnubg_id("4HPwATDgc/ABMA", turn=1)
    text = tc.gnubg_id(b, CubeState(4, owner=0), MatchState(7, (2, 4)))
    assert text == "4HPwATDgc/ABMA:QgngACAAIAAE"  # gnubg printed this Match ID for the state
    board, cube, match = tavli.parse_position(text)
    assert board == b and board.turn == 1
    assert cube == CubeState(4, owner=0) and match == MatchState(7, (2, 4))
    # Money play keeps the Jacoby rule in bit 66; a money session's score is dropped.
    board, cube, match = tavli.parse_position("4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert match.money and cube.jacoby
    assert not tavli.parse_position("4HPwATDgc/ABMA:cAkAAAAAAAAE")[1].jacoby


def match_id(**f) -> str:
    """An independent Match ID packer (the manual's layout, bits least significant first)."""
    layout = {"cube_log2": (0, 4), "owner": (4, 2), "on_roll": (6, 1), "crawford": (7, 1), "state": (8, 3),
              "turn": (11, 1), "length": (21, 15), "score0": (36, 15), "score1": (51, 15), "no_jacoby": (66, 1)}
    value = 0
    for k, v in {"owner": 3, "state": 1, **f}.items():
        at, width = layout[k]
        assert 0 <= v < 1 << width
        value |= v << at
    raw = value.to_bytes(9, "little")
    import base64
    return base64.b64encode(raw).decode()


def test_independent_match_id_packing_agrees():
    for f in (dict(length=7, score0=2, score1=4, cube_log2=2, owner=0, on_roll=1, turn=1, no_jacoby=1),
              dict(length=5, score0=4, score1=1, crawford=1, no_jacoby=1),
              dict(length=0)):
        board, cube, match = tavli.parse_position("4HPwATDgc/ABMA:" + match_id(**f))
        assert tc.gnubg_id(board, cube, match) == "4HPwATDgc/ABMA:" + match_id(**f)


@pytest.mark.parametrize("bad, message", [
    ("4HPwATDgc/ABMA:cAk", "12 base64"),
    ("4HPwATDgc/ABMA:cAk!AAAAAAAE", "invalid character"),
    ("4HPwATDgc/ABMA:" + match_id(length=7, score0=7), "must be 0..6"),
    ("4HPwATDgc/ABMA:" + match_id(length=7, score0=2, crawford=1), "Crawford"),
    ("4HPwATDgc/ABMA:" + match_id(length=7, cube_log2=0, owner=1), "owned cube"),
    ("4HPwATDgc/ABMA:" + match_id(length=7, owner=2), "cube owner field"),
    ("4HPwATDgc/ABMA:" + match_id(length=7, state=6), "game state"),
])
def test_bad_match_ids(bad, message):
    with pytest.raises(ValueError, match=message):
        tavli.parse_position(bad)


def test_xgid_cube_and_score_fields():
    x = "XGID=-b----E-C---eE---c-e----B-:2:-1:1:00:3:4:0:9:10"
    board, cube, match = tavli.parse_position(x)
    assert cube == CubeState(4, owner=1) and match == MatchState(9, (3, 4)) and board.turn == 0
    assert tc.xgid(board, cube, match) == x
    crawford = "XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:4:1:1:5:10"
    _, cube, match = tavli.parse_position(crawford)
    assert match == MatchState(5, (4, 1), crawford=True)
    money = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:0:0:3:0:8"
    _, cube, match = tavli.parse_position(money)
    assert cube == CubeState(2, owner=0, jacoby=True, beavers=True, max_cube=256) and match.money
    assert tc.xgid(tavli.parse_position(money)[0], cube, match) == money
    # Board.from_xgid still returns the board alone.
    assert tavli.Board.from_xgid(x) == board


START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


@pytest.mark.parametrize("fields, message", [
    ({5: "70", 8: "10"}, "below the match length"),   # issue 18: a score of 70 in a 10-point match
    ({9: "66"}, "maximum cube"),                      # issue 18: a maximum-cube field of 66
    ({1: "4", 9: "3"}, "exceeds the maximum cube"),
    ({7: "2", 8: "7"}, "Crawford flag"),
    ({7: "4"}, "Jacoby/beaver"),
    ({7: "1", 8: "7", 5: "2", 6: "3"}, "Crawford"),    # a Crawford game at 5-away 4-away
    ({1: "1", 2: "0", 8: "7"}, "centred cube is at 1"),
    ({1: "16"}, "cube value"),
])
def test_bad_xgid_cube_and_score_fields(fields, message):
    parts = START.split(":")
    for i, v in fields.items():
        parts[i] = v
    with pytest.raises(ValueError, match=message):
        tavli.parse_position(":".join(parts))


# ---- the command line -----------------------------------------------------------------------

def test_cli_analyze_prints_the_cube_decision(capsys):
    from tavli.__main__ import main

    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:4:0:9:10"  # cube 2 White's, 9-point match 3-4
    assert main(["analyze", xgid, "--plies", "0", "--dice", "3-1", "--limit", "1"]) == 0
    out = capsys.readouterr().out
    board, cube, match = tavli.parse_position(xgid)
    d = board.cube_decision(cube, match)
    assert "cube 2 owned by white, 9-point match, white 3 black 4" in out
    assert f"no double    {d.nd:+.4f}  (MWC {d.nd_mwc:.4f})" in out
    assert f"double/take  {d.dt:+.4f}" in out and f"proper action: {d.action}" in out
    # At the score the plays are ranked by match winning chance, the cube dead at 2 ...
    from tavli import match_play
    from tavli.cube_search import analyze as cubeful_analyze

    dead = match_play.analyze(board, (3, 1), 9, (3, 4), 0, cube_value=2)[0]
    assert f"1 {str(dead.play):<28} {dead.equity:>+8.3f} {dead.mwc:8.4f} {dead.probabilities.win:6.3f}" in out
    # ... and with --cubeful by the cubeful search (EMG, then the MWC).

    assert main(["analyze", xgid, "--plies", "0", "--dice", "3-1", "--limit", "1", "--cubeful"]) == 0
    out = capsys.readouterr().out
    best = cubeful_analyze(board, (3, 1), cube, match, plies=0).plays[0]
    assert "3-1: 16 legal plays, cubeful 0-ply" in out
    assert f"1 {str(best.play):<28} {best.equity:>+8.3f} {best.mwc:8.4f}  0" in out
    assert main(["analyze", xgid, "--plies", "9", "--dice", "3-1", "--cubeful"]) == 2
    assert "the cubeful search goes 0..8 plies deep" in capsys.readouterr().err
    # Flags override the ID; a cubeless game refuses the cube by name.
    assert main(["analyze", xgid, "--plies", "0", "--dice", "3-1", "--cube", "1", "--score", "0-0"]) == 0
    assert "cube 1, 9-point match, white 0 black 0" in capsys.readouterr().out
    assert main(["analyze", "--start", "--variant", "tavla", "--cube", "2:white"]) == 2
    assert "tavla has no doubling cube" in capsys.readouterr().err
    assert main(["analyze", "--start", "--variant", "backgammon", "--score", "7-0", "--length", "7"]) == 2


def test_every_valid_state_up_to_seven_points_gives_finite_answers():
    import random

    rng = random.Random(15)
    checked = 0
    for length in range(1, 8):
        for s0 in range(length):
            for s1 in range(length):
                for crawford in (False, True):
                    for value, owner in ((1, None), (2, 0), (2, 1), (4, 0), (4, 1), (8, 1)):
                        try:
                            match = MatchState(length, (s0, s1), crawford)
                            cube = CubeState(value, owner=owner)
                            tc.cube_decision(BG, cube, match, probabilities=(0.5,) + NO_GAMMONS)
                        except ValueError:
                            continue  # an impossible state (validation has its own tests)
                        w = rng.random()
                        g = rng.random() * w
                        lg = rng.random() * (1 - w)
                        p = (w, g, g * rng.random(), lg, lg * rng.random())
                        d = decide(p, rng.choice((0.0, 0.6, 0.68, 1.0)), cube=cube, match=match)
                        values = [d.nd, d.nd_mwc] + ([d.dt, d.dp, d.dt_mwc, d.dp_mwc] if d.available else [])
                        assert all(v == v and abs(v) < 1e6 for v in values), (match, cube, p, d)
                        assert all(-1e-9 <= v <= 1 + 1e-9 for v in (d.nd_mwc, d.dt_mwc, d.dp_mwc) if v is not None)
                        checked += 1
    assert checked > 300


def test_decide_is_the_pure_function_behind_board_cube_decision():
    p = (0.62, 0.18, 0.01, 0.09, 0.004)
    match = MatchState(7, (1, 3))
    pure = tc.decide(p, None, match, mover=1, efficiency=0.68)
    black = tavli.Board.from_gnubg_id(BG.gnubg_id(), turn=1)
    d = black.cube_decision(match=match, probabilities=p)
    assert (pure.nd, pure.dt, pure.dp, pure.nd_mwc, pure.action, pure.take) == (d.nd, d.dt, d.dp, d.nd_mwc, d.action,
                                                                                 d.take)
    assert d.cube_class == "contact" and pure.cube_class == "given"
    with pytest.raises(ValueError, match="mover"):
        tc.decide(p, mover=2)
