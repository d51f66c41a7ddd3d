"""`tavli review FILE` and `tavli convert IN OUT`: match files reviewed and converted."""

from __future__ import annotations

import argparse
import sys

from .. import io
from .._core import IllegalMove, InvalidPosition
from .cli_args import int_in
from .cli_progress import bar_or_none


def review_main(argv: list[str]) -> int:
    from ..review import review

    p = argparse.ArgumentParser(prog="tavli review",
                                description="Review every checker play and cube decision of a match file (.mat, .sgf, .json)")
    p.add_argument("file")
    p.add_argument("--format", choices=io.FORMATS, help="the file's format (default: from its extension)")
    # The ranges review() checks, here too, so a bad value is a usage error (status 2) before the file is read.
    p.add_argument("--plies", type=int_in(0, 4), default=2, help="search depth 0..4 of the checker plays and cube decisions (default 2)")
    p.add_argument("--luck-plies", type=int_in(0, 4), default=0, help="depth of the luck evaluations, at most --plies (default 0, as gnubg)")
    p.add_argument("--threads", type=int_in(1, 256), default=1, help="search threads 1..256 (default 1)")
    p.add_argument("--rollouts", type=int_in(0), default=0, metavar="K", help="roll out the K worst plays (default 0)")
    p.add_argument("--trials", type=int_in(1), default=1296, help="trials per rollout (default 1296)")
    p.add_argument("--seed", type=int_in(0, 2**64 - 1), default=0, help="rollout seed (default 0)")
    p.add_argument("--evaluator", default="nets", help="nets (default), heuristic, or a weight file (.tnet)")
    p.add_argument("--html", metavar="OUT", help="write a single-file HTML report")
    p.add_argument("--json", metavar="OUT", help="write the review as JSON (tavli-review-v1.schema.json)")
    p.add_argument("--marked", action="store_true", help="the table shows only the marked plays")
    p.add_argument("--progress", action="store_true",
                   help="a progress bar on stderr even when it is not a terminal (a line per tenth of the plays)")
    p.add_argument("--quiet", action="store_true", help="no progress bar, no table (by default the bar shows on a terminal only)")
    args = p.parse_args(argv)
    if args.luck_plies > args.plies:
        p.error(f"argument --luck-plies: at most --plies ({args.plies}), got {args.luck_plies}")
    bar = bar_or_none("plays", args.progress, args.quiet)
    try:
        record = io.read(args.file, args.format)
        evaluator = args.evaluator
        if evaluator.endswith(".tnet"):
            from ..nn import Net

            evaluator = Net.load(evaluator)
        rv = review(record, args.plies, threads=args.threads, luck_plies=args.luck_plies, evaluator=evaluator,
                    rollouts=args.rollouts, trials=args.trials, seed=args.seed, progress=bar)
        if bar is not None:
            bar.close()
        if not args.quiet:
            sys.stdout.write(rv.table(all_moves=not args.marked))
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(rv.to_json(indent=1))
        if args.html:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(rv.html())
    except (ValueError, OSError, InvalidPosition, IllegalMove) as e:
        print(f"tavli review: error: {e}", file=sys.stderr)
        return 2
    return 0


def convert_main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="tavli convert",
                                description="Convert a match file between .mat, .sgf and .json (format by extension)")
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--from", dest="src", choices=io.FORMATS, help="input format (default: from the extension)")
    p.add_argument("--to", dest="dst", choices=io.FORMATS, help="output format (default: from the extension)")
    args = p.parse_args(argv)
    try:
        record = io.read(args.input, args.src)
        io.write(record, args.output, args.dst)
    except (ValueError, OSError, InvalidPosition, IllegalMove) as e:
        print(f"tavli convert: error: {e}", file=sys.stderr)
        return 2
    print(f"{args.output}: {len(record.games)} game{'s' if len(record.games) != 1 else ''}, "
          f"final score {record.score[0]}-{record.score[1]}")
    return 0
