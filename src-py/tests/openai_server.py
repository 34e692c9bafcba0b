"""An OpenAI-compatible server on 127.0.0.1 for the examples' tests: ``/embeddings`` gives
word-hash vectors of the asked dimension, ``/chat/completions`` answers each of haema's
stages by the JSON schema's name (split by sentence, keep the new contents, update the
core once with the user's preferences) or, without a schema, says what it was told."""

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
        text = " ".join(block(user, "Raw input text:"))
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


class Handler(BaseHTTPRequestHandler):
    calls: list[str] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path.endswith("/embeddings"):
            dims = int(body.get("dimensions") or 64)
            data = [{"index": i, "embedding": word_vector(t, dims)} for i, t in enumerate(body["input"])]
            reply: dict[str, Any] = {"data": data}
        else:
            messages = body["messages"]
            schema = (body.get("response_format") or {}).get("json_schema") or {}
            name = schema.get("name")
            read = messages[-1]["content"] if name else " | ".join(m["content"] for m in messages)
            content = answer(name, read)
            text = content if isinstance(content, str) else json.dumps(content)
            reply = {"choices": [{"message": {"role": "assistant", "content": text}}]}
        Handler.calls.append(self.path)
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
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
