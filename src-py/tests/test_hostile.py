"""What a hostile review of the package found, kept fixed: huge numbers, clients that fail
late, fork, Ctrl-C, event loops, and arguments of the wrong shape."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import KeywordEmbeddingClient, StubLLMClient

from haema_rs import AsyncMemory, HaemaProvider, Memory, MemoryScope
from haema_rs.errors import HaemaError, InvalidArgumentError, StateError
from haema_rs.schemas import MemoryReconstructionResponse


def test_any_number_of_hits_can_be_asked_for(memory: Memory) -> None:
    memory.add(["alpha one"])
    memory.add(["gamma two"])
    for mode in ("hybrid", "vector", "lexical"):
        assert len(memory.search_records("alpha", 10**11, mode=mode)) >= 1
    assert len(memory.search("alpha", 2**63 - 1)) == 2
    assert "alpha one" in memory.recall("alpha", 500, max_memories=10**9, latest=10**9).text


def test_a_huge_merge_top_k_is_as_good_as_the_store(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "db", 3, KeywordEmbeddingClient(), StubLLMClient(), merge_top_k=10**9)
    memory.add(["alpha one"])
    memory.add(["alpha two"])
    assert memory.get_latest(1, 5) == ["single::alpha two"]


class LateBadShape(KeywordEmbeddingClient):
    def embed_document(self, texts: Sequence[str], output_dimensionality: int) -> np.ndarray:
        return np.ones((len(texts), 2), dtype=np.float32)


def test_a_document_embedding_that_fails_commits_nothing_ever(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "db", 3, LateBadShape(), StubLLMClient())
    with pytest.raises(ValueError, match="dimension mismatch"):
        memory.add(["alpha the user is allergic to peanuts"])
    time.sleep(0.5)  # nothing finishes in the background either
    assert memory.get_latest(1, 10) == []
    assert memory.history() == []


def test_no_llm_call_follows_a_clients_exception(tmp_path: Path) -> None:
    class Breaks(StubLLMClient):
        def generate_structured(self, system_prompt: str, user_prompt: str, response_model: type[Any]) -> dict[str, Any]:
            if response_model is MemoryReconstructionResponse:
                raise RuntimeError("the SDK broke")
            return super().generate_structured(system_prompt, user_prompt, response_model)

    llm = Breaks()
    memory = Memory(tmp_path / "db", 3, KeywordEmbeddingClient(), llm)
    with pytest.raises(RuntimeError, match="SDK broke"):
        memory.add(["alpha one"])
    time.sleep(0.5)
    assert llm.core_call_count == 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() is POSIX's")
def test_a_forked_child_is_told_to_open_the_store_again(memory: Memory, tmp_path: Path) -> None:
    memory.add(["alpha one"])
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            try:
                memory.get_latest(1, 5)
                answer = "no error"
            except StateError as error:
                answer = "refused" if "open the store again" in str(error) else str(error)
            again = Memory(tmp_path / "db", 3, KeywordEmbeddingClient(), StubLLMClient())
            answer += " / " + ",".join(again.get_latest(1, 5))
            os.write(write, answer.encode())
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    assert os.read(read, 1000).decode() == "refused / single::alpha one"


def test_ctrl_c_stops_an_add_waiting_for_a_slow_client(tmp_path: Path) -> None:
    class Slow(StubLLMClient):
        def generate_structured(self, system_prompt: str, user_prompt: str, response_model: type[Any]) -> dict[str, Any]:
            time.sleep(2)
            return super().generate_structured(system_prompt, user_prompt, response_model)

    memory = Memory(tmp_path / "db", 3, KeywordEmbeddingClient(), Slow())
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        memory.add(["alpha one"])
    assert time.monotonic() - started < 1.5
    time.sleep(2.5)  # the client's call ends; nothing is stored after it
    assert memory.get_latest(1, 5) == []


def test_a_sync_call_inside_a_coroutine_after_an_async_one(tmp_path: Path) -> None:
    class AsyncEmbedder(KeywordEmbeddingClient):
        async def embed_query(self, texts: Sequence[str], output_dimensionality: int) -> np.ndarray:  # type: ignore[override]
            return super().embed_query(texts, output_dimensionality)

    memory = Memory(tmp_path / "db", 3, AsyncEmbedder(), StubLLMClient())
    memory.add(["alpha one"])

    async def main() -> list[str]:
        await AsyncMemory.wrap(memory).search("alpha", 1)
        return memory.search("alpha", 1)  # blocks this loop; its client runs on a loop of its own

    assert asyncio.run(main()) == ["single::alpha one"]


def test_two_threads_loops_each_run_their_own_calls(tmp_path: Path) -> None:
    class LoopNoting(KeywordEmbeddingClient):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[tuple[str, int]] = []

        async def embed_query(self, texts: Sequence[str], output_dimensionality: int) -> np.ndarray:  # type: ignore[override]
            self.seen.append((threading.current_thread().name, id(asyncio.get_running_loop())))
            await asyncio.sleep(0.05)
            return super().embed_query(texts, output_dimensionality)

    embedding = LoopNoting()
    memory = AsyncMemory(tmp_path / "db", 3, embedding, StubLLMClient())
    loops: dict[str, int] = {}

    def thread_main() -> None:
        async def run() -> None:
            loops[threading.current_thread().name] = id(asyncio.get_running_loop())
            for _ in range(3):
                await memory.search("alpha", 1)

        asyncio.run(run())

    threads = [threading.Thread(target=thread_main, name=name) for name in ("A", "B")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(embedding.seen) == 6
    assert all(loop == loops[name] for name, loop in embedding.seen)


def test_an_edited_approval_of_one_text_is_one_memory(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "db", 3, KeywordEmbeddingClient(), StubLLMClient(), review="review")
    change = memory.add_with(["alpha one"]).changeset or 0
    memory.approve(change, edited="Alpha, in a person's words.")
    assert memory.get_latest(1, 5) == ["Alpha, in a person's words."]
    [memory_id] = [r.id for r in memory.get_latest_records(1, 5)]
    memory.forget(memory_id)
    assert memory.get_latest(1, 5) == []


def test_arguments_of_the_wrong_kind_are_told(memory: Memory) -> None:
    with pytest.raises(ValueError, match="finite"):
        memory.add_with(["alpha"], importance=float("nan"))
    with pytest.raises(ValueError, match="surrogate"):
        memory.add(["alpha \ud800"])
    with pytest.raises(InvalidArgumentError, match="hybrid, vector or lexical"):
        memory.search_records("alpha", 3, mode="semantic")
    with pytest.raises(InvalidArgumentError, match="auto, guarded or review"):
        Memory(memory.location, 3, KeywordEmbeddingClient(), None, review="later")
    with pytest.raises(HaemaError):
        memory.set_core_section("NOTES", "x")
    outcome = memory.add_with(
        ["alpha one"], importance=np.float32(0.5), metadata={"n": np.int64(3), "v": np.arange(2)}  # type: ignore[arg-type]
    )
    record = memory.get(outcome.memory_ids[0])
    assert (record.importance, record.metadata) == (0.5, {"n": 3, "v": [0, 1]})
    assert memory.get_latest(np.int64(1), np.int64(5)) == ["single::alpha one"]  # type: ignore[arg-type]


def test_a_per_user_provider_needs_a_per_user_store(memory: Memory) -> None:
    with pytest.raises(ValueError, match="per_user"):
        HaemaProvider(memory, scope=MemoryScope.PER_USER)


def test_the_provider_runs_async_clients_on_the_callers_loop(tmp_path: Path) -> None:
    class LoopBound(KeywordEmbeddingClient):
        def __init__(self) -> None:
            super().__init__()
            self.lock: asyncio.Lock | None = None

        async def embed_query(self, texts: Sequence[str], output_dimensionality: int) -> np.ndarray:  # type: ignore[override]
            if self.lock is None:
                self.lock = asyncio.Lock()  # bound to the first loop that uses it
            async with self.lock:
                return super().embed_query(texts, output_dimensionality)

    async def main() -> None:
        provider = HaemaProvider(tmp_path / "store", embedding_client=LoopBound(), output_dimensionality=3)
        await asyncio.gather(*(provider.add(f"alpha fact {n}") for n in range(4)))
        assert len(await provider.search("alpha", limit=10)) == 4
        with pytest.raises(ValueError, match="empty"):
            await provider.add("   ")

    asyncio.run(main())
