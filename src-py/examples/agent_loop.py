"""An agent with a haema memory: before each answer it reads its recall block (its
profile, the newest and the relevant memories, quoted as data), after it, it adds what the
user said. Every change the memory's LLM makes is a changeset a person can review and
revert with ``haema --store ./agent_memory review list`` or in the terminal UI.

    OPENAI_BASE_URL=http://127.0.0.1:11434/v1 LLM_MODEL=llama3.1 EMBED_MODEL=nomic-embed-text \\
        python src-py/examples/agent_loop.py
"""

from __future__ import annotations

import os
import sys

from openai_clients import OpenAIEmbeddingClient, OpenAILLMClient, chat

from haema_rs import Memory

SYSTEM = "You are a helpful assistant. Use what you remember about the user when it helps."


def main() -> None:
    memory = Memory(
        os.environ.get("HAEMA_EXAMPLE_STORE", "./agent_memory"),
        int(os.environ.get("EMBED_DIMS", "768")),
        OpenAIEmbeddingClient(),
        OpenAILLMClient(),
        review=os.environ.get("HAEMA_EXAMPLE_REVIEW"),  # None: the store's policy, else auto
    )
    for line in sys.stdin:
        said = line.strip()
        if not said:
            continue
        recall = memory.recall(said, budget=600)
        reply = chat([{"role": "system", "content": f"{SYSTEM}\n\n{recall.text}"}, {"role": "user", "content": said}])
        print(f"assistant: {reply}", flush=True)
        outcome = memory.add_with(said, source="chat", agent_id="agent-loop")
        if outcome.status == "pending":
            print(f"(memory change {outcome.changeset} waits for your review)", flush=True)


if __name__ == "__main__":
    main()
