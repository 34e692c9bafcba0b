"""``AsyncMemory``: :class:`~haema_rs.Memory` for asyncio code.

Each call runs the engine on a worker thread (``asyncio.to_thread``) without Python's GIL,
so the event loop keeps serving other tasks meanwhile and several calls may run at once.
Clients may be plain or ``async def``: an async client method runs on the loop the call
came from.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ParamSpec, TypeVar

from . import _native
from ._adapters import CURRENT_LOOP
from .memory import Memory, PathLike
from .records import (
    AddOutcome,
    AgentState,
    CaptureOutcome,
    Changeset,
    ChangesetSummary,
    CoreVersion,
    ImportReport,
    MemoryRecord,
    PurgeReceipt,
    Recall,
    SearchHit,
)

P = ParamSpec("P")
T = TypeVar("T")


async def in_thread(method: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Runs a blocking haema call on a worker thread; an ``async def`` client method it calls
    runs on this loop meanwhile (the loop is known to that call only, never to the task)."""
    loop = asyncio.get_running_loop()
    context = contextvars.copy_context()
    context.run(CURRENT_LOOP.set, loop)
    return await loop.run_in_executor(None, functools.partial(context.run, method, *args, **kwargs))


class AsyncMemory:
    """:class:`~haema_rs.Memory` with every method a coroutine; the same arguments."""

    def __init__(
        self,
        path: PathLike,
        output_dimensionality: int,
        embedding_client: Any,
        llm_client: Any,
        merge_top_k: int = 3,
        merge_distance_cutoff: float = 0.25,
        *,
        review: str | None = None,
        scope: str | None = None,
        user_id: str | None = None,
    ) -> None:
        self.memory = Memory(
            path,
            output_dimensionality,
            embedding_client,
            llm_client,
            merge_top_k,
            merge_distance_cutoff,
            review=review,
            scope=scope,
            user_id=user_id,
        )

    @classmethod
    def wrap(cls, memory: Memory) -> AsyncMemory:
        """An ``AsyncMemory`` on an open :class:`~haema_rs.Memory` (the same store)."""
        wrapped = cls.__new__(cls)
        wrapped.memory = memory
        return wrapped

    @classmethod
    async def open(
        cls,
        path: PathLike,
        *,
        user_id: str | None = None,
        download: bool = True,
        scope: str | None = None,
    ) -> AsyncMemory:
        """:meth:`Memory.open <haema_rs.Memory.open>`, without blocking the loop."""
        memory = await in_thread(Memory.open, path, user_id=user_id, download=download, scope=scope)
        return cls.wrap(memory)

    async def _run(self, method: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return await in_thread(method, *args, **kwargs)

    def for_user(self, user_id: str) -> AsyncMemory:
        """This memory as seen by one user."""
        return AsyncMemory.wrap(self.memory.for_user(user_id))

    @property
    def user_id(self) -> str | None:
        return self.memory.user_id

    @property
    def review(self) -> str:
        return self.memory.review

    @property
    def location(self) -> str:
        return self.memory.location

    @property
    def lexical_reason(self) -> str | None:
        return self.memory.lexical_reason

    async def add(self, contents: str | Iterable[str]) -> None:
        if not isinstance(contents, str):
            contents = list(contents)
        await self._run(self.memory.add, contents)

    async def add_with(self, contents: str | Iterable[str], **attributes: Any) -> AddOutcome:
        if not isinstance(contents, str):
            contents = list(contents)
        return await self._run(self.memory.add_with, contents, **attributes)

    async def import_items(
        self, items: Iterable[str | tuple[str, Mapping[str, Any]]], *, source: str
    ) -> ImportReport:
        return await self._run(self.memory.import_items, list(items), source=source)

    async def capture(self, text: str, **attributes: Any) -> CaptureOutcome:
        return await self._run(self.memory.capture, text, **attributes)

    async def get_core(self) -> str:
        return await self._run(self.memory.get_core)

    async def get_latest(self, begin: int = 1, count: int = 10) -> list[str]:
        return await self._run(self.memory.get_latest, begin, count)

    async def search(self, content: str, n: int) -> list[str]:
        return await self._run(self.memory.search, content, n)

    async def get_latest_records(self, begin: int = 1, count: int = 10, **filters: Any) -> list[MemoryRecord]:
        return await self._run(self.memory.get_latest_records, begin, count, **filters)

    async def search_records(self, query: str, n: int = 5, **options: Any) -> list[SearchHit]:
        return await self._run(self.memory.search_records, query, n, **options)

    async def recall(self, query: str, budget: int = _native.DEFAULT_RECALL_BUDGET, **options: Any) -> Recall:
        return await self._run(self.memory.recall, query, budget, **options)

    async def get(self, memory_id: str) -> MemoryRecord:
        return await self._run(self.memory.get, memory_id)

    async def core_sections(self) -> dict[str, str]:
        return await self._run(self.memory.core_sections)

    async def set_core_section(self, section: str, text: str) -> int:
        return await self._run(self.memory.set_core_section, section, text)

    async def lock_section(self, section: str) -> None:
        await self._run(self.memory.lock_section, section)

    async def unlock_section(self, section: str) -> None:
        await self._run(self.memory.unlock_section, section)

    async def locked_sections(self) -> list[str]:
        return await self._run(self.memory.locked_sections)

    async def core_versions(self) -> list[CoreVersion]:
        return await self._run(self.memory.core_versions)

    async def pending(self) -> list[Changeset]:
        return await self._run(self.memory.pending)

    async def changeset(self, changeset_id: int) -> Changeset:
        return await self._run(self.memory.changeset, changeset_id)

    async def approve(self, changeset_id: int, edited: str | Iterable[str] | None = None) -> Changeset:
        if edited is not None and not isinstance(edited, str):
            edited = list(edited)
        return await self._run(self.memory.approve, changeset_id, edited)

    async def reject(self, changeset_id: int) -> Changeset:
        return await self._run(self.memory.reject, changeset_id)

    async def revert(self, changeset_id: int) -> Changeset:
        return await self._run(self.memory.revert, changeset_id)

    async def rerun(self, changeset_id: int) -> AddOutcome:
        return await self._run(self.memory.rerun, changeset_id)

    async def history(self, limit: int = 50, before: int | None = None) -> list[ChangesetSummary]:
        return await self._run(self.memory.history, limit, before)

    async def delete(self, memory_id: str, *, by_agent: bool = False) -> AddOutcome:
        return await self._run(self.memory.delete, memory_id, by_agent=by_agent)

    async def update(
        self, memory_id: str, content: str | None = None, *, by_agent: bool = False, **attributes: Any
    ) -> AddOutcome:
        return await self._run(self.memory.update, memory_id, content, by_agent=by_agent, **attributes)

    async def pin(self, memory_id: str) -> MemoryRecord:
        return await self._run(self.memory.pin, memory_id)

    async def unpin(self, memory_id: str) -> MemoryRecord:
        return await self._run(self.memory.unpin, memory_id)

    async def forget(self, memory_ids: str | Iterable[str] = (), *, mentioning: str | None = None) -> Changeset:
        if not isinstance(memory_ids, str):
            memory_ids = list(memory_ids)
        return await self._run(self.memory.forget, memory_ids, mentioning=mentioning)

    async def purge_user(self, user_id: str) -> PurgeReceipt:
        return await self._run(self.memory.purge_user, user_id)

    async def get_agent_state(self, agent_id: str, key: str) -> Any:
        return await self._run(self.memory.get_agent_state, agent_id, key)

    async def set_agent_state(self, agent_id: str, key: str, value: Any) -> AgentState:
        return await self._run(self.memory.set_agent_state, agent_id, key, value)

    async def list_agent_state(self, agent_id: str) -> dict[str, Any]:
        return await self._run(self.memory.list_agent_state, agent_id)

    async def delete_agent_state(self, agent_id: str, key: str) -> bool:
        return await self._run(self.memory.delete_agent_state, agent_id, key)

    async def info(self) -> dict[str, Any]:
        return await self._run(self.memory.info)

    async def catch_up_embeddings(self) -> int:
        return await self._run(self.memory.catch_up_embeddings)

    async def close(self) -> None:
        self.memory.close()

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
