"""The recipes of docs/frameworks.md, run through each framework with a stand-in model.

Each framework is an optional test dependency (``pip install '.[frameworks]'``); without it
its tests skip, naming the package. Pages, search results and files come from a loopback
site; the OpenAI and Anthropic APIs are loopback stand-ins that answer with scripted tool
calls and record what the SDK sent. The policy is opened for loopback through Config only.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.loopback import loopback_config
from helpers.openai_strict import strict_problems, tool_problems
from helpers.siteserver import Reply, Request, SiteServer, article, ddg_results, loopback_env, page
from webgrip import AsyncTools, Config, Tools

NAMES = ["fetch_page", "search_web", "download_file"]


def missing(package: str) -> str:
    """The skip reason when a framework is not installed."""
    return f"{package} is not installed (pip install '.[frameworks]')"


class Site:
    """The loopback web: an article, DuckDuckGo-style results and a CSV file."""

    def __init__(self, server: SiteServer, downloads: Path):
        self.server = server
        self.article = server.route("/article", page(article("Framework recipes")))
        self.file = server.route(
            "/report.csv", lambda req: Reply(200, b"x,y\n1,2\n", content_type="text/csv")
        )
        server.route(
            "/html/",
            page(
                ddg_results(
                    [
                        ("Framework recipes", self.article, "How to register the tools"),
                    ]
                )
            ),
        )
        self.downloads = downloads
        self.config: Config = loopback_config(
            downloads,
            search_endpoints={
                "duckduckgo_html": server.url("/html/"),
                "duckduckgo_lite": server.url("/lite/"),
            },
        )

    def arguments(self) -> dict[str, dict]:
        """One good call of each tool."""
        return {
            "fetch_page": {"url": self.article, "max_length": 300},
            "search_web": {"query": "framework recipes", "num_results": 3},
            "download_file": {"url": self.file},
        }

    def check(self, results: dict[str, str]) -> None:
        """What those calls must have answered."""
        assert set(results) == set(NAMES), results
        assert results["fetch_page"].startswith("Title: Framework recipes\n"), results
        assert "Showing characters 0–" in results["fetch_page"]
        assert results["search_web"].startswith('Web search results for: "framework recipes"')
        assert self.article in results["search_web"]
        assert results["download_file"].startswith(f"Saved {self.file}\n"), results
        assert (self.downloads / "report.csv").read_bytes() == b"x,y\n1,2\n"


@pytest.fixture
def site(tmp_path) -> Iterator[Site]:
    with SiteServer() as server:
        yield Site(server, tmp_path)


# -- pydantic-ai ---------------------------------------------------------------------------
def _scripted_pydantic_model(site: Site):
    messages_mod = pytest.importorskip("pydantic_ai.messages", reason=missing("pydantic-ai-slim"))
    from pydantic_ai.models.function import FunctionModel

    def script(messages, info):
        names = sorted(t.name for t in info.function_tools)
        assert names == sorted(NAMES)
        returns = [p for m in messages for p in m.parts if p.part_kind == "tool-return"]
        if not returns:
            return messages_mod.ModelResponse(
                parts=[
                    messages_mod.ToolCallPart(name, args) for name, args in site.arguments().items()
                ]
            )
        return messages_mod.ModelResponse(
            parts=[messages_mod.TextPart(json.dumps({p.tool_name: p.content for p in returns}))]
        )

    return FunctionModel(script)


def test_pydantic_ai_async_tools_through_the_agent_loop(site):
    pai = pytest.importorskip("pydantic_ai", reason=missing("pydantic-ai-slim"))
    tools = AsyncTools(site.config).register(pai.Tool)
    assert all(t.function_schema.is_async for t in tools)
    agent = pai.Agent(_scripted_pydantic_model(site), tools=tools)
    result = asyncio.run(agent.run("Read, search and download."))
    site.check(json.loads(result.output))


def test_pydantic_ai_sync_tools_and_the_test_model(site):
    pai = pytest.importorskip("pydantic_ai", reason=missing("pydantic-ai-slim"))
    from pydantic_ai.models.test import TestModel

    tools = Tools(site.config).register(pai.Tool)
    # pydantic-ai read the docstrings: the descriptions reached the model's tool definitions
    agent = pai.Agent(_scripted_pydantic_model(site), tools=tools)
    site.check(json.loads(agent.run_sync("Read, search and download.").output))
    # TestModel calls every tool with arguments made up from the schemas: answers, no raise
    model = TestModel()
    output = pai.Agent(model, tools=tools).run_sync("anything").output
    assert sorted(json.loads(output)) == sorted(NAMES)
    params = {
        t.name: t.parameters_json_schema for t in model.last_model_request_parameters.function_tools
    }
    assert params["fetch_page"]["properties"]["url"]["description"].startswith(
        "The full http(s) address"
    )


# -- OpenAI Agents SDK -------------------------------------------------------------------------
async def _invoke(tool, arguments: dict) -> str:
    from agents.tool_context import ToolContext

    raw = json.dumps(arguments)
    context = ToolContext(
        context=None, tool_name=tool.name, tool_call_id="call_1", tool_arguments=raw
    )
    return await tool.on_invoke_tool(context, raw)


@pytest.mark.parametrize("kind", [AsyncTools, Tools])
def test_openai_agents_function_tool_strict(site, kind):
    agents = pytest.importorskip("agents", reason=missing("openai-agents"))
    tools = kind(site.config).register(agents.function_tool)
    assert [t.name for t in tools] == NAMES
    for tool in tools:
        assert tool.strict_json_schema is True
        # The SDK's strict schema keeps "default" (outside OpenAI's documented subset); the
        # structural rules are the ones it must meet.
        problems = [p for p in strict_problems(tool.params_json_schema) if "'default'" not in p]
        assert problems == [], tool.name
    agent = agents.Agent(name="researcher", tools=tools)
    assert [t.name for t in agent.tools] == NAMES

    async def run_all() -> dict[str, str]:
        # Strict mode makes the model send every argument: null where it wants the default.
        full = {
            "fetch_page": {"extract": "markdown", "start_index": 0},
            "search_web": {},
            "download_file": {"save_to": None, "filename": None, "overwrite": False},
        }
        return {
            t.name: await _invoke(t, {**site.arguments()[t.name], **full[t.name]}) for t in tools
        }

    site.check(asyncio.run(run_all()))


# -- LangChain / LangGraph ---------------------------------------------------------------------
def test_langchain_tool_invoke(site):
    lc = pytest.importorskip("langchain_core.tools", reason=missing("langchain-core"))
    tools = Tools(site.config).register(lc.tool(parse_docstring=True))
    site.check({t.name: t.invoke(site.arguments()[t.name]) for t in tools})
    fetch = tools[0].tool_call_schema.model_json_schema()
    assert fetch["properties"]["extract"]["enum"][0] == "markdown"


def test_langchain_async_tools_ainvoke_and_langgraph_tool_node(site):
    lc = pytest.importorskip("langchain_core.tools", reason=missing("langchain-core"))
    tools = AsyncTools(site.config).register(lc.tool(parse_docstring=True))
    assert all(t.coroutine is not None for t in tools)

    async def run_all() -> dict[str, str]:
        return {t.name: await t.ainvoke(site.arguments()[t.name]) for t in tools}

    site.check(asyncio.run(run_all()))

    prebuilt = pytest.importorskip("langgraph.prebuilt", reason=missing("langgraph"))
    from langchain_core.messages import AIMessage, ToolMessage
    from langgraph.graph import END, START, MessagesState, StateGraph

    # The tools node of a graph, fed a model's message with one call of each tool.
    graph = StateGraph(MessagesState)
    graph.add_node("tools", prebuilt.ToolNode(tools))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    (site.downloads / "report.csv").unlink()
    calls = [{"name": n, "args": a, "id": f"call_{n}"} for n, a in site.arguments().items()]
    state = asyncio.run(
        graph.compile().ainvoke({"messages": [AIMessage(content="", tool_calls=calls)]})
    )
    site.check({m.name: m.content for m in state["messages"] if isinstance(m, ToolMessage)})


# -- smolagents -----------------------------------------------------------------------------
def test_smolagents_tool_through_a_tool_calling_agent(site):
    smol = pytest.importorskip("smolagents", reason=missing("smolagents"))
    from smolagents.models import (
        ChatMessage,
        ChatMessageToolCall,
        ChatMessageToolCallFunction,
        MessageRole,
        Model,
    )

    # @tool validates strictly: every parameter typed and described, a return type.
    tools = Tools(site.config).register(smol.tool)
    assert [t.name for t in tools] == NAMES
    assert tools[0].inputs["max_length"] == {
        "type": "integer",
        "nullable": True,
        "description": "The most characters to return in this call, between 100 and 20000.",
    }
    plan = [*site.arguments().items()]
    seen: dict[str, str] = {}

    class Scripted(Model):
        def generate(
            self,
            messages,
            stop_sequences=None,
            response_format=None,
            tools_to_call_from=None,
            **kwargs,
        ):
            for message in messages:  # the tools' answers come back as observations
                for part in message.content or ():
                    text = part.get("text", "") if isinstance(part, dict) else ""
                    for name in NAMES:
                        if name in text and "Observation" in text:
                            seen[name] = text
            name, args = plan.pop(0) if plan else ("final_answer", {"answer": "done"})
            call = ChatMessageToolCall(
                id=f"call_{len(plan)}",
                type="function",
                function=ChatMessageToolCallFunction(name=name, arguments=args),
            )
            return ChatMessage(role=MessageRole.ASSISTANT, content="", tool_calls=[call])

    agent = smol.ToolCallingAgent(tools=tools, model=Scripted(), max_steps=6, verbosity_level=0)
    assert agent.run("Read, search and download.") == "done"
    outputs = {
        step.tool_calls[0].name: str(step.observations)
        for step in agent.memory.steps
        if getattr(step, "tool_calls", None)
    }
    outputs.pop("final_answer", None)
    site.check({name: out.removeprefix("Observation:\n").strip() for name, out in outputs.items()})


# -- LlamaIndex ---------------------------------------------------------------------------------
def test_llama_index_function_tool_call_and_acall(site):
    li = pytest.importorskip("llama_index.core.tools", reason=missing("llama-index-core"))
    sync_tools = Tools(site.config).register(li.FunctionTool.from_defaults)
    site.check(
        {t.metadata.name: t.call(**site.arguments()[t.metadata.name]).content for t in sync_tools}
    )
    (site.downloads / "report.csv").unlink()

    async_tools = AsyncTools(site.config).register(
        lambda f: li.FunctionTool.from_defaults(async_fn=f)
    )

    async def run_all() -> dict[str, str]:
        return {
            t.metadata.name: (await t.acall(**site.arguments()[t.metadata.name])).content
            for t in async_tools
        }

    site.check(asyncio.run(run_all()))
    schema = async_tools[0].metadata.get_parameters_dict()
    assert schema["required"] == ["url"]


# -- MCP clients: the configurations of docs/frameworks.md start a working server -----------
def _mcp_client_configs() -> list[dict]:
    text = (Path(__file__).parents[2] / "docs" / "frameworks.md").read_text(encoding="utf-8")
    section = text.split("## MCP clients", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```json\n(.*?)```", section, re.S)
    return [json.loads(block) for block in blocks]


def test_mcp_client_configurations_start_the_server(site, tmp_path):
    pytest.importorskip("mcp", reason=missing("mcp"))
    anyio = pytest.importorskip("anyio", reason=missing("anyio"))
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    # The stdio ones (an HTTP one, a "url", is started by tests/mcp/test_mcp_http.py).
    configs = [
        c
        for c in _mcp_client_configs()
        if "url" not in (c.get("mcpServers") or c["servers"])["webgrip"]
    ]
    assert len(configs) == 2  # Claude Desktop/Cursor style, VS Code style
    # The docs' example names a user's profile: give the server a webgrip.toml that has it.
    toml = tmp_path / "webgrip.toml"
    toml.write_text("[profiles.researcher]\ntimeout = 20\n", encoding="utf-8")
    for config in configs:
        entry = (config.get("mcpServers") or config["servers"])["webgrip"]
        assert entry["command"] == "webgrip" and entry.get("type", "stdio") == "stdio"
        env = loopback_env(
            **{
                **entry.get("env", {}),
                "WEBGRIP_CONFIG": str(toml),
                "WEBGRIP_DOWNLOAD_DIRS": str(site.downloads),
            }
        )
        # The console script is webgrip.cli:main, which `python -m webgrip` runs too.
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "webgrip", *entry["args"]], env=env
        )

        async def session_run(params=params):
            with anyio.fail_after(60):
                async with (
                    stdio_client(params) as (read, write),
                    ClientSession(read, write) as session,
                ):
                    await session.initialize()
                    listed = await session.list_tools()
                    fetched = await session.call_tool("fetch_page", site.arguments()["fetch_page"])
                    return [t.name for t in listed.tools], fetched

        names, fetched = anyio.run(session_run)
        assert names == NAMES
        assert fetched.is_error is False
        assert fetched.content[0].text.startswith("Title: Framework recipes\n")


# -- AsyncTools.register itself ----------------------------------------------------------------
def test_async_register_matches_the_sync_tools():
    sync_fns = Tools().register(lambda f: f)
    async_fns = AsyncTools().register(lambda f: f)
    for plain, coro in zip(sync_fns, async_fns, strict=True):
        assert inspect.iscoroutinefunction(coro) and not inspect.iscoroutinefunction(plain)
        for attr in ("__name__", "__qualname__", "__doc__", "__annotations__"):
            assert getattr(coro, attr) == getattr(plain, attr), attr
        assert inspect.signature(coro) == inspect.signature(plain)
        assert "self" not in inspect.signature(coro).parameters


# -- plain OpenAI and Anthropic SDKs, against loopback stand-ins of their APIs --------------
class ScriptedAPI:
    """Answers each POST with the next scripted JSON reply and keeps the request bodies."""

    def __init__(self, server: SiteServer, path: str, replies: list[dict]):
        self.replies, self.bodies = list(replies), []
        self.base = server.url("/v1")
        server.route(path, self._answer)

    def _answer(self, request: Request) -> Reply:
        self.bodies.append(json.loads(request.body))
        return Reply(200, json.dumps(self.replies.pop(0)).encode(), content_type="application/json")


def _chat_replies(site: Site) -> list[dict]:
    calls = [
        {
            "id": f"call_{n}",
            "type": "function",
            "function": {"name": n, "arguments": json.dumps(_strict_args(site)[n])},
        }
        for n in NAMES
    ]
    return [_chat(None, calls, "tool_calls"), _chat("All done.", None, "stop")]


def _chat(content, tool_calls, finish) -> dict:
    message = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-5",
        "choices": [{"index": 0, "finish_reason": finish, "message": message}],
    }


def _strict_args(site: Site) -> dict[str, dict]:
    """What a strict-mode model sends: every argument, null for the defaults."""
    return {
        "fetch_page": {
            "url": site.article,
            "extract": None,
            "max_length": 300,
            "start_index": None,
        },
        "search_web": {"query": "framework recipes", "num_results": 3},
        "download_file": {"url": site.file, "save_to": None, "filename": None, "overwrite": None},
    }


def _check_strict_tools(sent: list[dict], fmt: str) -> None:
    assert [t.get("name") or t["function"]["name"] for t in sent] == NAMES
    for entry in sent:
        assert tool_problems(entry, fmt) == []


def test_openai_chat_completions_strict_loop(site):
    openai = pytest.importorskip("openai", reason=missing("openai"))
    api = ScriptedAPI(site.server, "/v1/chat/completions", _chat_replies(site))
    client = openai.OpenAI(base_url=api.base, api_key="test", max_retries=0)
    tools = Tools(site.config)
    # -- the recipe --
    messages = [{"role": "user", "content": "What is new in Python 3.14? Cite sources."}]
    while True:
        reply = client.chat.completions.create(
            model="gpt-5", messages=messages, tools=tools.schemas("openai", strict=True)
        )
        message = reply.choices[0].message
        messages.append(message)
        if not message.tool_calls:
            break
        for call in message.tool_calls:
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call.id,
                    "content": tools.call(call.function.name, call.function.arguments),
                }
            )
    # -- what happened --
    assert message.content == "All done."
    _check_strict_tools(api.bodies[0]["tools"], "openai")
    results = {
        m["tool_call_id"].removeprefix("call_"): m["content"]
        for m in api.bodies[1]["messages"]
        if m["role"] == "tool"
    }
    site.check(results)


def test_openai_responses_async_loop(site):
    openai = pytest.importorskip("openai", reason=missing("openai"))
    calls = [
        {
            "type": "function_call",
            "id": f"fc_{n}",
            "call_id": f"call_{n}",
            "name": n,
            "arguments": json.dumps(_strict_args(site)[n]),
            "status": "completed",
        }
        for n in NAMES
    ]
    text = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "All done.", "annotations": []}],
    }
    replies = [
        {
            "id": f"resp_{i}",
            "object": "response",
            "created_at": 0,
            "model": "gpt-5",
            "status": "completed",
            "output": output,
            "tools": [],
            "tool_choice": "auto",
            "parallel_tool_calls": True,
        }
        for i, output in enumerate([calls, [text]])
    ]
    api = ScriptedAPI(site.server, "/v1/responses", replies)

    async def recipe() -> str:
        client = openai.AsyncOpenAI(base_url=api.base, api_key="test", max_retries=0)
        tools = AsyncTools(site.config)
        items = [{"role": "user", "content": "What is new in Python 3.14? Cite sources."}]
        while True:
            reply = await client.responses.create(
                model="gpt-5", input=items, tools=tools.schemas("openai-responses")
            )
            calls = [item for item in reply.output if item.type == "function_call"]
            if not calls:
                break
            items += reply.output
            for call in calls:
                items.append(
                    {
                        "type": "function_call_output",
                        "call_id": call.call_id,
                        "output": await tools.call(call.name, call.arguments),
                    }
                )
        await tools.aclose()
        return reply.output_text

    assert asyncio.run(recipe()) == "All done."
    _check_strict_tools(api.bodies[0]["tools"], "openai-responses")
    results = {
        i["call_id"].removeprefix("call_"): i["output"]
        for i in api.bodies[1]["input"]
        if i.get("type") == "function_call_output"
    }
    site.check(results)


def _anthropic_api(site: Site) -> ScriptedAPI:
    uses = [
        {"type": "tool_use", "id": f"toolu_{n}", "name": n, "input": site.arguments()[n]}
        for n in NAMES
    ]
    replies = [
        {
            "id": f"msg_{i}",
            "type": "message",
            "role": "assistant",
            "model": "claude",
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
        for i, (content, stop) in enumerate(
            [(uses, "tool_use"), ([{"type": "text", "text": "All done."}], "end_turn")]
        )
    ]
    return ScriptedAPI(site.server, "/v1/messages", replies)


def _check_anthropic(site: Site, api: ScriptedAPI) -> None:
    assert api.bodies[0]["tools"] == Tools().schemas("anthropic")
    results = {
        r["tool_use_id"].removeprefix("toolu_"): r["content"]
        for r in api.bodies[1]["messages"][-1]["content"]
    }
    site.check(results)


def test_anthropic_messages_async_loop(site):
    anthropic = pytest.importorskip("anthropic", reason=missing("anthropic"))
    api = _anthropic_api(site)

    async def recipe() -> str:
        client = anthropic.AsyncAnthropic(
            base_url=site.server.url(""), api_key="test", max_retries=0
        )
        tools = AsyncTools(site.config)
        messages = [{"role": "user", "content": "Summarise https://www.python.org/downloads/"}]
        while True:
            reply = await client.messages.create(
                model="claude-sonnet-5-5",
                max_tokens=2048,
                tools=tools.schemas("anthropic"),
                messages=messages,
            )
            messages.append({"role": "assistant", "content": reply.content})
            uses = [block for block in reply.content if block.type == "tool_use"]
            if not uses:
                break
            messages.append(
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": use.id,
                            "content": await tools.call(use.name, use.input),
                        }
                        for use in uses
                    ],
                }
            )
        await tools.aclose()
        return reply.content[-1].text

    assert asyncio.run(recipe()) == "All done."
    _check_anthropic(site, api)


def test_anthropic_messages_loop(site):
    anthropic = pytest.importorskip("anthropic", reason=missing("anthropic"))
    api = _anthropic_api(site)
    client = anthropic.Anthropic(base_url=site.server.url(""), api_key="test", max_retries=0)
    tools = Tools(site.config)
    # -- the recipe --
    messages = [{"role": "user", "content": "Summarise https://www.python.org/downloads/"}]
    while True:
        reply = client.messages.create(
            model="claude-sonnet-5-5",
            max_tokens=2048,
            tools=tools.schemas("anthropic"),
            messages=messages,
        )
        messages.append({"role": "assistant", "content": reply.content})
        uses = [block for block in reply.content if block.type == "tool_use"]
        if not uses:
            break
        messages.append(
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": use.id,
                        "content": tools.call(use.name, use.input),
                    }
                    for use in uses
                ],
            }
        )
    # -- what happened --
    assert reply.content[-1].text == "All done."
    _check_anthropic(site, api)
