"""haema for Python agents: HAEMA's ``Memory`` on haema's engine.

Switch from HAEMA by changing one import::

    from haema_rs import EmbeddingClient, LLMClient, Memory

Your clients, your ``add``/``get_core``/``get_latest``/``search`` calls and their results
stay as they were. What haema adds: every change the LLM makes is a changeset you can
review and revert, nothing is lost when the LLM fails, search ranks by meaning and words
with scores, and the store is one SQLite file the ``haema`` command, its terminal UI and
its desktop app open too.
"""

from __future__ import annotations

from . import errors
from ._native import VERSION as __version__
from .aio import AsyncMemory
from .clients import EmbeddingClient, LLMClient
from .errors import HaemaError, MemoryIsolationError
from .memory import Memory
from .promptise import HaemaProvider, MemoryResult, MemoryScope
from .records import (
    AddOutcome,
    AgentState,
    CaptureOutcome,
    Changeset,
    ChangesetSummary,
    CoreVersion,
    ImportReport,
    MemoryRecord,
    ProposedItem,
    PurgeReceipt,
    Recall,
    RecallItem,
    RelatedItem,
    SearchHit,
)
from .schemas import CoreUpdateResponse, MemoryReconstructionResponse, PreMemorySplitResponse

__all__ = [
    "AddOutcome",
    "AgentState",
    "AsyncMemory",
    "CaptureOutcome",
    "Changeset",
    "ChangesetSummary",
    "CoreUpdateResponse",
    "CoreVersion",
    "EmbeddingClient",
    "HaemaError",
    "HaemaProvider",
    "ImportReport",
    "LLMClient",
    "Memory",
    "MemoryIsolationError",
    "MemoryReconstructionResponse",
    "MemoryRecord",
    "MemoryResult",
    "MemoryScope",
    "PreMemorySplitResponse",
    "ProposedItem",
    "PurgeReceipt",
    "Recall",
    "RecallItem",
    "RelatedItem",
    "SearchHit",
    "__version__",
    "errors",
]
