"""The store is the same store: what Python writes, the ``haema`` binary reads (and writes
into), and a store the binary made opens from Python."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import KeywordEmbeddingClient, StubLLMClient, user_environment

from haema_rs import Memory
from haema_rs.errors import EmbedderMismatchError


def cli(
    haema: Path, home: Path, store: Path | str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Runs the real binary as a user would, with a home of its own and no network."""
    clean = user_environment(home)
    clean.update(env or {})
    return subprocess.run(
        [str(haema), "--store", str(store), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=clean,
        check=False,
    )


def test_the_binary_reads_and_writes_a_store_made_from_python(tmp_path: Path, haema_bin: Path) -> None:
    store = tmp_path / "py-store"
    memory = Memory(store, 3, KeywordEmbeddingClient(), StubLLMClient())
    memory.add(["alpha the user drinks green tea"])
    memory.add(["beta the user lives in Lyon"])
    memory.close()

    latest = cli(haema_bin, tmp_path, store, "latest", "--json")
    assert latest.returncode == 0, latest.stderr
    assert [m["content"] for m in json.loads(latest.stdout)] == [
        "single::beta the user lives in Lyon",
        "single::alpha the user drinks green tea",
    ]
    found = cli(haema_bin, tmp_path, store, "search", "green tea")
    assert found.returncode == 0, found.stderr
    assert "single::alpha the user drinks green tea" in found.stdout
    assert "embedding client of a Python program" in found.stderr  # by words, and why
    core = cli(haema_bin, tmp_path, store, "core", "show")
    assert "Critical rule." in core.stdout
    history = cli(haema_bin, tmp_path, store, "history", "--json")
    assert len(json.loads(history.stdout)) == 2

    added = cli(haema_bin, tmp_path, store, "add", "--items", "gamma the user has a cat")
    assert added.returncode == 0, added.stderr

    again = Memory(store, 3, KeywordEmbeddingClient(), StubLLMClient())
    [newest] = again.get_latest_records(1, 1)
    assert newest.content == "gamma the user has a cat"
    assert not newest.has_embedding  # the binary cannot run this program's client
    assert again.catch_up_embeddings() == 1
    assert again.get(newest.id).has_embedding
    assert again.search_records("gamma", 1, mode="vector")[0].memory.content == "gamma the user has a cat"


def test_python_opens_a_store_the_binary_made(tmp_path: Path, haema_bin: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = tmp_path / "cli-store"
    model = os.environ.get("HAEMA_TEST_MODEL_DIR")
    # With the test copy of all-MiniLM-L6-v2 both sides search by meaning; without it, by words.
    env = {"HAEMA_EMBEDDER": "local", "HAEMA_EMBED_MODEL": model} if model else {"HAEMA_EMBEDDER": "none"}
    made = cli(haema_bin, tmp_path, store, "add", "--items", "The user drinks green tea.", "The flight leaves at nine.", env=env)
    assert made.returncode == 0, made.stderr
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")

    memory = Memory.open(store, download=False)
    assert sorted(memory.get_latest(1, 10)) == ["The flight leaves at nine.", "The user drinks green tea."]
    assert memory.search("green tea", 1) == ["The user drinks green tea."]
    if model:
        assert memory.lexical_reason is None
        [hit] = memory.search_records("What does the user like to drink?", 1, mode="vector")
        assert hit.memory.content == "The user drinks green tea."
    memory.add(["The user is vegetarian."])
    listed = cli(haema_bin, tmp_path, store, "latest", "--json", env=env)
    assert json.loads(listed.stdout)[0]["content"] == "The user is vegetarian."

    # HAEMA's constructor brings its own embedding client: not the one the vectors came from.
    if model:
        with pytest.raises(EmbedderMismatchError, match="dims"):
            Memory(store, 3, KeywordEmbeddingClient(), None)


def test_a_haema_store_comes_over_with_the_programs_own_vectors(tmp_path: Path, haema_bin: Path) -> None:
    """The way from a HAEMA store of docs/python.md: open the new store from Python, import the old
    folder with the binary, make the vectors with the program's client."""
    old = tmp_path / "haema-store"
    shutil.copytree(Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "haema-store", old)
    before = {p: p.read_bytes() for p in old.rglob("*") if p.is_file()}
    store = tmp_path / "new"
    Memory(store, 3, KeywordEmbeddingClient(), StubLLMClient()).close()
    imported = cli(haema_bin, tmp_path, store, "import", str(old))
    assert imported.returncode == 0, imported.stderr
    memory = Memory(store, 3, KeywordEmbeddingClient(), StubLLMClient())
    latest = memory.get_latest(1, 10)
    assert "The user is allergic to peanuts." in latest
    assert "The user drinks green tea every morning." not in latest  # HAEMA had replaced it
    assert memory.catch_up_embeddings() == len(latest)
    assert all(r.has_embedding for r in memory.get_latest_records(1, 10))
    assert memory.search("peanuts", 1) == ["The user is allergic to peanuts."]
    assert {p: p.read_bytes() for p in old.rglob("*") if p.is_file()} == before  # only read


def test_a_python_program_shares_a_postgresql_store(tmp_path: Path, haema_bin: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Python on one machine and the binary on another, one PostgreSQL store (the test
    command starts the server and sets HAEMA_TEST_PG_URL)."""
    base = os.environ.get("HAEMA_TEST_PG_URL")
    if not base:
        pytest.skip("HAEMA_TEST_PG_URL is not set: no PostgreSQL test server (.ci/run starts one)")
    url = f"{base}{'&' if '?' in base else '?'}schema=py_{tmp_path.name.lower().replace('-', '_')[-40:]}"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "machine-a"))
    memory = Memory(url, 3, KeywordEmbeddingClient(), StubLLMClient())
    memory.add(["alpha the user drinks green tea"])
    assert memory.location.startswith("postgres://") and "password" not in memory.location
    other_machine = tmp_path / "machine-b"
    listed = cli(haema_bin, other_machine, url, "latest", "--json")
    assert listed.returncode == 0, listed.stderr
    assert [m["content"] for m in json.loads(listed.stdout)] == ["single::alpha the user drinks green tea"]
    added = cli(haema_bin, other_machine, url, "add", "--items", "gamma the user has a cat")
    assert added.returncode == 0, added.stderr
    assert memory.get_latest(1, 5) == ["gamma the user has a cat", "single::alpha the user drinks green tea"]
    assert memory.catch_up_embeddings() == 1
    assert memory.search_records("gamma", 1, mode="vector")[0].memory.content == "gamma the user has a cat"
