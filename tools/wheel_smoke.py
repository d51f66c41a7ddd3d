"""Smoke test of an installed tavli (a wheel in a clean environment: .ci/run, cibuildwheel's
test-command). Run it from outside the source tree, so that `import tavli` finds the installed
package, not python/tavli. Exits non-zero with a message on the first failure."""

from __future__ import annotations

import os
import sys


def main() -> int:
    import tavli

    here = os.path.dirname(os.path.abspath(tavli.__file__))
    if os.path.isfile(os.path.join(here, "..", "..", "pyproject.toml")):
        print(f"wheel_smoke: imported the source tree ({here}), not an installed tavli", file=sys.stderr)
        return 1

    # The package data travelled: the shipped nets, the JSON Schema, the web page.
    assert tavli.nn.shipped("fevga") is not None, "the shipped Fevga net is missing"
    from tavli import forms

    assert forms.schema()["$id"] == "urn:tavli:schema:v1"
    assert os.path.isfile(os.path.join(here, "server", "static", "index.html")), "the web page is missing"

    # The rules (RULES.md F01: Fevga's opening 6-6 plays one six, the runner alone).
    board = tavli.Board("fevga")
    assert [str(p) for p in board.legal_plays((6, 6))] == ["24/18"]

    # A 1-ply analysis with the default evaluator (the shipped net).
    analysis = board.analyze((6, 5), plies=1)
    assert str(analysis[0].play) == "24/13" and len(analysis) == 1
    assert 0.0 < analysis[0].probabilities.win < 1.0

    bg = tavli.Board("backgammon")
    ranked = bg.analyze((3, 1), plies=1)
    assert len(ranked) == len(bg.legal_plays((3, 1))) and ranked[0].equity >= ranked[-1].equity

    # A tiny simulation: same seed, same games, whatever the thread count.
    a = tavli.simulate("plakoto", 20, ("greedy", "random"), seed=1, threads=1)
    b = tavli.simulate("plakoto", 20, ("greedy", "random"), seed=1, threads=2)
    assert (a["winner"] == b["winner"]).all() and (a["plies"] == b["plies"]).all()
    assert set(a["winner"].tolist()) <= {0, 1, -1}

    print(f"wheel_smoke: tavli {tavli.__version__} from {here}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
