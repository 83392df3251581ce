"""OpenAI's strict-mode rules for function schemas, as a checker the tests run.

The rules are those of OpenAI's Structured Outputs guide ("Supported schemas"), which strict
function calling shares:

- the root is an object, not ``anyOf``;
- every object has ``additionalProperties: false`` and lists every property in ``required``
  (an optional field is a union with ``null``);
- types: string, number, integer, boolean, object, array, null, enum, const, ``anyOf``,
  ``$ref``/``$defs``; per type only these keywords: string ``pattern``, ``format`` (date-time,
  time, date, duration, email, hostname, ipv4, ipv6, uuid); number/integer ``minimum``,
  ``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum``, ``multipleOf``; array ``items``,
  ``minItems``, ``maxItems``; plus ``description`` and ``title`` anywhere. Anything else
  (``default``, ``allOf``, ``not``, ``if``/``then``/``else``, ``minLength``, ``uniqueItems``,
  ``patternProperties``, ...) is refused;
- at most 5,000 properties and 10 levels of object nesting; at most 1,000 enum values; at most
  120,000 characters of property names, definition names, enum and const values.

Written independently of :mod:`webgrip.tools.schemas` (no import from it) so that a mistake in the
generator cannot be mirrored here.
"""

from __future__ import annotations

import re
from typing import Any

_TYPES = {"string", "number", "integer", "boolean", "object", "array", "null"}
_COMMON = {"type", "description", "title", "enum", "const", "anyOf", "$ref", "$defs"}
_BY_TYPE = {
    "string": {"pattern", "format"},
    "number": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
    "integer": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
    "array": {"items", "minItems", "maxItems"},
    "object": {"properties", "required", "additionalProperties"},
    "boolean": set(),
    "null": set(),
}
_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
MAX_PROPERTIES, MAX_DEPTH, MAX_ENUM_VALUES, MAX_TEXT = 5000, 10, 1000, 120_000
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class _Tally:
    def __init__(self) -> None:
        self.properties = 0
        self.enum_values = 0
        self.text = 0


def strict_problems(schema: Any) -> list[str]:
    """Every way ``schema`` (a function's ``parameters``) breaks strict mode; empty if none."""
    problems: list[str] = []
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return ["the root must be a schema of type object"]
    if "anyOf" in schema:
        problems.append("the root must not be anyOf")
    tally = _Tally()
    _check(schema, "$", 1, tally, problems)
    for name, sub in (schema.get("$defs") or {}).items():
        tally.text += len(name)
        _check(sub, f"$defs.{name}", 1, tally, problems)
    if tally.properties > MAX_PROPERTIES:
        problems.append(f"{tally.properties} properties (at most {MAX_PROPERTIES})")
    if tally.enum_values > MAX_ENUM_VALUES:
        problems.append(f"{tally.enum_values} enum values (at most {MAX_ENUM_VALUES})")
    if tally.text > MAX_TEXT:
        problems.append(f"{tally.text} characters of names and values (at most {MAX_TEXT})")
    return problems


def _check(node: Any, path: str, depth: int, tally: _Tally, problems: list[str]) -> None:
    if not isinstance(node, dict):
        problems.append(f"{path}: a schema must be an object")
        return
    kind = node.get("type")
    kinds = [kind] if isinstance(kind, str) else list(kind) if isinstance(kind, list) else []
    if kind is not None and (not kinds or any(k not in _TYPES for k in kinds)):
        problems.append(f"{path}: unsupported type {kind!r}")
    if kind is None and not ({"anyOf", "$ref", "enum", "const"} & set(node)):
        problems.append(f"{path}: no type (nor anyOf, $ref, enum or const)")
    allowed = _COMMON.union(*(_BY_TYPE.get(k, set()) for k in kinds))
    for key in node:
        if key not in allowed:
            problems.append(f"{path}: keyword {key!r} is not supported")
    if "format" in node and node["format"] not in _FORMATS:
        problems.append(f"{path}: format {node['format']!r} is not supported")
    if "enum" in node:
        values = node["enum"]
        if not isinstance(values, list) or not values:
            problems.append(f"{path}: enum must be a non-empty list")
        else:
            tally.enum_values += len(values)
            tally.text += sum(len(str(v)) for v in values)
    if "const" in node:
        tally.text += len(str(node["const"]))
    for i, branch in enumerate(node.get("anyOf") or ()):
        _check(branch, f"{path}.anyOf[{i}]", depth, tally, problems)
    if "object" in kinds:
        if depth > MAX_DEPTH:
            problems.append(f"{path}: objects nested deeper than {MAX_DEPTH} levels")
        if node.get("additionalProperties") is not False:
            problems.append(f"{path}: additionalProperties must be false")
        properties = node.get("properties")
        if not isinstance(properties, dict):
            problems.append(f"{path}: an object must list its properties")
            properties = {}
        required = node.get("required")
        if not isinstance(required, list) or set(required) != set(properties):
            problems.append(f"{path}: every property must be in required (and only those)")
        tally.properties += len(properties)
        for name, sub in properties.items():
            tally.text += len(name)
            _check(sub, f"{path}.{name}", depth + 1, tally, problems)
    if "array" in kinds and "items" in node:
        _check(node["items"], f"{path}[]", depth, tally, problems)


def tool_problems(entry: dict[str, Any], format: str) -> list[str]:
    """Strict-mode problems of one tool entry of ``Tools.schemas(format, strict=True)``."""
    if format == "openai":
        if entry.get("type") != "function" or not isinstance(entry.get("function"), dict):
            return ["a Chat Completions tool is {'type': 'function', 'function': {...}}"]
        body = entry["function"]
    elif format == "openai-responses":
        if entry.get("type") != "function" or "function" in entry:
            return ["a Responses tool is a flat {'type': 'function', 'name', ...} entry"]
        body = entry
    else:
        raise ValueError(format)
    problems = []
    if body.get("strict") is not True:
        problems.append("strict must be true")
    if not _NAME.match(str(body.get("name", ""))):
        problems.append(f"name {body.get('name')!r}: 1-64 of a-z, A-Z, 0-9, _ and -")
    if not isinstance(body.get("description"), str):
        problems.append("no description")
    return problems + strict_problems(body.get("parameters"))
