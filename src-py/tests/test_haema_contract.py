"""HAEMA's documented behaviour, as a HAEMA program sees it through ``haema_rs``
(../shared/reference/haema-behaviour.md: constructor checks, add's normalisation, one
reconstruction with one refine and a fallback, one core update per add, get_latest and
search edge cases, retry semantics, return types)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from conftest import BrokenLLMClient, KeywordEmbeddingClient, StubLLMClient
from pydantic import ValidationError

from haema_rs import EmbeddingClient, Memory
from haema_rs.schemas import CoreUpdateResponse, MemoryReconstructionResponse, PreMemorySplitResponse


def build(tmp_path: Path, llm: StubLLMClient | None = None, embedding: EmbeddingClient | None = None) -> Memory:
    return Memory(
        path=tmp_path / "db",
        output_dimensionality=3,
        embedding_client=embedding or KeywordEmbeddingClient(),
        llm_client=llm or StubLLMClient(),
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"output_dimensionality": 0}, "output_dimensionality"),
        ({"output_dimensionality": -3}, "output_dimensionality"),
        ({"merge_top_k": 0}, "merge_top_k"),
        ({"merge_distance_cutoff": -0.1}, "merge_distance_cutoff"),
    ],
)
def test_constructor_checks_come_before_the_disk(tmp_path: Path, kwargs: dict[str, float], message: str) -> None:
    args = {
        "path": tmp_path / "store",
        "output_dimensionality": 3,
        "embedding_client": KeywordEmbeddingClient(),
        "llm_client": StubLLMClient(),
    }
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        Memory(**args)  # type: ignore[arg-type]
    assert not (tmp_path / "store").exists()


def test_a_new_store_has_the_four_sections_and_the_defaults(tmp_path: Path) -> None:
    memory = build(tmp_path)
    assert (tmp_path / "db" / "core.md").exists()
    assert (memory.merge_top_k, memory.merge_distance_cutoff, memory.output_dimensionality) == (3, 0.25, 3)
    core = memory.get_core()
    assert core == "# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n"
    assert memory.review == "auto"  # HAEMA's behaviour: changes apply at once


def test_add_returns_none_and_stores_what_reconstruction_gives(memory: Memory, llm: StubLLMClient) -> None:
    llm.reconstruction_responses = [
        {"memories": ["user prefers terse answers", "user focuses on memory quality"], "coverage": "complete"}
    ]
    assert memory.add(["User prefers terse answers. User focuses on memory quality."]) is None  # type: ignore[func-returns-value]
    records = memory.get_latest_records(1, 10)
    assert sorted(r.content for r in records) == ["user focuses on memory quality", "user prefers terse answers"]
    assert records[0].timestamp.endswith("Z")
    assert isinstance(records[0].timestamp_ms, int)


def test_related_memories_are_replaced_once_by_the_merge(memory: Memory, llm: StubLLMClient) -> None:
    memory.add(["alpha seed"])
    llm.reconstruction_responses = [{"memories": ["merged alpha A", "merged alpha B"], "coverage": "complete"}]
    memory.add(["alpha next one", "alpha next two"])
    assert sorted(memory.get_latest(1, 10)) == ["merged alpha A", "merged alpha B"]
    change = memory.changeset(memory.history(1)[0].id)
    # The one related memory appears once although both new contents found it.
    assert [r.content for r in change.related] == ["single::alpha seed"]
    assert not change.related[0].kept


def test_all_new_contents_go_into_one_reconstruction_prompt(memory: Memory, llm: StubLLMClient) -> None:
    memory.add(["alpha seed"])
    llm.reconstruction_responses = [{"memories": ["merged from mixed input"], "coverage": "complete"}]
    memory.add(["alpha update", "beta separate"])
    final_prompt = llm.reconstruction_user_prompts[-1]
    assert "- alpha update" in final_prompt
    assert "- beta separate" in final_prompt
    assert "- single::alpha seed" in final_prompt


def test_an_incomplete_reconstruction_is_refined_once(memory: Memory, llm: StubLLMClient) -> None:
    llm.reconstruction_responses = [
        {"memories": ["collapsed memory"], "coverage": "incomplete"},
        {"memories": ["expanded memory A", "expanded memory B"], "coverage": "complete"},
    ]
    memory.add(["alpha one", "beta two"])
    assert sorted(memory.get_latest(1, 10)) == ["expanded memory A", "expanded memory B"]
    assert llm.reconstruction_call_count == 2


def test_a_failed_reconstruction_falls_back_to_the_contents(memory: Memory, llm: StubLLMClient) -> None:
    llm.failures_left[MemoryReconstructionResponse] = 6
    memory.add(["beta fallback"])
    assert memory.get_latest(1, 10) == ["beta fallback"]
    # Three attempts, then the refine's three, as HAEMA makes them.
    assert llm.failures_left[MemoryReconstructionResponse] == 0
    assert llm.reconstruction_call_count == 0


def test_the_fallback_keeps_the_related_memories(memory: Memory, llm: StubLLMClient) -> None:
    # HAEMA deletes them here (its bug 1): haema keeps every related fact.
    memory.add(["alpha likes green tea and hates coffee"])
    llm.failures_left[MemoryReconstructionResponse] = 6
    llm.failure = TimeoutError
    memory.add(["alpha likes green tea every morning"])
    assert sorted(memory.get_latest(1, 10)) == [
        "alpha likes green tea every morning",
        "single::alpha likes green tea and hates coffee",
    ]


def test_core_update_runs_once_per_add_and_is_written(memory: Memory, llm: StubLLMClient, tmp_path: Path) -> None:
    llm.core_markdown = "# SOUL\nUpdated once.\n\n# TOOLS\nUpdated once.\n\n# RULE\nUpdated once.\n\n# USER\nUpdated once.\n"
    memory.add(["alpha one", "beta two"])
    assert llm.core_call_count == 1
    assert "Updated once." in memory.get_core()
    assert "Updated once." in (tmp_path / "db" / "core.md").read_text()


def test_core_is_left_alone_when_the_model_says_so(memory: Memory, llm: StubLLMClient) -> None:
    llm.core_should_update = False
    memory.add(["alpha one"])
    assert llm.core_call_count == 1
    assert memory.get_core() == "# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n"


def test_a_core_answer_without_markdown_is_retried_then_dropped(memory: Memory, llm: StubLLMClient) -> None:
    llm.core_markdown = None  # should_update true without markdown: a ValidationError
    memory.add(["alpha one"])
    assert llm.core_call_count == 3
    assert memory.get_core() == "# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n"
    assert memory.get_latest(1, 1) == ["single::alpha one"]


def test_get_latest_is_newest_first_and_one_based(memory: Memory) -> None:
    memory.add(["alpha one"])
    memory.add(["beta two"])
    memory.add(["gamma three"])
    assert memory.get_latest(begin=1, count=2) == ["single::gamma three", "single::beta two"]
    assert memory.get_latest(begin=3, count=5) == ["single::alpha one"]
    assert memory.get_latest(begin=10, count=2) == []
    assert memory.get_latest(begin=1, count=0) == []
    assert memory.get_latest(begin=1, count=-1) == []
    with pytest.raises(ValueError, match="begin"):
        memory.get_latest(begin=0, count=1)
    with pytest.raises(ValueError, match="begin"):
        memory.get_latest(begin=0, count=0)  # begin is checked first


def test_get_latest_leaves_out_replaced_memories(memory: Memory, llm: StubLLMClient) -> None:
    memory.add(["alpha seed"])
    llm.reconstruction_responses = [{"memories": ["merged alpha A"], "coverage": "complete"}]
    memory.add(["alpha next"])
    assert memory.get_latest(1, 10) == ["merged alpha A"]


def test_search_ranks_nearest_first_with_one_query_embedding(memory: Memory, embedding: KeywordEmbeddingClient) -> None:
    memory.add(["alpha one"])
    memory.add(["beta two"])
    memory.add(["gamma three"])
    before = embedding.query_calls
    result = memory.search("alpha query", 2)
    assert len(result) == 2
    assert result[0] == "single::alpha one"
    assert embedding.query_calls == before + 1
    assert memory.search("alpha", 10)[0] == "single::alpha one"
    assert len(memory.search("alpha", 10)) == 3  # n past the store: all of it


def test_search_with_n_below_one_embeds_nothing(memory: Memory, embedding: KeywordEmbeddingClient) -> None:
    memory.add(["alpha one"])
    before = embedding.query_calls
    assert memory.search("alpha", 0) == []
    assert memory.search("alpha", -2) == []
    assert embedding.query_calls == before


def test_an_add_embeds_once_as_queries_and_once_as_documents(memory: Memory, embedding: KeywordEmbeddingClient) -> None:
    memory.add(["alpha one", "beta two", "gamma three"])
    assert (embedding.query_calls, embedding.document_calls) == (1, 1)


def test_a_text_is_split_first(tmp_path: Path) -> None:
    llm = StubLLMClient()
    llm.split_responses = [{"contents": ["alpha first.", "beta second.", "gamma third."]}]
    llm.reconstruction_responses = [{"memories": ["m1", "m2", "m3"], "coverage": "complete"}]
    embedding = KeywordEmbeddingClient()
    memory = build(tmp_path, llm, embedding)
    memory.add("alpha first.\n- beta second.\n3) gamma third.")
    assert embedding.last_query_texts == ["alpha first.", "beta second.", "gamma third."]
    assert llm.split_call_count == 1
    final_prompt = llm.reconstruction_user_prompts[-1]
    for item in ("- alpha first.", "- beta second.", "- gamma third."):
        assert item in final_prompt


def test_even_a_short_text_is_split_as_haema_does(memory: Memory, llm: StubLLMClient) -> None:
    memory.add("  alpha one.  ")
    assert llm.split_call_count == 1
    assert memory.get_latest(1, 1) == ["single::alpha one."]


def test_a_failed_split_keeps_the_stripped_text(tmp_path: Path) -> None:
    llm = StubLLMClient()
    llm.failures_left[PreMemorySplitResponse] = 3
    embedding = KeywordEmbeddingClient()
    memory = build(tmp_path, llm, embedding)
    memory.add("  alpha one. beta two.  ")
    assert embedding.last_query_texts == ["alpha one. beta two."]
    assert llm.split_call_count == 0  # three failed attempts, then the text as it is


def test_a_split_is_deduplicated_but_a_list_is_not_split(memory: Memory, llm: StubLLMClient) -> None:
    llm.split_responses = [{"contents": [" alpha a ", "alpha a", "", "beta b"]}]
    llm.reconstruction_responses = [{"memories": ["x"], "coverage": "complete"}]
    memory.add("alpha a; beta b")
    assert "- alpha a\n- beta b\n" in llm.reconstruction_user_prompts[-1]
    memory.add(["gamma c", "  ", "gamma d"])
    assert llm.split_call_count == 1
    assert "- gamma c\n- gamma d\n" in llm.reconstruction_user_prompts[-1]


@pytest.mark.parametrize("empty", ["", "   \n\t", [], ["", "  "], ()])
def test_empty_input_does_nothing(memory: Memory, llm: StubLLMClient, embedding: KeywordEmbeddingClient, empty: object) -> None:
    assert memory.add(empty) is None  # type: ignore[arg-type, func-returns-value]
    assert (llm.split_call_count, llm.reconstruction_call_count, llm.core_call_count) == (0, 0, 0)
    assert embedding.query_calls == 0
    assert memory.get_latest(1, 10) == []


def test_any_iterable_of_texts_is_a_list(memory: Memory) -> None:
    memory.add(("alpha one",))
    memory.add(text for text in ["beta two"])
    assert memory.get_latest(1, 10) == ["single::beta two", "single::alpha one"]


@pytest.mark.parametrize("bad", [["alpha", 3], [None], [b"alpha"]])
def test_an_item_that_is_not_a_text_is_a_type_error(memory: Memory, bad: list[object]) -> None:
    with pytest.raises(TypeError, match="contents must be str or list\\[str\\]"):
        memory.add(bad)  # type: ignore[arg-type]
    assert memory.get_latest(1, 10) == []


def test_none_is_a_type_error(memory: Memory) -> None:
    with pytest.raises(TypeError):
        memory.add(None)  # type: ignore[arg-type]


def test_a_non_retryable_llm_error_propagates_and_stores_nothing(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "db", 3, KeywordEmbeddingClient(), BrokenLLMClient())
    with pytest.raises(AttributeError, match="broken llm client implementation"):
        memory.add(["alpha one"])
    assert memory.get_latest(1, 10) == []
    assert memory.history() == []


def test_a_non_retryable_error_in_the_core_stage_stores_nothing(memory: Memory, llm: StubLLMClient) -> None:
    llm.failures_left[CoreUpdateResponse] = 1
    llm.failure = KeyError
    with pytest.raises(KeyError):
        memory.add(["alpha one"])
    # HAEMA has already written the memories here (its bug 4); haema writes at the end.
    assert memory.get_latest(1, 10) == []


@pytest.mark.parametrize("error", [ValueError, TypeError, ConnectionError, TimeoutError, OSError])
def test_retryable_errors_are_tried_three_times(memory: Memory, llm: StubLLMClient, error: type[Exception]) -> None:
    llm.failure = error
    llm.failures_left[CoreUpdateResponse] = 2
    memory.add(["alpha one"])
    assert llm.core_call_count == 1  # the third attempt answered
    assert "Critical rule." in memory.get_core()


class WrongShape(EmbeddingClient):
    def __init__(self, answer: object) -> None:
        self.answer = answer

    def embed_query(self, texts: list[str], output_dimensionality: int) -> object:  # type: ignore[override]
        return self.answer

    def embed_document(self, texts: list[str], output_dimensionality: int) -> object:  # type: ignore[override]
        return self.answer


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (np.zeros(3, dtype=np.float32), "2D"),
        (np.ones((2, 3), dtype=np.float32), "row count"),
        (np.ones((1, 4), dtype=np.float32), "dimension"),
    ],
)
def test_a_wrong_shape_is_a_value_error_and_nothing_is_stored(tmp_path: Path, answer: object, message: str) -> None:
    memory = build(tmp_path, embedding=WrongShape(answer))
    with pytest.raises(ValueError, match=message):
        memory.add(["alpha one"])
    with pytest.raises(ValueError, match=message):
        memory.search("alpha", 1)
    assert memory.get_latest(1, 10) == []


def test_a_list_of_lists_is_accepted_as_float32(tmp_path: Path) -> None:
    memory = build(tmp_path, embedding=WrongShape([[0.5, 0.5, 0.0]]))
    memory.add(["alpha one"])
    assert memory.search("anything", 1) == ["single::alpha one"]


def test_schemas_are_haemas() -> None:
    parsed = MemoryReconstructionResponse.model_validate({"memories": ["m1", "m2"], "coverage": "complete"})
    assert (parsed.memories, parsed.coverage) == (["m1", "m2"], "complete")
    with pytest.raises(ValidationError):
        MemoryReconstructionResponse.model_validate({"memories": ["m1"], "coverage": "partial"})
    with pytest.raises(ValidationError):
        CoreUpdateResponse.model_validate({"should_update": True, "core_markdown": None})
    assert CoreUpdateResponse.model_validate({"should_update": False}).core_markdown is None
    assert PreMemorySplitResponse.model_validate({"contents": ["a"], "extra": 1}).contents == ["a"]


def test_public_api_return_types(memory: Memory) -> None:
    add_result = memory.add(["alpha one"])  # type: ignore[func-returns-value]
    assert add_result is None
    assert isinstance(memory.get_core(), str)
    latest = memory.get_latest(begin=1, count=10)
    assert isinstance(latest, list) and all(isinstance(item, str) for item in latest)
    found = memory.search("alpha query", 1)
    assert isinstance(found, list) and all(isinstance(item, str) for item in found)


def test_a_store_comes_back_after_reopening(tmp_path: Path) -> None:
    first = build(tmp_path)
    first.add(["alpha one"])
    first.close()
    again = build(tmp_path)
    assert again.get_latest(1, 10) == ["single::alpha one"]
    assert again.search("alpha", 1) == ["single::alpha one"]


def test_reopening_with_another_dimension_is_refused_at_once(tmp_path: Path) -> None:
    build(tmp_path).add(["alpha one"])

    class Wide(KeywordEmbeddingClient):
        def _embed(self, texts: Sequence[str], output_dimensionality: int) -> np.ndarray:
            return np.ones((len(texts), output_dimensionality), dtype=np.float32)

    with pytest.raises(ValueError, match="3 dims"):
        Memory(tmp_path / "db", 8, Wide(), StubLLMClient())
