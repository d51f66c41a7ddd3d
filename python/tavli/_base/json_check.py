"""Checks of JSON input against the package's own JSON Schema (json_schema/tavli-v1.schema.json),
without the jsonschema package (a server extra, not a core dependency).

`check(form, value)` interprets the schema file itself, so the checks cannot drift from it: the
subset of draft 2020-12 the file uses ($ref to #/$defs, type, const, enum, required, properties,
additionalProperties, propertyNames, items, prefixItems, min/maxItems, uniqueItems,
minimum/maximum, min/maxLength, pattern, oneOf, anyOf) with the standard's meanings (an integer
is a whole number, 1.0 included, never a bool; a Python tuple counts as an array).
tests/test_json_check.py checks that it agrees with jsonschema on a corpus of good and bad
documents. `loads(text)` is json.loads with the nesting bounded.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources
from typing import Any, Mapping

import numpy as np

SCHEMA_FILE = "tavli-v1.schema.json"
MAX_DEPTH = 64  # nesting of JSON text; the deepest form (a match record) needs 7

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)


def json_depth(text: str) -> int:
    """How deeply arrays and objects nest in JSON `text` (brackets inside strings do not count)."""
    bare = np.frombuffer(_STRING.sub("", text).encode("utf-8"), dtype=np.uint8)
    step = np.zeros(len(bare), dtype=np.int64)
    step[(bare == ord("[")) | (bare == ord("{"))] = 1
    step[(bare == ord("]")) | (bare == ord("}"))] = -1
    return int(np.cumsum(step).max(initial=0))


def loads(text: str, what: str = "JSON") -> Any:
    """json.loads, refusing (ValueError) invalid JSON and nesting deeper than MAX_DEPTH."""
    depth = json_depth(text)
    if depth > MAX_DEPTH:
        raise ValueError(f"{what}: nested {depth} deep, more than {MAX_DEPTH}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"invalid {what}: {e}") from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise ValueError(f"{what}: nested too deeply") from None


@functools.lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    text = resources.files("tavli").joinpath("json_schema", SCHEMA_FILE).read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


class SchemaError(ValueError):
    """A document that the JSON Schema refuses: `path` (as in Python: games[0].turns[2].play) and why."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path or 'the document'}: {message}")
        self.path = path
        self.reason = message


class _Refused(Exception):
    """Raised inside the compiled checks: the reason, and the path from the failing value upward."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        self.keys: list[Any] = []


_KINDS = {type(None): "null", bool: "boolean", int: "integer", str: "string", list: "array", tuple: "array",
          dict: "object"}


def _kind(value: Any) -> str:
    kind = _KINDS.get(type(value))
    if kind is not None:
        return kind
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, (bool, np.bool_)):
        return "boolean"
    if isinstance(value, (int, np.integer)):
        return "integer"
    if isinstance(value, np.floating):
        return "integer" if float(value).is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, 1.0 is 1, arrays and objects compare item by item."""
    ka, kb = _kind(a), _kind(b)
    if {ka, kb} <= {"integer", "number"}:
        return bool(a == b)
    if ka != kb:
        return False
    if ka == "array":
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if ka == "object":
        return bool(a.keys() == b.keys()) and all(_equal(a[k], b[k]) for k in a)
    return bool(a == b)


def _path(keys: list[Any]) -> str:
    out = ""
    for key in reversed(keys):
        out = f"{out}[{key}]" if isinstance(key, int) else (f"{out}.{key}" if out else str(key))
    return out


def _descend(check: Any, value: Any, kind: str, key: Any) -> None:
    try:
        check(value, kind)
    except _Refused as e:
        e.keys.append(key)
        raise


# --- the schema compiled into closures, once per node (a check costs a few microseconds a value);
# each closure's variables have names of their own (closures bind late) ---
_COMPILED: dict[str, Any] = {}


def _ref(name: str) -> Any:
    def check(value: Any, kind: str) -> None:
        compiled = _COMPILED.get(name)
        if compiled is None:
            compiled = _COMPILED[name] = _compile(schema()["$defs"][name])
        compiled(value, kind)

    return check


def _compile(s: Any) -> Any:
    """A function check(value, kind) raising _Refused unless `value` (of JSON kind `kind`) fits `s`."""
    if s is True:
        return lambda value, kind: None
    if s is False:
        def refuse(value: Any, kind: str) -> None:
            raise _Refused("not allowed")
        return refuse
    checks: list[Any] = []
    if "$ref" in s:
        checks.append(_ref(s["$ref"].removeprefix("#/$defs/")))
    if "type" in s:
        names = [s["type"]] if isinstance(s["type"], str) else list(s["type"])
        allowed = set(names) | ({"integer"} if "number" in names else set())

        def of_type(value: Any, kind: str) -> None:
            if kind not in allowed:
                raise _Refused(f"expected {' or '.join(names)}, got {kind} {value!r:.60}")
        checks.append(of_type)
    if "const" in s:
        const = s["const"]

        def is_const(value: Any, kind: str) -> None:
            if not _equal(value, const):
                raise _Refused(f"expected {const!r}, got {value!r:.60}")
        checks.append(is_const)
    if "enum" in s:
        enum = s["enum"]

        def in_enum(value: Any, kind: str) -> None:
            if not any(_equal(value, e) for e in enum):
                raise _Refused(f"expected one of {', '.join(map(repr, enum))}, got {value!r:.60}")
        checks.append(in_enum)
    if "minimum" in s or "maximum" in s:
        lo, hi = s.get("minimum"), s.get("maximum")

        def in_range(value: Any, kind: str) -> None:
            if kind in ("integer", "number"):
                if lo is not None and value < lo:
                    raise _Refused(f"{value!r} is below {lo}")
                if hi is not None and value > hi:
                    raise _Refused(f"{value!r} is over {hi}")
        checks.append(in_range)
    if {"minLength", "maxLength", "pattern"} & set(s):
        shortest, longest = s.get("minLength", 0), s.get("maxLength")
        pattern = re.compile(s["pattern"]) if "pattern" in s else None

        def text(value: Any, kind: str) -> None:
            if kind != "string":
                return
            _length(len(value), shortest, longest, "characters")
            if pattern is not None and not pattern.search(value):
                raise _Refused(f"{value!r:.60} is not of the form {pattern.pattern}")
        checks.append(text)
    if {"minItems", "maxItems", "prefixItems", "items", "uniqueItems"} & set(s):
        fewest, most = s.get("minItems", 0), s.get("maxItems")
        prefix = [_compile(p) for p in s.get("prefixItems", [])]
        rest = _compile(s["items"]) if "items" in s else None
        unique = s.get("uniqueItems", False)

        def array(value: Any, kind: str) -> None:
            if kind != "array":
                return
            _length(len(value), fewest, most, "items")
            for i, item in enumerate(value):
                check = prefix[i] if i < len(prefix) else rest
                if check is not None:
                    _descend(check, item, _kind(item), i)
            if unique and any(_equal(value[i], value[j]) for i in range(len(value)) for j in range(i)):
                raise _Refused("items repeat")
        checks.append(array)
    if {"required", "properties", "additionalProperties", "propertyNames"} & set(s):
        required = s.get("required", [])
        properties = {k: _compile(v) for k, v in s.get("properties", {}).items()}
        extra = s.get("additionalProperties")
        extra_check = _compile(extra) if extra not in (None, False) else None
        key_check = _compile(s["propertyNames"]) if "propertyNames" in s else None

        def obj(value: Any, kind: str) -> None:
            if kind != "object":
                return
            for name in required:
                if name not in value:
                    raise _Refused(f"missing {name!r}")
            for key, item in value.items():
                if key_check is not None:
                    _descend(key_check, key, _kind(key), key)
                check = properties.get(key)
                if check is None:
                    if extra is False:
                        e = _Refused("unknown key")
                        e.keys.append(key)
                        raise e
                    check = extra_check
                if check is not None:
                    _descend(check, item, _kind(item), key)
        checks.append(obj)
    for keyword in ("oneOf", "anyOf"):
        if keyword in s:
            options = [(_compile(o), o == {"type": "null"}) for o in s[keyword]]
            checks.append(_choice(options, keyword == "oneOf"))
    if len(checks) == 1:
        return checks[0]

    def all_of(value: Any, kind: str) -> None:
        for check in checks:
            check(value, kind)
    return all_of


def _length(n: int, fewest: int, most: int | None, unit: str) -> None:
    if n < fewest:
        raise _Refused(f"expected at least {fewest} {unit}, got {n}")
    if most is not None and n > most:
        raise _Refused(f"expected at most {most} {unit}, got {n}")


def _choice(options: list[tuple[Any, bool]], exactly_one: bool) -> Any:
    def choose(value: Any, kind: str) -> None:
        errors: list[_Refused | None] = []
        for check, _ in options:
            try:
                check(value, kind)
            except _Refused as e:
                errors.append(e)
            else:
                errors.append(None)
                if not exactly_one:
                    return
        fits = errors.count(None)
        if fits == 0:  # say why the first form that is not just null refused it
            refusals = [e for e in errors if e is not None]
            raise next((e for e, (_, null) in zip(refusals, options) if not null), refusals[0])
        if exactly_one and fits > 1:
            raise _Refused(f"{value!r:.60} fits more than one of the allowed forms")
    return choose


def check(form: str, value: Any) -> None:
    """Raises SchemaError (a ValueError) unless `value` is a valid `form` (a $defs name, e.g. "matchRecord")."""
    try:
        _ref(form)(value, _kind(value))
    except _Refused as e:
        raise SchemaError(_path(e.keys), e.reason) from None
