"""--evaluator of the analysing commands, and the line that says which evaluator answered."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..nn import Net


def load_evaluator(name: str) -> Net | str | None:
    """ "nets" (the default: the game's shipped net), "heuristic", or a weight file (.tnet)."""
    if name in ("nets", "heuristic"):
        return None if name == "nets" else name
    from ..nn import Net

    return Net.load(name)


def describe_evaluator(evaluator: Any, variant: str) -> str:
    from ..nn import Net, serving_entry, shipped_manifest

    if isinstance(evaluator, Net):
        return f"net {evaluator.family} {evaluator.inputs}-{evaluator.hidden}-5 ({evaluator.encoding})"
    if evaluator == "heuristic":
        return "heuristic"
    name = serving_entry(variant)
    if name is None:
        return "heuristic (no shipped net serves this game)"
    entry = shipped_manifest()[name]
    layers = "-".join(map(str, entry["layers"]))
    if "stages" in entry:  # TD self-play, then fitted to its own search (manifest "stages")
        games = next(s["games"] for s in entry["stages"] if "games" in s)
        return (f"shipped {entry['trained_on']} net {layers} ({entry['encoding']}, {games:,} self-play games "
                f"and {len(entry['stages']) - 1} further training stages)")
    return f"shipped {entry['trained_on']} net {layers} ({entry['encoding']}, {entry['games']:,} self-play games)"
