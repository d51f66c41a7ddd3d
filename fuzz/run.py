"""Runs the atheris harness fuzz_inputs.py for a while over the seed corpus; exits non-zero on a finding.

    PYTHONPATH=python python fuzz/run.py --seconds 30
    PYTHONPATH=python python fuzz/run.py --seconds 60 --skip-known --artifacts /tmp/tavli-crashes
    PYTHONPATH=python python fuzz/run.py --seconds 30 -- -seed=1 -max_len=2048   # more libFuzzer flags

New corpus inputs go to a temporary directory (deleted afterwards unless --keep-corpus); the
committed seeds in fuzz/corpus/ are only read. A finding leaves a crash-<sha1> file in the artifact
directory (a temporary one unless --artifacts); replay it with
`PYTHONPATH=python python fuzz/fuzz_inputs.py <file>`.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=30, help="total fuzzing time (libFuzzer -max_total_time)")
    ap.add_argument("--timeout", type=int, default=10, help="seconds one input may run before it counts as a hang")
    ap.add_argument("--rss-limit-mb", type=int, default=2048)
    ap.add_argument("--max-len", type=int, default=8192, help="largest input libFuzzer makes")
    ap.add_argument("--artifacts", type=Path, help="directory for crash/timeout files (default: a temp dir)")
    ap.add_argument("--keep-corpus", type=Path, help="copy the grown corpus here instead of deleting it")
    ap.add_argument("--skip-known", action="store_true",
                    help="do not report the open findings listed in fuzz_inputs.KNOWN (look for new ones)")
    ap.add_argument("--package", type=Path, default=ROOT / "python",
                    help="directory holding the tavli package to fuzz (default: python/; e.g. a copy with a "
                         "sanitizer build of _core, run with LD_PRELOAD of the ASan runtime, see README)")
    ap.add_argument("libfuzzer_args", nargs="*", help="extra libFuzzer flags, after --")
    args = ap.parse_args(argv)
    try:
        import atheris  # noqa: F401
    except ImportError:
        print("fuzz/run.py needs atheris: pip install atheris", file=sys.stderr)
        return 2

    env = dict(os.environ)
    python_dir = str(args.package.resolve())
    env["PYTHONPATH"] = python_dir + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if args.skip_known:
        env["TAVLI_FUZZ_SKIP_KNOWN"] = "1"

    with tempfile.TemporaryDirectory(prefix="tavli-fuzz-") as tmp:
        work = Path(tmp) / "corpus"
        work.mkdir()
        artifacts = args.artifacts or Path(tmp) / "artifacts"
        artifacts.mkdir(parents=True, exist_ok=True)
        seeds = sorted(str(d) for d in (HERE / "corpus").iterdir() if d.is_dir())
        cmd = [
            sys.executable, str(HERE / "fuzz_inputs.py"),
            f"-max_total_time={args.seconds}",
            f"-timeout={args.timeout}",
            f"-rss_limit_mb={args.rss_limit_mb}",
            f"-max_len={args.max_len}",
            f"-artifact_prefix={artifacts}{os.sep}",
            "-print_final_stats=1",
            *args.libfuzzer_args,
            str(work),  # the first directory receives new inputs
            *seeds,
        ]
        print("+", " ".join(cmd), flush=True)
        proc = subprocess.run(cmd, env=env, stderr=subprocess.PIPE, text=True, errors="replace")
        log = proc.stderr
        sys.stderr.write(log)
        findings = sorted(p for p in artifacts.iterdir() if p.is_file())
        runs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", log) or re.findall(r"Done (\d+) runs", log)
        print(f"\nexecutions: {runs[-1] if runs else '?'}; exit status {proc.returncode}; "
              f"findings: {len(findings)}", flush=True)
        for f in findings:
            print(f"  {f}  (replay: PYTHONPATH={python_dir} {sys.executable} {HERE / 'fuzz_inputs.py'} {f})")
        if args.keep_corpus:
            args.keep_corpus.mkdir(parents=True, exist_ok=True)
            for p in work.iterdir():
                (args.keep_corpus / p.name).write_bytes(p.read_bytes())
        if findings and not args.artifacts:
            keep = Path(tempfile.mkdtemp(prefix="tavli-fuzz-findings-"))
            for f in findings:
                (keep / f.name).write_bytes(f.read_bytes())
            print(f"findings copied to {keep}")
    return 1 if proc.returncode != 0 or findings else 0


if __name__ == "__main__":
    sys.exit(main())
