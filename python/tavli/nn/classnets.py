"""A net per position class, as GNU Backgammon has them (cpp/include/tavli/class_net.h): a race
net, a crashed net and a contact net for the hitting games, the exact bear-off databases under
them (two-sided where both sides have few checkers left: cpp/include/tavli/bearoff2.h).

    nets = tavli.classnets.ClassNets(contact=tavli.nn.shipped("backgammon"), race=race_net)
    tavli.Board("backgammon").analyze((6, 5), plies=0, evaluator=nets)
    tavli.classnets.position_classes(rows, "backgammon")    # array of class names per row

Each net stays its own TAVLINET weight file; the shipped manifest's "classes" map names the file
of each class beyond contact (python/tavli/nets/manifest.json).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from .._base.options import to_pairs
from .._base.args import as_int_array
from . import Net, _keep_evaluator

__all__ = ["ClassNets", "CLASSES", "NET_CLASSES", "position_classes", "bearoff2_win"]

CLASSES: tuple[str, ...] = tuple(_core._position_class_names())  # bearoff2, bearoff1, race, crashed, contact
NET_CLASSES = ("contact", "race", "crashed")


class ClassNets:
    """`contact` (required) serves contact positions and every class without a net of its own;
    `race` and `crashed` (tavli.nn.Net or None) their classes. All of one family."""

    def __init__(self, contact: Net, race: Net | None = None, crashed: Net | None = None) -> None:
        for name, net in (("contact", contact), ("race", race), ("crashed", crashed)):
            if net is not None and not isinstance(net, Net):
                raise ValueError(f"{name} must be a tavli.nn.Net or None, got {type(net).__name__}")
        if contact is None:
            raise ValueError("contact: a contact net is required")
        self.contact, self.race, self.crashed = contact, race, crashed

    def nets(self) -> dict[str, Net]:
        """The nets by the class they serve (contact first)."""
        return {k: v for k, v in (("contact", self.contact), ("race", self.race), ("crashed", self.crashed))
                if v is not None}

    def _evaluator(self) -> _core.ClassNetEvaluator:
        """A core ClassNetEvaluator holding copies of the nets (what a search runs on), kept until
        a net is replaced or changed (their core versions; see Net._evaluator)."""
        versions = tuple(n._net.version if n is not None else None for n in (self.contact, self.race, self.crashed))
        return _keep_evaluator(self, versions, lambda: _core.ClassNetEvaluator(
            self.contact._net, self.race._net if self.race else None, self.crashed._net if self.crashed else None))

    def __getstate__(self) -> dict[str, Any]:  # pickled without the kept core evaluator
        return {k: v for k, v in self.__dict__.items() if k != "_kept_evaluator"}

    @classmethod
    def load(cls, contact: Any, race: Any = None, crashed: Any = None) -> "ClassNets":
        """From weight file paths (race and crashed optional)."""
        return cls(Net.load(contact), Net.load(race) if race else None, Net.load(crashed) if crashed else None)

    @property
    def family(self) -> str:
        return self.contact.family

    def __repr__(self) -> str:
        return "tavli.classnets.ClassNets(" + ", ".join(f"{k}={v!r}" for k, v in self.nets().items()) + ")"


def position_classes(positions: Any, variant: str = "backgammon", **options: Any) -> np.ndarray:
    """The class of each position row (N, 64) as a string array (CLASSES' names)."""
    rows = as_int_array(positions, "positions", "uint8")
    codes = _core._position_classes(variant, to_pairs(options), rows)
    return np.asarray(CLASSES, dtype=object)[codes]


def bearoff2_win(positions: Any, variant: str = "backgammon", **options: Any) -> np.ndarray:
    """The exact chance that the side to move wins each position row, from the two-sided bear-off
    database (ValueError for a row where a side is not home or has more than 6 checkers left)."""
    rows = as_int_array(positions, "positions", "uint8")
    return _core._bearoff2_win(variant, to_pairs(options), rows)


def shipped_classes(family_name: str) -> ClassNets:
    """The shipped nets of a family whose manifest entry has a "classes" map ({class: file} for
    the classes beyond contact, whose net is the entry's "file")."""
    from importlib import resources

    from . import shipped, shipped_manifest

    entry = shipped_manifest()[family_name]
    extra = {}
    for cls_name, file in entry.get("classes", {}).items():
        if cls_name not in ("race", "crashed"):
            raise ValueError(f"manifest of {family_name}: unknown class {cls_name!r} (known: race, crashed)")
        with resources.as_file(resources.files("tavli") / "nets" / file) as path:
            extra[cls_name] = Net.load(path)
    contact = shipped(family_name)
    assert contact is not None
    return ClassNets(contact, **extra)
