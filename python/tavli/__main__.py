"""Command line: `tavli analyze` ranks the plays of a roll, `tavli eval` and `tavli rollout` value a
position, `tavli plays` lists the legal plays, `tavli perft` counts them, `tavli simulate` plays
games; render, ubgi, review, convert and serve are the front ends (docs/cli.md).

With no arguments (or only options), `tavli` analyses a built-in Fevga middle-game position (reached by seeded
random self-play, so it is the same everywhere) for the roll 6-5 at 2 plies.

This module only dispatches: the commands live in tavli.frontends.cli_*.
"""

from __future__ import annotations

import argparse
import sys

from . import __version__
from ._core import IllegalMove, InvalidPosition
from .frontends import cli_args
from .frontends.cli_defaults import DEFAULT_PLY, DEFAULT_SEED, default_board  # noqa: F401 (public before)
from .frontends.cli_parser import add_commands


def cmd_render(args: argparse.Namespace) -> int:
    from .frontends.cli_position import read_position
    from .io.svg import render_cli

    return render_cli(args.rest, read_board=lambda text: read_position(text, None, {}).board)


def cmd_ubgi(args: argparse.Namespace) -> int:
    from .ubgi import main as ubgi_main

    return ubgi_main(args.rest)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .server.app import serve
        from .server.cors import checked_origins
    except ImportError as e:  # the server is an optional extra
        print(f"tavli serve needs the server extra: pip install \"tavli[server]\" ({e})", file=sys.stderr)
        return 2
    try:
        origins = checked_origins(args.cors_origins)
    except ValueError as e:
        print(f"tavli serve: error: argument --cors-origin: {e}", file=sys.stderr)
        return 2
    serve(host=args.host, port=args.port, workers=args.workers, queue=args.queue, cors_origins=origins)
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
    parser.add_argument("--version", action="version", version=f"tavli {__version__}")
    sub = parser.add_subparsers(dest="command")
    add_commands(sub)

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
    p_serve.add_argument("--port", type=cli_args.port, default=8000, help="port (default 8000)")
    p_serve.add_argument("--workers", type=cli_args.threads, default=None, help="engine threads (default: the CPUs); every "
                         "request is capped at 5 CPU seconds (docs/server.md)")
    p_serve.add_argument("--queue", type=cli_args.int_in(0), default=None,
                         help="requests that may wait for a worker (default 8 per worker, at least 32); more get 503")
    p_serve.add_argument("--cors-origin", dest="cors_origins", action="append", default=[], metavar="ORIGIN",
                         help="let pages from this web origin (https://host[:port], or * for any) call the API "
                         "from a browser (CORS); repeatable; default: none")
    p_serve.set_defaults(func=cmd_serve)

    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        argv = ["analyze"] + argv  # options without a command are analyze's (`tavli --plies 3`)
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["analyze"] + argv)
    try:
        code: int = args.func(args)  # the command's exit status
        return code
    except (ValueError, InvalidPosition, IllegalMove) as e:
        # The commands check their arguments before they start: argparse's form (usage, exit 2), returned.
        failed = getattr(args, "parser", parser)
        failed.print_usage(sys.stderr)
        print(f"{failed.prog}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
