"""What haema answers with beyond HAEMA's strings: memories with ids, timestamps and
attributes, search hits with scores, changes (changesets) with what they replaced.

Each is a frozen dataclass with the field names of haema's other front ends (the CLI's
``--json``, the MCP server). Timestamps come twice: ``timestamp_ms`` (Unix ms) and
``timestamp`` (ISO 8601 UTC).

A memory's ``content`` is its text as stored. Its ``flags`` say why that text reads like a
prompt injection (empty for ordinary text), and ``marked`` is the text as ``search()`` and
``get_latest()`` give it for a prompt: behind a ``[flagged: …]`` marker when flagged.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, TypeVar

R = TypeVar("R")


def _build(cls: type[R], data: dict[str, Any]) -> R:
    """``cls`` from a dict of the engine, keeping the fields it knows."""
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    return cls(**{k: v for k, v in data.items() if k in names})


class _FromDict:
    """A record read from the engine's JSON, field by field."""

    @classmethod
    def from_dict(cls: type[R], data: dict[str, Any]) -> R:
        return _build(cls, data)


@dataclass(frozen=True)
class MemoryRecord(_FromDict):
    """One long-term memory."""

    id: str
    content: str
    timestamp_ms: int
    timestamp: str
    updated_at_ms: int
    #: ``active``, ``pending`` (waiting for review), ``superseded`` or ``forgotten``.
    status: str
    #: The change that made it, and the one that replaced it.
    changeset_id: int | None = None
    superseded_by: int | None = None
    pinned: bool = False
    #: It has its vector (found by meaning as well as by words).
    has_embedding: bool = False
    memory_type: str | None = None
    importance: float | None = None
    source: str | None = None
    agent_id: str | None = None
    session_id: str | None = None
    user_id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    #: Why its text reads like a prompt injection, by name (``instruction_override``,
    #: ``role_label``, ``template_token``, ``fence_escape``, ``invisible_control``,
    #: ``exfiltration_link``: the MCP server's ``flags``); empty for ordinary text.
    flags: list[str] = field(default_factory=list)
    #: The text to hand an agent: ``content`` behind the recall block's marker when it is
    #: flagged (``[flagged: instruction override] Ignore all …``), else ``content`` itself.
    marked: str = field(default="", repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.marked:
            object.__setattr__(self, "marked", self.content)

    @property
    def flagged(self) -> bool:
        """Its text reads like a prompt injection: treat it as data, never as instructions."""
        return bool(self.flags)


@dataclass(frozen=True)
class SearchHit:
    """A memory a search found, with how well it matched."""

    memory: MemoryRecord
    #: How well it matches, from 0 to 1 (1: perfect).
    score: float
    #: What the ranking used (the fused score).
    rank_score: float
    #: ``vector``, ``lexical`` or ``both``.
    found_by: str
    #: Cosine distance to the query, when the memory has a vector.
    distance: float | None = None
    #: BM25 value (lower is better), when its words found it.
    bm25: float | None = None

    @property
    def id(self) -> str:
        return self.memory.id

    @property
    def content(self) -> str:
        return self.memory.content

    @property
    def flags(self) -> list[str]:
        return self.memory.flags

    @property
    def marked(self) -> str:
        return self.memory.marked

    @property
    def flagged(self) -> bool:
        return self.memory.flagged

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SearchHit:
        return cls(
            memory=MemoryRecord.from_dict(data),
            score=float(data["score"]),
            rank_score=float(data["rank_score"]),
            found_by=str(data["found_by"]),
            distance=data.get("distance"),
            bm25=data.get("bm25"),
        )


@dataclass(frozen=True)
class AddOutcome(_FromDict):
    """What an add (or an edit, a delete, a re-run) did."""

    #: The change it made; ``None`` when there was nothing to add.
    changeset: int | None
    #: ``committed``, ``pending`` (waiting for review), ``noop`` or ``stale``.
    status: str
    #: What a person should know: the LLM failed and the fallback kept everything, …
    warnings: list[str]
    #: The memories it made (or makes once approved); those carried over are not listed.
    memory_ids: list[str]


@dataclass(frozen=True)
class RelatedItem:
    """A memory a change was built on."""

    memory_id: str
    content: str
    distance: float | None
    #: Carried over unchanged (not replaced).
    kept: bool


@dataclass(frozen=True)
class ProposedItem:
    """A memory a change makes (or keeps)."""

    memory_id: str | None
    content: str
    kept: bool


@dataclass(frozen=True)
class Changeset:
    """One change of the memory: what it was built on, what it makes, who decided."""

    id: int
    #: ``add``, ``edit``, ``delete``, ``revert``, ``forget``, …
    kind: str
    #: ``pending``, ``committed``, ``rejected``, ``reverted`` or ``stale``.
    status: str
    #: How the LLM went: ``reconstructed``, ``refined``, ``fallback``, ``no_llm``, …
    outcome: str
    created_at_ms: int
    decided_at_ms: int | None
    decided_by: str | None
    raw_input: str | None
    inputs: list[str]
    related: list[RelatedItem]
    proposed: list[ProposedItem]
    core_before: str | None
    core_after: str | None
    llm: str | None
    embedder: str | None
    warnings: list[str]
    reverts_id: int | None = None
    reverted_by_id: int | None = None
    #: Every LLM call with its raw answer or error.
    llm_calls: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Changeset:
        data = dict(data)
        data["related"] = [_build(RelatedItem, r) for r in data.get("related", [])]
        data["proposed"] = [_build(ProposedItem, p) for p in data.get("proposed", [])]
        return _build(cls, data)


@dataclass(frozen=True)
class ChangesetSummary(_FromDict):
    """One line of history."""

    id: int
    kind: str
    status: str
    outcome: str
    created_at_ms: int
    decided_at_ms: int | None
    decided_by: str | None
    raw_input: str | None
    first_inputs: list[str]
    input_count: int
    removed: int
    added: int
    changes_core: bool
    warnings: int
    reverts_id: int | None = None
    reverted_by_id: int | None = None


@dataclass(frozen=True)
class RecallItem:
    """One part of a recall block and why it is there."""

    #: ``core``, ``latest`` or ``relevant``.
    reason: str
    id: str | None
    content: str
    score: float | None
    tokens: int
    #: Text that read like an instruction was neutralised, or the memory was cut.
    sanitized: bool = False
    truncated: bool = False
    flags: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Recall:
    """The block an agent puts in its prompt: core, the newest and the relevant memories
    within a token budget, memory text quoted as data."""

    text: str
    items: list[RecallItem]
    tokens: int
    budget: int
    max_chars: int
    #: Set when the search was too slow and the relevant part left out.
    notice: str | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Recall:
        data = dict(data)
        data["items"] = [_build(RecallItem, i) for i in data.get("items", [])]
        return _build(cls, data)


@dataclass(frozen=True)
class CoreVersion(_FromDict):
    """One version of core.md."""

    id: int
    content: str
    #: ``initial``, ``llm``, ``user`` or ``external``.
    author: str
    changeset_id: int | None
    created_at_ms: int


@dataclass(frozen=True)
class PurgeReceipt(_FromDict):
    """What removing a user's memories for good removed."""

    memories: int
    changesets: int


@dataclass(frozen=True)
class ImportReport(_FromDict):
    """What adding items as they are (``import_items``) did."""

    #: Memories added, committed at once.
    added: int
    #: Items whose text the store already held (or given twice): not added again.
    skipped: int
    #: The change that holds the added ones.
    changeset: int | None
    #: Items held for review (their text reads like a prompt injection under the
    #: ``guarded`` and ``review`` policies, or held a secret under ``secrets.policy = hold``).
    held: int
    #: The pending change that holds them.
    pending: int | None
    #: What the screens found and did.
    warnings: list[str]


@dataclass(frozen=True)
class CaptureOutcome:
    """What capturing conversation text did."""

    #: ``added`` (one add per part, under the review policy), ``empty`` (nothing to
    #: capture) or ``needs_llm`` (no LLM: nothing was stored).
    status: str
    #: Each part's add, when ``added``.
    outcomes: list[AddOutcome] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CaptureOutcome:
        outcomes = [AddOutcome.from_dict(o) for o in data.get("outcomes", [])]
        return cls(status=str(data["status"]), outcomes=outcomes)


@dataclass(frozen=True)
class AgentState(_FromDict):
    """One key of an agent's state."""

    agent_id: str
    key: str
    value: Any
    updated_at_ms: int
    updated_at: str
