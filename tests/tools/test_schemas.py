"""Tool schemas generated from signatures and docstrings; dispatch; framework registration."""

from __future__ import annotations

import inspect
import json
from typing import Annotated, Literal

import pytest
from webgrip.tools.schemas import call_tool, describe, register, tool_schemas


class _Between:
    """A bounds marker like ``annotated_types.Interval`` (duck-typed by the generator)."""

    def __init__(self, ge: int, le: int):
        self.ge, self.le = ge, le


class SampleTools:
    """Stand-in with the real tools' shapes, so the generator is tested on its own."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    def fetch_page(
        self,
        url: str,
        extract: Literal["markdown", "text", "links"] = "markdown",
        max_length: int = 5000,
        start_index: int = 0,
    ) -> str:
        """Fetch a web page and return its readable content.

        Use after search_web to read a result.

        Args:
            url: The http(s) URL to read.
            extract: The view to return.
            max_length: Maximum characters returned (100–20000).
            start_index: Offset to continue
                a truncated page.

        Returns:
            The page content.

        Raises:
            Nothing: failures come back as text.
        """
        self.calls.append(
            (
                "fetch_page",
                dict(url=url, extract=extract, max_length=max_length, start_index=start_index),
            )
        )
        return f"page {url}"

    def search_web(self, query: str, num_results: Annotated[int, _Between(1, 10)] = 5) -> str:
        """Search the web.

        Args:
            query: What to look for.
            num_results: How many results.
        """
        self.calls.append(("search_web", dict(query=query, num_results=num_results)))
        return "results"

    def download_file(
        self,
        url: str,
        save_to: str = "~/Downloads",
        filename: str | None = None,
        overwrite: bool = False,
    ) -> str:
        """Download a file.

        Args:
            url: What to download.
            save_to: Folder.
            filename: Name to save as.
            overwrite: Replace an existing file, "yes" or "no" are not accepted.
        """
        self.calls.append(
            (
                "download_file",
                dict(url=url, save_to=save_to, filename=filename, overwrite=overwrite),
            )
        )
        return "saved"


@pytest.fixture
def tools() -> SampleTools:
    return SampleTools()


def _params(tools, name: str, fmt: str = "anthropic") -> dict:
    schema = next(s for s in tool_schemas(tools, fmt) if s["name"] == name)
    return schema["input_schema"]


def test_openai_shape(tools):
    schemas = tool_schemas(tools, "openai")
    assert [s["function"]["name"] for s in schemas] == ["fetch_page", "search_web", "download_file"]
    fetch = schemas[0]
    assert fetch["type"] == "function"
    params = fetch["function"]["parameters"]
    assert params["type"] == "object"
    assert params["required"] == ["url"]
    assert params["additionalProperties"] is False
    json.dumps(schemas)  # serialisable as-is


def test_anthropic_and_mcp_shapes_share_one_schema(tools):
    anthropic = tool_schemas(tools, "anthropic")
    mcp = tool_schemas(tools, "mcp")
    openai = tool_schemas(tools, "openai")
    for a, m, o in zip(anthropic, mcp, openai, strict=True):
        assert a["input_schema"] == m["inputSchema"] == o["function"]["parameters"]
        assert a["description"] == m["description"] == o["function"]["description"]
    assert mcp[0]["annotations"]["readOnlyHint"] is True
    assert mcp[2]["annotations"]["readOnlyHint"] is False


def test_unknown_format_is_refused(tools):
    with pytest.raises(ValueError, match="format"):
        tool_schemas(tools, "gemini")


def test_description_keeps_summary_and_returns_but_not_args_or_raises(tools):
    desc = tool_schemas(tools, "anthropic")[0]["description"]
    assert desc.startswith("Fetch a web page and return its readable content.")
    assert "Use after search_web" in desc
    assert "The page content." in desc
    assert "Args:" not in desc and "max_length" not in desc
    assert "Raises" not in desc


def test_parameter_types_defaults_enums_bounds(tools):
    props = _params(tools, "fetch_page")["properties"]
    assert props["url"] == {"type": "string", "description": "The http(s) URL to read."}
    assert props["extract"]["enum"] == ["markdown", "text", "links"]
    assert props["extract"]["default"] == "markdown"
    assert props["max_length"]["type"] == "integer"
    assert (props["max_length"]["minimum"], props["max_length"]["maximum"]) == (100, 20000)
    assert props["max_length"]["default"] == 5000
    # A continuation line is joined to its argument's description.
    assert props["start_index"]["description"] == "Offset to continue a truncated page."
    assert "minimum" not in props["start_index"]


def test_annotated_bounds_and_optional_types(tools):
    search = _params(tools, "search_web")["properties"]
    assert (search["num_results"]["minimum"], search["num_results"]["maximum"]) == (1, 10)
    download = _params(tools, "download_file")["properties"]
    assert download["filename"]["type"] == "string"
    assert "default" not in download["filename"]  # None is "not given", not a value
    assert download["overwrite"] == {
        "type": "boolean",
        "description": download["overwrite"]["description"],
        "default": False,
    }
    # Quoted words in a free-text description do not become an enum when the default is not
    # one of them.
    assert "enum" not in download["overwrite"]


def test_enum_read_from_docstring_when_annotation_is_plain_str():
    def fetch_page(url: str, extract: str = "markdown") -> str:
        """Fetch.

        Args:
            url: URL.
            extract: "markdown" (default), "text" or "tables".
        """
        return url

    spec = describe(fetch_page)
    assert spec.parameters["properties"]["extract"]["enum"] == ["markdown", "text", "tables"]


def test_bounds_read_from_between_phrase():
    def search_web(query: str, num_results: int = 5) -> str:
        """Search.

        Args:
            query: Words.
            num_results: Number of results, between 1 and 10.
        """
        return query

    props = describe(search_web).parameters["properties"]
    assert (props["num_results"]["minimum"], props["num_results"]["maximum"]) == (1, 10)


def test_schema_follows_the_code(tools):
    """Changing the function changes the schema: nothing is hand-maintained."""

    def fetch_page(url: str, max_length: int = 42, verbose: bool = True) -> str:
        """Fetch.

        Args:
            url: URL.
            max_length: Cap (10–50).
            verbose: Talk more.
        """
        return url

    props = describe(fetch_page).parameters["properties"]
    assert props["max_length"]["default"] == 42
    assert props["max_length"]["maximum"] == 50
    assert props["verbose"]["type"] == "boolean"


# -- call_tool ---------------------------------------------------------------------------
def test_call_dispatches_with_defaults(tools):
    assert call_tool(tools, "fetch_page", {"url": "https://example.com/"}) == (
        "page https://example.com/"
    )
    assert tools.calls[-1] == (
        "fetch_page",
        {
            "url": "https://example.com/",
            "extract": "markdown",
            "max_length": 5000,
            "start_index": 0,
        },
    )


def test_call_accepts_openai_json_string_and_integral_floats(tools):
    out = call_tool(tools, "search_web", '{"query": "rust", "num_results": 3.0}')
    assert out == "results"
    assert tools.calls[-1] == ("search_web", {"query": "rust", "num_results": 3})
    assert isinstance(tools.calls[-1][1]["num_results"], int)


def test_null_optional_argument_means_default(tools):
    call_tool(
        tools, "download_file", {"url": "https://x.test/a", "filename": None, "save_to": None}
    )
    assert tools.calls[-1][1]["save_to"] == "~/Downloads"
    assert tools.calls[-1][1]["filename"] is None


@pytest.mark.parametrize(
    ("name", "arguments", "needle"),
    [
        ("browse", {"url": "x"}, "unknown tool 'browse'"),
        ("fetch_page", {}, "missing required argument(s) for fetch_page: url"),
        ("fetch_page", {"url": None}, "missing required"),
        ("fetch_page", {"url": "x", "raw": True}, "unknown argument(s) for fetch_page: 'raw'"),
        ("fetch_page", {"url": 7}, "'url' must be a string"),
        ("fetch_page", {"url": "x", "max_length": "500"}, "'max_length' must be an integer"),
        ("fetch_page", {"url": "x", "max_length": 2.5}, "'max_length' must be an integer"),
        ("fetch_page", {"url": "x", "max_length": True}, "not a boolean"),
        ("fetch_page", {"url": "x", "extract": "pdf"}, "'extract' must be one of"),
        ("download_file", {"url": "x", "overwrite": "yes"}, "'overwrite' must be a boolean"),
        ("search_web", "{not json", "not valid JSON"),
        ("search_web", ["query"], "must be a JSON object"),
    ],
)
def test_call_refuses_bad_calls_with_error_strings(tools, name, arguments, needle):
    out = call_tool(tools, name, arguments)
    assert out.startswith("Error: ")
    assert needle in out
    assert tools.calls == []  # nothing ran


def test_call_never_raises_even_if_a_tool_does(tools):
    def boom(url: str) -> str:
        raise RuntimeError("kaput")

    tools.fetch_page = boom
    assert call_tool(tools, "fetch_page", {"url": "x"}) == "Error: fetch_page failed: kaput"


# -- register ----------------------------------------------------------------------------
def test_register_hands_plain_functions_to_a_decorator(tools):
    registry: dict[str, object] = {}

    def gaia_style_tool(func):  # registers by name and returns the function, like GAIA's
        registry[func.__name__] = {
            "description": func.__doc__,
            "params": {n: p.annotation for n, p in inspect.signature(func).parameters.items()},
            "func": func,
        }
        return func

    returned = register(tools, gaia_style_tool)
    assert [f.__name__ for f in returned] == ["fetch_page", "search_web", "download_file"]
    entry = registry["fetch_page"]
    assert "self" not in entry["params"]
    assert entry["params"]["max_length"] is int  # resolved, not the string "int"
    assert entry["description"].startswith("Fetch a web page")
    assert entry["func"]("https://a.test/", max_length=300) == "page https://a.test/"
    assert tools.calls[-1][1]["max_length"] == 300
    assert not inspect.ismethod(entry["func"])


def test_langchain_adapter_keeps_the_schema_and_validation(tools):
    pytest.importorskip("langchain_core")
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from webgrip.tools.langchain import langchain_tools

    lc = langchain_tools(tools)
    assert [t.name for t in lc] == ["fetch_page", "search_web", "download_file"]
    converted = convert_to_openai_tool(lc[0])["function"]
    assert converted["parameters"]["properties"]["max_length"]["maximum"] == 20000
    assert lc[1].invoke({"query": "rust", "num_results": 2}) == "results"
    assert lc[1].invoke({"query": 5}).startswith("Error:")


# -- the real Tools ------------------------------------------------------------------------
def test_real_tools_schemas_come_from_their_signatures():
    from webgrip import Config, Tools

    real = Tools(Config())
    schemas = {s["name"]: s for s in real.schemas("anthropic")}
    fetch = schemas["fetch_page"]["input_schema"]["properties"]
    assert fetch["extract"]["enum"] == ["markdown", "text", "html", "links", "tables"]
    assert (fetch["max_length"]["minimum"], fetch["max_length"]["maximum"]) == (100, 20000)
    search = schemas["search_web"]["input_schema"]["properties"]
    assert (search["num_results"]["minimum"], search["num_results"]["maximum"]) == (1, 10)
    download = schemas["download_file"]["input_schema"]
    assert download["required"] == ["url"]
    assert download["properties"]["overwrite"]["type"] == "boolean"
    for s in schemas.values():
        assert "Args:" not in s["description"] and len(s["description"]) > 50
    research = tool_schemas(real, "openai", names=("research",))[0]["function"]
    assert research["parameters"]["properties"]["fetch_top"]["maximum"] == 10


def test_real_tools_call_and_register():
    from webgrip import Config, Tools

    real = Tools(Config())
    assert real.call("fetch_page", {"url": 5}).startswith("Error: argument 'url'")
    refused = real.call("fetch_page", {"url": "http://10.0.0.1/"})  # refused before any I/O
    assert refused.startswith("Error:") and "10.0.0.1" in refused
    assert real.call("browse", {}).startswith("Error: unknown tool")
    names = [f.__name__ for f in real.register(lambda f: f)]
    assert names == ["fetch_page", "search_web", "download_file"]
