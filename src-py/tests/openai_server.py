"""An OpenAI-compatible server on 127.0.0.1 for the examples' tests: ``/embeddings`` gives
word-hash vectors of the asked dimension, ``/chat/completions`` answers each of haema's
stages by the JSON schema's name (split by sentence, in a captured conversation what the
user said; keep the new contents; update the core once with the user's preferences) or, without a schema, says what it was told. Given
tools (as the OpenAI Agents SDK gives its agent's), it calls the first one with no
arguments when the user spoke last, and once the tool answered, says it used it (not what
the tool said). Every request body of the last ``serve()`` is kept in ``Handler.requests``."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def word_vector(text: str, dims: int) -> list[float]:
    vector = [0.0] * dims
    for word in re.findall(r"\w+", text.lower()):
        vector[int(hashlib.sha1(word.encode()).hexdigest(), 16) % dims] += 1.0
    if not any(vector):
        vector[0] = 1.0
    norm = sum(x * x for x in vector) ** 0.5
    return [x / norm for x in vector]


def block(prompt: str, label: str) -> list[str]:
    at = prompt.find(label)
    items = []
    for line in prompt[at + len(label) :].splitlines() if at >= 0 else []:
        if line.startswith("Task:") or line.startswith("</"):
            break
        if line.startswith("- ") and line != "- (none)":
            item = line[2:]
            items.append(json.loads(item) if item.startswith('"') else item)
    return items


def answer(schema_name: str | None, user: str) -> dict[str, Any] | str:
    """The answer of the stage a schema names; without one, what the model was given."""
    if schema_name == "PreMemorySplitResponse":
        text = "\n".join(block(user, "Raw input text:"))
        # A captured conversation: the facts are what the user said, not the assistant.
        turns = re.split(r"(?m)^The (user|assistant) said: ", text)
        if len(turns) > 1:
            text = "\n".join(said for who, said in zip(turns[1::2], turns[2::2]) if who == "user")
        return {"contents": [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n", text) if s.strip()]}
    if schema_name == "MemoryReconstructionResponse":
        related = block(user, "Related memories:")
        new = block(user, "New contents:")
        return {"memories": related + new, "coverage": "complete"}
    if schema_name == "CoreUpdateResponse":
        prefers = [c for c in block(user, "Candidate new memories:") if "prefer" in c]
        if not prefers:
            return {"should_update": False, "core_markdown": None}
        user_lines = "\n".join(f"- {p}" for p in prefers)
        return {"should_update": True, "core_markdown": f"# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n{user_lines}\n"}
    return f"(the assistant read: {user})"


def text_of(message: dict[str, Any]) -> str:
    """A chat message's text: a string, or the text of its parts (none for a tool call)."""
    content = message.get("content")
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def completion(message: dict[str, Any], finish_reason: str) -> dict[str, Any]:
    """A whole chat completion, as OpenAI's clients parse it."""
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": "test",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def chat(body: dict[str, Any]) -> dict[str, Any]:
    """The reply to a chat request: a stage's JSON, a tool call, or what the model read."""
    messages = body["messages"]
    schema = (body.get("response_format") or {}).get("json_schema") or {}
    name = schema.get("name")
    tools = body.get("tools") or []
    if tools and messages[-1]["role"] == "user":
        call = {"id": "call_1", "type": "function", "function": {"name": tools[0]["function"]["name"], "arguments": "{}"}}
        return completion({"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls")
    if messages[-1]["role"] == "tool":
        return completion({"role": "assistant", "content": "(the assistant used a tool)"}, "stop")
    read = text_of(messages[-1]) if name else " | ".join(text_of(m) for m in messages)
    content = answer(name, read)
    text = content if isinstance(content, str) else json.dumps(content)
    return completion({"role": "assistant", "content": text}, "stop")


class Handler(BaseHTTPRequestHandler):
    calls: list[str] = []
    requests: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path.endswith("/embeddings"):
            dims = int(body.get("dimensions") or 64)
            data = [{"index": i, "embedding": word_vector(t, dims)} for i, t in enumerate(body["input"])]
            reply: dict[str, Any] = {"data": data}
        else:
            reply = chat(body)
        Handler.calls.append(self.path)
        Handler.requests.append(body)
        encoded = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(encoded)))
        self.end_headers()
        self.wfile.write(encoded)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve() -> Iterator[str]:
    """The server's base URL (``http://127.0.0.1:PORT/v1``) while the block runs."""
    Handler.requests.clear()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
