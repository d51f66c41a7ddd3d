"""A review (tavli.review.Review) as a terminal table and as a single-file HTML report."""

from __future__ import annotations

import html as _html
from typing import Any

from ..board import Board
from .cube import ERROR_CLASSES as CUBE_ERROR_CLASSES

_COLOURS = {"very bad": "\033[1;31m", "bad": "\033[31m", "doubtful": "\033[33m"}
_RESET = "\033[0m"
BIG_ERRORS = ("bad", "very bad")  # the marks that get a diagram in the HTML report


def _proper(j: dict[str, Any]) -> str:
    """The right choice for the one who decides: the doubler's action, or the taker's answer."""
    return str(j["proper_answer"] if j["decision"] in ("take", "pass") else j["proper"])


def _summary_lines(rv: Any) -> list[str]:
    out = [f"{'':<26}{rv.players[0]:>18}{rv.players[1]:>18}"]
    s0, s1 = rv.summary

    def row(label: str, a: Any, b: Any) -> None:
        out.append(f"{label:<26}{a!s:>18}{b!s:>18}")

    row("checker plays", s0.moves, s1.moves)
    row("unforced", s0.unforced, s1.unforced)
    row("error rate (mEMG)", f"{s0.error_rate_memg:.1f}", f"{s1.error_rate_memg:.1f}")
    row("rating", s0.rating, s1.rating)
    for name in ("doubtful", "bad", "very bad"):
        row(f"  {name}", s0.marks[name], s1.marks[name])
    match = rv.summary[0].error_rate_mwc is not None  # a match of a game with the cube
    if match:
        row("  at the score (mEMG)", f"{s0.error_rate_memg_at_score:.1f}", f"{s1.error_rate_memg_at_score:.1f}")
        row("  in MWC (%/play)", f"{s0.error_rate_mwc:.3f}", f"{s1.error_rate_mwc:.3f}")
    row("cube decisions", s0.cube_decisions, s1.cube_decisions)
    for name in CUBE_ERROR_CLASSES:
        row(f"  {name}", (s0.cube_errors or {}).get(name, 0), (s1.cube_errors or {}).get(name, 0))
    row("cube error rate (mEMG)", f"{s0.cube_error_rate_memg:.1f}", f"{s1.cube_error_rate_memg:.1f}")
    if match:
        row("  in MWC (%/decision)", f"{s0.cube_error_rate_mwc:.3f}", f"{s1.cube_error_rate_mwc:.3f}")
    row("cube rating", s0.cube_rating, s1.cube_rating)
    row("overall error (mEMG)", f"{s0.overall_error_rate_memg:.1f}", f"{s1.overall_error_rate_memg:.1f}")
    if match:
        row("  in MWC (%/decision)", f"{s0.overall_error_rate_mwc:.3f}", f"{s1.overall_error_rate_mwc:.3f}")
    row("overall rating", s0.overall_rating, s1.overall_rating)
    row("luck (EMG, total)", f"{s0.luck_total:+.3f}", f"{s1.luck_total:+.3f}")
    row("luck rate (mEMG/roll)", f"{s0.luck_rate_memg:+.1f}", f"{s1.luck_rate_memg:+.1f}")
    row("points won", s0.points_won, s1.points_won)
    row("luck-adjusted result", f"{s0.luck_adjusted:+.2f}", f"{s1.luck_adjusted:+.2f}")
    return out


def table(rv: Any, colour: bool = False, all_moves: bool = True) -> str:
    """The review as text: every play (or only the marked ones), the cube actions, the summary."""
    head = (f"{rv.kind} {'money session' if rv.length == 0 else f'{rv.length}-point match'}: "
            f"{rv.players[0]} vs {rv.players[1]}, checker plays at {rv.plies} plies, luck at {rv.luck_plies}")
    lines = [head, ""]
    match = rv.summary[0].error_rate_mwc is not None  # a match of a game with the cube
    lines.append(f"{'game':>4} {'turn':>4} {'player':<12} {'roll':<4} {'played':<26} {'best':<26} "
                 f"{'loss mp':>8}" + (f" {'MWC %':>6}" if match else "") + f" {'mark':<9} {'luck':>6}")
    for m in rv.moves:
        if not all_moves and not m.mark:
            continue
        line = (f"{m.game:>4} {m.turn:>4} {rv.players[m.player][:12]:<12} {m.dice[0]}{m.dice[1]:<3} "
                f"{(m.played or 'pass')[:26]:<26} {(m.best or 'pass')[:26] if m.loss else '':<26} "
                f"{m.loss_mp:>8.1f}" + (f" {m.mwc or 0.0:>6.2f}" if match else "") + f" {m.mark:<9} {m.luck:>+6.3f}")
        if colour and m.mark:
            line = _COLOURS[m.mark] + line + _RESET
        lines.append(line)
    if rv.cube:
        lines += ["", "cube decisions (EMG for the player on roll; a No double listed where it counts as a decision):",
                  f"{'game':>4} {'turn':>4} {'player':<12} {'decision':<14} {'proper':<26} {'ND':>7} {'D/T':>7} "
                  f"{'D/P':>7} {'loss mp':>8}" + (f" {'MWC %':>6}" if match else "") + f" {'mark':<9} error"]
        for c in rv.cube:
            j = c.judgement or {}
            what = f"double to {c.value}" if c.action == "double" else {"drop": "pass"}.get(c.action, c.action)
            if "nd" not in j:  # a judge of the caller's (cube_judge)
                lines.append(f"{c.game:>4} {c.turn:>4} {rv.players[c.player][:12]:<12} {what:<14} {j!s:.60}")
                continue
            line = (f"{c.game:>4} {c.turn:>4} {rv.players[c.player][:12]:<12} {what:<14} {_proper(j):<26} "
                    f"{j['nd']:>+7.3f} {j['dt']:>+7.3f} {j['dp']:>+7.3f} {j['loss_mp']:>8.1f}"
                    + (f" {j['loss_mwc'] or 0.0:>6.2f}" if match else "") + f" {j['mark']:<9} {j['error']}")
            if colour and j["mark"]:
                line = _COLOURS[j["mark"]] + line + _RESET
            lines.append(line)
    lines += [""] + _summary_lines(rv)
    lines.append(f"\n{len(rv.moves)} plays in {rv.seconds:.2f} s ({1000 * rv.seconds_per_move:.1f} ms per play, "
                 f"{rv.threads} thread{'s' if rv.threads != 1 else ''})")
    return "\n".join(lines) + "\n"


def html(rv: Any) -> str:
    """One HTML file: the summary, every play, and an SVG board (play made solid, best dashed) for
    each bad or very bad play."""
    from ..io.svg import board_svg

    e = _html.escape
    rows = []
    diagrams = []
    match = rv.summary[0].error_rate_mwc is not None  # a match of a game with the cube
    for i, m in enumerate(rv.moves):
        cls = m.mark.replace(" ", "-")
        link = ""
        if m.mark in BIG_ERRORS:
            board = Board.from_id(m.position)
            svg = board_svg(board, dice=m.dice, play=board.parse_play(m.played or "pass", m.dice) if m.played else None,
                            best=board.parse_play(m.best, m.dice) if m.best else None, viewer=m.player, width=560)
            svg = svg.split("?>", 1)[1]  # inline: no XML declaration
            anchor = f"err{i}"
            link = f' <a href="#{anchor}">board</a>'
            diagrams.append(
                f'<section id="{anchor}" class="diagram"><h3>Game {m.game}, turn {m.turn}: '
                f'{e(rv.players[m.player])} rolls {m.dice[0]}{m.dice[1]}</h3>'
                f'<p>Played <b class="made">{e(m.played or "pass")}</b> ({m.equity_played:+.3f}), best '
                f'<b class="bestplay">{e(m.best)}</b> ({m.equity_best:+.3f}): {m.loss_mp:.0f} millipoints, {e(m.mark)}.</p>'
                f'{svg}<p class="id">{e(m.position)}' + (f" · gnubg {e(m.gnubg_id)}" if m.gnubg_id else "") + "</p></section>")
        rows.append(f'<tr class="{cls}"><td>{m.game}</td><td>{m.turn}</td><td>{e(rv.players[m.player])}</td>'
                    f'<td>{m.dice[0]}{m.dice[1]}</td><td>{e(m.played or "pass")}</td>'
                    f'<td>{e(m.best) if m.loss else ""}</td><td>{m.loss_mp:.1f}</td>'
                    + (f'<td>{m.mwc or 0.0:.2f}</td>' if match else "") + f'<td>{e(m.mark)}{link}</td>'
                    f'<td>{m.luck:+.3f}</td><td>{e(m.luck_mark)}</td></tr>')
    summary = "\n".join(_summary_lines(rv))
    cube_rows = []
    for c in rv.cube:
        j = c.judgement or {}
        what = f"double to {c.value}" if c.action == "double" else {"drop": "pass"}.get(c.action, c.action)
        head = f'<td>{c.game}</td><td>{c.turn}</td><td>{e(rv.players[c.player])}</td><td>{e(what)}</td>'
        if "nd" not in j:
            cube_rows.append(f'<tr>{head}<td colspan="8">{e(str(j) if j else "")}</td></tr>')
            continue
        mwc = (f' ({j["nd_mwc"]:.1f}%)', f' ({j["dt_mwc"]:.1f}%)', f' ({j["dp_mwc"]:.1f}%)') if match else ("", "", "")
        cube_rows.append(
            f'<tr class="{j["mark"].replace(" ", "-")}">{head}<td>{e(_proper(j))}</td>'
            f'<td>{j["nd"]:+.3f}{mwc[0]}</td><td>{j["dt"]:+.3f}{mwc[1]}</td><td>{j["dp"]:+.3f}{mwc[2]}</td>'
            f'<td>{j["loss_mp"]:.1f}</td>' + (f'<td>{j["loss_mwc"]:.2f}</td>' if match else "")
            + f'<td>{e(j["mark"])}</td><td>{e(j["error"])}</td></tr>')
    cube_head = ("<tr><th>game</th><th>turn</th><th>player</th><th>decision</th><th>proper</th><th>No double</th>"
                 "<th>Double/take</th><th>Double/pass</th><th>loss mp</th>" + ("<th>MWC %</th>" if match else "")
                 + "<th>mark</th><th>error</th></tr>")
    cube = f"<table>{cube_head}{''.join(cube_rows)}</table>" if cube_rows else "<p>none</p>"
    title = f"Review: {rv.players[0]} vs {rv.players[1]}"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; font-size: 14px; }}
td, th {{ padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: left; }}
tr.doubtful td {{ background: #fff6d5; }} tr.bad td {{ background: #ffd9c2; }} tr.very-bad td {{ background: #ffb3b3; }}
pre {{ background: #f4f4f4; padding: 1em; }}
b.made {{ color: #c77400; }} b.bestplay {{ color: #1478a0; }}
section.diagram {{ margin: 2em 0; }} p.id {{ font-family: monospace; font-size: 12px; color: #666; }}
</style></head><body>
<h1>{e(title)}</h1>
<p>{e(rv.kind)}, {'money session' if rv.length == 0 else f'{rv.length}-point match'}; checker plays at {rv.plies} plies,
luck at {rv.luck_plies}; {len(rv.moves)} plays in {rv.seconds:.2f} s ({1000 * rv.seconds_per_move:.1f} ms per play).
Marks and ratings with gnubg's default thresholds. In the diagrams the play made is drawn solid, the best play dashed.</p>
<pre>{e(summary)}</pre>
<h2>Cube decisions</h2><p>At {rv.plies} plies (the cubeless probabilities through the 0-ply cubeful formula);
equities EMG for the player on roll{', MWC in brackets' if match else ''}; a No double is listed where gnubg counts it
(close or a missed double).</p>
{cube}
<h2>Plays</h2>
<table><tr><th>game</th><th>turn</th><th>player</th><th>roll</th><th>played</th><th>best</th><th>loss mp</th>{'<th>MWC %</th>' if match else ''}<th>mark</th><th>luck</th><th></th></tr>
{chr(10).join(rows)}
</table>
<h2>Big errors</h2>
{chr(10).join(diagrams) or '<p>none</p>'}
</body></html>
"""
