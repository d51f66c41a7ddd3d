"""The subcommands of `tavli` that analyse and play: their arguments, each checked by its argparse
type (tavli.frontends.cli_args) so a bad value exits with status 2 before any work."""

from __future__ import annotations

import argparse

from .._base.limits import FRONTEND_TIME_LIMIT
from . import cli_args

POSITION_HELP = ("a tavli position ID (fevga:AQAP...), a GNU Backgammon Position ID or PositionID:MatchID, "
                 "or an XGID (default: a built-in middle-game position)")


def _variants() -> list[str]:
    from .. import variants

    return list(variants())


def _position(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", nargs="?", help=POSITION_HELP)
    p.add_argument("--id", help="the position, as an option (the same forms as POSITION)")
    p.add_argument("--variant", choices=_variants(), metavar="GAME",
                   help="game (default fevga; backgammon for a GNU or XG ID; a tavli ID names its own game)")
    p.add_argument("--start", action="store_true", help="use the starting position")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="rule option (docs/rules/options.md); not with a tavli ID, which names its options")


def _search(p: argparse.ArgumentParser, plies: int, what: str) -> None:
    p.add_argument("--plies", type=cli_args.plies, default=plies, help=f"search depth 0..32 (default {plies})")
    p.add_argument("--threads", type=cli_args.threads, default=1, help="threads at the root (default 1)")
    p.add_argument("--time-limit", type=cli_args.seconds, default=FRONTEND_TIME_LIMIT,
                   help=f"seconds {what} (default {FRONTEND_TIME_LIMIT:g}; 0: no limit); the deepest finished "
                        "depth is shown")
    p.add_argument("--evaluator", default="nets",
                   help="nets (default: the game's shipped net), heuristic, or a weight file (.tnet)")


def _cube(p: argparse.ArgumentParser, prints: str = "prints the 0-ply cube decision") -> None:
    p.add_argument("--cube", help="cube VALUE[:OWNER], owner white, black, mover, opponent or centre "
                   f"(backgammon, nackgammon, hypergammon); {prints}")
    p.add_argument("--score", help="match score WHITE-BLACK, e.g. 2-4 (with --length)")
    p.add_argument("--length", type=cli_args.int_in(0), help="match length (0 = money play)")
    p.add_argument("--crawford", action="store_true", help="this is the Crawford game")
    p.add_argument("--jacoby", action="store_true", help="money play with the Jacoby rule")
    p.add_argument("--beavers", action="store_true", help="money play with beavers")


def _progress(p: argparse.ArgumentParser, unit: str) -> None:
    p.add_argument("--progress", action="store_true",
                   help=f"a progress bar on stderr even when it is not a terminal (a line per tenth of the {unit})")
    p.add_argument("--quiet", action="store_true", help="no progress bar (by default one on a terminal only)")


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .cli_analyze import cmd_analyze, cmd_perft, cmd_plays
    from .cli_eval import cmd_eval, cmd_rollout
    from .cli_simulate import cmd_simulate

    p = sub.add_parser("plays", help="legal plays of a position for one roll or all 21")
    _position(p)
    p.add_argument("--dice", type=cli_args.dice, help="a roll such as 6-5 (default: all 21 rolls)")
    p.add_argument("--limit", type=cli_args.int_in(0), default=12, help="plays shown per roll (default 12)")
    p.add_argument("--all", action="store_true", help="show every play")
    p.set_defaults(func=cmd_plays, parser=p)

    p = sub.add_parser("analyze", help="rank the legal plays of a roll by expectiminimax search")
    _position(p)
    p.add_argument("--dice", type=cli_args.dice, help="a roll such as 6-5 (default 6-5)")
    _search(p, 2, "per roll")
    p.add_argument("--limit", type=cli_args.int_in(0), default=10, help="plays shown (default 10)")
    p.add_argument("--all", action="store_true", help="show every play")
    _cube(p)
    p.add_argument("--cubeful", action="store_true",
                   help="rank the plays by the cubeful search with the cube and score (backgammon, nackgammon, "
                   "hypergammon; plies 0..8); without it a match score ranks them by match winning chance")
    p.set_defaults(func=cmd_analyze, parser=p)

    p = sub.add_parser("eval", help="evaluate a position before the roll by search (and its cube decision)")
    _position(p)
    _search(p, 2, "for the search")
    _cube(p)
    p.set_defaults(func=cmd_eval, parser=p)

    p = sub.add_parser("rollout", help="estimate a position before the roll by playing it out many times")
    _position(p)
    p.add_argument("--trials", type=cli_args.int_in(1, 10_000_000), default=1296,
                   help="games played out (default 1296; the first two rolls are stratified, use multiples of 36)")
    p.add_argument("--player", default="greedy",
                   help="the play on both sides: greedy (default), heuristic, random, search:N, heuristic:N")
    p.add_argument("--truncate", type=cli_args.int_in(1), help="value each trial by the evaluator after so many plies")
    p.add_argument("--evaluator", help="heuristic, nets or a weight file: values truncated trials and replaces "
                   "the player's evaluator (default: the player's own)")
    p.add_argument("--seed", type=cli_args.seed, default=0, help="seed (default 0); trial i uses (seed, i)")
    p.add_argument("--threads", type=cli_args.threads, default=1,
                   help="threads (default 1; the result does not depend on them)")
    p.add_argument("--variance-reduction", action="store_true",
                   help="gnubg's luck adjustment: each trial less the luck of its rolls (a lookahead over the 21 "
                        "rolls at the player's depth): a smaller standard error for about 20 times the work per "
                        "trial (greedy and search players)")
    p.add_argument("--luck", help="with --variance-reduction: value each roll's luck by this evaluator's 0-ply "
                   "lookahead instead (nets, heuristic or a weight file): for a search:N player nearly the same "
                   "standard error for a small part of the work")
    p.add_argument("--time-limit", type=cli_args.seconds, default=0.0,
                   help="seconds (default 0: no limit; the bar shows how far it is); when it runs out, or on "
                        "Ctrl-C, the trials finished so far are reported")
    p.add_argument("--dice", type=cli_args.dice,
                   help="roll out the plays of this roll instead (a roll such as 6-5): each candidate's result on "
                        "the same dice, best first, with each play's difference from the best and its paired 95%% "
                        "interval; cubefully with the cube flags below (one call: no bar; the time limit or Ctrl-C "
                        "stops it without a result)")
    p.add_argument("--candidates", type=cli_args.int_in(1, 1024), default=5,
                   help="with --dice: the plays rolled out, the best N by a 0-ply analysis (default 5)")
    p.add_argument("--all", action="store_true", help="with --dice: roll out every legal play")
    p.add_argument("--eliminate", type=float, metavar="Z",
                   help="with --dice: after every 144 trials stop rolling out a play that trails the leader by more "
                        "than Z standard errors of their difference (and stop when one is left)")
    _progress(p, "trials")
    _cube(p, "with any of these flags (or a position that carries the cube) a cubeful rollout of the cube "
             "decision: No double and Double/take on the same dice")
    p.set_defaults(func=cmd_rollout, parser=p)

    p = sub.add_parser("simulate", help="self-play many games in C++ threads and summarise the results")
    p.add_argument("--variant", choices=_variants(), metavar="GAME", default="fevga", help="game (default fevga)")
    p.add_argument("--games", type=cli_args.int_in(1, 100_000_000), default=10000, help="games (default 10000)")
    p.add_argument("--players", default="greedy,random",
                   help="white,black: random, greedy (the game's net), heuristic, search:N, heuristic:N")
    p.add_argument("--threads", type=cli_args.threads, default=1,
                   help="threads (default 1; the results do not depend on them)")
    p.add_argument("--seed", type=cli_args.seed, default=0, help="seed (default 0)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE", help="rule option")
    _progress(p, "games")
    p.set_defaults(func=cmd_simulate, parser=p)

    p = sub.add_parser("perft", help="distinct plays over all rolls, recursively")
    _position(p)
    p.add_argument("--depth", type=cli_args.int_in(1, 64), default=2, help="plies, at least 1 (default 2)")
    p.set_defaults(func=cmd_perft, parser=p)
