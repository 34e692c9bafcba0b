"""What haema gives a Python program beyond HAEMA: review, history and revert, records with
ids and scores, recall, attributes and filters, scopes, direct edits, forget, agent state,
and calls that never hold the GIL across the engine."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import KeywordEmbeddingClient, StubLLMClient

from haema_rs import Memory, MemoryIsolationError, _native
from haema_rs.errors import HaemaError, NotFoundError, StateError
from haema_rs.schemas import MemoryReconstructionResponse


def build(tmp_path: Path, review: str | None = None, **kwargs: Any) -> tuple[Memory, StubLLMClient]:
    llm = StubLLMClient()
    memory = Memory(tmp_path / "db", 3, KeywordEmbeddingClient(), llm, review=review, **kwargs)
    return memory, llm


def test_under_review_a_change_waits_until_a_person_approves_it(tmp_path: Path) -> None:
    memory, llm = build(tmp_path, review="review")
    outcome = memory.add_with(["alpha one"])
    assert outcome.status == "pending" and outcome.changeset is not None
    assert memory.get_latest(1, 10) == []  # pending memories are invisible
    assert memory.search("alpha", 5) == []
    [waiting] = memory.pending()
    assert waiting.id == outcome.changeset
    assert [p.content for p in waiting.proposed] == ["single::alpha one"]
    assert waiting.core_after is not None  # the core update waits with it
    approved = memory.approve(waiting.id)
    assert approved.status == "committed" and approved.decided_by == "user"
    assert memory.get_latest(1, 10) == ["single::alpha one"]
    assert "Critical rule." in memory.get_core()
    assert memory.pending() == []


def test_an_approval_can_be_edited_and_a_rejection_applies_nothing(tmp_path: Path) -> None:
    memory, llm = build(tmp_path, review="review")
    first = memory.add_with(["alpha one"]).changeset
    assert first is not None
    memory.approve(first, edited=["Alpha, as a person wrote it."])
    assert memory.get_latest(1, 10) == ["Alpha, as a person wrote it."]
    second = memory.add_with(["beta two"]).changeset
    assert second is not None
    rejected = memory.reject(second)
    assert rejected.status == "rejected"
    assert memory.get_latest(1, 10) == ["Alpha, as a person wrote it."]
    with pytest.raises(StateError):
        memory.approve(second)


def test_guarded_holds_only_a_change_that_replaces_memories(tmp_path: Path) -> None:
    memory, llm = build(tmp_path, review="guarded")
    llm.core_should_update = False
    assert memory.add_with(["alpha one"]).status == "committed"
    llm.reconstruction_responses = [{"memories": ["alpha merged"], "coverage": "complete"}]
    held = memory.add_with(["alpha two"])
    assert held.status == "pending"
    assert memory.get_latest(1, 10) == ["single::alpha one"]


def test_history_and_revert_bring_back_what_a_merge_replaced(memory: Memory, llm: StubLLMClient) -> None:
    memory.add(["alpha seed"])
    llm.reconstruction_responses = [{"memories": ["merged alpha"], "coverage": "complete"}]
    memory.add(["alpha next"])
    history = memory.history()
    assert [h.status for h in history] == ["committed", "committed"]
    assert history[0].removed == 1 and history[0].added == 1
    assert history[0].first_inputs == ["alpha next"]
    revert = memory.revert(history[0].id)
    assert revert.reverts_id == history[0].id
    assert memory.get_latest(1, 10) == ["single::alpha seed"]
    assert memory.changeset(history[0].id).status == "reverted"
    assert memory.history(1)[0].id == revert.id
    assert [h.id for h in memory.history(10, before=revert.id)] == [h.id for h in history]


def test_the_raw_llm_answers_are_kept_with_each_change(memory: Memory, llm: StubLLMClient) -> None:
    llm.failures_left[MemoryReconstructionResponse] = 6
    outcome = memory.add_with(["beta fallback"])
    assert any("could not rebuild" in w for w in outcome.warnings)
    change = memory.changeset(outcome.changeset or 0)
    assert change.outcome == "fallback"
    stages = [call["stage"] for call in change.llm_calls]
    assert stages == ["reconstruct", "refine", "core_update"]
    assert "forced structured parsing failure" in (change.llm_calls[0]["error"] or "")
    assert change.llm is not None and change.llm.startswith("python:")


def test_records_carry_ids_scores_and_attributes(memory: Memory) -> None:
    outcome = memory.add_with(
        ["alpha likes jazz"],
        memory_type="preference",
        importance=0.8,
        source="chat",
        agent_id="planner",
        session_id="s1",
        user_id="ana",
        metadata={"topic": "music", "weight": 2},
    )
    [memory_id] = outcome.memory_ids
    record = memory.get(memory_id)
    assert (record.id, record.status, record.pinned) == (memory_id, "active", False)
    assert (record.memory_type, record.importance, record.source) == ("preference", 0.8, "chat")
    assert (record.agent_id, record.session_id, record.user_id) == ("planner", "s1", "ana")
    assert record.metadata == {"topic": "music", "weight": 2}
    assert record.has_embedding
    [hit] = memory.search_records("alpha jazz", 1)
    assert hit.id == memory_id and 0 < hit.score <= 1 and hit.found_by in ("both", "vector", "lexical")
    [vector_hit] = memory.search_records("alpha", 1, mode="vector")
    assert vector_hit.score == pytest.approx(1.0) and vector_hit.distance == pytest.approx(0.0, abs=1e-6)
    with pytest.raises(NotFoundError):
        memory.get("no-such-id")


def test_filters_apply_to_latest_search_and_recall(memory: Memory) -> None:
    memory.add_with(["alpha ana fact"], user_id="ana", memory_type="fact", importance=0.9)
    memory.add_with(["gamma bo fact"], user_id="bo", memory_type="episode", importance=0.2)
    assert [r.content for r in memory.get_latest_records(user_id="ana")] == ["single::alpha ana fact"]
    assert [h.content for h in memory.search_records("fact", 5, memory_type="episode")] == ["single::gamma bo fact"]
    assert [h.content for h in memory.search_records("fact", 5, min_importance=0.5)] == ["single::alpha ana fact"]
    recall = memory.recall("fact", 400, user_id="bo")
    assert "gamma bo fact" in recall.text and "ana" not in recall.text
    assert {item.reason for item in recall.items} >= {"core", "latest"}
    with pytest.raises(ValueError, match="importance"):
        memory.add_with(["alpha"], importance=2.0)
    with pytest.raises(TypeError, match="no_such_filter"):
        memory.get_latest_records(no_such_filter=1)


def test_recall_is_the_block_an_agent_reads(memory: Memory) -> None:
    memory.add(["alpha the user drinks green tea"])
    recall = memory.recall("what does alpha drink?", 300)
    assert "green tea" in recall.text and recall.tokens <= recall.budget == 300
    # A memory among the newest is not repeated among the relevant ones.
    assert [i.reason for i in recall.items] == ["core", "latest"]
    recall = memory.recall("what does alpha drink?", 300, latest=0)
    relevant = [i for i in recall.items if i.reason == "relevant"]
    assert relevant and relevant[0].score is not None


def test_recall_defaults_and_no_time_limit_are_the_core_s(memory: Memory) -> None:
    memory.add(["alpha the user drinks green tea"])
    recall = memory.recall("what does alpha drink?")
    assert recall.budget == _native.DEFAULT_RECALL_BUDGET == 800  # as the CLI, MCP and desktop
    # 0 is no limit, as on every surface: the search is waited for, not given up at once.
    recall = memory.recall("what does alpha drink?", latest=0, timeout_ms=0)
    assert [i.reason for i in recall.items if i.reason == "relevant"] == ["relevant"], recall
    assert recall.notice is None, recall.notice


def test_core_sections_locks_and_versions(memory: Memory, llm: StubLLMClient) -> None:
    memory.set_core_section("USER", "- Prefers tea.")
    memory.lock_section("user")
    assert memory.locked_sections() == ["USER"]
    memory.add(["alpha one"])  # the LLM proposes a core that rewrites USER
    sections = memory.core_sections()
    assert sections["USER"].strip() == "- Prefers tea."
    assert sections["RULE"].strip() == "Critical rule."
    authors = [v.author for v in memory.core_versions()]
    assert authors == ["llm", "user", "initial"]  # newest first
    memory.unlock_section("USER")
    assert memory.locked_sections() == []
    with pytest.raises(ValueError, match="SOUL, TOOLS, RULE or USER"):
        memory.set_core_section("NOTES", "x")


def test_direct_edits_are_changes_that_revert(memory: Memory) -> None:
    [memory_id] = memory.add_with(["alpha lives in Oslo"]).memory_ids
    edited = memory.update(memory_id, "alpha lives in Bergen", importance=0.7)
    [new_id] = edited.memory_ids
    assert memory.get(new_id).content == "alpha lives in Bergen"
    assert memory.get(new_id).importance == 0.7
    deleted = memory.delete(new_id)
    assert deleted.status == "committed"
    assert memory.get_latest(1, 10) == []
    memory.revert(deleted.changeset or 0)
    assert memory.get_latest(1, 10) == ["alpha lives in Bergen"]
    pinned = memory.pin(new_id)
    assert pinned.pinned and not memory.unpin(new_id).pinned


def test_forget_removes_the_text_for_good(memory: Memory, tmp_path: Path) -> None:
    memory.add(["alpha locker number is 4417"])
    memory.add(["beta two"])
    receipt = memory.forget(mentioning="4417")
    assert receipt.kind == "forget"
    assert memory.get_latest(1, 10) == ["single::beta two"]
    stored = b"".join(p.read_bytes() for p in (tmp_path / "db").iterdir() if p.is_file())
    assert b"4417" not in stored


def test_a_per_user_store_fails_closed(tmp_path: Path) -> None:
    memory, _ = build(tmp_path, scope="per_user")
    with pytest.raises(MemoryIsolationError):
        memory.add(["alpha one"])
    with pytest.raises(MemoryIsolationError):
        memory.search("alpha", 3)
    ann, bob = memory.for_user("ann"), memory.for_user("bob")
    ann.add(["alpha ann fact"])
    bob.add(["alpha bob fact"])
    assert ann.search("alpha", 5) == ["single::alpha ann fact"]
    assert bob.get_latest(1, 5) == ["single::alpha bob fact"]
    assert ann.user_id == "ann"
    receipt = memory.purge_user("ann")
    assert (receipt.memories, ann.get_latest(1, 5)) == (1, [])
    assert bob.get_latest(1, 5) == ["single::alpha bob fact"]
    again = Memory(tmp_path / "db", 3, KeywordEmbeddingClient(), StubLLMClient())
    with pytest.raises(MemoryIsolationError):
        again.get_latest(1, 5)  # the store stays per-user whatever a later open says


def test_agent_state_is_a_small_key_value_store(memory: Memory) -> None:
    assert memory.get_agent_state("planner", "step") is None
    memory.set_agent_state("planner", "step", {"n": 3, "todo": ["a"]})
    assert memory.get_agent_state("planner", "step") == {"n": 3, "todo": ["a"]}
    assert memory.list_agent_state("planner") == {"step": {"n": 3, "todo": ["a"]}}
    assert memory.delete_agent_state("planner", "step") is True
    assert memory.delete_agent_state("planner", "step") is False


def test_errors_carry_their_kind(memory: Memory) -> None:
    with pytest.raises(HaemaError) as raised:
        memory.changeset(999)
    assert raised.value.kind == "not_found" and isinstance(raised.value, LookupError)


def test_clients_run_off_the_callers_thread_and_calls_run_in_parallel(tmp_path: Path) -> None:
    barrier = threading.Barrier(2, timeout=20)
    first_two = threading.Semaphore(2)

    class Meeting(StubLLMClient):
        def generate_structured(self, system_prompt: str, user_prompt: str, response_model: type[Any]) -> dict[str, Any]:
            if response_model is MemoryReconstructionResponse and first_two.acquire(blocking=False):
                barrier.wait()  # both adds must be inside the engine at once
            return super().generate_structured(system_prompt, user_prompt, response_model)

    embedding = KeywordEmbeddingClient()
    memory = Memory(tmp_path / "db", 3, embedding, Meeting())
    errors: list[BaseException] = []

    def add(text: str) -> None:
        try:
            memory.add([text])
        except BaseException as error:  # noqa: BLE001 - the test reports it
            errors.append(error)

    threads = [threading.Thread(target=add, args=(t,)) for t in ("alpha one", "gamma two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert sorted(memory.get_latest(1, 10)) == ["single::alpha one", "single::gamma two"]
    assert threading.get_ident() not in embedding.threads


def test_a_python_thread_runs_while_the_engine_works(memory: Memory, llm: StubLLMClient) -> None:
    ticks = 0
    stop = threading.Event()

    def tick() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    for n in range(30):
        memory.add([f"alpha fact {n}"])
    ticker = threading.Thread(target=tick)
    ticker.start()
    started = time.monotonic()
    before = ticks
    for _ in range(20):
        memory.search("alpha fact", 10)
    stop.set()
    ticker.join()
    assert ticks > before, f"no Python ran during {time.monotonic() - started:.3f} s of searches"
