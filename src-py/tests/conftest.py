"""Clients as HAEMA's own tests write them: a keyword embedder of dimension 3 (alpha,
beta, gamma axes) and a scripted LLM that answers by response model."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from haema_rs import EmbeddingClient, LLMClient, Memory
from haema_rs.schemas import CoreUpdateResponse, MemoryReconstructionResponse, PreMemorySplitResponse

REPO = Path(__file__).resolve().parents[2]


def user_environment(home: Path) -> dict[str, str]:
    """The environment of a user of their own for the real binary: this home, no network,
    no keyring, no colour, and none of the caller's haema settings."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("HAEMA_", "XDG_"))}
    clean.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local/share"),
        HF_HUB_OFFLINE="1",
        HAEMA_KEYRING="off",
        NO_COLOR="1",
    )
    return clean


class KeywordEmbeddingClient(EmbeddingClient):
    def __init__(self) -> None:
        self.query_calls = 0
        self.document_calls = 0
        self.last_query_texts: list[str] = []
        self.threads: set[int] = set()

    def embed_query(self, texts: Sequence[str], output_dimensionality: int) -> np.ndarray:
        self.query_calls += 1
        self.last_query_texts = list(texts)
        return self._embed(texts, output_dimensionality)

    def embed_document(self, texts: Sequence[str], output_dimensionality: int) -> np.ndarray:
        self.document_calls += 1
        return self._embed(texts, output_dimensionality)

    def _embed(self, texts: Sequence[str], output_dimensionality: int) -> np.ndarray:
        self.threads.add(threading.get_ident())
        if output_dimensionality != 3:
            raise ValueError("this test embedding client expects output_dimensionality=3")
        vectors = []
        for text in texts:
            lowered = text.lower()
            if "alpha" in lowered:
                vectors.append([1.0, 0.0, 0.0])
            elif "beta" in lowered:
                vectors.append([0.0, 1.0, 0.0])
            elif "gamma" in lowered:
                vectors.append([0.0, 0.0, 1.0])
            else:
                vectors.append([1.0, 1.0, 1.0])
        return np.asarray(vectors, dtype=np.float32)


def block_lines(prompt: str, label: str) -> list[str]:
    """The ``- item`` lines after HAEMA's label line, up to the block's end or ``Task:``."""
    at = prompt.find(label)
    if at < 0:
        return []
    items = []
    for line in prompt[at + len(label) :].splitlines():
        if line.startswith("Task:") or line.startswith("</"):
            break
        if line.startswith("- ") and line != "- (none)":
            items.append(line[2:].strip())
    return items


class StubLLMClient(LLMClient):
    def __init__(self) -> None:
        self.failures_left: dict[type[Any], int] = {}
        self.failure: type[Exception] = ValueError
        self.split_responses: list[dict[str, Any]] = []
        self.split_call_count = 0
        self.reconstruction_responses: list[dict[str, Any]] = []
        self.reconstruction_call_count = 0
        self.reconstruction_user_prompts: list[str] = []
        self.core_call_count = 0
        self.core_user_prompts: list[str] = []
        self.core_markdown: str | None = (
            "# SOUL\nAgent identity.\n\n# TOOLS\nTool policy.\n\n# RULE\nCritical rule.\n\n# USER\nUser profile.\n"
        )
        self.core_should_update = True

    def generate_structured(self, system_prompt: str, user_prompt: str, response_model: type[Any]) -> dict[str, Any]:
        if self.failures_left.get(response_model, 0) > 0:
            self.failures_left[response_model] -= 1
            raise self.failure("forced structured parsing failure")
        if response_model is PreMemorySplitResponse:
            self.split_call_count += 1
            if self.split_responses:
                return self.split_responses.pop(0)
            return {"contents": block_lines(user_prompt, "Raw input text:")[:1]}
        if response_model is MemoryReconstructionResponse:
            self.reconstruction_call_count += 1
            self.reconstruction_user_prompts.append(user_prompt)
            if self.reconstruction_responses:
                return self.reconstruction_responses.pop(0)
            first = (block_lines(user_prompt, "New contents:") or ["unknown"])[0]
            return {"memories": [f"single::{first}"], "coverage": "complete"}
        if response_model is CoreUpdateResponse:
            self.core_call_count += 1
            self.core_user_prompts.append(user_prompt)
            return {"should_update": self.core_should_update, "core_markdown": self.core_markdown}
        raise AssertionError("unexpected response_model")


class BrokenLLMClient(LLMClient):
    def generate_structured(self, system_prompt: str, user_prompt: str, response_model: type[Any]) -> dict[str, Any]:
        raise AttributeError("broken llm client implementation")


@pytest.fixture
def embedding() -> KeywordEmbeddingClient:
    return KeywordEmbeddingClient()


@pytest.fixture
def llm() -> StubLLMClient:
    return StubLLMClient()


@pytest.fixture
def memory(tmp_path: Path, embedding: KeywordEmbeddingClient, llm: StubLLMClient) -> Memory:
    return Memory(
        path=tmp_path / "db",
        output_dimensionality=3,
        embedding_client=embedding,
        llm_client=llm,
    )


@pytest.fixture
def haema_bin() -> Path:
    """The ``haema`` binary: ``HAEMA_BIN``, else the workspace's debug build."""
    given = os.environ.get("HAEMA_BIN")
    path = Path(given) if given else REPO / "target" / "debug" / "haema"
    if not path.exists():
        found = shutil.which("haema")
        if found is None:
            pytest.fail(f"the haema binary is not at {path}: run `cargo build -p haema-tui` or set HAEMA_BIN")
        path = Path(found)
    return path
