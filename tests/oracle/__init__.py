"""Independent pure-Python reference generators used by the test suite."""
from .fevga import (  # noqa: F401
    FEVGA_DEFAULTS, MOULTEZIM_DEFAULTS, resolve_options, legal_plays, apply_steps, perft,
)
