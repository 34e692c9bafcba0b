"""A Promptise memory provider on a haema store: ``HaemaProvider``.

It follows Promptise's ``MemoryProvider`` protocol (``add``, ``search``, ``delete``,
``purge_user``, ``close``, all async) and its scopes: ``MemoryScope.SHARED`` ignores
``user_id``; ``MemoryScope.PER_USER`` keeps users apart and fails closed — a call without
``user_id`` raises :class:`~haema_rs.errors.MemoryIsolationError` before anything is read
or written, and the store itself (``scope = "per_user"``) refuses any read or write that
names no user, so no other program can read it whole either.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from .aio import in_thread
from .errors import MemoryIsolationError, NotFoundError, StateError
from .memory import Memory, PathLike


class MemoryScope(str, enum.Enum):
    """Whose memories a provider sees."""

    #: One memory for everyone; ``user_id`` is ignored.
    SHARED = "shared"
    #: Each user's memories apart; every call must name the user.
    PER_USER = "per_user"


@dataclass(frozen=True)
class MemoryResult:
    """One search result, best first."""

    #: The memory's text, behind a ``[flagged: …]`` marker when it reads like a prompt
    #: injection (as ``Memory.search`` gives it): Promptise puts it in a system message.
    content: str
    #: From 0 to 1; 1 is a perfect match.
    score: float
    memory_id: str
    metadata: dict[str, Any] = field(default_factory=dict)


class HaemaProvider:
    """Promptise's memory provider protocol on a haema store.

    Give it an open :class:`~haema_rs.Memory`, or a store's path, opened with the
    store's own settings (its local model and LLM, as the ``haema`` command opens it) or,
    when clients are given, with them as :class:`~haema_rs.Memory` takes them.
    """

    def __init__(
        self,
        store: Memory | PathLike,
        *,
        scope: MemoryScope | str = MemoryScope.SHARED,
        embedding_client: Any = None,
        output_dimensionality: int | None = None,
        llm_client: Any = None,
        review: str | None = None,
    ) -> None:
        self.scope = MemoryScope(scope)
        if isinstance(store, Memory):
            if self.scope is MemoryScope.PER_USER and not store.requires_user:
                raise ValueError(
                    "MemoryScope.PER_USER needs a store that keeps users apart: open it with "
                    "Memory(..., scope='per_user') (or give the provider its path)"
                )
            self._memory = store
        elif embedding_client is not None or llm_client is not None:
            self._memory = Memory(
                store,
                output_dimensionality or 1,
                embedding_client,
                llm_client,
                review=review,
                scope=self.scope.value,
            )
        else:
            self._memory = Memory.open(store, scope=self.scope.value)

    @property
    def memory(self) -> Memory:
        """The memory behind the provider."""
        return self._memory

    def _handle(self, user_id: str | None) -> Memory:
        if self.scope is MemoryScope.SHARED:
            return self._memory
        if user_id is None or not str(user_id).strip():
            raise MemoryIsolationError(
                "this provider keeps users apart (MemoryScope.PER_USER): pass user_id", "user_required"
            )
        return self._memory.for_user(user_id)

    async def add(self, content: str, *, metadata: dict[str, Any] | None = None, user_id: str | None = None) -> str:
        """Stores ``content``; the id of the memory that holds it."""
        handle = self._handle(user_id)
        return await in_thread(_add, handle, content, metadata)

    async def search(self, query: str, *, limit: int = 5, user_id: str | None = None) -> list[MemoryResult]:
        """The memories that match ``query`` best, best first. A memory that reads like a
        prompt injection comes behind its ``[flagged: …]`` marker, as from
        :meth:`Memory.search <haema_rs.Memory.search>`; ``metadata`` is the memory's own."""
        handle = self._handle(user_id)
        hits = await in_thread(handle.search_records, query, limit)
        return [
            MemoryResult(
                content=hit.memory.marked,
                score=min(1.0, max(0.0, hit.score)),
                memory_id=hit.memory.id,
                metadata=dict(hit.memory.metadata),
            )
            for hit in hits
        ]

    async def delete(self, memory_id: str, *, user_id: str | None = None) -> bool:
        """Removes one memory; whether it existed, was the caller's, and was removed. A
        removal is a change in the store's history, which a person can revert."""
        handle = self._handle(user_id)
        return await in_thread(_delete, handle, memory_id)

    async def purge_user(self, user_id: str) -> int:
        """Removes everything of ``user_id`` for good (erasure on request); how many
        memories. 0 for a shared provider, whose memories belong to no one user."""
        if self.scope is MemoryScope.SHARED:
            return 0
        self._handle(user_id)
        receipt = await in_thread(self._memory.purge_user, user_id)
        return receipt.memories

    async def close(self) -> None:
        """Lets go of the store."""
        self._memory.close()


def _add(memory: Memory, content: str, metadata: dict[str, Any] | None) -> str:
    outcome = memory.add_with([content], metadata=metadata)
    if outcome.memory_ids:
        return outcome.memory_ids[0]
    if outcome.changeset is None:
        raise ValueError("the content is empty: there is nothing to store")
    # Nothing new: a memory already holds it (the same text, or the LLM kept a related
    # memory that says it). That memory's id is the answer.
    kept = [p.memory_id for p in memory.changeset(outcome.changeset).proposed if p.kept and p.memory_id]
    text = content.strip()
    for hit in memory.search_records(text, 10, mode="lexical"):
        if hit.memory.content == text:
            return hit.memory.id
    if kept:
        return kept[0]
    raise ValueError("the content was not stored and no memory holds it")


def _delete(memory: Memory, memory_id: str) -> bool:
    try:
        if memory.get(memory_id).status != "active":
            return False
        memory.delete(memory_id)
    except (NotFoundError, StateError):
        return False
    return True
