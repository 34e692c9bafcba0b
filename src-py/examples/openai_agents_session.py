"""An OpenAI Agents SDK agent whose conversation lives in haema: each line on standard input
is one turn of ``Runner.run`` with a ``HaemaSession``, so a second run of this script goes on
where the first stopped. With ``capture`` what the user and the assistant said becomes
memories (split into facts by the memory's LLM, reviewed as the store's policy says); with
``recall`` the agent's instructions hold haema's recall block for each question.

    OPENAI_BASE_URL=http://127.0.0.1:11434/v1 LLM_MODEL=llama3.1 EMBED_MODEL=nomic-embed-text \\
        python src-py/examples/openai_agents_session.py
"""

from __future__ import annotations

import asyncio
import os
import sys

from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from openai import AsyncOpenAI
from openai_clients import OpenAIEmbeddingClient, OpenAILLMClient

from haema_rs import Memory
from haema_rs.integrations.openai_agents import HaemaSession


async def main() -> None:
    set_tracing_disabled(True)  # the SDK sends its traces to OpenAI's servers otherwise
    memory = Memory(
        os.environ.get("HAEMA_EXAMPLE_STORE", "./agent_memory"),
        int(os.environ.get("EMBED_DIMS", "768")),
        OpenAIEmbeddingClient(),
        OpenAILLMClient(),
        review=os.environ.get("HAEMA_EXAMPLE_REVIEW"),  # None: the store's policy, else auto
    )
    session = HaemaSession(os.environ.get("HAEMA_EXAMPLE_SESSION", "example"), memory, capture=True, recall=True)
    client = AsyncOpenAI(
        base_url=os.environ.get("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1"),
        api_key=os.environ.get("OPENAI_API_KEY") or "none",
    )
    agent = Agent(
        name="assistant",
        instructions=session.instructions("You are a helpful assistant. Use what you remember about the user."),
        model=OpenAIChatCompletionsModel(model=OpenAILLMClient.model_id, openai_client=client),
    )
    for line in sys.stdin:
        said = line.strip()
        if said:
            result = await Runner.run(agent, said, session=session)
            print(f"assistant: {result.final_output}", flush=True)
    waiting = len(memory.pending())
    if waiting:
        print(f"({waiting} memory changes wait for your review: haema review list)", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
