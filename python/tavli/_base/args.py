"""Argument checks of the public Python API, one copy each: a flag must be a bool, a count an
integer in its range, an array integers of its dtype. Each names the parameter at fault in its message.

Why a flag must be a real bool: read by truthiness, `rollout(stratify="false")` would mean
stratify=True. numpy's bool_ is accepted (a value taken out of a boolean array).
"""

from __future__ import annotations

from typing import Any

import numpy as np


class NotABool(TypeError, ValueError):
    """A flag that is not True or False: a TypeError, and a ValueError too for the callers that
    caught the ValueError some checks (tavli.svg's `numbers`) raised before."""


def require_bool(name: str, value: Any) -> bool:
    """`value` as a bool; NotABool (a TypeError) naming `name` for anything that is not True or False."""
    if not isinstance(value, (bool, np.bool_)):
        raise NotABool(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def int_arg(name: str, value: Any, lo: int, hi: int) -> int:
    """An integer (Python or numpy, not a bool) in lo..hi, else ValueError naming `name`."""
    if isinstance(value, (bool, np.bool_)) or not hasattr(value, "__index__") or not lo <= int(value) <= hi:
        raise ValueError(f"{name} must be an integer {lo}..{hi}, got {value!r}")
    return int(value)


_RANGES = {"uint8": (0, 255), "int64": (-(2**63), 2**63 - 1)}


def as_int_array(value: Any, what: str, dtype: str) -> np.ndarray:
    """`value` as a C-contiguous array of `dtype`; raises ValueError instead of silently
    truncating floats or wrapping values that do not fit (numpy's unsafe casts)."""
    try:
        a = np.asarray(value)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what}: expected an integer array ({e})") from None
    if a.size and a.dtype.kind not in "iu":
        raise ValueError(f"{what}: expected an integer array, got dtype {a.dtype}")
    lo, hi = _RANGES[dtype]
    if a.size and (int(a.min()) < lo or int(a.max()) > hi):
        raise ValueError(f"{what}: values must be {lo}..{hi}, got {int(a.min())}..{int(a.max())}")
    return np.ascontiguousarray(a, dtype=dtype)
