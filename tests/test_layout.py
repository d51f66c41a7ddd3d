"""The layered package (README, "Architecture"): the flat package's module names still import, as
the very modules of their new paths, and the layers hold (pyproject.toml's import-linter contracts)."""

import importlib
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tavli
from tavli import _legacy

ROOT = Path(__file__).resolve().parents[1]

# The flat package's modules and a name each of them had.
OLD = {
    "tavli._dice": "parse_dice",
    "tavli._limits": "Deadline",
    "tavli._options": "to_pairs",
    "tavli._progress": "reporter",
    "tavli.analysis": "evaluator_arg",
    "tavli.batch": "as_int_array",
    "tavli.classnets": "ClassNets",
    "tavli.diagram": "diagram",
    "tavli.distributed": "rollout_data",
    "tavli.forms": "analysis_to_dict",
    "tavli.frontends.review_report": "html",
    "tavli.review_cube": "ERROR_CLASSES",
    "tavli.rollout_data": "rollout_data",
    "tavli.selfplay": "self_play_data",
    "tavli.sim": "_player",
    "tavli.svg": "render_cli",
    "tavli.train": "TdTrainer",
}


def test_the_table_of_old_names_is_complete():
    assert set(OLD) == set(_legacy.MOVED)


@pytest.mark.parametrize("old", sorted(OLD))
def test_an_old_module_name_is_the_new_module(old):
    module = importlib.import_module(old)
    assert module is importlib.import_module(_legacy.MOVED[old])
    assert module.__name__ == _legacy.MOVED[old]
    assert hasattr(module, OLD[old])
    parent, _, leaf = old.rpartition(".")
    assert getattr(importlib.import_module(parent), leaf) is module  # tavli.sim after `import tavli`


def test_old_names_as_attributes_and_in_from_imports():
    from tavli import forms, sim  # noqa: F401 (the `from package import module` form)

    assert tavli.analysis.Rollout is tavli.results.Rollout
    assert sim.simulate is tavli.simulate
    with pytest.raises(AttributeError, match="nosuchmodule"):
        tavli.nosuchmodule  # noqa: B018


def test_a_pickle_naming_an_old_path_loads():
    p = tavli.Probabilities(0.5, 0.1, 0.01, 0.2, 0.02)
    old = pickle.dumps(p, protocol=0).replace(b"tavli.results", b"tavli.analysis")
    assert b"tavli.analysis" in old
    assert pickle.loads(old) == p


def test_python_m_runs_an_old_module_name():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(tavli.__file__).parents[1])] + sys.path))
    out = subprocess.run([sys.executable, "-m", "tavli.train", "--help"], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "--games" in out.stdout


@pytest.mark.skipif(shutil.which("lint-imports") is None, reason="import-linter is not installed")
def test_the_layers_and_no_cycles_hold():
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    out = subprocess.run(["lint-imports"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout
