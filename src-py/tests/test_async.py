"""``AsyncMemory``: the same memory for asyncio code; the event loop keeps running while
the engine works, and ``async def`` clients run on it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import KeywordEmbeddingClient, StubLLMClient

from haema_rs import AsyncMemory, Memory
from haema_rs.schemas import MemoryReconstructionResponse


class AsyncEmbeddingClient:
    def __init__(self) -> None:
        self.inner = KeywordEmbeddingClient()
        self.loops: set[int] = set()

    async def embed_query(self, texts: list[str], output_dimensionality: int) -> np.ndarray:
        self.loops.add(id(asyncio.get_running_loop()))
        await asyncio.sleep(0)
        return self.inner.embed_query(texts, output_dimensionality)

    async def embed_document(self, texts: list[str], output_dimensionality: int) -> np.ndarray:
        self.loops.add(id(asyncio.get_running_loop()))
        return self.inner.embed_document(texts, output_dimensionality)


class SlowAsyncLLMClient:
    def __init__(self) -> None:
        self.inner = StubLLMClient()
        self.loops: set[int] = set()

    async def generate_structured(self, system_prompt: str, user_prompt: str, response_model: type[Any]) -> dict[str, Any]:
        self.loops.add(id(asyncio.get_running_loop()))
        await asyncio.sleep(0.05)
        return self.inner.generate_structured(system_prompt, user_prompt, response_model)


def test_async_clients_run_on_the_callers_loop_which_keeps_running(tmp_path: Path) -> None:
    embedding, llm = AsyncEmbeddingClient(), SlowAsyncLLMClient()

    async def main() -> tuple[list[str], int, int]:
        memory = AsyncMemory(tmp_path / "db", 3, embedding, llm)
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.001)

        ticking = asyncio.create_task(ticker())
        await asyncio.gather(memory.add(["alpha one"]), memory.add(["gamma two"]), memory.add("beta three"))
        ticking.cancel()
        latest = await memory.get_latest(1, 10)
        return latest, ticks, id(asyncio.get_running_loop())

    latest, ticks, loop = asyncio.run(main())
    assert sorted(latest) == ["single::alpha one", "single::beta three", "single::gamma two"]
    assert ticks > 10  # the loop served the ticker while three adds ran
    assert embedding.loops == {loop} and llm.loops == {loop}


def test_the_async_api_mirrors_the_sync_one(tmp_path: Path) -> None:
    async def main() -> None:
        async with AsyncMemory(tmp_path / "db", 3, KeywordEmbeddingClient(), StubLLMClient(), review="review") as memory:
            outcome = await memory.add_with(["alpha one"], importance=0.5)
            assert outcome.status == "pending"
            [change] = await memory.pending()
            await memory.approve(change.id)
            assert await memory.search("alpha", 3) == ["single::alpha one"]
            [hit] = await memory.search_records("alpha", 1)
            assert hit.memory.importance == 0.5
            assert "alpha one" in (await memory.recall("alpha", 200)).text
            assert (await memory.history(5))[0].status == "committed"
            assert "Critical rule." in await memory.get_core()
            await memory.set_agent_state("a", "k", [1, 2])
            assert await memory.get_agent_state("a", "k") == [1, 2]
            ann = memory.for_user("ann")
            waiting = await ann.add_with(["gamma ann"])
            assert await ann.get_latest(1, 5) == []  # waits for review
            await ann.approve(waiting.changeset or 0)
            assert await ann.get_latest(1, 5) == ["single::gamma ann"]

    asyncio.run(main())


def test_a_client_exception_reaches_the_awaiting_task(tmp_path: Path) -> None:
    class Failing(StubLLMClient):
        def generate_structured(self, system_prompt: str, user_prompt: str, response_model: type[Any]) -> dict[str, Any]:
            if response_model is MemoryReconstructionResponse:
                raise RuntimeError("the model's SDK broke")
            return super().generate_structured(system_prompt, user_prompt, response_model)

    async def main() -> None:
        memory = AsyncMemory(tmp_path / "db", 3, KeywordEmbeddingClient(), Failing())
        with pytest.raises(RuntimeError, match="SDK broke"):
            await memory.add(["alpha one"])
        assert await memory.get_latest(1, 5) == []

    asyncio.run(main())


def test_async_memory_wraps_an_open_memory(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "db", 3, KeywordEmbeddingClient(), StubLLMClient())
    memory.add(["alpha one"])
    assert asyncio.run(AsyncMemory.wrap(memory).get_latest(1, 1)) == ["single::alpha one"]
