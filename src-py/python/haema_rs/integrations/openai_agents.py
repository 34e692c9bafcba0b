"""``HaemaSession``: a ``Session`` of the OpenAI Agents SDK (package ``openai-agents``,
module ``agents``) kept in a haema store, so a conversation goes on where it stopped, in any
process that opens the store.

The items (the SDK's ``TResponseInputItem`` dicts) are kept exactly, in order, as agent
state of the agent ``openai-agents:<session_id>``: one key per item (``item:000000000001``,
…; an item over 48 KB of JSON is kept in parts) and ``session`` for the range. Two
opt-ins, off by default:

- ``capture=True``: once a turn has an answer, what the user and the assistant said in it
  (their text only: never tool calls, tool output or reasoning) is captured into memory as
  haema's Claude Code hooks capture a conversation: split into facts by the store's LLM,
  merged and reviewed under the store's review policy, never stored as said.
- ``recall=True``: :meth:`HaemaSession.instructions` gives an ``instructions=`` function for
  the ``Agent`` that adds haema's recall block for the latest user message (memory text
  quoted as data) below your own instructions.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeAlias, cast

from agents import Agent, RunContextWrapper, TResponseInputItem
from agents.memory import SessionSettings

from .. import _native
from ..aio import AsyncMemory, in_thread
from ..memory import Memory

logger = logging.getLogger("haema_rs")

#: The ``source`` and ``agent_id`` of what a session captures.
SOURCE = "openai-agents"
#: An item larger than this (JSON bytes) is kept in parts: a state value holds 64 KB.
WHOLE_BYTES = 48 * 1024
#: Characters of an item's JSON per part (each at most 6 bytes as a JSON string).
PART_CHARS = 6 * 1024

Instructions: TypeAlias = str | Callable[[RunContextWrapper[Any], Agent[Any]], str | Awaitable[str]]

_locks: dict[tuple[str, str], threading.Lock] = {}
_locks_guard = threading.Lock()


def _lock(location: str, agent: str) -> threading.Lock:
    """One lock per session of a store in this process: two handles never interleave."""
    with _locks_guard:
        return _locks.setdefault((location, agent), threading.Lock())


def said(item: Any) -> tuple[str, str] | None:
    """``(role, text)`` of a message the user or the assistant wrote; ``None`` for anything
    else (tool calls and their output, reasoning, system and developer messages)."""
    if not isinstance(item, Mapping) or item.get("type", "message") != "message":
        return None
    role = item.get("role")
    if role not in ("user", "assistant"):
        return None
    content = item.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        texts = [p.get("text") for p in content if isinstance(p, Mapping)]
        text = "\n".join(t for t in texts if isinstance(t, str) and t.strip())
    else:
        return None
    return (str(role), text.strip()) if text.strip() else None


def conversation(items: Iterable[Any]) -> str:
    """What was said, as haema's hooks write it for the memory to read: "The user said: …"
    and "The assistant said: …" (a bare "User:" reads as a role label), without the recall
    blocks an answer may quote (what came from memory is not captured into it again)."""
    lines = []
    for item in items:
        found = said(item)
        text = _native.without_recall_blocks(found[1]).strip() if found is not None else ""
        if found is not None and text:
            who = "The user" if found[0] == "user" else "The assistant"
            lines.append(f"{who} said: {text}\n")
    return "".join(lines)


class HaemaSession:
    """A conversation's items in a haema store, for ``Runner.run(..., session=...)``.

    ``memory`` is an open :class:`~haema_rs.Memory` or :class:`~haema_rs.AsyncMemory` (every
    call runs on a worker thread, never on the event loop); ``user_id`` makes the session's
    captures and recalls that user's (needed in a ``per_user`` store). ``capture`` and
    ``recall`` are the opt-ins described in this module's documentation;
    ``recall_budget`` is the recall block's size in tokens.
    """

    def __init__(
        self,
        session_id: str,
        memory: Memory | AsyncMemory,
        *,
        capture: bool = False,
        recall: bool = False,
        user_id: str | None = None,
        recall_budget: int = _native.DEFAULT_RECALL_BUDGET,
        session_settings: SessionSettings | None = None,
    ) -> None:
        if not session_id or session_id != session_id.strip():
            raise ValueError(f"session_id {session_id!r} is empty or has spaces around it: give a plain id")
        base = memory.memory if isinstance(memory, AsyncMemory) else memory
        self.memory = base.for_user(user_id) if user_id is not None else base
        self.session_id = session_id
        self.session_settings = session_settings
        self.capture = capture
        self.recall = recall
        self.recall_budget = recall_budget
        self.agent_id = f"{SOURCE}:{session_id}"
        self._lock = _lock(self.memory.location, self.agent_id)
        self._told_no_llm = False

    # Storage (blocking: run on worker threads) ---------------------------------------

    def _range(self) -> dict[str, int]:
        found = self.memory.get_agent_state(self.agent_id, "session")
        return dict(found) if isinstance(found, dict) else {"first": 1, "next": 1, "captured": 1}

    def _items_now(self, state: dict[str, int], limit: int | None = None) -> list[TResponseInputItem]:
        values = self.memory.list_agent_state(self.agent_id)
        first = state["first"] if limit is None else max(state["first"], state["next"] - limit)
        return [self._read(values, seq) for seq in range(first, state["next"])]

    @staticmethod
    def _read(values: Mapping[str, Any], seq: int) -> TResponseInputItem:
        stored = values.get(f"item:{seq:012d}")
        if not isinstance(stored, dict):
            raise RuntimeError(f"item {seq} of this session is missing from the store: see `haema state list`")
        if "parts" in stored:
            text = "".join(str(values[f"item:{seq:012d}:{i}"]) for i in range(int(stored["parts"])))
            return cast(TResponseInputItem, json.loads(text))
        return cast(TResponseInputItem, stored["item"])

    def _write(self, seq: int, item: TResponseInputItem) -> None:
        text = json.dumps(item, ensure_ascii=False)
        key = f"item:{seq:012d}"
        if len(text.encode()) <= WHOLE_BYTES:
            self.memory.set_agent_state(self.agent_id, key, {"item": item})
            return
        parts = [text[i : i + PART_CHARS] for i in range(0, len(text), PART_CHARS)]
        for i, part in enumerate(parts):
            self.memory.set_agent_state(self.agent_id, f"{key}:{i}", part)
        self.memory.set_agent_state(self.agent_id, key, {"parts": len(parts)})

    def _erase(self, values: Mapping[str, Any], seq: int) -> None:
        stored = values.get(f"item:{seq:012d}")
        if isinstance(stored, dict) and "parts" in stored:
            for i in range(int(stored["parts"])):
                self.memory.delete_agent_state(self.agent_id, f"item:{seq:012d}:{i}")
        self.memory.delete_agent_state(self.agent_id, f"item:{seq:012d}")

    def get_items_now(self, limit: int | None = None) -> list[TResponseInputItem]:
        """:meth:`get_items`, blocking."""
        return self._items_now(self._range(), limit)

    def add_items_now(self, items: list[TResponseInputItem]) -> None:
        """:meth:`add_items`, blocking."""
        with self._lock:
            state = self._range()
            for item in items:
                self._write(state["next"], item)
                state["next"] += 1
            self.memory.set_agent_state(self.agent_id, "session", state)
            if self.capture:
                self._capture(state)

    def pop_item_now(self) -> TResponseInputItem | None:
        """:meth:`pop_item`, blocking."""
        with self._lock:
            state = self._range()
            if state["next"] <= state["first"]:
                return None
            seq = state["next"] - 1
            values = self.memory.list_agent_state(self.agent_id)
            item = self._read(values, seq)
            state["next"] = seq
            state["captured"] = min(state["captured"], seq)
            self.memory.set_agent_state(self.agent_id, "session", state)
            self._erase(values, seq)
            return item

    def clear_session_now(self) -> None:
        """:meth:`clear_session`, blocking."""
        with self._lock:
            state = self._range()
            values = self.memory.list_agent_state(self.agent_id)
            state.update(first=state["next"], captured=state["next"])
            self.memory.set_agent_state(self.agent_id, "session", state)
            for key in values:
                if key != "session":
                    self.memory.delete_agent_state(self.agent_id, key)

    def _capture(self, state: dict[str, int]) -> None:
        """Captures the turns since the last capture once one has the assistant's answer;
        on failure they wait for the next add (the agent's run goes on)."""
        start = max(state["captured"], state["first"])
        values = self.memory.list_agent_state(self.agent_id)
        pending = [self._read(values, seq) for seq in range(start, state["next"])]
        if not any((said(item) or ("",))[0] == "assistant" for item in pending):
            return
        try:
            outcome = self.memory.capture(
                conversation(pending), source=SOURCE, agent_id=SOURCE, session_id=self.session_id
            )
        except Exception as error:  # the conversation goes on; the words wait
            logger.warning("haema could not capture session %s, it tries again at the next turn: %s", self.session_id, error)
            return
        if outcome.status == "needs_llm":
            if not self._told_no_llm:
                logger.warning("haema captures session %s once the store has an LLM: its words wait", self.session_id)
                self._told_no_llm = True
            return
        for add in outcome.outcomes:
            if add.status == "pending":
                logger.info("haema: what session %s taught waits for review in change %s", self.session_id, add.changeset)
        state["captured"] = state["next"]
        self.memory.set_agent_state(self.agent_id, "session", state)

    # The Session protocol -------------------------------------------------------------

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The conversation's items, oldest first; with ``limit`` the newest that many
        (``session_settings.limit`` when none is given)."""
        if limit is None and self.session_settings is not None:
            limit = self.session_settings.limit
        return await in_thread(self.get_items_now, limit)

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Appends items (and, with ``capture``, captures a finished turn)."""
        await in_thread(self.add_items_now, list(items))

    async def pop_item(self) -> TResponseInputItem | None:
        """Removes and returns the newest item; ``None`` when there is none."""
        return await in_thread(self.pop_item_now)

    async def clear_session(self) -> None:
        """Removes every item (memories it captured stay: ``haema forget`` removes those)."""
        await in_thread(self.clear_session_now)

    # Recall ---------------------------------------------------------------------------

    def instructions(self, base: Instructions = "") -> Callable[[RunContextWrapper[Any], Agent[Any]], Awaitable[str]]:
        """An ``instructions=`` function for an ``Agent``: ``base`` (text, or the SDK's own
        kind of function), then, with ``recall``, haema's recall block for the latest user
        message of the turn: the core profile, the newest and the relevant memories within
        ``recall_budget`` tokens, memory text quoted as data."""

        async def instructions(context: RunContextWrapper[Any], agent: Agent[Any]) -> str:
            text = base if isinstance(base, str) else base(context, agent)
            if not isinstance(text, str):
                text = await text
            if not self.recall:
                return text
            query = self._latest_user_text(context.turn_input) or self._latest_user_text(await self.get_items())
            if not query:
                return text
            block = (await in_thread(self.memory.recall, query, self.recall_budget)).text
            return f"{text}\n\n{block}".strip() if block.strip() else text

        return instructions

    @staticmethod
    def _latest_user_text(items: Iterable[Any]) -> str | None:
        for item in reversed(list(items)):
            found = said(item)
            if found is not None and found[0] == "user":
                return found[1]
        return None

    def __repr__(self) -> str:
        return f"HaemaSession({self.session_id!r}, {self.memory!r})"


__all__ = ["SOURCE", "HaemaSession", "conversation", "said"]
