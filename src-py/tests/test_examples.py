"""The Python quick start of docs/python.md (HAEMA's, with the import changed) and the agent loop
example run as they are, against an OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from openai_server import serve

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
