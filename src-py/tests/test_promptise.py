"""``HaemaProvider`` keeps Promptise's ``MemoryProvider`` contract: ids from ``add``,
results best first with scores in [0, 1], ``delete`` answering whether it removed the
caller's entry, ``purge_user`` counting, and a per-user scope that fails closed."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import pytest
from conftest import KeywordEmbeddingClient

from haema_rs import HaemaProvider, Memory, MemoryIsolationError, MemoryResult, MemoryScope


def provider(tmp_path: Path, scope: MemoryScope = MemoryScope.SHARED) -> HaemaProvider:
    # No LLM: a provider stores each entry as given, as Promptise's providers do.
    return HaemaProvider(tmp_path / "store", scope=scope, embedding_client=KeywordEmbeddingClient(), output_dimensionality=3)


def test_every_method_is_a_coroutine(tmp_path: Path) -> None:
    p = provider(tmp_path)
    for name in ("add", "search", "delete", "purge_user", "close"):
        assert inspect.iscoroutinefunction(getattr(p, name)), name


def test_a_shared_provider_stores_finds_and_deletes(tmp_path: Path) -> None:
    async def main() -> None:
        p = provider(tmp_path)
        tea = await p.add("alpha: the user drinks green tea", metadata={"topic": "drinks"}, user_id="ignored")
        jazz = await p.add("beta: the user likes jazz")
        assert tea and jazz and tea != jazz
        assert await p.add("alpha: the user drinks green tea") == tea  # already there: its id
        results = await p.search("alpha green tea", limit=5)
        assert isinstance(results[0], MemoryResult)
        assert results[0].memory_id == tea and results[0].content == "alpha: the user drinks green tea"
        assert results[0].metadata == {"topic": "drinks"}
        assert all(0.0 <= r.score <= 1.0 for r in results)
        assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)
        assert len(await p.search("user", limit=1)) == 1
        assert await p.delete(tea) is True
        assert await p.delete(tea) is False  # already removed
        assert await p.delete("no-such-id") is False
        assert [r.memory_id for r in await p.search("alpha green tea")] == [jazz]
        assert await p.purge_user("anyone") == 0  # nothing in a shared memory is one user's
        await p.close()

    asyncio.run(main())


def test_a_per_user_provider_fails_closed(tmp_path: Path) -> None:
    async def main() -> None:
        p = provider(tmp_path, MemoryScope.PER_USER)
        with pytest.raises(MemoryIsolationError):
            await p.add("alpha secret")
        with pytest.raises(MemoryIsolationError):
            await p.search("alpha")
        with pytest.raises(MemoryIsolationError):
            await p.delete("x")
        with pytest.raises(MemoryIsolationError):
            await p.purge_user("")
        ann = await p.add("alpha ann's locker number is 4417", user_id="ann")
        bob = await p.add("alpha bob's locker number is 9000", user_id="bob")
        assert [r.memory_id for r in await p.search("alpha locker", user_id="ann")] == [ann]
        assert [r.memory_id for r in await p.search("alpha locker", user_id="bob")] == [bob]
        assert await p.delete(ann, user_id="bob") is False  # not bob's to delete
        assert [r.memory_id for r in await p.search("alpha", user_id="ann")] == [ann]
        assert await p.purge_user("ann") == 1
        assert await p.search("alpha", user_id="ann") == []
        assert [r.memory_id for r in await p.search("alpha", user_id="bob")] == [bob]
        await p.close()

    asyncio.run(main())
    # The store itself stays per-user: a plain open cannot read it whole.
    memory = Memory(tmp_path / "store", 3, KeywordEmbeddingClient(), None)
    with pytest.raises(MemoryIsolationError):
        memory.get_latest(1, 10)


def test_a_provider_over_an_open_memory(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "db", 3, KeywordEmbeddingClient(), None)
    p = HaemaProvider(memory)
    memory_id = asyncio.run(p.add("gamma fact"))
    assert memory.get(memory_id).content == "gamma fact"
    assert p.memory is memory
