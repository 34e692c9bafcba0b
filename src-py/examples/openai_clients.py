"""HAEMA-style clients for any OpenAI-compatible server (OpenAI, Ollama, vLLM, LM Studio,
llama.cpp), with the standard library only. Set ``OPENAI_BASE_URL`` (default: Ollama on
this machine), ``OPENAI_API_KEY``, ``LLM_MODEL`` and ``EMBED_MODEL``."""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from haema_rs import EmbeddingClient, LLMClient

ModelT = TypeVar("ModelT", bound=BaseModel)


def post(path: str, body: dict[str, Any]) -> Any:
    """One JSON request to the server; its errors are ``OSError``s (``URLError``), which
    haema counts as failed attempts, as HAEMA does."""
    request = urllib.request.Request(
        os.environ.get("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1") + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {os.environ.get('OPENAI_API_KEY', '')}"},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)


class OpenAIEmbeddingClient(EmbeddingClient):
    model_id = os.environ.get("EMBED_MODEL", "nomic-embed-text")

    def embed_query(self, texts: Sequence[str], output_dimensionality: int) -> NDArray[np.float32]:
        return self.embed_document(texts, output_dimensionality)

    def embed_document(self, texts: Sequence[str], output_dimensionality: int) -> NDArray[np.float32]:
        body = {"model": self.model_id, "input": list(texts), "dimensions": output_dimensionality}
        rows = sorted(post("/embeddings", body)["data"], key=lambda row: row["index"])
        return np.asarray([row["embedding"] for row in rows], dtype=np.float32)


class OpenAILLMClient(LLMClient):
    model_id = os.environ.get("LLM_MODEL", "llama3.1")

    def generate_structured(self, system_prompt: str, user_prompt: str, response_model: type[ModelT]) -> dict[str, Any]:
        schema = {"name": response_model.__name__, "schema": response_model.model_json_schema()}
        answer: dict[str, Any] = json.loads(
            chat(
                [{"role": "system", "content": system_prompt}, {"role": "user", "content": user_prompt}],
                {"type": "json_schema", "json_schema": schema},
            )
        )
        return answer


def chat(messages: list[dict[str, str]], response_format: dict[str, Any] | None = None) -> str:
    """The model's reply to a conversation."""
    body: dict[str, Any] = {"model": OpenAILLMClient.model_id, "messages": messages}
    if response_format is not None:
        body["response_format"] = response_format
    reply: str = post("/chat/completions", body)["choices"][0]["message"]["content"]
    return reply
