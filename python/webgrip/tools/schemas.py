"""Tool schemas for every agent framework, generated from the tool methods themselves.

The JSON Schema of each tool is read from its signature (types, defaults, ``Literal`` enums,
``Annotated`` bounds) and its Google-style docstring (the description and the ``Args:``
section; bounds written like ``100–20000`` or ``between 1 and 10``), so the schemas cannot
drift from the code. Four shapes are produced from that one source:

- ``"openai"``: ``{"type": "function", "function": {"name", "description", "parameters"}}``
  (Chat Completions; ``strict=True`` adds ``"strict": true`` and a strict-mode schema)
- ``"openai-responses"``: ``{"type": "function", "name", "description", "parameters",
  "strict"}`` (the Responses API's flat entry; strict by default)
- ``"anthropic"``: ``{"name", "description", "input_schema"}``
- ``"mcp"``: ``{"name", "description", "inputSchema", "annotations"}``

:func:`call_tool` dispatches a model's tool call by name after checking its arguments against
the same schema, and :func:`register` hands each tool to a framework's ``@tool`` decorator.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
import reprlib
import types
import typing
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .. import _jsonsafe

__all__ = [
    "DEFAULT_TOOLS",
    "FORMATS",
    "OPTIONAL_TOOLS",
    "ToolSpec",
    "call_tool",
    "check_tool_names",
    "describe",
    "register",
    "register_async",
    "strict_parameters",
    "tool_schemas",
    "tool_specs",
]

#: The tools an agent gets by default, in the order they are listed.
DEFAULT_TOOLS: tuple[str, ...] = ("fetch_page", "search_web", "download_file")
#: The tools offered only when asked for (``Tools(tool_names=...)``, or ``names=`` here).
OPTIONAL_TOOLS: tuple[str, ...] = ("research", "map_site")
FORMATS: tuple[str, ...] = ("openai", "openai-responses", "anthropic", "mcp")
#: The formats that take ``strict``, and whether they are strict when it is not given.
_STRICT_DEFAULT: dict[str, bool] = {"openai": False, "openai-responses": True}

# MCP behaviour hints (they are hints only; see the MCP spec's ToolAnnotations). Reading the
# web is read-only but open-world; a download writes a new file and never touches others
# unless asked to overwrite.
_MCP_ANNOTATIONS: dict[str, dict[str, Any]] = {
    "fetch_page": {"title": "Fetch a web page", "readOnlyHint": True, "openWorldHint": True},
    "search_web": {"title": "Search the web", "readOnlyHint": True, "openWorldHint": True},
    "download_file": {
        "title": "Download a file",
        "readOnlyHint": False,
        "destructiveHint": False,
        "openWorldHint": True,
    },
    "research": {
        "title": "Search and read the top results",
        "readOnlyHint": True,
        "openWorldHint": True,
    },
    "map_site": {"title": "List a site's pages", "readOnlyHint": True, "openWorldHint": True},
}

_SECTION = re.compile(
    r"^\s*(Args|Arguments|Parameters|Returns|Return|Raises|Examples?|Notes?"
    r"|Yields|See Also)\s*:\s*$"
)
_ARG_LINE = re.compile(r"^(\*{0,2}\w+)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$")
_RANGE_PATTERNS = (
    re.compile(r"between\s+(-?\d[\d_,]*)\s+and\s+(-?\d[\d_,]*)", re.I),
    re.compile(r"(-?\d[\d_,]*)\s*(?:–|—|\.\.|-|\bto\b)\s*(-?\d[\d_,]*)"),
)
_TYPE_NAMES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, model-facing description, JSON Schema and the callable."""

    name: str
    description: str
    parameters: Mapping[str, Any]
    """A JSON Schema object: ``type``, ``properties``, ``required``, ``additionalProperties``."""
    func: Callable[..., Any]


# -- docstrings -------------------------------------------------------------------------------
def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into (description, {arg: text}).

    The description keeps everything but the ``Args:``/``Raises:``/``Examples:`` sections
    (a model needs the summary and what comes back, not which exceptions never escape).
    """
    lines = inspect.cleandoc(doc or "").splitlines()
    description: list[str] = []
    args: dict[str, list[str]] = {}
    section: str | None = None
    current: str | None = None
    arg_indent: int | None = None
    for line in lines:
        header = _SECTION.match(line)
        if header and not line.startswith((" ", "\t")):
            section = header.group(1).lower()
            current, arg_indent = None, None
            if section in ("returns", "return", "notes", "note", "yields", "see also"):
                description.append(line)
            continue
        if section in ("args", "arguments", "parameters"):
            stripped = line.strip()
            indent = len(line) - len(line.lstrip())
            m = _ARG_LINE.match(stripped)
            if m and stripped and (arg_indent is None or indent <= arg_indent):
                arg_indent = indent
                current = m.group(1).lstrip("*")
                args[current] = [m.group(3)] if m.group(3) else []
            elif current is not None and stripped:
                args[current].append(stripped)
            continue
        if section in ("raises", "examples", "example"):
            continue
        description.append(line)
    return _reflow(description), {k: " ".join(v).strip() for k, v in args.items()}


def _reflow(lines: list[str]) -> str:
    """Join hard-wrapped lines into paragraphs (a model gains nothing from source wrapping);
    a section header such as ``Returns:`` starts its paragraph."""
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        stripped = line.strip()
        if not stripped:
            if paragraphs[-1]:
                paragraphs.append([])
            continue
        paragraphs[-1].append(stripped)
    return "\n\n".join(" ".join(p) for p in paragraphs if p)


# -- types --------------------------------------------------------------------------------------
def _json_type(annotation: Any) -> dict[str, Any]:
    """The JSON Schema for a Python annotation (``None`` parts of a union are dropped)."""
    extras: dict[str, Any] = {}
    if typing.get_origin(annotation) is typing.Annotated:
        annotation, *metadata = typing.get_args(annotation)
        for meta in metadata:
            extras.update(_bounds_from_metadata(meta))
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(members) == 1:
            return {**_json_type(members[0]), **extras}
        return {"anyOf": [_json_type(m) for m in members], **extras}
    if origin is Literal:
        values = list(typing.get_args(annotation))
        kinds = {_TYPE_NAMES.get(type(v).__name__, "string") for v in values}
        schema: dict[str, Any] = {"enum": values}
        if len(kinds) == 1:
            schema = {"type": kinds.pop(), "enum": values}
        return {**schema, **extras}
    if origin in (list, tuple, typing.Sequence, set, frozenset) or annotation in (list, tuple):
        item_args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        schema = {"type": "array"}
        if item_args:
            schema["items"] = _json_type(item_args[0])
        return {**schema, **extras}
    if origin in (dict, typing.Mapping) or annotation is dict:
        return {"type": "object", **extras}
    if isinstance(annotation, type) and annotation.__name__ in _TYPE_NAMES:
        return {"type": _TYPE_NAMES[annotation.__name__], **extras}
    return {**extras}  # Any or unknown: accept anything


def _bounds_from_metadata(meta: Any) -> dict[str, Any]:
    # Duck-typed so annotated_types.Interval/Ge/Le, pydantic Field-ish objects and simple
    # custom markers all work without importing them.
    out: dict[str, Any] = {}
    for attr, key in (
        ("ge", "minimum"),
        ("minimum", "minimum"),
        ("le", "maximum"),
        ("maximum", "maximum"),
    ):
        value = getattr(meta, attr, None)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[key] = value
    return out


def _bounds_from_text(text: str, json_type: str | None) -> dict[str, Any]:
    if json_type not in ("integer", "number"):
        return {}
    for pattern in _RANGE_PATTERNS:
        m = pattern.search(text)
        if m:
            lo, hi = (int(g.replace(",", "").replace("_", "")) for g in m.groups())
            if lo < hi:
                return {"minimum": lo, "maximum": hi}
    return {}


def _enum_from_text(text: str) -> list[str]:
    """Quoted choices in a docstring, e.g. ``"markdown" (default), "text" or "links"``."""
    return list(dict.fromkeys(re.findall(r"[\"'`]([A-Za-z_][\w-]*)[\"'`]", text)))


# -- describing a tool ------------------------------------------------------------------------
def describe(func: Callable[..., Any], name: str | None = None) -> ToolSpec:
    """Build the :class:`ToolSpec` of one function or bound method."""
    name = name or func.__name__
    description, arg_docs = _parse_docstring(func.__doc__ or "")
    try:
        hints = typing.get_type_hints(func, include_extras=True)
    except Exception:  # unresolvable forward references: fall back to the raw annotations
        hints = {}
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in inspect.signature(func).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or param.name == "self":
            continue
        annotation = hints.get(param.name, param.annotation)
        schema = _json_type(annotation) if annotation is not param.empty else {}
        doc = arg_docs.get(param.name, "")
        if "enum" not in schema and schema.get("type") == "string":
            choices = _enum_from_text(doc)
            default = param.default if param.default is not param.empty else None
            # Only trust quoted words as an enum when the default is one of them: a quoted
            # example in a free-text parameter's description must not become a constraint.
            if len(choices) >= 2 and default in choices:
                schema["enum"] = choices
        if "minimum" not in schema and "maximum" not in schema:
            schema.update(_bounds_from_text(doc, schema.get("type")))
        if doc:
            schema["description"] = doc
        if param.default is param.empty:
            required.append(param.name)
        elif param.default is not None:
            schema["default"] = param.default
        properties[param.name] = schema
    parameters = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    return ToolSpec(name=name, description=description, parameters=parameters, func=func)


def check_tool_names(names: Sequence[str] | None) -> tuple[str, ...]:
    """``names`` as a tuple of known tools without repeats (:data:`DEFAULT_TOOLS` for
    ``None``); ``ValueError`` for an unknown or empty choice."""
    if names is None:
        return DEFAULT_TOOLS
    if isinstance(names, str):
        raise ValueError(f"tool_names must be a sequence of tool names, not the string {names!r}")
    chosen = tuple(dict.fromkeys(names))
    known = DEFAULT_TOOLS + OPTIONAL_TOOLS
    unknown = [n for n in chosen if n not in known]
    if unknown or not chosen:
        raise ValueError(
            f"unknown tool name(s) {unknown!r}; choose among {', '.join(known)}"
            if unknown
            else "tool_names is empty; name at least one tool"
        )
    return chosen


def _names(tools: Any, names: tuple[str, ...] | None) -> tuple[str, ...]:
    """``names`` if given, else the tools' own choice (``Tools.tool_names``), else the
    default three."""
    if names:
        return names
    own = getattr(tools, "tool_names", None)
    if isinstance(own, tuple) and own and all(isinstance(n, str) for n in own):
        return own
    return DEFAULT_TOOLS


def tool_specs(tools: Any, names: tuple[str, ...] | None = None) -> list[ToolSpec]:
    """The :class:`ToolSpec` of each tool method of ``tools``: ``names``, else
    ``tools.tool_names`` (see :class:`~webgrip.tools.Tools`), else :data:`DEFAULT_TOOLS`."""
    return [describe(getattr(tools, n), n) for n in _names(tools, names)]


def tool_schemas(
    tools: Any,
    format: str = "openai",
    *,
    names: tuple[str, ...] | None = None,
    strict: bool | None = None,
) -> list[dict[str, Any]]:
    """The tools' definitions in ``format``: ``"openai"``, ``"openai-responses"``,
    ``"anthropic"`` or ``"mcp"``.

    Pass the result straight to ``tools=`` of the OpenAI or Anthropic SDKs, or serve it from
    an MCP ``tools/list`` handler. ``strict`` (OpenAI formats only; default: off for
    ``"openai"``, on for ``"openai-responses"``) gives schemas OpenAI's strict mode accepts,
    see :func:`strict_parameters`; :func:`call_tool` takes the ``null`` arguments they produce.
    """
    if format not in FORMATS:
        raise ValueError(f"unknown schema format {format!r}; choose one of {FORMATS}")
    if strict is not None and format not in _STRICT_DEFAULT:
        raise ValueError(f"strict applies to the OpenAI formats only, not {format!r}")
    strict = _STRICT_DEFAULT.get(format, False) if strict is None else strict
    out: list[dict[str, Any]] = []
    for spec in tool_specs(tools, names):
        params = json.loads(json.dumps(spec.parameters))  # a deep copy callers may mutate
        if strict:
            params = strict_parameters(params)
        if format == "openai":
            function: dict[str, Any] = {
                "name": spec.name,
                "description": spec.description,
                "parameters": params,
            }
            if strict:
                function["strict"] = True
            out.append({"type": "function", "function": function})
        elif format == "openai-responses":
            # The Responses API takes strict as true when it is left out: always say it.
            out.append(
                {
                    "type": "function",
                    "name": spec.name,
                    "description": spec.description,
                    "parameters": params,
                    "strict": strict,
                }
            )
        elif format == "anthropic":
            out.append(
                {
                    "name": spec.name,
                    "description": spec.description,
                    "input_schema": params,
                }
            )
        else:
            entry = {"name": spec.name, "description": spec.description, "inputSchema": params}
            if spec.name in _MCP_ANNOTATIONS:
                entry["annotations"] = dict(_MCP_ANNOTATIONS[spec.name])
            out.append(entry)
    return out


# -- OpenAI strict mode ------------------------------------------------------------------------
# What strict mode accepts besides structure (OpenAI's Structured Outputs guide, "Supported
# schemas"): these keywords per type. Anything else a schema holds is said in words instead.
_STRICT_KEYWORDS: dict[str, frozenset[str]] = {
    "string": frozenset({"pattern", "format"}),
    "number": frozenset(
        {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
    ),
    "integer": frozenset(
        {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
    ),
    "array": frozenset({"items", "minItems", "maxItems"}),
    "object": frozenset({"properties", "required", "additionalProperties"}),
    "boolean": frozenset(),
    "null": frozenset(),
}
#: Keywords strict mode accepts on any schema.
_STRICT_COMMON: frozenset[str] = frozenset(
    {
        "type",
        "description",
        "title",
        "enum",
        "const",
        "anyOf",
        "$ref",
        "$defs",
    }
)
_STRICT_STRING_FORMATS: frozenset[str] = frozenset(
    {
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    }
)


def strict_parameters(schema: Mapping[str, Any]) -> dict[str, Any]:
    """An object schema rewritten for OpenAI's strict mode.

    Every object gets ``additionalProperties: false`` and lists every property in
    ``required``; a property that was optional becomes ``anyOf: [its schema, {"type":
    "null"}]`` with its default said in the description (the model sends ``null`` for "use
    the default", which :func:`call_tool` understands). Enums and numeric bounds stay;
    keywords strict mode does not accept (``default``, ``minLength``, ...) move into the
    description, so the model still reads them.
    """
    return _strict_node(schema, root=True)


def _strict_node(schema: Mapping[str, Any], *, root: bool = False) -> dict[str, Any]:
    node = dict(schema)
    notes: list[str] = []
    if "anyOf" in node:
        node["anyOf"] = [_strict_node(s) for s in node["anyOf"]]
    kind = node.get("type")
    if kind == "object" or (root and "properties" in node):
        node["type"] = "object"
        properties = {k: _strict_node(v) for k, v in node.get("properties", {}).items()}
        required = set(node.get("required", ()))
        for name, prop in properties.items():
            if name not in required:
                properties[name] = _nullable(prop)
        node["properties"] = properties
        node["required"] = list(properties)
        node["additionalProperties"] = False
    elif kind == "array" and isinstance(node.get("items"), Mapping):
        node["items"] = _strict_node(node["items"])
    kinds = [kind] if isinstance(kind, str) else list(kind or ())
    allowed = _STRICT_COMMON.union(*(_STRICT_KEYWORDS.get(k, ()) for k in kinds))
    for key in [k for k in node if k not in allowed]:
        value = node.pop(key)
        if not (key == "uniqueItems" and value is False):  # that one says nothing
            notes.append(_keyword_note(key, value))
    if "format" in node and node["format"] not in _STRICT_STRING_FORMATS:
        notes.append(_keyword_note("format", node.pop("format")))
    if notes:
        node["description"] = " ".join([node.get("description", ""), *notes]).strip()
    return node


def _nullable(prop: dict[str, Any]) -> dict[str, Any]:
    """``prop`` or null; the description (and where a default went) stays outside."""
    outer: dict[str, Any] = {k: prop.pop(k) for k in ("description", "title") if k in prop}
    if prop.get("anyOf") is not None and not set(prop) - {"anyOf"}:
        branches = list(prop["anyOf"])
    else:
        branches = [prop]
    if {"type": "null"} not in branches:
        branches.append({"type": "null"})
    hint = "Send null to use the default."
    outer["description"] = " ".join([outer.get("description", ""), hint]).strip()
    return {"anyOf": branches, **outer}


def _keyword_note(key: str, value: Any) -> str:
    if key == "default":
        return f"Default: {json.dumps(value)}."
    words = {
        "minLength": "At least {} characters.",
        "maxLength": "At most {} characters.",
        "uniqueItems": "Items must be unique.",
        "minProperties": "At least {} entries.",
        "maxProperties": "At most {} entries.",
    }
    if key in words:
        return words[key].format(json.dumps(value))
    return f"({key}: {json.dumps(value)})"


# -- dispatching ---------------------------------------------------------------------------
_PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list, tuple),
    "object": (dict,),
}


def _check_value(name: str, value: Any, schema: Mapping[str, Any]) -> tuple[Any, str | None]:
    """Return (possibly coerced value, error message or None)."""
    kind = schema.get("type")
    if kind is not None:
        allowed = _PY_TYPES.get(kind, (object,))
        # bool is an int subclass, but true is not a page count.
        if isinstance(value, bool) and kind in ("integer", "number"):
            return value, f"argument {name!r} must be an {kind}, not a boolean"
        if kind == "integer" and isinstance(value, float) and value.is_integer():
            value = int(value)  # JSON has one number type; 5.0 is a fine 5
        if not isinstance(value, allowed):
            article = "an" if kind[0] in "aeiou" else "a"
            return value, (
                f"argument {name!r} must be {article} {kind}, "
                f"not {type(value).__name__} {_short_repr(value)}"
            )
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(repr(c) for c in schema["enum"])
        return value, f"argument {name!r} must be one of {choices}, not {_short_repr(value)}"
    return value, None


#: Quotes a model's value in an error message: bounded in length and depth, so a megabyte
#: string or a list nested a thousand deep neither floods the model's context nor recurses.
_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = 60


def _short_repr(value: Any) -> str:
    return _REPR.repr(value)


def call_tool(
    tools: Any,
    name: str,
    arguments: Mapping[str, Any] | str | None = None,
    *,
    names: tuple[str, ...] | None = None,
) -> str:
    """Run the tool a model asked for and return its text; never raises.

    ``arguments`` may be a dict or the JSON string OpenAI sends. Unknown tools, unknown or
    missing arguments and values of the wrong type are answered with an ``Error: ...`` string
    the model can act on. ``null`` for an optional argument means "use the default".
    """
    specs = {s.name: s for s in tool_specs(tools, names)}
    spec = specs.get(name)
    if spec is None:
        return f"Error: unknown tool {name!r}. Available tools: {', '.join(specs)}."
    if isinstance(arguments, str):
        try:
            arguments = _jsonsafe.loads(arguments) if arguments.strip() else {}
        except _jsonsafe.JSONError as exc:  # also nesting too deep, numbers too long
            return (
                f"Error: the arguments for {name} are not valid JSON ({exc.msg}); send "
                "a flat JSON object of the tool's arguments."
            )
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, Mapping):
        return f"Error: the arguments for {name} must be a JSON object."
    props = spec.parameters["properties"]
    required = spec.parameters["required"]
    unknown = [k for k in arguments if k not in props]
    if unknown:
        shown = ", ".join(map(_short_repr, unknown[:5])) + (", …" if len(unknown) > 5 else "")
        return (
            f"Error: unknown argument(s) for {name}: {shown}. Valid arguments: {', '.join(props)}."
        )
    kwargs: dict[str, Any] = {}
    for key, value in arguments.items():
        if value is None:  # "not given": the default, or a missing-argument error below
            continue
        value, problem = _check_value(key, value, props[key])
        if problem:
            return f"Error: {problem}."
        kwargs[key] = value
    missing = [k for k in required if k not in kwargs]
    if missing:
        return f"Error: missing required argument(s) for {name}: {', '.join(missing)}."
    try:
        result = spec.func(**kwargs)
    except Exception as exc:  # the tools never raise; this guards third-party subclasses
        return f"Error: {name} failed: {exc}"
    if isinstance(result, str):
        return result
    try:
        return json.dumps(result)
    except (TypeError, ValueError, RecursionError) as exc:  # a third-party tool's odd result
        return f"Error: {name} returned a result that cannot be sent as JSON ({exc})."


def register(
    tools: Any,
    decorator: Callable[[Callable[..., Any]], Any],
    *,
    names: tuple[str, ...] | None = None,
) -> list[Any]:
    """Apply a framework's ``@tool``-style decorator to each tool; return what it returned.

    Each tool is handed over as a plain function (not a bound method) carrying the tool's
    name, docstring, signature without ``self`` and resolved annotations, which is what
    decorators that introspect functions (GAIA's ``@tool``, LangChain's ``@tool``) expect.
    """
    return [decorator(_plain_function(getattr(tools, n), n)) for n in _names(tools, names)]


def register_async(
    tools: Any,
    decorator: Callable[[Callable[..., Any]], Any],
    run: Callable[..., Awaitable[str]],
    *,
    names: tuple[str, ...] | None = None,
) -> list[Any]:
    """Like :func:`register`, but each tool is handed over as an ``async def``.

    ``tools`` supplies the name, docstring, signature and resolved annotations (the sync
    tools, so a framework reads exactly what :func:`register` gives it); ``run(name, *args,
    **kwargs)`` is the coroutine that does the work, e.g. :class:`webgrip.aio.AsyncTools`'s.
    """
    return [decorator(_async_function(getattr(tools, n), n, run)) for n in _names(tools, names)]


def _async_function(
    method: Callable[..., Any], name: str, run: Callable[..., Awaitable[str]]
) -> Callable[..., Any]:
    plain = _plain_function(method, name)

    async def tool(*args: Any, **kwargs: Any) -> str:
        return await run(name, *args, **kwargs)

    for attr in (
        "__module__",
        "__name__",
        "__qualname__",
        "__doc__",
        "__signature__",
        "__annotations__",
    ):
        setattr(tool, attr, getattr(plain, attr))
    return tool


def _plain_function(method: Callable[..., Any], name: str) -> Callable[..., Any]:
    def tool(*args: Any, **kwargs: Any) -> Any:
        return method(*args, **kwargs)

    # update_wrapper, not @functools.wraps: smolagents reads this function's source and warns
    # about any decorator line it finds there.
    functools.update_wrapper(tool, method)
    tool.__name__ = tool.__qualname__ = name
    try:
        hints = typing.get_type_hints(method)
    except Exception:
        hints = {}
    # Resolved types, not the strings ``from __future__ import annotations`` leaves behind:
    # decorators map ``param.annotation`` to JSON types and would not understand "int".
    sig = inspect.signature(method)
    sig = sig.replace(
        parameters=[
            p.replace(annotation=hints.get(p.name, p.annotation)) for p in sig.parameters.values()
        ],
        return_annotation=hints.get("return", sig.return_annotation),
    )
    # A function's __signature__ is read by inspect.signature; typeshed does not declare it.
    tool.__signature__ = sig  # type: ignore[attr-defined]
    tool.__annotations__ = {k: v for k, v in hints.items() if k in sig.parameters or k == "return"}
    # functools.wraps set __wrapped__ to the bound method; introspection that unwraps would
    # then see the right signature anyway, but dropping it keeps ours authoritative.
    # (mypy types ``tool`` as the plain def: update_wrapper's __wrapped__ is not on it.)
    del tool.__wrapped__  # type: ignore[attr-defined]
    return tool
