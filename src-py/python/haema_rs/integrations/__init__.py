"""haema under other agent frameworks, each in a module of its own that needs that
framework installed: :mod:`haema_rs.integrations.openai_agents` (a ``Session`` of the OpenAI
Agents SDK) and :mod:`haema_rs.integrations.langgraph` (a LangGraph ``BaseStore``)."""
