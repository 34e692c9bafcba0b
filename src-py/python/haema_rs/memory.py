"""``Memory``: HAEMA's API on haema's engine, and the rest of haema beside it."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Mapping
from typing import Any

from . import _native
from ._adapters import EmbeddingAdapter, LlmAdapter, client_id, llm_id
from ._values import _contents, _drop_none, _filter_json, _json, _text
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

logger = logging.getLogger("haema_rs")

PathLike = str | os.PathLike[str]

#: The attributes a memory may carry (``add_with``'s keywords, ``update``'s).
_ATTRIBUTES = ("memory_type", "importance", "source", "agent_id", "session_id", "user_id", "metadata")


def _check_attributes(method: str, attributes: Mapping[str, Any]) -> None:
    """A ``TypeError`` for a name that is not an attribute: never ignored."""
    for name in attributes:
        if name not in _ATTRIBUTES:
            raise TypeError(
                f"{method}() got an unexpected keyword argument {name!r}: the attributes are {', '.join(_ATTRIBUTES)}"
            )


class Memory:
    """An agent's memory: HAEMA's ``Memory``, on one SQLite file.

    ``add`` rebuilds related memories with your LLM client as HAEMA does, and every change
    it makes is a changeset you can list (``history``), review (``pending``, ``approve``,
    ``reject``) and undo (``revert``). HAEMA's behaviour is the ``auto`` review policy,
    the default here: changes apply at once. ``review="guarded"`` holds a change that
    replaces memories or edits the core for a person; ``review="review"`` holds them all.
    Left out, the policy the store's ``haema.toml`` names applies, else ``auto``.

    ``embedding_client`` may be ``None`` (memories are found by words) and so may
    ``llm_client`` (memories are stored as given). ``scope="per_user"`` keeps users'
    memories apart: every call then needs ``user_id`` (:meth:`for_user`).
    """

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
        if output_dimensionality <= 0:
            raise ValueError("output_dimensionality must be > 0")
        self.path = path
        self.output_dimensionality = output_dimensionality
        self.merge_top_k = merge_top_k
        self.merge_distance_cutoff = merge_distance_cutoff
        self.embedding_client = embedding_client
        self.llm_client = llm_client
        engine = _native.Engine.open_with(
            os.fspath(path),
            embedder=None if embedding_client is None else EmbeddingAdapter(embedding_client, output_dimensionality),
            embedder_id=client_id(embedding_client, output_dimensionality),
            dims=output_dimensionality,
            llm=None if llm_client is None else LlmAdapter(llm_client),
            llm_id=llm_id(llm_client),
            merge_top_k=merge_top_k,
            merge_distance_cutoff=merge_distance_cutoff,
            review=review,
            scope=scope,
        )
        self._engine = engine.for_user(user_id) if user_id is not None else engine

    @classmethod
    def open(
        cls,
        path: PathLike,
        *,
        user_id: str | None = None,
        download: bool = True,
        scope: str | None = None,
    ) -> Memory:
        """Opens a store with the providers its own settings name, as the ``haema`` command
        does: a store made by the CLI, the TUI or the desktop app, with its local model
        (fetched from the Hugging Face Hub on first use when ``download``; until then
        search is by words) or the HTTP providers of its ``haema.toml``. ``scope="per_user"``
        makes it keep users apart from now on."""
        engine = _native.Engine.open(os.fspath(path), download=download, scope=scope)
        memory = cls.__new__(cls)
        memory.path = path
        memory.output_dimensionality = 0
        memory.merge_top_k = 0
        memory.merge_distance_cutoff = 0.0
        memory.embedding_client = None
        memory.llm_client = None
        memory._engine = engine.for_user(user_id) if user_id is not None else engine
        return memory

    def _with_engine(self, engine: _native.Engine) -> Memory:
        other = Memory.__new__(Memory)
        other.__dict__.update(self.__dict__)
        other._engine = engine
        return other

    def for_user(self, user_id: str) -> Memory:
        """This memory as seen by one user: their memories only, and what it adds is theirs."""
        return self._with_engine(self._engine.for_user(user_id))

    @property
    def user_id(self) -> str | None:
        """The user this handle works for."""
        return self._engine.user

    @property
    def requires_user(self) -> bool:
        """The store keeps users apart and this handle has no user: every call needs
        :meth:`for_user` first."""
        return self._engine.requires_user

    @property
    def review(self) -> str:
        """The review policy in force: ``auto``, ``guarded`` or ``review``."""
        return self._engine.review

    @property
    def location(self) -> str:
        """The store's folder, or its PostgreSQL URL without a password."""
        return self._engine.location

    @property
    def lexical_reason(self) -> str | None:
        """Why search is by words alone for now; ``None`` when it uses vectors."""
        return self._engine.lexical_reason

    # HAEMA's API -------------------------------------------------------------------

    def add(self, contents: str | Iterable[str]) -> None:
        """Adds what the agent learned: one text (split into facts by the LLM) or a list of
        texts (each taken as one item). Empty input does nothing. Returns ``None``, as
        HAEMA does; :meth:`add_with` tells what happened."""
        self.add_with(contents)

    def get_core(self) -> str:
        """The whole core.md text, as a prompt may take it: when text in it reads like a
        prompt injection, two lines above it say so (the recall block's note and
        ``[flagged: …]``); :meth:`core_sections` gives the sections as stored."""
        return self._engine.get_core()

    def get_latest(self, begin: int = 1, count: int = 10) -> list[str]:
        """The newest memories' texts: ``begin`` is 1-based (1 = newest); ``begin < 1`` is
        a ``ValueError``, ``count <= 0`` gives ``[]``.

        A memory whose text reads like a prompt injection comes behind a marker, as in the
        recall block: ``[flagged: instruction override] Ignore all previous …``; every
        other text is exactly as stored (``get_latest_records`` gives each memory's
        ``content`` unmarked, with its ``flags``)."""
        return [r.marked for r in self.get_latest_records(begin, count)]

    def search(self, content: str, n: int) -> list[str]:
        """The texts of the ``n`` memories that match ``content`` best, by meaning and by
        words (``search_records`` gives scores, and ``mode="vector"`` HAEMA's ranking by
        meaning alone); ``n <= 0`` gives ``[]``. A flagged text comes behind its
        ``[flagged: …]`` marker, as in :meth:`get_latest`."""
        if n <= 0:
            return []
        return [hit.memory.marked for hit in self.search_records(content, n)]

    # haema beyond HAEMA --------------------------------------------------------------

    def add_with(
        self,
        contents: str | Iterable[str],
        *,
        memory_type: str | None = None,
        importance: float | None = None,
        source: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        user_id: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> AddOutcome:
        """:meth:`add` with attributes every new memory carries, telling what happened: the
        change, whether it is committed or waits for review, its new memories' ids, and
        warnings (an LLM that failed, whose fallback kept everything)."""
        attributes = _drop_none(
            memory_type=memory_type,
            importance=importance,
            source=source,
            agent_id=agent_id,
            session_id=session_id,
            user_id=user_id,
            metadata=metadata,
        )
        answer = self._engine.add(_contents(contents), _json(attributes) if attributes else None)
        outcome = AddOutcome.from_dict(json.loads(answer))
        for warning in outcome.warnings:
            logger.warning("%s", warning)
        return outcome

    def import_items(
        self, items: Iterable[str | tuple[str, Mapping[str, Any]]], *, source: str
    ) -> ImportReport:
        """Adds items as they are, with no LLM, as ``haema import`` does: each text (or
        ``(text, attributes)``, with ``add_with``'s attribute names) is one memory,
        committed at once. The import's screens apply: secrets are replaced by markers, an
        item that reads like a prompt injection waits for review under ``guarded`` and
        ``review``, and a text the store already holds is skipped."""
        pairs: list[tuple[str, str | None]] = []
        for item in items:
            text, attributes = (item, {}) if isinstance(item, str) else item
            _check_attributes("import_items", attributes)
            values = _drop_none(**attributes)
            pairs.append((_text(text), _json(values) if values else None))
        return ImportReport.from_dict(json.loads(self._engine.import_items(pairs, source)))

    def capture(self, text: str, **attributes: Any) -> CaptureOutcome:
        """Adds conversation text (``"The user said: …"``) as Claude Code's hooks do: always
        split into facts by the LLM, merged and reviewed as any add, and never stored as
        said: where the LLM fails, nothing of that part is stored (an error), and without
        an LLM nothing at all (``needs_llm``). Attributes as for :meth:`add_with`."""
        _check_attributes("capture", attributes)
        values = _drop_none(**attributes)
        answer = self._engine.capture(_text(text), _json(values) if values else None)
        return CaptureOutcome.from_dict(json.loads(answer))

    def get_latest_records(self, begin: int = 1, count: int = 10, **filters: Any) -> list[MemoryRecord]:
        """:meth:`get_latest` with ids, timestamps and attributes, of the memories that pass
        the filters (``memory_type``, ``min_importance``, ``source``, ``agent_id``,
        ``session_id``, ``user_id``, ``metadata``, ``since``, ``until``). Each record's
        ``content`` is the stored text; ``flags`` says why it reads like a prompt injection
        and ``marked`` is the text with the marker :meth:`get_latest` gives."""
        answer = self._engine.get_latest(begin, count, _filter_json(**filters))
        return [MemoryRecord.from_dict(r) for r in json.loads(answer)]

    def search_records(
        self,
        query: str,
        n: int = 5,
        *,
        mode: str = "hybrid",
        min_score: float | None = None,
        **filters: Any,
    ) -> list[SearchHit]:
        """The best matches with their scores (0 to 1) and which signal found them.
        ``mode``: ``hybrid`` (meaning and words), ``vector`` or ``lexical``. Each hit has
        the stored ``content``, its ``flags`` and the ``marked`` text, as
        :meth:`get_latest_records` gives them."""
        answer = self._engine.search(query, n, mode, min_score, _filter_json(**filters))
        results = json.loads(answer)
        if results.get("notice"):
            logger.info("%s", results["notice"])
        return [SearchHit.from_dict(h) for h in results["hits"]]

    def recall(
        self,
        query: str,
        budget: int = _native.DEFAULT_RECALL_BUDGET,
        *,
        max_memories: int = _native.DEFAULT_RECALL_MEMORIES,
        latest: int = _native.DEFAULT_RECALL_LATEST,
        min_score: float | None = None,
        timeout_ms: int | None = None,
        **filters: Any,
    ) -> Recall:
        """The block to put in an agent's prompt: core, the ``latest`` newest and the
        relevant memories within ``budget`` tokens, memory text quoted as data. The search
        waits at most ``timeout_ms`` (the store's ``recall.timeout_ms`` when ``None``; 0: no
        limit)."""
        answer = self._engine.recall(query, budget, max_memories, latest, min_score, timeout_ms, _filter_json(**filters))
        return Recall.from_dict(json.loads(answer))

    def get(self, memory_id: str) -> MemoryRecord:
        """One memory by id, in any status."""
        return MemoryRecord.from_dict(json.loads(self._engine.memory(memory_id)))

    def core_sections(self) -> dict[str, str]:
        """The four sections of core.md: ``{"SOUL": …, "TOOLS": …, "RULE": …, "USER": …}``."""
        sections: dict[str, str] = json.loads(self._engine.core_sections())
        return sections

    def set_core_section(self, section: str, text: str) -> int:
        """Replaces one section's text, as a person (locked sections too); the new
        version's id."""
        return self._engine.set_core_section(section, text)

    def lock_section(self, section: str) -> None:
        """Keeps the LLM from changing a section."""
        self._engine.set_section_lock(section, True)

    def unlock_section(self, section: str) -> None:
        """Lets the LLM change a section again."""
        self._engine.set_section_lock(section, False)

    def locked_sections(self) -> list[str]:
        """The sections the LLM may not change."""
        return self._engine.locked_sections()

    def core_versions(self) -> list[CoreVersion]:
        """Every version of core.md, oldest first."""
        return [CoreVersion.from_dict(v) for v in json.loads(self._engine.core_versions())]

    def pending(self) -> list[Changeset]:
        """The changes waiting for a person (pending and stale)."""
        return [Changeset.from_dict(c) for c in json.loads(self._engine.pending())]

    def changeset(self, changeset_id: int) -> Changeset:
        """One change in full."""
        return Changeset.from_dict(json.loads(self._engine.changeset(changeset_id)))

    def approve(self, changeset_id: int, edited: str | Iterable[str] | None = None) -> Changeset:
        """Applies a waiting change; with ``edited`` (a text, or texts), those replace its
        proposed memories first."""
        if isinstance(edited, str):
            edited = [edited]
        texts = None if edited is None else list(_contents(edited))
        return Changeset.from_dict(json.loads(self._engine.approve(changeset_id, texts)))

    def reject(self, changeset_id: int) -> Changeset:
        """Declines a waiting change: nothing is applied, it stays in the history."""
        return Changeset.from_dict(json.loads(self._engine.reject(changeset_id)))

    def revert(self, changeset_id: int) -> Changeset:
        """Undoes a committed change with a new change."""
        return Changeset.from_dict(json.loads(self._engine.revert(changeset_id)))

    def rerun(self, changeset_id: int) -> AddOutcome:
        """Builds a stale change again against the memories as they are now."""
        return AddOutcome.from_dict(json.loads(self._engine.rerun(changeset_id)))

    def history(self, limit: int = 50, before: int | None = None) -> list[ChangesetSummary]:
        """The newest changes, newest first (older than ``before`` for the next page)."""
        return [ChangesetSummary.from_dict(s) for s in json.loads(self._engine.history(limit, before))]

    def delete(self, memory_id: str, *, by_agent: bool = False) -> AddOutcome:
        """Sets one memory aside as a change :meth:`revert` undoes. ``by_agent``: an agent
        asks, and the review policy decides (under ``auto`` it is done at once)."""
        return AddOutcome.from_dict(json.loads(self._engine.delete_memory(memory_id, by_agent)))

    def update(
        self, memory_id: str, content: str | None = None, *, by_agent: bool = False, **attributes: Any
    ) -> AddOutcome:
        """Replaces a memory's text, its attributes or both: a new memory (new id) takes its
        place, as a change :meth:`revert` undoes. ``by_agent``: an agent asks for a new text,
        and the review policy decides, as for :meth:`delete` (under ``auto`` it is done at
        once; under ``guarded`` and ``review``, and for a pinned memory, it waits for a
        person); an agent's update takes no attributes (``InvalidArgumentError``). A keyword
        that is not an attribute is a ``TypeError``, never ignored."""
        _check_attributes("update", attributes)
        values = _drop_none(**attributes)
        text = None if content is None else _text(content)
        answer = self._engine.update_memory(memory_id, text, _json(values) if values else None, by_agent)
        return AddOutcome.from_dict(json.loads(answer))

    def pin(self, memory_id: str) -> MemoryRecord:
        """A pinned memory is never replaced or rewritten without a person's review."""
        return MemoryRecord.from_dict(json.loads(self._engine.set_pinned(memory_id, True)))

    def unpin(self, memory_id: str) -> MemoryRecord:
        """Lets changes replace a memory again under the review policy."""
        return MemoryRecord.from_dict(json.loads(self._engine.set_pinned(memory_id, False)))

    def forget(self, memory_ids: str | Iterable[str] = (), *, mentioning: str | None = None) -> Changeset:
        """Removes memories for good (an id, ids, or every one mentioning a phrase): their
        text leaves every row and file of the store; a receipt stays in the history."""
        ids = [memory_ids] if isinstance(memory_ids, str) else list(memory_ids)
        return Changeset.from_dict(json.loads(self._engine.forget(ids, mentioning)))

    def purge_user(self, user_id: str) -> PurgeReceipt:
        """Removes everything of one user for good; what was removed."""
        return PurgeReceipt.from_dict(json.loads(self._engine.purge_user(user_id)))

    def get_agent_state(self, agent_id: str, key: str) -> Any:
        """The value an agent stored under ``key``, or ``None``."""
        answer = self._engine.get_agent_state(agent_id, key)
        return None if answer is None else AgentState.from_dict(json.loads(answer)).value

    def set_agent_state(self, agent_id: str, key: str, value: Any) -> AgentState:
        """Stores a JSON value under ``key`` for an agent (its history is kept)."""
        return AgentState.from_dict(json.loads(self._engine.set_agent_state(agent_id, key, _json(value))))

    def list_agent_state(self, agent_id: str) -> dict[str, Any]:
        """Every key an agent has, with its value."""
        return {s["key"]: s["value"] for s in json.loads(self._engine.list_agent_state(agent_id))}

    def delete_agent_state(self, agent_id: str, key: str) -> bool:
        """Removes a key; whether it was there."""
        return self._engine.delete_agent_state(agent_id, key)

    def info(self) -> dict[str, Any]:
        """Counts and identities of the store (memories, changes waiting, embedder, …)."""
        info: dict[str, Any] = json.loads(self._engine.info())
        return info

    def catch_up_embeddings(self) -> int:
        """Makes the vectors of memories added while the embedding client was away (or by
        the ``haema`` command, which cannot run your client); how many were made."""
        return self._engine.catch_up_embeddings()

    def close(self) -> None:
        """Lets go of the store. HAEMA has no ``close``; haema closes on garbage collection
        too, and every write is durable when its call returns."""
        self._engine = _Closed()  # type: ignore[assignment]

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        try:
            return f"Memory({self.location!r})"
        except ValueError:
            return "Memory(closed)"


class _Closed:
    """What a closed Memory holds: every call says it is closed."""

    def __getattr__(self, name: str) -> Any:
        raise ValueError("this Memory is closed")
