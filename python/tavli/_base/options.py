"""Keyword options to the (name, value) strings the core parses, and back."""

from __future__ import annotations

from typing import Any, Mapping, TypedDict

from .. import _core


class VariantOption(TypedDict):
    """A rule option of a variant (tavli.variant_options): its name, the values allowed (strings,
    or integers for a numeric option), the default among them and a description."""

    name: str
    choices: list[str | int]
    default: str | int
    help: str


def to_pairs(options: Mapping[str, Any]) -> list[tuple[str, str]]:
    pairs = []
    for name, value in options.items():
        if not isinstance(name, str):
            raise ValueError(f"option names must be strings, got {name!r}")
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, int):
            value = str(value)
        elif not isinstance(value, str):
            raise ValueError(f"option {name}: expected a string or an integer, got {type(value).__name__}")
        pairs.append((name, value))
    return pairs


def from_pairs(variant: str, pairs: list[tuple[str, str]]) -> dict[str, str | int]:
    integer = {o["name"] for o in _core.variant_options(variant) if isinstance(o["default"], int)}
    return {name: int(value) if name in integer else value for name, value in pairs}
