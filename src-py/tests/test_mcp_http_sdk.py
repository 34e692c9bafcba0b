"""``haema mcp --http`` with the official MCP Python SDK as the client, over Streamable HTTP
with an agent key: every tool and resource answers a write key; no key gives 401 and a page
of another origin 403; a read key cannot add; a propose key's add waits for review; a key
bound to a user sees only that user; a subscribed session hears of another agent's write."""

from __future__ import annotations

import json
import re
import signal
import subprocess
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from conftest import user_environment
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

TOOLS = {
    "add_memory",
    "search_memory",
    "recall",
    "latest_memories",
    "read_core",
    "read_core_section",
    "update_memory",
    "delete_memory",
    "forget_memory",
    "changeset_status",
    "get_agent_state",
    "set_agent_state",
    "delete_agent_state",
}


def make_store(tmp: Path, settings: str) -> Path:
    store = tmp / "store"
    store.mkdir()
    (store / "haema.toml").write_text(f'{settings}[embedder]\nprovider = "none"\n')
    return store


def agent_key(haema: Path, home: Path, store: Path, *args: str) -> str:
    made = subprocess.run(
        [str(haema), "--store", str(store), "agent-key", "create", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env=user_environment(home),
        check=True,
    )
    key = json.loads(made.stdout)["key"]
    assert isinstance(key, str)
    return key


@contextmanager
def server(haema: Path, home: Path, store: Path) -> Iterator[str]:
    """``haema mcp --http`` on a free port; yields its /mcp URL and stops it with SIGTERM."""
    process = subprocess.Popen(
        [str(haema), "--store", str(store), "mcp", "--http", "127.0.0.1:0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=user_environment(home),
    )
    assert process.stderr is not None
    url = None
    for line in process.stderr:
        found = re.search(r"http://\S+/mcp", line)
        if found:
            url = found.group(0)
            break
    assert url is not None, "the server ended before it listened"
    try:
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0, process.stderr.read()


def http_client(key: str) -> httpx2.AsyncClient:
    """An HTTP client that sends `key` with every request, with the SDK's own timeouts (a
    loaded machine answers slowly, and the event stream stays open)."""
    return httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=httpx2.Timeout(30.0, read=300.0))


@asynccontextmanager
async def session(url: str, key: str) -> AsyncIterator[ClientSession]:
    """An initialized SDK session that sends `key` with every request."""
    async with http_client(key) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                yield client


def answer(result: types.CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result
    structured = result.structured_content
    assert isinstance(structured, dict), result
    return structured


@pytest.mark.anyio
async def test_every_tool_and_resource_answers_a_write_key(tmp_path: Path, haema_bin: Path) -> None:
    store = make_store(tmp_path, 'review = "auto"\n')
    key = agent_key(haema_bin, tmp_path, store, "sdk-writer", "--access", "write")
    with server(haema_bin, tmp_path, store) as url:
        async with session(url, key) as client:
            listed = await client.list_tools()
            assert {tool.name for tool in listed.tools} == TOOLS
            added = answer(await client.call_tool("add_memory", {"items": ["The user's cello is named Bruno."]}))
            assert added["status"] == "committed"
            memory_id = added["memory_ids"][0]
            found = answer(await client.call_tool("search_memory", {"query": "cello Bruno", "mode": "lexical"}))
            assert [m["content"] for m in found["memories"]] == ["The user's cello is named Bruno."]
            latest = answer(await client.call_tool("latest_memories", {"count": 5}))
            assert latest["memories"][0]["id"] == memory_id
            recalled = await client.call_tool("recall", {"query": "What is the cello called?"})
            assert not recalled.is_error
            assert "Bruno" in "".join(getattr(block, "text", "") for block in recalled.content)
            for tool, arguments in (("read_core", {}), ("read_core_section", {"section": "USER"})):
                core = await client.call_tool(tool, arguments)
                assert not core.is_error, core
                assert "USER" in json.dumps(core.model_dump(mode="json")), core
            edited = answer(
                await client.call_tool(
                    "update_memory", {"memory_id": memory_id, "content": "The user's cello is named Bruna."}
                )
            )
            status = answer(await client.call_tool("changeset_status", {"changeset": edited["changeset"]}))
            assert status["status"] == "committed"
            answer(await client.call_tool("set_agent_state", {"key": "cursor", "value": {"page": 2}}))
            state = answer(await client.call_tool("get_agent_state", {"key": "cursor"}))
            assert state["value"] == {"page": 2}
            answer(await client.call_tool("delete_agent_state", {"key": "cursor"}))
            answer(await client.call_tool("add_memory", {"items": ["The user's bow is made of pernambuco."]}))
            new_id = edited["memory_ids"][0]
            answer(await client.call_tool("delete_memory", {"memory_id": new_id}))
            answer(await client.call_tool("forget_memory", {"mentioning": "pernambuco"}))

            resources = await client.list_resources()
            uris = {str(r.uri) for r in resources.resources}
            assert {"haema://core", "haema://latest"} <= uris
            read = await client.read_resource("haema://core")
            assert any("USER" in getattr(c, "text", "") for c in read.contents)
            await client.send_ping()


@pytest.mark.anyio
async def test_no_key_is_401_and_another_origin_is_403(tmp_path: Path, haema_bin: Path) -> None:
    store = make_store(tmp_path, "")
    key = agent_key(haema_bin, tmp_path, store, "sdk-reader", "--access", "read")
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    accept = {"Accept": "application/json, text/event-stream"}
    with server(haema_bin, tmp_path, store) as url:
        async with httpx2.AsyncClient() as http:
            bare = await http.post(url, json=init, headers=accept)
            assert bare.status_code == 401
            assert bare.headers["www-authenticate"].startswith('Bearer realm="haema"')
            foreign = await http.post(
                url, json=init, headers={**accept, "Authorization": f"Bearer {key}", "Origin": "https://evil.example"}
            )
            assert foreign.status_code == 403
        # The SDK itself, with a key of no store, cannot start a session (its task groups
        # wrap the error response it got).
        with pytest.RaisesGroup(MCPError, flatten_subgroups=True):
            with anyio.fail_after(30):
                async with session(url, "haema_ak_notakeyofthisstore00000000000000000000"):
                    pass


@pytest.mark.anyio
async def test_a_read_key_cannot_add_and_a_propose_key_s_add_waits(tmp_path: Path, haema_bin: Path) -> None:
    store = make_store(tmp_path, 'review = "auto"\n')
    reader = agent_key(haema_bin, tmp_path, store, "sdk-reader", "--access", "read")
    proposer = agent_key(haema_bin, tmp_path, store, "sdk-proposer", "--access", "propose")
    with server(haema_bin, tmp_path, store) as url:
        async with session(url, reader) as client:
            # A JSON-RPC error that names the access the key lacks.
            with pytest.raises(MCPError, match="has read access, and add_memory needs propose access"):
                await client.call_tool("add_memory", {"items": ["The user owns a kayak."]})
            answer(await client.call_tool("latest_memories", {"count": 3}))
        async with session(url, proposer) as client:
            added = answer(await client.call_tool("add_memory", {"items": ["The user owns a canoe."]}))
            assert added["status"] == "pending"
            found = answer(await client.call_tool("search_memory", {"query": "canoe", "mode": "lexical"}))
            assert found["memories"] == []
    listed = subprocess.run(
        [str(haema_bin), "--store", str(store), "review", "list"],
        capture_output=True,
        text=True,
        timeout=120,
        env=user_environment(tmp_path),
        check=True,
    )
    assert "canoe" in listed.stdout and "sdk-proposer" in listed.stdout, listed.stdout


@pytest.mark.anyio
async def test_a_key_bound_to_a_user_sees_only_that_user(tmp_path: Path, haema_bin: Path) -> None:
    store = make_store(tmp_path, 'scope = "per_user"\nreview = "auto"\n')
    for user, fact in (("ann", "Ann's boat is the Heron."), ("bob", "Bob's boat is the Osprey.")):
        subprocess.run(
            [str(haema_bin), "--store", str(store), "--user", user, "add", "--items", fact],
            capture_output=True,
            text=True,
            timeout=120,
            env=user_environment(tmp_path),
            check=True,
        )
    anns = agent_key(haema_bin, tmp_path, store, "anns-agent", "--access", "write", "--user", "ann")
    with server(haema_bin, tmp_path, store) as url:
        async with session(url, anns) as client:
            found = answer(await client.call_tool("search_memory", {"query": "boat", "mode": "lexical"}))
            assert [m["content"] for m in found["memories"]] == ["Ann's boat is the Heron."]
            other = await client.call_tool("search_memory", {"query": "boat", "mode": "lexical", "user_id": "bob"})
            assert other.is_error, other


@pytest.mark.anyio
# haema speaks MCP 2025-11-25, where a client subscribes to a resource; the SDK warns that a
# later revision (2026-07-28) replaced it.
@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
async def test_a_subscribed_session_hears_of_another_agent_s_write(tmp_path: Path, haema_bin: Path) -> None:
    store = make_store(tmp_path, 'review = "auto"\n')
    listener_key = agent_key(haema_bin, tmp_path, store, "sdk-listener", "--access", "read")
    writer_key = agent_key(haema_bin, tmp_path, store, "sdk-other", "--access", "write")
    heard = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ServerNotification) and "haema://latest" in json.dumps(
            message.model_dump(mode="json")
        ):
            heard.set()

    with server(haema_bin, tmp_path, store) as url:
        async with http_client(listener_key) as http:
            async with streamable_http_client(url, http_client=http) as (read, write):
                async with ClientSession(read, write, message_handler=on_message) as listener:
                    await listener.initialize()
                    await listener.subscribe_resource("haema://latest")
                    async with session(url, writer_key) as writer:
                        answer(await writer.call_tool("add_memory", {"items": ["The user's kite is red."]}))
                    with anyio.fail_after(15):
                        await heard.wait()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
