"""The module names of the flat package that came before the layers (README, "Architecture"):
`import tavli.sim`, `from tavli.batch import encode` and `tavli.analysis.Rollout` keep working,
and give the very module object of the new path (so a monkeypatch of one is a patch of the other,
and a pickle naming an old path loads).

Nothing here imports tavli: the finder only maps a name, and the new module is imported on first
use of the old one (as the old one was)."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

# old name -> the module that holds its code now
MOVED = {
    "tavli._dice": "tavli._base.dice",
    "tavli._limits": "tavli._base.deadline",
    "tavli._options": "tavli._base.options",
    "tavli._progress": "tavli._base.progress",
    "tavli.analysis": "tavli.evaluators",  # which re-exports the result types (tavli.results)
    "tavli.batch": "tavli.jobs.batch",
    "tavli.classnets": "tavli.nn.classnets",
    "tavli.diagram": "tavli.io.diagram",
    "tavli.distributed": "tavli.jobs.distributed",
    "tavli.forms": "tavli.io.forms",
    "tavli.frontends.review_report": "tavli.review.report",
    "tavli.review_cube": "tavli.review.cube",
    "tavli.rollout_data": "tavli.jobs.rollouts",
    "tavli.selfplay": "tavli.jobs.selfplay",
    "tavli.sim": "tavli.jobs.simulate",
    "tavli.svg": "tavli.io.svg",
    "tavli.train": "tavli.nn.train",
}


class _OldNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old name and loads it as the new module itself."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        # The import system keeps the module's own __name__ and __spec__ (the new path).
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        pass  # already executed under its new name

    def get_code(self, fullname: str) -> object:
        """For `python -m tavli.train`: run the new module as __main__, under its own package."""
        return compile(f"import runpy\nrunpy.run_module({MOVED[fullname]!r}, run_name='__main__', alter_sys=True)\n",
                       f"<{fullname}: {MOVED[fullname]}>", "exec")


def install() -> None:
    if not any(isinstance(f, _OldNames) for f in sys.meta_path):
        sys.meta_path.insert(0, _OldNames())


def old_module(package: str, name: str) -> ModuleType | None:
    """tavli.<name> for an old name (the package's __getattr__), else None."""
    full = f"{package}.{name}"
    return importlib.import_module(full) if full in MOVED else None
