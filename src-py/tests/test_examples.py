"""The Python quick start of docs/python.md (HAEMA's, with the import changed), the blocks of
docs/python-integrations.md, the agent loop and the integrations' examples run as they are,
against an OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from openai_server import Handler, serve

from haema_rs import Memory

QUICK_START_MARK = "<!-- the Python quick start: src-py/tests/test_examples.py runs this block -->"


def quick_start() -> str:
    page = (REPO / "docs" / "python.md").read_text()
    after = page.split(QUICK_START_MARK, 1)[1]
    match = re.match(r"\s*```python\n(.*?)```", after, re.S)
    assert match, "the quick start block of docs/python.md is missing"
    return match.group(1)


def test_the_docs_quick_start_is_haemas_with_the_import_changed() -> None:
    code = quick_start()
    assert "from haema_rs import EmbeddingClient, LLMClient, Memory" in code
    assert "from haema " not in code.replace("# was: from haema import", "")
    for line in (
        'path="./haema_store",',
        "m.add([",
        "print(m.get_core())",
        "print(m.get_latest(begin=1, count=5))",
        'print(m.search("user preference", n=3))',
    ):
        assert line in code


def test_the_docs_quick_start_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "quick_start.py"
    script.write_text(quick_start())
    monkeypatch.chdir(tmp_path)
    with serve() as base_url:
        monkeypatch.setenv("OPENAI_BASE_URL", base_url)
        runpy.run_path(str(script), run_name="__main__")
    printed = capsys.readouterr().out.splitlines()
    core, latest, found = printed[0:-2], printed[-2], printed[-1]
    assert "- The user prefers concise and actionable responses." in "\n".join(core)
    assert latest == str(["The user is building HAEMA on top of ChromaDB.", "The user prefers concise and actionable responses."])
    assert found.startswith("['The user prefers concise and actionable responses.'")
    store = Memory.open(tmp_path / "haema_store", download=False)
    assert [h.status for h in store.history()] == ["committed"]


def test_the_agent_loop_remembers_between_turns(tmp_path: Path) -> None:
    example = REPO / "src-py" / "examples" / "agent_loop.py"
    store = tmp_path / "agent_memory"
    with serve() as base_url:
        env = dict(os.environ, OPENAI_BASE_URL=base_url, HAEMA_EXAMPLE_STORE=str(store), EMBED_DIMS="64")
        done = subprocess.run(
            [sys.executable, str(example)],
            input="I prefer answers in French.\nWhat language do I like?\n",
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    replies = done.stdout.split("assistant: ")[1:]
    assert len(replies) == 2, done.stdout
    # The second turn's prompt held what the first one taught (the recall block).
    assert "I prefer answers in French." in replies[1]
    memory = Memory.open(store, download=False)
    assert sorted(memory.get_latest(1, 10)) == ["I prefer answers in French.", "What language do I like?"]
    assert memory.get_latest_records(1, 1)[0].source == "chat"
    assert "- I prefer answers in French." in memory.get_core()


INTEGRATIONS = REPO / "docs" / "python-integrations.md"
AGENTS_MARK = "<!-- the OpenAI Agents SDK session: src-py/tests/test_examples.py runs this block -->"
LANGGRAPH_MARK = "<!-- the LangGraph store: src-py/tests/test_examples.py runs this block -->"


def doc_block(page: Path, mark: str) -> str:
    after = page.read_text().split(mark, 1)[1]
    match = re.match(r"\s*```python\n(.*?)```", after, re.S)
    assert match, f"the block after {mark} is missing"
    return match.group(1)


def run_offline(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, base_url: str) -> None:
    """Runs a doc block in ``tmp_path`` with the model server on 127.0.0.1 and the Hugging
    Face Hub offline (the store searches by words)."""
    script = tmp_path / "block.py"
    script.write_text(code)
    monkeypatch.chdir(tmp_path)
    for name, value in (("OPENAI_BASE_URL", base_url), ("HF_HUB_OFFLINE", "1"), ("HF_HOME", str(tmp_path / "hf"))):
        monkeypatch.setenv(name, value)
    runpy.run_path(str(script), run_name="__main__")


def test_the_docs_agents_session_block_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve() as base_url:
        run_offline(doc_block(INTEGRATIONS, AGENTS_MARK), tmp_path, monkeypatch, base_url)
        requests = list(Handler.requests)
    printed = capsys.readouterr().out
    assert "I moved to Porto last month." in printed
    # The second turn was sent with the first, read back from the store.
    assert "I moved to Porto last month." in [m["content"] for m in requests[-1]["messages"]]
    memory = Memory.open(tmp_path / "agent_store", download=False)
    assert len(memory.list_agent_state("openai-agents:user-42")) == 5  # four items and the range


def test_the_docs_langgraph_block_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve() as base_url:
        run_offline(doc_block(INTEGRATIONS, LANGGRAPH_MARK), tmp_path, monkeypatch, base_url)
    assert capsys.readouterr().out.strip() == "['I prefer trains to planes.']"
    memory = Memory.open(tmp_path / "agent_store", download=False)
    [record] = memory.get_latest_records(1, 5)
    assert (record.content, record.user_id) == ("I prefer trains to planes.", "ana")


def run_example(name: str, said: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    example = REPO / "src-py" / "examples" / name
    return subprocess.run(
        [sys.executable, str(example)], input=said, capture_output=True, text=True, timeout=120, env=env, check=False
    )


def test_the_agents_example_goes_on_where_it_stopped(tmp_path: Path) -> None:
    store = tmp_path / "agent_memory"
    with serve() as base_url:
        env = dict(os.environ, OPENAI_BASE_URL=base_url, HAEMA_EXAMPLE_STORE=str(store), EMBED_DIMS="64")
        first = run_example("openai_agents_session.py", "I prefer answers in French.\n", env)
        second = run_example("openai_agents_session.py", "What language do I like?\n", env)
        requests = list(Handler.requests)
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    assert second.stdout.startswith("assistant: ")
    # The second process sent the first one's turn, from the store, and the recall block.
    chat = [r for r in requests if "messages" in r and "response_format" not in r][-1]
    contents = [str(m["content"]) for m in chat["messages"]]
    assert "I prefer answers in French." in contents
    assert "I prefer answers in French." in contents[0]  # captured, then recalled
    memory = Memory.open(store, download=False)
    assert "I prefer answers in French." in [r.content for r in memory.get_latest_records(1, 10)]
    assert all(r.source == "openai-agents" for r in memory.get_latest_records(1, 10))


def test_the_langgraph_example_finds_related_notes(tmp_path: Path) -> None:
    store = tmp_path / "graph_memory"
    with serve() as base_url:
        env = dict(os.environ, OPENAI_BASE_URL=base_url, HAEMA_EXAMPLE_STORE=str(store), EMBED_DIMS="64")
        done = run_example("langgraph_store.py", "Trains to Lyon leave at nine.\nBuy trains tickets early.\n", env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "related: Trains to Lyon leave at nine."
    assert lines[1].startswith("related: Buy trains tickets early. | Trains to Lyon leave at nine.")
    memory = Memory.open(store, download=False)
    assert [r.metadata["langgraph_namespace"] for r in memory.get_latest_records(1, 5)] == [["notes", "me"]] * 2
