"""Command line: `tavli analyze` ranks the plays of a roll, `tavli plays` lists the legal plays,
`tavli perft` counts them.

With no arguments, `tavli` analyses a built-in Fevga middle-game position (reached by seeded
random self-play, so it is the same everywhere) for the roll 6-5 at 2 plies.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from . import Board, random_positions
from ._base.limits import FRONTEND_TIME_LIMIT
from ._core import IllegalMove, InvalidPosition

DEFAULT_SEED = 2026
DEFAULT_PLY = 24


def default_board(variant: str = "fevga", **options) -> Board:
    rows, _ = random_positions(variant, DEFAULT_PLY + 1, seed=DEFAULT_SEED, **options)
    return Board.from_array(rows[DEFAULT_PLY], variant, **options)


def _options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for item in pairs:
        if "=" not in item:
            raise ValueError(f"option {item!r}: expected name=value")
        name, value = item.split("=", 1)
        out[name] = value
    return out


def _is_foreign_id(text: str) -> bool:
    """An XGID or gnubg's "PositionID:MatchID" (they carry the cube and the score)."""
    import re

    return text.startswith("XGID=") or re.fullmatch(r"[A-Za-z0-9+/]{14}:[A-Za-z0-9+/]{12}", text) is not None


def _board(args: argparse.Namespace) -> Board:
    if args.id:
        if args.option:
            raise ValueError("--option cannot be combined with --id (the ID names its options)")
        if _is_foreign_id(args.id):
            from .cube import parse_position

            return parse_position(args.id, args.variant if args.variant != "fevga" else "backgammon")[0]
        return Board.from_id(args.id)
    options = _options(args.option)
    if args.start:
        return Board(args.variant, **options)
    return default_board(args.variant, **options)


def _rolls(dice: str | None) -> list[tuple[int, int]]:
    if dice:
        from ._dice import parse_dice

        return [parse_dice(dice)]
    return [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]


def cmd_plays(args: argparse.Namespace) -> int:
    board = _board(args)
    print(board)
    print()
    total = 0
    for dice in _rolls(args.dice):
        plays = board.legal_plays(dice)
        total += len(plays)
        shown = plays if args.all or len(plays) <= args.limit else plays[: args.limit]
        print(f"{dice[0]}-{dice[1]}: {len(plays)} legal play{'s' if len(plays) != 1 else ''}")
        for p in shown:
            print(f"    {p}")
        if len(shown) < len(plays):
            print(f"    ... {len(plays) - len(shown)} more (--all to list them)")
    if not args.dice:
        print(f"\n{total} distinct plays over the 21 rolls")
    return 0


def _evaluator(name: str):
    """--evaluator: "nets" (the default: the game's shipped net), "heuristic", or a weight file."""
    if name in ("nets", "heuristic"):
        return None if name == "nets" else name
    from .nn import Net

    return Net.load(name)


def _describe_evaluator(evaluator, variant: str) -> str:
    from .nn import Net, family, shipped_manifest

    if isinstance(evaluator, Net):
        return f"net {evaluator.family} {evaluator.inputs}-{evaluator.hidden}-5 ({evaluator.encoding})"
    if evaluator == "heuristic":
        return "heuristic"
    entry = shipped_manifest().get(family(variant))
    if entry is None or variant not in entry["variants"]:
        return "heuristic (no shipped net serves this game)"
    layers = "-".join(map(str, entry["layers"]))
    return f"shipped {entry['trained_on']} net {layers} ({entry['encoding']}, {entry['games']:,} self-play games)"


def cmd_analyze(args: argparse.Namespace) -> int:
    if args.position:
        if args.id:
            raise ValueError("give the position once: as the argument or with --id")
        args.id = args.position
    board = _board(args)
    print(board)
    print()
    if board.is_game_over():
        print(f"the game is over: {board.outcome()}")
        return 0
    evaluator = _evaluator(args.evaluator)
    ev = board.evaluate(plies=min(args.plies, 2), evaluator=evaluator)
    p = ev.probabilities
    print(f"evaluator: {_describe_evaluator(evaluator, board.variant)}")
    print(f"before the roll ({ev.plies}-ply): equity {ev.equity:+.3f}  win {p.win:.3f}  "
          f"win2 {p.win_double:.3f}  lose2 {p.lose_double:.3f}")
    state = _cube_and_match(args, board)
    if state is not None:
        _print_cube_decision(board, *state, p, min(args.plies, 2))
    for dice in _rolls(args.dice or "6-5"):
        t0 = time.perf_counter()
        if state is not None and not state[1].money:  # ranked by match winning chance (tavli.match_play)
            from .match_play import as_analysis

            a = as_analysis(board, dice, state[1], args.plies, threads=args.threads, evaluator=evaluator)
        else:
            a = board.analyze(dice, plies=args.plies, threads=args.threads, time_limit=args.time_limit,
                              evaluator=evaluator)
        dt = time.perf_counter() - t0
        print(f"\n{dice[0]}-{dice[1]}: {len(a)} legal play{'s' if len(a) != 1 else ''}, {a.plies}-ply, "
              f"{a.nodes:,} evaluations, {dt * 1e3:.1f} ms{' (interrupted)' if a.interrupted else ''}")
        print(f"    {'#':>3} {'play':<28} {'equity':>8} {'win':>6} {'win2':>6} {'win3':>6} {'lose2':>6} {'lose3':>6}  ply")
        best = a[0].equity
        for i, ap in enumerate(a[: args.limit if not args.all else None]):
            q = ap.probabilities
            diff = "" if i == 0 else f" ({ap.equity - best:+.3f})"
            print(f"    {i + 1:>3} {str(ap.play):<28} {ap.equity:>+8.3f} {q.win:6.3f} {q.win_double:6.3f} "
                  f"{q.win_triple:6.3f} {q.lose_double:6.3f} {q.lose_triple:6.3f}  {ap.plies}{diff}")
        if len(a) > args.limit and not args.all:
            print(f"    ... {len(a) - args.limit} more (--all to list them)")
    return 0


def _cube_and_match(args: argparse.Namespace, board: Board):
    """The cube and match state from --cube/--score/--length/--crawford/--jacoby/--beavers and an
    XGID or "PositionID:MatchID" position (the flags override it); None when none was given."""
    from .cube import CubeState, MatchState, parse_position

    flags = (args.cube, args.score, args.length, args.crawford, args.jacoby, args.beavers)
    from_id = bool(args.id) and _is_foreign_id(args.id)
    if not from_id and not any(f not in (None, False) for f in flags):
        return None
    cube, match = (parse_position(args.id, board.variant)[1:] if from_id else (CubeState(), MatchState()))
    value, owner = cube.value, cube.owner
    if args.cube is not None:
        text, _, who = args.cube.partition(":")
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"--cube: VALUE[:OWNER] such as 2:white, got {args.cube!r}") from None
        owners = {"": None, "centre": None, "center": None, "centred": None, "white": 0, "black": 1,
                  "mover": board.turn, "opponent": 1 - board.turn}
        if who.lower() not in owners:
            raise ValueError(f"--cube owner must be white, black, mover, opponent or centre, got {who!r}")
        owner = owners[who.lower()]
    length = match.length if args.length is None else args.length
    score = match.score
    if args.score is not None:
        try:
            a, _, b = args.score.partition("-")
            score = (int(a), int(b))
        except ValueError:
            raise ValueError(f"--score: WHITE-BLACK such as 2-4, got {args.score!r}") from None
    crawford = match.crawford or args.crawford
    cube = CubeState(value, owner=owner, jacoby=cube.jacoby or args.jacoby, beavers=cube.beavers or args.beavers,
                     max_cube=cube.max_cube if length == 0 else 0)
    match = MatchState(length, score, crawford)
    from . import _core

    _core._validate_cube_for(board.variant, cube, match)
    return cube, match


def _print_cube_decision(board: Board, cube, match, probabilities, plies: int) -> None:
    from . import _core

    where = "money" if match.money else (f"{match.length}-point match, white {match.score[0]} black "
                                         f"{match.score[1]}{', Crawford' if match.crawford else ''}")
    print(f"cube {cube.value}{'' if cube.owner is None else ' owned by ' + ('white', 'black')[cube.owner]}, {where}")
    if not _core._variant_takes_cube(board.variant):
        print("(no doubling cube in this game; plays ranked by match winning chance at the score)")
        return
    d = board.cube_decision(cube, match, probabilities=probabilities)
    mwc = lambda v: "" if v is None else f"  (MWC {v:.4f})"  # noqa: E731
    print(f"cube decision (cubeless {plies}-ply probabilities, 0-ply cubeful, efficiency {d.efficiency:.3f}):")
    print(f"    no double    {d.nd:+.4f}{mwc(d.nd_mwc)}")
    if d.available:
        print(f"    double/take  {d.dt:+.4f}{mwc(d.dt_mwc)}")
        print(f"    double/pass  {d.dp:+.4f}{mwc(d.dp_mwc)}")
    print(f"    proper action: {d.action}" + (f"; the opponent would {d.take}" if d.available else ""))


def _progress_bar(done: int, total: int, t0: float) -> None:
    width = 30
    frac = done / total if total else 1.0
    rate = done / max(time.perf_counter() - t0, 1e-9)
    bar = "#" * int(width * frac) + "-" * (width - int(width * frac))
    print(f"\r[{bar}] {done:,}/{total:,} games  {rate:,.0f}/s", end="", file=sys.stderr, flush=True)


def cmd_simulate(args: argparse.Namespace) -> int:
    from .sim import KINDS, simulate

    players = [p.strip() for p in args.players.split(",")]
    if len(players) != 2:
        raise ValueError("--players: two players separated by a comma, e.g. random,greedy")
    t0 = time.perf_counter()
    try:
        r = simulate(args.variant, args.games, players, seed=args.seed, threads=args.threads,
                     progress=None if args.quiet else (lambda d, t: _progress_bar(d, t, t0)),
                     chunk=max(1, min(4096, args.games // 50 or 1)), **_options(args.option))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    dt = time.perf_counter() - t0
    if not args.quiet:
        print(file=sys.stderr)
    n = len(r["winner"])
    print(f"{args.variant}: {n:,} games, {players[0]} (white) v {players[1]} (black), seed {args.seed}, "
          f"{args.threads} thread{'s' if args.threads != 1 else ''}: {dt:.2f} s, {n / max(dt, 1e-9):,.0f} games/s")
    decided = r["winner"] >= 0
    print(f"\n{'player':<22} {'wins':>8} {'win rate':>9} {'95% CI':>17} {'points/game':>12}")
    for side, name in enumerate(players):
        wins = int((r["winner"] == side).sum())
        p = wins / max(int(decided.sum()), 1)
        hw = 1.96 * (p * (1 - p) / max(int(decided.sum()), 1)) ** 0.5
        signed = np.where(r["winner"] == side, r["points"], np.where(r["winner"] == 1 - side, -r["points"], 0))
        print(f"{name + (' (white)' if side == 0 else ' (black)'):<22} {wins:>8,} {p:>9.3f} "
              f"[{p - hw:.3f}, {p + hw:.3f}] {signed.mean():>12.3f}")
    print(f"\nmean length {r['plies'].mean():.1f} plies; starter won {np.mean(r['winner'][decided] == r['starter'][decided]):.3f}")
    kinds = ", ".join(f"{KINDS[k]} {np.mean(r['kind'] == k):.3f}" for k in sorted(set(r["kind"].tolist())))
    print(f"results: {kinds}")
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    board = _board(args)
    print(board)
    print()
    for depth in range(1, args.depth + 1):
        t0 = time.perf_counter()
        n = board.perft(depth)
        dt = time.perf_counter() - t0
        print(f"perft({depth}) = {n:>14,d}   {dt:8.3f} s")
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    from .svg import render_cli

    return render_cli(args.rest)


def cmd_ubgi(args: argparse.Namespace) -> int:
    from .ubgi import main as ubgi_main

    return ubgi_main(args.rest)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .server.app import serve
    except ImportError as e:  # the server is an optional extra
        print(f"tavli serve needs the server extra: pip install \"tavli[server]\" ({e})", file=sys.stderr)
        return 2
    serve(host=args.host, port=args.port, workers=args.workers, queue=args.queue)
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from .frontends.review_cli import review_main

    return review_main(args.rest)


def cmd_convert(args: argparse.Namespace) -> int:
    from .frontends.review_cli import convert_main

    return convert_main(args.rest)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # Front ends with their own argument parsers get everything after their name, options first too.
    passthrough = {"render": cmd_render, "ubgi": cmd_ubgi, "review": cmd_review, "convert": cmd_convert}
    if argv and argv[0] in passthrough:
        return passthrough[argv[0]](argparse.Namespace(rest=argv[1:]))
    parser = argparse.ArgumentParser(prog="tavli", description="tavli: an engine for the tables games")
    sub = parser.add_subparsers(dest="command")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--variant", default="fevga", help="game (default fevga)")
        p.add_argument("--id", help="position ID (see Board.id()); default: a built-in middle-game position")
        p.add_argument("--start", action="store_true", help="use the starting position")
        p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE", help="rule option")

    p_plays = sub.add_parser("plays", help="legal plays of a position for one roll or all 21")
    common(p_plays)
    p_plays.add_argument("--dice", help="a roll such as 6-5 (default: all 21 rolls)")
    p_plays.add_argument("--limit", type=int, default=12, help="plays shown per roll (default 12)")
    p_plays.add_argument("--all", action="store_true", help="show every play")
    p_plays.set_defaults(func=cmd_plays)

    p_an = sub.add_parser("analyze", help="rank the legal plays of a roll by expectiminimax search")
    p_an.add_argument("position", nargs="?", help="position ID (default: a built-in middle-game position)")
    common(p_an)
    p_an.add_argument("--dice", help="a roll such as 6-5 (default 6-5)")
    p_an.add_argument("--plies", type=int, default=2, help="search depth (default 2)")
    p_an.add_argument("--threads", type=int, default=1, help="threads at the root (default 1)")
    p_an.add_argument("--time-limit", type=float, default=FRONTEND_TIME_LIMIT,
                      help=f"seconds per roll (default {FRONTEND_TIME_LIMIT:g}; 0: no limit); the deepest finished "
                           "depth is shown")
    p_an.add_argument("--limit", type=int, default=10, help="plays shown (default 10)")
    p_an.add_argument("--all", action="store_true", help="show every play")
    p_an.add_argument("--evaluator", default="nets",
                      help="nets (default: the game's shipped net), heuristic, or a weight file (.tnet)")
    p_an.add_argument("--cube", help="cube VALUE[:OWNER], owner white, black, mover, opponent or centre "
                      "(backgammon, nackgammon, hypergammon); prints the 0-ply cube decision")
    p_an.add_argument("--score", help="match score WHITE-BLACK, e.g. 2-4 (with --length)")
    p_an.add_argument("--length", type=int, help="match length (0 = money play)")
    p_an.add_argument("--crawford", action="store_true", help="this is the Crawford game")
    p_an.add_argument("--jacoby", action="store_true", help="money play with the Jacoby rule")
    p_an.add_argument("--beavers", action="store_true", help="money play with beavers")
    p_an.set_defaults(func=cmd_analyze)

    p_sim = sub.add_parser("simulate", help="self-play many games in C++ threads and summarise the results")
    p_sim.add_argument("--variant", default="fevga", help="game (default fevga)")
    p_sim.add_argument("--games", type=int, default=10000)
    p_sim.add_argument("--players", default="greedy,random",
                       help="white,black: random, greedy (the game's net), heuristic, search:N, heuristic:N")
    p_sim.add_argument("--threads", type=int, default=1)
    p_sim.add_argument("--seed", type=int, default=0)
    p_sim.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE", help="rule option")
    p_sim.add_argument("--quiet", action="store_true", help="no progress bar")
    p_sim.set_defaults(func=cmd_simulate)

    p_perft = sub.add_parser("perft", help="distinct plays over all rolls, recursively")
    common(p_perft)
    p_perft.add_argument("--depth", type=int, default=2, help="plies (default 2)")
    p_perft.set_defaults(func=cmd_perft)

    # Front ends (their own argument parsing: `tavli render -h`, `tavli ubgi -h`).
    p_render = sub.add_parser("render", help="draw a position as SVG (tavli render ID -o board.svg)", add_help=False)
    p_render.add_argument("rest", nargs=argparse.REMAINDER)
    p_render.set_defaults(func=cmd_render)
    p_ubgi = sub.add_parser("ubgi", help="engine line protocol on stdin/stdout (UBGI, docs/ubgi.md)", add_help=False)
    p_ubgi.add_argument("rest", nargs=argparse.REMAINDER)
    p_ubgi.set_defaults(func=cmd_ubgi)
    p_review = sub.add_parser("review", help="review a match file: errors, ratings, luck (tavli review FILE)",
                              add_help=False)
    p_review.add_argument("rest", nargs=argparse.REMAINDER)
    p_review.set_defaults(func=cmd_review)
    p_convert = sub.add_parser("convert", help="convert a match file: .mat, .sgf, .json (tavli convert IN OUT)",
                               add_help=False)
    p_convert.add_argument("rest", nargs=argparse.REMAINDER)
    p_convert.set_defaults(func=cmd_convert)
    p_serve = sub.add_parser("serve", help="HTTP API and the web page (needs tavli[server])")
    p_serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p_serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p_serve.add_argument("--workers", type=int, default=None, help="engine threads (default: the CPUs); every "
                         "request is capped at 5 CPU seconds (docs/server.md)")
    p_serve.add_argument("--queue", type=int, default=None,
                         help="requests that may wait for a worker (default 8 per worker, at least 32); more get 503")
    p_serve.set_defaults(func=cmd_serve)

    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["analyze"] + argv)
    try:
        return args.func(args)
    except (ValueError, InvalidPosition, IllegalMove) as e:
        print(f"tavli: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
