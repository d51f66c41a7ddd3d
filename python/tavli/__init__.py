"""tavli: an engine for the tables games (the backgammon family), C++ core with a thin Python API.

>>> import tavli
>>> board = tavli.Board("fevga")
>>> [str(p) for p in board.legal_plays((6, 5))]
['24/13']
"""

from __future__ import annotations

from . import _legacy

_legacy.install()  # the flat package's module names (tavli.sim, tavli.batch, ...): tavli/_legacy.py

from ._core import ROW_BYTES, MAX_PLAYS, IllegalMove, InvalidPosition, Play, Rng, variant_info, variant_options
from ._core import variants as _variants
from .board import Board, Outcome
from .jobs.batch import batch_legal_plays, random_positions
from .match import Match
from .results import Analysis, AnalyzedPlay, Evaluation, Probabilities
from .jobs.batch import encode, evaluate_batch
from .jobs.simulate import simulate, simulate_matches
from .cube import CubeDecision, CubeState, MatchEquityTable, MatchState, parse_position
from . import nn

__version__ = "0.1.0"

WHITE = 0
BLACK = 1


def __getattr__(name: str) -> object:
    """`tavli.sim`, `tavli.batch`, ... after a bare `import tavli`, as before the layers."""
    module = _legacy.old_module(__name__, name)
    if module is None:
        raise AttributeError(f"module 'tavli' has no attribute {name!r}")
    return module


def variants() -> list[str]:
    """Names of the variants the engine plays (aliases such as "φεύγα" are accepted too)."""
    return list(_variants())


__all__ = [
    "Analysis",
    "CubeDecision",
    "CubeState",
    "MatchEquityTable",
    "MatchState",
    "parse_position",
    "AnalyzedPlay",
    "Evaluation",
    "Probabilities",
    "encode",
    "evaluate_batch",
    "simulate",
    "simulate_matches",
    "nn",
    "BLACK",
    "Board",
    "IllegalMove",
    "InvalidPosition",
    "MAX_PLAYS",
    "Match",
    "Outcome",
    "Play",
    "ROW_BYTES",
    "Rng",
    "WHITE",
    "batch_legal_plays",
    "random_positions",
    "variant_info",
    "variant_options",
    "variants",
]
