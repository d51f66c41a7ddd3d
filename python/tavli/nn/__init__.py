"""Neural-net evaluators: a thin wrapper over the C++ nets (cpp/include/tavli/nnet.h, where the
layouts, the weight file format and the evaluator's conventions are documented).

    net = tavli.nn.Net("backgammon", hidden=128, seed=1)   # small seeded random weights
    out = net.forward(x)                                     # (N, inputs) float32 -> (N, 5)
    net.save("bg.tnet", metadata="trained by ...")           # atomic; load checks everything
    net = tavli.nn.Net.load("bg.tnet")
    net.analyze(board, (6, 5), plies=1)                      # a search with the net at the leaves

Outputs are win, win_double, win_triple, lose_double, lose_triple for the side to move (the order
of tavli.Probabilities). A net serves one family of games (`tavli.nn.family(variant)`).
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import TYPE_CHECKING, Any, Callable, Hashable, TypeVar, overload

import numpy as np

from .. import _core
from .._base.args import as_int_array, require_bool
from .._base.options import to_pairs

if TYPE_CHECKING:
    from ..board import Board
    from ..results import Analysis, Evaluation

__all__ = ["Net", "family", "shipped", "shipped_stage", "shipped_pruner", "shipped_manifest", "serving_entry",
           "default_evaluator"]


def family(variant: str) -> str:
    """The family of nets that serves `variant`: backgammon, plakoto, fevga, narde or tawla31."""
    return _core.net_family(variant)


# --- the shipped nets -----------------------------------------------------------------------------
# python/tavli/nets/manifest.json lists the shipped nets: an entry per family, named by it, and an
# entry for a game with a net of its own within a family, named by the game (with "family"); each
# has its weight file, the variants it serves (those where it measured stronger than what served
# them before: bench/strength.py) and how it was trained (README, "Trained nets"): a net trained
# by TD self-play alone keeps the trainer's settings and command in the entry; a net made in
# several stages lists them in order under "stages", each with its command (run from one empty
# directory, each stage reads what the earlier ones wrote), the last one making the entry's file;
# a stage whose net ships names its "file" (tavli.nn.shipped_stage).


@functools.lru_cache(maxsize=1)
def shipped_manifest() -> dict[str, dict[str, Any]]:
    """The shipped nets by entry name (a family, or a game with its own net): {"file", "variants",
    "command", "games", ...}; {} if none."""
    path = resources.files("tavli") / "nets" / "manifest.json"
    if not path.is_file():
        return {}
    manifest: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return manifest


@functools.lru_cache(maxsize=None)
def _load_file(file: str) -> "Net":
    """A weight file of python/tavli/nets/, loaded once per process (callers hand out copies)."""
    with resources.as_file(resources.files("tavli") / "nets" / file) as path:
        return Net.load(path)


def _load_shipped(name: str) -> "Net | None":
    entry = shipped_manifest().get(name)
    return None if entry is None else _load_file(entry["file"])


def serving_entry(variant: str) -> "str | None":
    """The name of the manifest entry whose net serves `variant` by default, None if none does."""
    return next((name for name, e in shipped_manifest().items() if variant in e["variants"]), None)


def shipped(variant_or_family: str) -> "Net | None":
    """A copy of a shipped net, None if none ships: the entry of that name (a family, or a game
    with its own net), else the net that serves the variant, else the one of the variant's family."""
    name = variant_or_family
    if name not in shipped_manifest():
        name = serving_entry(variant_or_family) or _core.net_family(variant_or_family)
    net = _load_shipped(name)
    return None if net is None else net.copy()


def shipped_stage(name: str, stage: str) -> Net:
    """A copy of the net an earlier stage of a shipped net's training made, where it ships: e.g.
    shipped_stage("backgammon", "td"), the backgammon family's TD self-play net (the "expert"
    encoding: about twice the shipped net's speed at 0-ply, for bulk simulation where speed counts
    more than strength). KeyError names what is there when the entry or stage is not."""
    entry = shipped_manifest().get(name)
    if entry is None:
        raise KeyError(f"no shipped net named {name!r} (the manifest has {sorted(shipped_manifest())})")
    files = {s["name"]: s["file"] for s in entry.get("stages", []) if "file" in s}
    if stage not in files:
        raise KeyError(f"{name!r} ships no net of a stage {stage!r} (stages with a net: {sorted(files)})")
    return _load_file(files[stage]).copy()


def _load_pruner(name: str) -> "Net | None":
    pruner = shipped_manifest().get(name, {}).get("pruner")
    return None if pruner is None else _load_file(pruner["file"])


def shipped_pruner(name: str) -> "Net | None":
    """A copy of the pruning net of a manifest entry (its "pruner": a small net that ranks plays
    for the search, cpp/include/tavli/search.h "Pruning"; tavli.pruning trains it), None if it has none."""
    net = _load_pruner(name)
    return None if net is None else net.copy()


@functools.lru_cache(maxsize=1)
def default_evaluator() -> _core.NetSuite:
    """The evaluator behind analyze, evaluate and the simulation players by default: a core
    NetSuite (cpp/include/tavli/net_suite.h) with each shipped net on the variants it serves and
    the heuristic elsewhere. Built once per process and never changed (threads share it)."""
    suite = _core.NetSuite()
    for name, entry in shipped_manifest().items():
        if entry.get("classes"):  # a net per position class (tavli.classnets)
            from .classnets import shipped_classes

            suite.assign_classes(entry["variants"], shipped_classes(name)._evaluator())
        else:
            net = _load_shipped(name)
            assert net is not None  # the entry is in the manifest
            suite.assign(entry["variants"], net._net)
        pruner = _load_pruner(name)
        if pruner is not None:
            suite.assign_pruner(entry["variants"], pruner._net)
    return suite


def _floats(x: Any, what: str) -> np.ndarray:
    try:
        a = np.asarray(x)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what}: expected a float array ({e})") from None
    if a.dtype.kind not in "fiub":
        raise ValueError(f"{what}: expected a float array, got dtype {a.dtype}")
    return np.ascontiguousarray(a, dtype=np.float32)


class _Weight:
    """A weight array of Net's core net: read as a numpy copy, assigned after a check of its shape
    and finiteness (a data descriptor, as a property would be, with a type for each access)."""

    def __init__(self, name: str, doc: str) -> None:
        self.name = name
        self.__doc__ = doc

    @overload
    def __get__(self, net: None, owner: type[Net]) -> _Weight: ...
    @overload
    def __get__(self, net: Net, owner: type[Net]) -> np.ndarray: ...

    def __get__(self, net: Net | None, owner: type[Net]) -> _Weight | np.ndarray:
        if net is None:
            return self
        weights: np.ndarray = getattr(net._net, self.name)
        return weights

    def __set__(self, net: Net, value: Any) -> None:
        setattr(net._net, self.name, _floats(value, self.name))


_E = TypeVar("_E")  # a core evaluator type


def _keep_evaluator(owner: Any, versions: Hashable, make: Callable[[], _E]) -> _E:
    """`owner`'s core evaluator as last made, or a new one from make() when the core nets'
    versions it was made for (`versions`) have changed since; kept in owner's ``_kept_evaluator``
    (Net and ClassNets; left out when they are pickled)."""
    kept: tuple[Hashable, _E] | None = owner.__dict__.get("_kept_evaluator")
    if kept is None or kept[0] != versions:
        kept = (versions, make())
        owner.__dict__["_kept_evaluator"] = kept
    return kept[1]


class Net:
    """A dense net: inputs -> sigmoid hidden layer -> 5 sigmoid outputs.

    The weights are numpy copies (``w1`` (inputs, hidden), ``b1`` (hidden,), ``w2`` (5, hidden),
    ``b2`` (5,)); assigning one checks its shape and that it is finite.
    """

    def __init__(
        self,
        family: str,
        hidden: int = 128,
        *,
        seed: int = 0,
        encoding: str | None = None,
        inputs: int | None = None,
    ) -> None:
        """`family`: backgammon, plakoto, fevga, narde or tawla31; `encoding` defaults to the
        family's (tavli.encode's names, or "raw" for a net of any `inputs` that cannot evaluate
        positions); `inputs` defaults to the encoding's size."""
        self._net = _core.NeuralNet(family, hidden, encoding or "", inputs or 0, seed)

    @classmethod
    def _wrap(cls, core_net: _core.NeuralNet) -> "Net":
        self = cls.__new__(cls)
        self._net = core_net
        return self

    @classmethod
    def load(cls, path: Any) -> "Net":
        """Reads a weight file; ValueError naming the path and the problem if it is not a valid one
        (a directory, a device or a pipe is refused unread; a file is read only as far as its
        header says it reaches)."""
        return cls._wrap(_core.NeuralNet.load(str(path)))

    def save(self, path: Any, metadata: str | None = None) -> None:
        """Writes the weight file atomically; `metadata` (free text: training command, games,
        seed) replaces the stored one when given."""
        self._net.save(str(path), metadata)

    def copy(self) -> "Net":
        return self._wrap(self._net.copy())

    # --- inference ------------------------------------------------------------------------------
    def forward(self, x: Any) -> np.ndarray:
        """Outputs for inputs of shape (N, inputs) -> (N, 5), or (inputs,) -> (5,)."""
        a = _floats(x, "x")
        if a.ndim == 1:
            out: np.ndarray = self._net.forward(a[None, :], False)[0]
            return out
        return self._net.forward(a, False)

    def forward_hidden(self, x: Any) -> tuple[np.ndarray, np.ndarray]:
        """(outputs (N, 5), hidden activations (N, hidden)) for inputs (N, inputs)."""
        return self._net.forward(_floats(x, "x"), True)

    # --- as an evaluator ------------------------------------------------------------------------
    def evaluate_positions(self, positions: Any, variant: str = "backgammon", **options: Any) -> np.ndarray:
        """Static values of position rows (N, ROW_BYTES) for the side to move: float32 (N, 8) of
        win, win_double, win_triple, lose_double, lose_triple, draw, margin, equity (the columns
        of tavli.evaluate_batch). Races with every checker home are valued exactly. The net's
        outputs are forward()'s on tavli.encode's rows up to the rounding of the evaluator's point
        columns (a few 1e-7; cpp/include/tavli/nnet.h)."""
        rows = as_int_array(positions, "positions", "uint8")
        like = _core.Board(variant, to_pairs(options))
        return self._evaluator()._evaluate_rows(like, rows)

    def evaluate(self, board: Board, plies: int = 0, **search: Any) -> Evaluation:
        """board.evaluate(plies, ...) with this net at the leaves instead of the heuristic."""
        return board.evaluate(plies, evaluator=self, **search)

    def analyze(self, board: Board, dice: Any, plies: int = 1, **search: Any) -> Analysis:
        """board.analyze(dice, plies, ...) with this net at the leaves instead of the heuristic."""
        return board.analyze(dice, plies, evaluator=self, **search)

    def _evaluator(self) -> _core.NeuralEvaluator:
        """A core evaluator holding a copy of this net (what a search runs on). Kept until the
        weights change (the core net's version): making one copies the first layer and builds its
        point columns (cpp/include/tavli/nnet.h), which would dominate a call on a few positions."""
        return _keep_evaluator(self, self._net.version, lambda: _core.NeuralEvaluator(self._net))

    # --- properties -----------------------------------------------------------------------------
    @property
    def inputs(self) -> int:
        return self._net.inputs

    @property
    def hidden(self) -> int:
        return self._net.hidden

    @property
    def outputs(self) -> int:
        return self._net.outputs

    @property
    def encoding(self) -> str:
        return self._net.encoding

    @property
    def family(self) -> str:
        return self._net.family

    @property
    def avx2(self) -> bool:
        """True when forward uses the AVX2 + FMA path."""
        return self._net.avx2

    @property
    def metadata(self) -> str:
        return self._net.metadata

    @metadata.setter
    def metadata(self, text: str) -> None:
        self._net.metadata = text

    @property
    def force_scalar(self) -> bool:
        """Set to True to use the portable path even where the CPU has AVX2 (for tests)."""
        return self._net.force_scalar

    @force_scalar.setter
    def force_scalar(self, on: bool) -> None:
        self._net.force_scalar = require_bool("force_scalar", on)

    @property
    def avx512(self) -> bool:
        """True when the evaluator's (sparse) forward pass runs its layers on AVX-512F."""
        return self._net.avx512

    @property
    def force_avx2(self) -> bool:
        """Set to True to keep the AVX2 path where the CPU has AVX-512F (the same bits; for tests)."""
        return self._net.force_avx2

    @force_avx2.setter
    def force_avx2(self, on: bool) -> None:
        self._net.force_avx2 = require_bool("force_avx2", on)

    w1 = _Weight("w1", "Input layer weights (inputs, hidden): w1[i, h] from input i to hidden unit h.")
    b1 = _Weight("b1", "Hidden biases (hidden,).")
    w2 = _Weight("w2", "Output layer weights (5, hidden): w2[o, h] from hidden unit h to output o.")
    b2 = _Weight("b2", "Output biases (5,).")

    # --- pickling (e.g. to ship a net to worker processes) --------------------------------------
    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle, (self.family, self.hidden, self.encoding, self.inputs, self.metadata,
                            self.w1, self.b1, self.w2, self.b2))

    def __repr__(self) -> str:
        return (f"tavli.nn.Net(family={self.family!r}, encoding={self.encoding!r}, inputs={self.inputs}, "
                f"hidden={self.hidden}, {'avx512' if self.avx512 else 'avx2' if self.avx2 else 'scalar'})")


def _unpickle(family: str, hidden: int, encoding: str, inputs: int, metadata: str,
              w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray) -> Net:
    net = Net(family, hidden, encoding=encoding, inputs=inputs)
    net.metadata = metadata
    net.w1, net.b1, net.w2, net.b2 = w1, b1, w2, b2
    return net
