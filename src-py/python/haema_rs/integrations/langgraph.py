"""``HaemaStore``: LangGraph's long-term store (``langgraph.store.base.BaseStore``) on a
haema memory, so that what a graph puts in its store is a memory people can search, review
and revert with haema, and what haema knows is there for the graph's nodes.

Each item is one memory. Its namespace and key are in the memory's metadata
(``langgraph_namespace``, ``langgraph_key``, with ``langgraph_item`` and
``langgraph_prefix_N`` for exact and prefix lookups), and so is its value, kept as given
(``langgraph_value``); once a later put made a new memory for it, the time of the first put
too (``langgraph_created_at_ms``). The
memory's text, which haema embeds and searches by words, is the item's text at the
``index`` fields (the whole value as JSON by default). The memory's ``agent_id`` is
``langgraph`` and its ``source`` too; with ``user_at`` one element of the namespace names the
user the item is about (its ``user_id``, and in a ``per_user`` store the user whose memories
it reads and writes).

A put is a direct write with no LLM: a new key is imported as it is (``import_items``), a
key already there is edited as a person edits (``update``), a delete sets the memory aside
(``delete``). Each is a change in haema's history. TTLs are not supported.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any, Literal

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    get_text_at_path,
    tokenize_path,
)

from ..aio import AsyncMemory, in_thread
from ..memory import Memory
from ..records import MemoryRecord
from ._filters import matches

logger = logging.getLogger("haema_rs")

#: The ``source`` of every memory a ``HaemaStore`` writes.
SOURCE = "langgraph"
#: haema keeps a memory's metadata to this many bytes of JSON; the value lives there.
MAX_METADATA_BYTES = 16 * 1024
#: Memories read per page when a listing walks the store.
PAGE = 200
#: The most hits one search reads while it looks for enough that pass a filter.
MAX_SEARCH = 10_000


#: The metadata key of an item's first put, once a later put made a new memory for it.
CREATED = "langgraph_created_at_ms"


def _without_created(metadata: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in metadata.items() if k != CREATED}


def _time(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc)


def _check_namespace(namespace: tuple[str, ...]) -> None:
    """LangGraph's rules for labels: strings, not empty, no ``.`` (haema joins prefixes
    with it)."""
    for label in namespace:
        if not isinstance(label, str) or not label or "." in label or "\x00" in label:
            raise InvalidNamespaceError(
                f"invalid namespace label {label!r} in {namespace}: labels are non-empty strings without '.'"
            )


def _item_id(namespace: tuple[str, ...], key: str) -> str:
    return json.dumps([*namespace, key], ensure_ascii=False)


def _prefix_filter(prefix: tuple[str, ...]) -> dict[str, Any]:
    """The metadata condition that keeps the items under ``prefix`` (none for ``()``)."""
    return {f"langgraph_prefix_{len(prefix)}": ".".join(prefix)} if prefix else {}


class HaemaStore(BaseStore):
    """A LangGraph ``BaseStore`` whose items are memories of a haema store.

    ``memory`` is an open :class:`~haema_rs.Memory` or :class:`~haema_rs.AsyncMemory`;
    ``fields`` are the value's paths whose text haema embeds and searches when a put gives
    no ``index`` (LangGraph's ``IndexConfig["fields"]``; ``"$"`` is the whole value);
    ``user_at`` is the position in the namespace of the label that names the user
    (``("memories", user_id)``: 1), or ``None`` when namespaces name no user. Search is
    haema's own (hybrid: by meaning with the memory's embedder, and by words), so no
    embedding function is given here.
    """

    supports_ttl: bool = False

    def __init__(
        self,
        memory: Memory | AsyncMemory,
        *,
        fields: Sequence[str] = ("$",),
        user_at: int | None = None,
        agent_id: str = "langgraph",
    ) -> None:
        self.memory = memory.memory if isinstance(memory, AsyncMemory) else memory
        self.fields = list(fields)
        self.user_at = user_at
        self.agent_id = agent_id
        if user_at is not None and user_at < 0:
            raise ValueError("user_at is a position in the namespace: 0 or more")
        if self.memory.requires_user and user_at is None:
            raise ValueError(
                "this store keeps users apart: give HaemaStore a Memory for one user (memory.for_user(...)) "
                "or user_at, the position of the namespace label that names the user"
            )

    # Users --------------------------------------------------------------------------

    def _user(self, namespace: tuple[str, ...]) -> str | None:
        """The user a namespace names, if ``user_at`` says where and it is that long."""
        if self.user_at is None or len(namespace) <= self.user_at:
            return None
        return namespace[self.user_at]

    def _handle(self, namespace: tuple[str, ...]) -> Memory:
        """The memory to read and write ``namespace``'s items with."""
        user = self._user(namespace)
        own = self.memory.user_id
        if user is not None and own is not None and user != own:
            raise ValueError(f"the namespace {namespace} names user {user!r} but this Memory works for user {own!r}")
        if self.memory.requires_user:
            if user is None:
                raise ValueError(
                    f"this store keeps users apart and the namespace {namespace} names no user "
                    f"(user_at={self.user_at}): give a namespace that reaches the user's label"
                )
            return self.memory.for_user(user)
        return self.memory

    # Reading ------------------------------------------------------------------------

    def _found(self, namespace: tuple[str, ...], key: str) -> MemoryRecord | None:
        """The newest active memory of one item."""
        records = self._handle(namespace).get_latest_records(
            1, 1, agent_id=self.agent_id, metadata={"langgraph_item": _item_id(namespace, key)}
        )
        return records[0] if records else None

    def _records(self, prefix: tuple[str, ...], **metadata: Any) -> Iterator[MemoryRecord]:
        """Every item's memory under ``prefix``, newest first, a page at a time."""
        handle = self._handle(prefix)
        wanted = {**_prefix_filter(prefix), **metadata}
        begin = 1
        while True:
            page = handle.get_latest_records(begin, PAGE, agent_id=self.agent_id, metadata=wanted or None)
            yield from page
            if len(page) < PAGE:
                return
            begin += PAGE

    @staticmethod
    def _item(record: MemoryRecord, score: float | None = None, *, searched: bool = False) -> Item:
        meta = record.metadata
        fields: dict[str, Any] = {
            "namespace": tuple(meta["langgraph_namespace"]),
            "key": str(meta["langgraph_key"]),
            "value": meta["langgraph_value"],
            "created_at": _time(int(meta.get(CREATED, record.timestamp_ms))),
            "updated_at": _time(record.timestamp_ms),
        }
        if searched:
            return SearchItem(score=score, **fields)
        return Item(**fields)

    def _get(self, op: GetOp) -> Item | None:
        _check_namespace(op.namespace)
        record = self._found(op.namespace, op.key)
        return None if record is None else self._item(record)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        _check_namespace(op.namespace_prefix)
        if op.limit <= 0:
            return []
        wanted = op.offset + op.limit
        found: list[SearchItem] = []
        if op.query:
            handle = self._handle(op.namespace_prefix)
            conditions = {**_prefix_filter(op.namespace_prefix), "langgraph_indexed": True}
            n = max(wanted, 10)
            while True:
                hits = handle.search_records(op.query, n, agent_id=self.agent_id, metadata=conditions)
                passing = [h for h in hits if matches(h.memory.metadata["langgraph_value"], op.filter)]
                if len(passing) >= wanted or len(hits) < n or n >= MAX_SEARCH:
                    break
                n *= 4
            for hit in passing[op.offset : wanted]:
                found.append(self._searched(hit.memory, hit.score))
            if len(found) >= op.limit:
                return found
            # As LangGraph's own stores do: items not indexed come after, without a score.
            unindexed = self._records(op.namespace_prefix, langgraph_indexed=False)
            rest = (r for r in unindexed if matches(r.metadata["langgraph_value"], op.filter))
            for record in rest:
                found.append(self._searched(record, None))
                if len(found) >= op.limit:
                    break
            return found
        listed = (r for r in self._records(op.namespace_prefix) if matches(r.metadata["langgraph_value"], op.filter))
        for index, record in enumerate(listed):
            if index >= wanted:
                break
            if index >= op.offset:
                found.append(self._searched(record, None))
        return found

    def _searched(self, record: MemoryRecord, score: float | None) -> SearchItem:
        item = self._item(record, score, searched=True)
        assert isinstance(item, SearchItem)
        return item

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        for condition in conditions:
            _check_namespace(tuple(label for label in condition.path if label != "*"))
        # A prefix without wildcards narrows the walk to its items.
        prefix: tuple[str, ...] = ()
        for condition in conditions:
            if condition.match_type == "prefix":
                fixed = []
                for label in condition.path:
                    if label == "*":
                        break
                    fixed.append(label)
                prefix = max(prefix, tuple(fixed), key=len)
        namespaces = {tuple(r.metadata["langgraph_namespace"]) for r in self._records(prefix)}
        kept = [ns for ns in namespaces if all(_matches_condition(c, ns) for c in conditions)]
        if op.max_depth is not None:
            kept = [ns[: op.max_depth] for ns in kept]
        return sorted(set(kept))[op.offset : op.offset + op.limit]

    # Writing ------------------------------------------------------------------------

    def _text(self, value: Mapping[str, Any], index: Literal[False] | list[str] | None) -> tuple[str, bool]:
        """The memory's text for a value, and whether LangGraph asked for it to be indexed."""
        whole = json.dumps(value, sort_keys=True, ensure_ascii=False)
        if index is False:
            return whole, False
        texts: list[str] = []
        for path in self.fields if index is None else index:
            texts.extend(get_text_at_path(value, path if path == "$" else tokenize_path(path)))
        text = "\n".join(t.strip() for t in texts if t.strip())
        return (text, True) if text else (whole, False)

    def _attributes(
        self, namespace: tuple[str, ...], key: str, value: Mapping[str, Any], indexed: bool, created_ms: int | None
    ) -> dict[str, Any]:
        metadata: dict[str, Any] = {
            "langgraph_namespace": list(namespace),
            "langgraph_key": key,
            "langgraph_item": _item_id(namespace, key),
            "langgraph_value": dict(value),
            "langgraph_indexed": indexed,
        }
        if created_ms is not None:
            metadata[CREATED] = created_ms
        for depth in range(1, len(namespace) + 1):
            metadata[f"langgraph_prefix_{depth}"] = ".".join(namespace[:depth])
        size = len(json.dumps(metadata, ensure_ascii=False).encode())
        if size > MAX_METADATA_BYTES:
            raise ValueError(
                f"the item {namespace}/{key!r} is {size:,} bytes as JSON with its address: haema keeps at most "
                f"{MAX_METADATA_BYTES:,} per item (a memory's metadata); store large documents elsewhere and "
                "put a summary or a reference here"
            )
        return {"source": SOURCE, "agent_id": self.agent_id, "user_id": self._user(namespace), "metadata": metadata}

    def _put_all(self, ops: Iterable[PutOp]) -> None:
        """Applies puts, the last of each item winning; new items go in one import per user."""
        last: dict[tuple[tuple[str, ...], str], PutOp] = {}
        for op in ops:
            _check_namespace(op.namespace)
            if op.ttl is not None:
                raise NotImplementedError("HaemaStore does not support TTLs: put without ttl (or ttl=None)")
            last[(op.namespace, op.key)] = op
        new: dict[str | None, list[tuple[tuple[str, ...], str, str, dict[str, Any]]]] = {}
        for (namespace, key), op in last.items():
            handle = self._handle(namespace)
            record = self._found(namespace, key)
            if op.value is None:
                if record is not None:
                    handle.delete(record.id)
                continue
            if not namespace:
                raise InvalidNamespaceError("Namespace cannot be empty.")
            if namespace[0] == "langgraph":
                raise InvalidNamespaceError(f'Root label for namespace cannot be "langgraph". Got: {namespace}')
            text, indexed = self._text(op.value, op.index)
            # A new item's memory was made when it was first put; a changed one keeps that time.
            created = None if record is None else int(record.metadata.get(CREATED, record.timestamp_ms))
            attributes = self._attributes(namespace, key, op.value, indexed, created)
            if record is None:
                new.setdefault(self._user(namespace), []).append((namespace, key, text, attributes))
            elif record.content != text or _without_created(record.metadata) != _without_created(attributes["metadata"]):
                handle.update(record.id, text if record.content != text else None, **attributes)
        for items in new.values():
            self._import(items)

    def _import(self, items: list[tuple[tuple[str, ...], str, str, dict[str, Any]]]) -> None:
        """New items as they are, in one change. A text the store already holds (another
        key's, or an earlier value's) is not imported twice: such an item is imported under
        a placeholder of its own and then given its text, as a person's edit."""
        handle = self._handle(items[0][0])
        report = handle.import_items([(text, attributes) for _, _, text, attributes in items], source=SOURCE)
        for warning in report.warnings:
            logger.warning("%s", warning)
        held = set()
        if report.pending is not None:
            held = {p.content for p in handle.changeset(report.pending).proposed}
        for namespace, key, text, attributes in items:
            if text in held or self._found(namespace, key) is not None:
                continue
            placeholder = f"LangGraph item {_item_id(namespace, key)}, being written ({uuid.uuid4()})"
            handle.import_items([(placeholder, attributes)], source=SOURCE)
            record = self._found(namespace, key)
            if record is None:
                raise RuntimeError(f"haema did not keep the item {namespace}/{key!r}: see `haema history`")
            handle.update(record.id, text)

    # BaseStore ----------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Runs the operations in order (a run of puts together), each reading what the ones
        before it wrote."""
        ops = list(ops)
        results: list[Result] = []
        at = 0
        while at < len(ops):
            op = ops[at]
            if isinstance(op, PutOp):
                end = at
                while end < len(ops) and isinstance(ops[end], PutOp):
                    end += 1
                self._put_all(o for o in ops[at:end] if isinstance(o, PutOp))
                results.extend([None] * (end - at))
                at = end
                continue
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise ValueError(f"unknown operation: {type(op).__name__}")
            at += 1
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` on a worker thread: the event loop goes on meanwhile, and an
        ``async def`` client of the memory runs on it."""
        return await in_thread(self.batch, list(ops))

    def __repr__(self) -> str:
        return f"HaemaStore({self.memory!r}, agent_id={self.agent_id!r})"


def _matches_condition(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """LangGraph's prefix and suffix conditions, ``*`` matching any one label."""
    path = condition.path
    if len(namespace) < len(path):
        return False
    pairs = zip(namespace, path) if condition.match_type == "prefix" else zip(reversed(namespace), reversed(path))
    return all(p == "*" or n == p for n, p in pairs)


__all__ = ["SOURCE", "HaemaStore"]
