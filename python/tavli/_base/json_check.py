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
    return json.loads(resources.files("tavli").joinpath("json_schema", SCHEMA_FILE).read_text(encoding="utf-8"))


class SchemaError(ValueError):
    """A document that the JSON Schema refuses: `path` (as in Python: games[0].turns[2].play) and why."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path or 'the document'}: {message}")
        self.path = path


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, (bool, np.bool_)):
        return "boolean"
    if isinstance(value, (int, np.integer)):
        return "integer"
    if isinstance(value, (float, np.floating)):
        return "integer" if float(value).is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _is_type(value: Any, name: str) -> bool:
    kind = _kind(value)
    return kind == name or (name == "number" and kind == "integer")


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, 1.0 is 1, arrays and objects compare item by item."""
    ka, kb = _kind(a), _kind(b)
    if {ka, kb} <= {"integer", "number"}:
        return a == b
    if ka != kb:
        return False
    if ka == "array":
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if ka == "object":
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return a == b


def _at(path: str, key: Any) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else str(key))


def _check(s: Any, value: Any, path: str) -> None:
    if s is True:
        return
    if s is False:
        raise SchemaError(path, "not allowed")
    if "$ref" in s:
        name = s["$ref"].removeprefix("#/$defs/")
        _check(schema()["$defs"][name], value, path)
    if "type" in s:
        names = [s["type"]] if isinstance(s["type"], str) else s["type"]
        if not any(_is_type(value, n) for n in names):
            raise SchemaError(path, f"expected {' or '.join(names)}, got {_kind(value)} {value!r:.60}")
    if "const" in s and not _equal(value, s["const"]):
        raise SchemaError(path, f"expected {s['const']!r}, got {value!r:.60}")
    if "enum" in s and not any(_equal(value, e) for e in s["enum"]):
        raise SchemaError(path, f"expected one of {', '.join(map(repr, s['enum']))}, got {value!r:.60}")
    kind = _kind(value)
    if kind in ("integer", "number"):
        if "minimum" in s and value < s["minimum"]:
            raise SchemaError(path, f"{value!r} is below {s['minimum']}")
        if "maximum" in s and value > s["maximum"]:
            raise SchemaError(path, f"{value!r} is over {s['maximum']}")
    if kind == "string":
        if "minLength" in s and len(value) < s["minLength"]:
            raise SchemaError(path, f"shorter than {s['minLength']} characters")
        if "maxLength" in s and len(value) > s["maxLength"]:
            raise SchemaError(path, f"longer than {s['maxLength']} characters")
        if "pattern" in s and not re.search(s["pattern"], value):
            raise SchemaError(path, f"{value!r:.60} is not of the form {s['pattern']}")
    if kind == "array":
        if "minItems" in s and len(value) < s["minItems"]:
            raise SchemaError(path, f"expected at least {s['minItems']} items, got {len(value)}")
        if "maxItems" in s and len(value) > s["maxItems"]:
            raise SchemaError(path, f"expected at most {s['maxItems']} items, got {len(value)}")
        prefix = s.get("prefixItems", [])
        for i, item in enumerate(value):
            if i < len(prefix):
                _check(prefix[i], item, _at(path, i))
            elif "items" in s:
                _check(s["items"], item, _at(path, i))
        if s.get("uniqueItems") and any(_equal(value[i], value[j]) for i in range(len(value)) for j in range(i)):
            raise SchemaError(path, "items repeat")
    if kind == "object":
        for name in s.get("required", []):
            if name not in value:
                raise SchemaError(path, f"missing {name!r}")
        properties = s.get("properties", {})
        for key, item in value.items():
            if "propertyNames" in s:
                _check(s["propertyNames"], key, _at(path, key))
            if key in properties:
                _check(properties[key], item, _at(path, key))
            elif "additionalProperties" in s:
                if s["additionalProperties"] is False:
                    raise SchemaError(_at(path, key), "unknown key")
                _check(s["additionalProperties"], item, _at(path, key))
    for keyword in ("oneOf", "anyOf"):
        if keyword in s:
            errors = [_error(option, value, path) for option in s[keyword]]
            fits = errors.count(None)
            if fits == 0:  # say why the first form that is not just null refused it
                raise next((e for e, o in zip(errors, s[keyword]) if o != {"type": "null"}), errors[0])
            if keyword == "oneOf" and fits > 1:
                raise SchemaError(path, f"{value!r:.60} fits more than one of the allowed forms")


def _error(s: Any, value: Any, path: str) -> SchemaError | None:
    try:
        _check(s, value, path)
    except SchemaError as e:
        return e
    return None


def check(form: str, value: Any) -> None:
    """Raises SchemaError (a ValueError) unless `value` is a valid `form` (a $defs name, e.g. "matchRecord")."""
    _check({"$ref": f"#/$defs/{form}"}, value, "")
