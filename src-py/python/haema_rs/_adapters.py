"""The program's clients as haema's engine calls them: HAEMA's checks and retries.

The native module calls ``EmbeddingAdapter.embed`` and ``LlmAdapter.generate`` on its own
threads. They call the user's client as HAEMA does and answer in plain types (vectors as
float32 bytes, an answer as JSON text). Giving up after the attempts is
:class:`FailedAttempts`, which the engine answers with its fallback; any other exception
ends the call and reaches the caller unchanged.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import numpy as np
from pydantic import BaseModel, ValidationError

from .schemas import CoreUpdateResponse, MemoryReconstructionResponse, PreMemorySplitResponse

logger = logging.getLogger("haema_rs")

T = TypeVar("T")

#: Attempts per stage, as HAEMA makes them.
MAX_ATTEMPTS = 3

#: What counts as a failed attempt of the LLM (HAEMA's list; ``ValidationError`` is a
#: ``ValueError``). Anything else propagates.
RETRYABLE_LLM = (ValidationError, ValueError, TypeError, ConnectionError, TimeoutError, OSError)

#: What counts as an embedder that is away: the text is stored and its vector made later.
#: Anything else propagates, as every embedding error does in HAEMA.
EMBEDDER_AWAY = (ConnectionError, TimeoutError, OSError)

RESPONSE_MODELS: dict[str, type[BaseModel]] = {
    "pre_split": PreMemorySplitResponse,
    "reconstruct": MemoryReconstructionResponse,
    "refine": MemoryReconstructionResponse,
    "core_update": CoreUpdateResponse,
}

#: HAEMA's label line before each block of its prompts.
BLOCK_LABELS = {
    "raw_input": "Raw input text:",
    "related_memories": "Related memories:",
    "new_contents": "New contents:",
    "core_profile": "Current core profile (for core_relevant only):",
    "current_core_markdown": "Current core markdown:",
    "candidate_new_memories": "Candidate new memories:",
}

#: The line HAEMA's prompts have after their input blocks (test doubles read up to it).
TASK_LINES = {
    "raw_input": "Task: split this text into self-contained facts.",
    "new_contents": "Task: rebuild the related memories and the new contents into the memories that replace them.",
    "candidate_new_memories": "Task: decide whether the core profile changes, conservatively.",
}

#: A JSON-string item that reads the same as plain text on its line.
_PLAIN = re.compile(r'^[^\x00-\x1f<>\\"\u2028\u2029]*$')


class FailedAttempts(Exception):
    """A client failed every attempt; ``kind`` tells the engine how (``bad_answer``,
    ``timeout``, ``network``, ``server``)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


#: The asyncio loop of the ``AsyncMemory`` call a worker thread runs (set in that call's
#: context only); the native module hands it to the adapters with each client call.
CURRENT_LOOP: contextvars.ContextVar[asyncio.AbstractEventLoop | None] = contextvars.ContextVar(
    "haema_rs_current_loop", default=None
)


def resolve(value: T | Awaitable[T], loop: asyncio.AbstractEventLoop | None) -> T:
    """A client's answer; an ``async def`` client's is awaited on ``loop`` (the waiting
    ``AsyncMemory`` call's) or, from the synchronous ``Memory``, on a loop of its own."""
    if not inspect.isawaitable(value):
        return value
    awaitable: Awaitable[T] = value

    async def wait() -> T:
        return await awaitable

    if loop is not None and loop.is_running() and not loop.is_closed():
        return asyncio.run_coroutine_threadsafe(wait(), loop).result()
    return asyncio.run(wait())


def _client_name(client: object) -> str:
    """A client's ``model_id`` attribute, else its class's full name."""
    named = getattr(client, "model_id", None)
    if isinstance(named, str) and named.strip():
        return named.strip()
    kind = type(client)
    return f"{kind.__module__}.{kind.__qualname__}"


def client_id(client: object, dims: int) -> str:
    """The name the store records for an embedding client's vectors."""
    return f"python:{_client_name(client)}:{dims}"


def llm_id(client: object) -> str:
    """The name each changeset records for the LLM client that made it."""
    return f"python:{_client_name(client)}"


def checked_vectors(value: Any, rows: int, dims: int) -> np.ndarray:
    """An embedding client's answer as a float32 matrix, checked as HAEMA checks it."""
    matrix = np.asarray(value, dtype=np.float32)
    if matrix.ndim != 2:
        raise ValueError(f"embedding client must return a 2D array, got ndim={matrix.ndim}")
    if matrix.shape[0] != rows:
        raise ValueError(f"embedding row count mismatch: expected {rows}, got {matrix.shape[0]}")
    if matrix.shape[1] != dims:
        raise ValueError(f"embedding dimension mismatch: expected {dims}, got {matrix.shape[1]}")
    return matrix


def _away_kind(error: BaseException) -> str:
    return "timeout" if isinstance(error, TimeoutError) else "network"


class EmbeddingAdapter:
    """Calls an :class:`~haema_rs.EmbeddingClient` for the engine."""

    def __init__(self, client: Any, dims: int) -> None:
        self.client = client
        self.dims = dims

    def embed(self, kind: str, texts: list[str], loop: asyncio.AbstractEventLoop | None = None) -> bytes:
        method: Callable[[list[str], int], Any] = (
            self.client.embed_query if kind == "query" else self.client.embed_document
        )
        last: BaseException | None = None
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                answer = resolve(method(list(texts), self.dims), loop)
            except EMBEDDER_AWAY as error:
                logger.debug("embedding attempt %d failed: %r", attempt, error)
                last = error
                continue
            matrix = checked_vectors(answer, len(texts), self.dims)
            return np.ascontiguousarray(matrix, dtype="<f4").tobytes()
        assert last is not None
        logger.warning("the embedding client failed %d times: %r", MAX_ATTEMPTS, last)
        raise FailedAttempts(_away_kind(last), f"{type(last).__name__}: {last}")


class LlmAdapter:
    """Calls an :class:`~haema_rs.LLMClient` for the engine."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def generate(self, stage: str, system: str, user: str, loop: asyncio.AbstractEventLoop | None = None) -> str:
        model = RESPONSE_MODELS.get(stage)
        if model is None:
            raise FailedAttempts("server", f"haema has no response model for the stage {stage!r}")
        prompt = haema_layout(user)
        last: BaseException | None = None
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                answer = resolve(self.client.generate_structured(system, prompt, model), loop)
                return model.model_validate(answer).model_dump_json()
            except RETRYABLE_LLM as error:
                logger.debug("%s attempt %d failed: %r", stage, attempt, error)
                last = error
        assert last is not None
        logger.warning("the LLM client failed the %s stage %d times: %r", stage, MAX_ATTEMPTS, last)
        raise FailedAttempts(_llm_kind(stage, last), f"{type(last).__name__}: {last}")


def _llm_kind(stage: str, error: BaseException) -> str:
    """How a stage's last failure reads to the engine. HAEMA refines a rebuild once even
    when the first one gave no answer at all, so the rebuild's failure is a bad answer
    (which the engine refines); the other stages fall back at once, as HAEMA's do after
    three attempts."""
    if stage == "reconstruct":
        return "bad_answer"
    if isinstance(error, TimeoutError):
        return "timeout"
    if isinstance(error, (ConnectionError, OSError)):
        return "network"
    return "server"


def haema_layout(prompt: str) -> str:
    """haema's prompt in HAEMA's layout: each block after HAEMA's label line, an item that
    reads the same as plain text written plainly (``- The user likes tea.``). An item with
    a line break, ``<``, ``>`` or a quote stays a JSON string, so it cannot end its block."""
    out: list[str] = []
    inside = False
    for line in prompt.split("\n"):
        tag = line[1:-1] if line.startswith("<") and line.endswith(">") else ""
        if tag in BLOCK_LABELS and not inside:
            if out and out[-1] != "":
                out.append("")
            out.append(BLOCK_LABELS[tag])
            inside = True
        elif tag.startswith("/") and tag[1:] in BLOCK_LABELS:
            inside = False
            if tag[1:] in TASK_LINES:
                out.extend([line, TASK_LINES[tag[1:]]])
                continue
        elif inside and line.startswith('- "'):
            line = "- " + _plain(line[2:])
        out.append(line)
    return "\n".join(out)


def _plain(encoded: str) -> str:
    try:
        text = json.loads(encoded)
    except ValueError:
        return encoded
    if isinstance(text, str) and _PLAIN.match(text) and text.strip() == text and text:
        return text
    return encoded
