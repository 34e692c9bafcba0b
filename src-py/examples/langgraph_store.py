"""A LangGraph graph whose long-term store is haema: each line on standard input is a note
the graph's first node puts in the store under the user's namespace, and its second node
searches the store (haema's hybrid search, by meaning and by words) for the notes that
match it best. The notes are memories: ``haema --store ./graph_memory search ...``, the
terminal UI and the desktop app show them, with their history.

    OPENAI_BASE_URL=http://127.0.0.1:11434/v1 EMBED_MODEL=nomic-embed-text \\
        python src-py/examples/langgraph_store.py
"""

from __future__ import annotations

import os
import sys
import uuid
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore
from openai_clients import OpenAIEmbeddingClient

from haema_rs import Memory
from haema_rs.integrations.langgraph import HaemaStore


class State(TypedDict):
    user: str
    note: str
    related: list[str]


def remember(state: State, *, store: BaseStore) -> dict[str, Any]:
    """Puts the note in the store, under the user's namespace."""
    store.put(("notes", state["user"]), str(uuid.uuid4()), {"text": state["note"]})
    return {}


def related(state: State, *, store: BaseStore) -> dict[str, Any]:
    """The user's notes that match this one best (itself first)."""
    found = store.search(("notes", state["user"]), query=state["note"], limit=3)
    return {"related": [str(item.value["text"]) for item in found]}


def main() -> None:
    # No LLM: a store's puts are written as they are (the LLM only merges what `add` learns).
    memory = Memory(
        os.environ.get("HAEMA_EXAMPLE_STORE", "./graph_memory"),
        int(os.environ.get("EMBED_DIMS", "768")),
        OpenAIEmbeddingClient(),
        None,
    )
    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("related", related)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "related")
    builder.add_edge("related", END)
    graph = builder.compile(store=HaemaStore(memory, fields=["text"], user_at=1))
    for line in sys.stdin:
        note = line.strip()
        if note:
            result = graph.invoke({"user": os.environ.get("HAEMA_EXAMPLE_USER", "me"), "note": note, "related": []})
            print("related: " + " | ".join(result["related"]), flush=True)


if __name__ == "__main__":
    main()
