"""OpenAI strict-mode schemas ("openai" with strict=True, "openai-responses") and the nulls
a strict model sends; the strict-mode checker itself is tested here too, so it can fail."""

from __future__ import annotations

import asyncio
import copy
import json

import pytest
from helpers.loopback import loopback_config
from helpers.openai_strict import strict_problems, tool_problems
from helpers.siteserver import SiteServer, article, page
from webgrip import Tools
from webgrip.aio import AsyncTools
from webgrip.tools.schemas import strict_parameters, tool_schemas

STRICT_FORMATS = [("openai", {"strict": True}), ("openai-responses", {})]


def _params(entry: dict) -> dict:
    return entry["function"]["parameters"] if "function" in entry else entry["parameters"]


@pytest.mark.parametrize(("fmt", "kwargs"), STRICT_FORMATS)
def test_strict_schemas_pass_the_strict_mode_rules(fmt, kwargs):
    entries = Tools().schemas(fmt, **kwargs)
    assert [e.get("name") or e["function"]["name"] for e in entries] == [
        "fetch_page",
        "search_web",
        "download_file",
    ]
    for entry in entries:
        assert tool_problems(entry, fmt) == [], entry
    # research is a tool method too: its schema must pass as well
    extra = tool_schemas(Tools(), fmt, names=("research",), **kwargs)
    assert tool_problems(extra[0], fmt) == []


def test_async_tools_give_the_same_strict_schemas():
    assert AsyncTools().schemas("openai", strict=True) == Tools().schemas("openai", strict=True)
    assert AsyncTools().schemas("openai-responses") == Tools().schemas("openai-responses")


def test_strict_keeps_enums_and_bounds_and_makes_optionals_nullable():
    fetch = _params(Tools().schemas("openai-responses")[0])
    assert fetch["required"] == [
        "url",
        "extract",
        "max_length",
        "start_index",
        "find",
        "links",
        "max_age",
    ]
    url, extract, max_length = (fetch["properties"][k] for k in ("url", "extract", "max_length"))
    assert url["type"] == "string"  # required stays non-null
    assert extract["anyOf"] == [
        {"type": "string", "enum": ["markdown", "text", "html", "links", "tables"]},
        {"type": "null"},
    ]
    assert max_length["anyOf"][0] == {"type": "integer", "minimum": 100, "maximum": 20000}
    # the default moved into words: the model can no longer leave the argument out
    assert "Default: 5000." in max_length["description"]
    overwrite = _params(Tools().schemas("openai-responses")[2])["properties"]["overwrite"]
    assert overwrite["anyOf"] == [{"type": "boolean"}, {"type": "null"}]
    assert "Default: false. Send null to use the default." in overwrite["description"]
    assert "null" in max_length["description"]
    assert not _keys_named("default", fetch)


def _keys_named(key: str, node: object) -> list[object]:
    if isinstance(node, dict):
        own = [node[key]] if key in node else []
        return own + [v for sub in node.values() for v in _keys_named(key, sub)]
    if isinstance(node, list):
        return [v for sub in node for v in _keys_named(key, sub)]
    return []


def test_non_strict_openai_is_unchanged_and_responses_can_be_non_strict():
    plain = Tools().schemas("openai")[0]["function"]
    assert "strict" not in plain
    assert plain["parameters"]["required"] == ["url"]
    assert plain["parameters"]["properties"]["max_length"]["default"] == 5000
    flat = Tools().schemas("openai-responses", strict=False)[0]
    assert flat["strict"] is False  # said, since the Responses API's default is strict
    assert flat["parameters"] == plain["parameters"]


def test_strict_is_refused_for_formats_without_it():
    with pytest.raises(ValueError, match="OpenAI formats"):
        Tools().schemas("anthropic", strict=True)
    with pytest.raises(ValueError, match="unknown schema format"):
        Tools().schemas("openai-chat")


def test_keywords_strict_mode_refuses_move_into_the_description():
    schema = {
        "type": "object",
        "properties": {
            "name": {
                "type": "string",
                "minLength": 2,
                "maxLength": 40,
                "format": "uri",
                "description": "Who.",
            },
            "tags": {
                "type": "array",
                "items": {"type": "string", "pattern": "^[a-z]+$"},
                "uniqueItems": True,
                "maxItems": 5,
            },
            "where": {"type": "object", "properties": {"city": {"type": "string"}}, "required": []},
            "mode": {"enum": ["a", "b"], "default": "a"},
        },
        "required": ["name"],
    }
    before = copy.deepcopy(schema)
    strict = strict_parameters(schema)
    assert schema == before  # the input is not modified
    assert strict_problems(strict) == []
    name = strict["properties"]["name"]
    assert name == {
        "type": "string",
        "description": 'Who. At least 2 characters. At most 40 characters. (format: "uri")',
    }
    tags = strict["properties"]["tags"]["anyOf"][0]
    assert tags["maxItems"] == 5 and tags["items"]["pattern"] == "^[a-z]+$"
    assert "Items must be unique." in strict["properties"]["tags"]["description"]
    where = strict["properties"]["where"]["anyOf"][0]
    assert where["required"] == ["city"] and where["additionalProperties"] is False
    assert where["properties"]["city"]["anyOf"][1] == {"type": "null"}
    assert 'Default: "a".' in strict["properties"]["mode"]["description"]


@pytest.mark.parametrize(
    ("broken", "complaint"),
    [
        (lambda s: s.pop("additionalProperties"), "additionalProperties must be false"),
        (lambda s: s["required"].remove("max_length"), "every property must be in required"),
        (lambda s: s["properties"]["url"].update(default="x"), "'default' is not supported"),
        (lambda s: s["properties"]["url"].update(minLength=1), "'minLength' is not supported"),
        (lambda s: s["properties"]["url"].update(format="uri"), "format 'uri'"),
        (lambda s: s["properties"]["url"].update(allOf=[{}]), "'allOf' is not supported"),
        (lambda s: s["properties"]["url"].pop("type"), "no type"),
        (lambda s: s["properties"].update(deep=_nested(11)), "nested deeper than 10"),
        (
            lambda s: s["properties"].update(many={"type": "string", "enum": list(range(1001))}),
            "enum values (at most 1000)",
        ),
        (lambda s: s.update(type="array"), "the root must be a schema of type object"),
        (lambda s: s.update(anyOf=[{"type": "object"}]), "the root must not be anyOf"),
    ],
)
def test_the_strict_checker_catches_each_rule(broken, complaint):
    schema = _params(Tools().schemas("openai", strict=True)[0])
    assert strict_problems(schema) == []
    broken(schema)
    problems = strict_problems(schema)
    assert any(complaint in p for p in problems), problems


def test_the_strict_checker_refuses_the_non_strict_schemas():
    entry = Tools().schemas("openai")[0]
    problems = tool_problems(entry, "openai")
    assert "strict must be true" in problems
    assert any("every property must be in required" in p for p in problems)
    assert any("'default' is not supported" in p for p in problems)


def _nested(levels: int) -> dict:
    node: dict = {"type": "string"}
    for _ in range(levels):
        node = {
            "type": "object",
            "properties": {"x": node},
            "required": ["x"],
            "additionalProperties": False,
        }
    return node


# -- what a strict model sends: every argument, null for "use the default" ------------------
@pytest.fixture
def site():
    with SiteServer() as server:
        server.route("/a", page(article("Strict arguments", paragraphs=30)))
        yield server


def test_call_takes_null_as_the_default(site):
    tools = Tools(loopback_config())
    url = site.url("/a")
    strict = tools.call(
        "fetch_page",
        json.dumps({"url": url, "extract": None, "max_length": None, "start_index": None}),
    )
    assert strict == tools.fetch_page(url)  # markdown, 5000 characters, from 0
    assert "Showing characters 0–" in strict
    mixed = tools.call(
        "fetch_page", {"url": url, "extract": "text", "max_length": 100, "start_index": None}
    )
    assert mixed == tools.fetch_page(url, extract="text", max_length=100)
    assert tools.call(
        "fetch_page", {"url": None, "extract": None, "max_length": None, "start_index": None}
    ) == ("Error: missing required argument(s) for fetch_page: url.")


def test_async_call_takes_null_as_the_default(site):
    async def main() -> tuple[str, str]:
        async with AsyncTools(loopback_config()) as tools:
            url = site.url("/a")
            return (
                await tools.call(
                    "fetch_page",
                    {"url": url, "extract": None, "max_length": None, "start_index": None},
                ),
                await tools.fetch_page(url),
            )

    strict, plain = asyncio.run(main())
    assert strict == plain and strict.startswith("Title: Strict arguments")
