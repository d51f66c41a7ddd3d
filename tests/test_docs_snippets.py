"""Every ```python block of README.md and docs/**/*.md runs, each file's blocks in order in one
namespace, in a fresh temporary directory (so snippets that write files write them there).

A block in doctest form (its first line starts with `>>> `) runs as a doctest in the same namespace:
its printed results must match what the block shows.

A ```bash (or ```sh) block runs too, in its place among the file's python blocks (so it finds the
files they wrote): each `tavli ...` line through the command line's main() (exit status 0), each
`curl ...` line against the app (tavli.server.create_app, status 200). Any other line fails: a
block that installs packages, starts a server or a cluster carries a skip mark.

A block is left out only when an HTML comment on the line before it says so:
  <!-- skip: why -->                 never run here (e.g. it starts a server or a Ray cluster)
  <!-- requires: module[, module] --> run only when those modules import; otherwise the file's
                                      remaining blocks are skipped (they may build on this one)
"""

from __future__ import annotations

import contextlib
import doctest
import importlib.util
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```(python|bash|sh)[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
MARK = re.compile(r"<!--\s*(skip|requires)\s*:?\s*(.*?)\s*-->\s*$")


def snippet_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def fenced(path: Path) -> list[tuple[int, str, str, str | None, str]]:
    """(line, language, code, mark, mark argument) for every python and shell block, in order."""
    text = path.read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        mark = MARK.search(before)
        line = text.count("\n", 0, m.start()) + 1
        found.append((line, m.group(1), m.group(2), mark.group(1) if mark else None, mark.group(2) if mark else ""))
    return found


def blocks(path: Path) -> list[tuple[int, str, str | None, str]]:
    """(line, code, mark, mark argument) for every python block of the file, in order."""
    return [(line, code, mark, arg) for line, lang, code, mark, arg in fenced(path) if lang == "python"]


FILES = [p for p in snippet_files() if fenced(p)]


def test_the_snippets_are_found():
    # README's Usage block and the tutorials must be among them (a broken pattern would pass vacuously).
    names = {p.relative_to(ROOT).as_posix() for p in FILES}
    assert {"README.md", "docs/tutorials/analysis.md", "docs/rules/coordinates.md"} <= names


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(ROOT).as_posix() for p in FILES])
def test_snippets_run_in_order(path: Path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__snippets__"}
    for line, lang, code, mark, argument in fenced(path):
        if mark == "skip":
            continue
        if mark == "requires":
            missing = [m for m in re.split(r"[,\s]+", argument) if m and importlib.util.find_spec(m) is None]
            if missing:
                pytest.skip(f"{path.name}:{line} needs {', '.join(missing)}")
        where = f"{path.relative_to(ROOT)}:{line}"
        if lang != "python":
            run_commands(code, where)
            continue
        if code.lstrip().startswith(">>> "):
            run_doctest(code, where, namespace)
            continue
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                exec(compile(code, where, "exec"), namespace)
            except Exception as e:  # name the block that failed
                raise AssertionError(f"the snippet at {where} raised {type(e).__name__}: {e}") from e


def command_lines(code: str) -> list[str]:
    """The block's command lines: continuations joined, blank and comment-only lines dropped."""
    joined = re.sub(r"\\\n\s*", " ", code)
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def run_commands(code: str, where: str) -> None:
    """Runs a shell block's `tavli` and `curl` lines (see the module's docstring)."""
    import shlex

    from tavli.__main__ import main

    for line in command_lines(code):
        words = shlex.split(line, comments=True)
        if words[0] == "tavli":
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    rc = main(words[1:])
                except SystemExit as e:
                    rc = e.code
            assert rc in (0, None), f"{where}: `{line}` exited {rc}: {err.getvalue()[-500:]}"
        elif words[0] == "curl":
            run_curl(words, where, line)
        else:
            raise AssertionError(f"{where}: this test cannot run `{line}`; mark the block <!-- skip: why --> if it "
                                 "installs, serves or needs a cluster")


def run_curl(words: list[str], where: str, line: str) -> None:
    """`curl [-s] URL [-H HEADER] [-d JSON]` against the app: POST with -d, else GET; must answer 200."""
    pytest.importorskip("fastapi", reason="the server needs FastAPI")
    import json

    from fastapi.testclient import TestClient

    from tavli.server.app import create_app

    data, url, it = None, None, iter(words[1:])
    for w in it:
        if w in ("-d", "--data"):
            data = next(it)
        elif w in ("-H", "--header"):
            next(it)
        elif not w.startswith("-"):
            url = w
    assert url, f"{where}: no address in `{line}`"
    path = "/" + url.split("://", 1)[-1].split("/", 1)[1]
    client = TestClient(create_app())
    r = client.post(path, json=json.loads(data)) if data is not None else client.get(path)
    assert r.status_code == 200, f"{where}: `{line}` answered {r.status_code}: {r.text[:300]}"


def run_doctest(code: str, where: str, namespace: dict[str, object]) -> None:
    """Runs a doctest-form block in the file's namespace; a mismatch or an exception fails naming it."""
    test = doctest.DocTestParser().get_doctest(code, namespace, where, where, 0)
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=report.write, clear_globs=False)
    if runner.failures:
        raise AssertionError(f"the doctest at {where} failed:\n{report.getvalue()}")


GAME_SECTIONS = {"Fevga": "fevga", "Moultezim": "moultezim", "Plakoto": "plakoto", "Long Narde": "narde",
                 "Jacquet": "jacquet", "Tawla 31": "tawla31", "Hypergammon": "hypergammon"}


def test_the_options_page_lists_every_rule_option_with_its_values_default_first():
    # docs/rules/options.md is written by hand; this keeps it in step with the engine's table.
    import tavli

    text = (ROOT / "docs" / "rules" / "options.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## (.+?)\n(.*?)(?=^## |\Z)", text, re.S | re.M))
    assert set(GAME_SECTIONS) <= set(sections)
    documented = {GAME_SECTIONS[title]: body for title, body in sections.items() if title in GAME_SECTIONS}
    for variant in tavli.variants():
        options = tavli.variant_options(variant)
        if not options:
            assert variant not in documented
            continue
        rows = {m.group(1): [v.strip(" `") for v in m.group(2).split(",")]
                for m in re.finditer(r"^\| `(\w+)` \| ([^|]+) \|", documented[variant], re.M)}
        assert set(rows) == {o["name"] for o in options}, variant
        for o in options:
            assert sorted(rows[o["name"]]) == sorted(str(c) for c in o["choices"]), (variant, o["name"])
            assert rows[o["name"]][0] == str(o["default"]), (variant, o["name"])


def test_requirements_test_txt_is_the_test_extra():
    # The README's test command installs requirements-test.txt (no second build of tavli);
    # `pip install ".[test]"` must give the same tools.
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    lines = (ROOT / "requirements-test.txt").read_text().splitlines()
    listed = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    assert sorted(listed) == sorted(extra)
    assert "pip install . -r requirements-test.txt && python -m pytest" in (ROOT / "README.md").read_text()
