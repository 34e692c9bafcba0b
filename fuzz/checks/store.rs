//! Targets that go through a real store: an add whose LLM answers with the fuzzer's text,
//! and the importers (JSONL / mem0 lists and haema's own export), each followed by the reads
//! that show what was stored.

use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use haema_core::fuzzing::extract_object;
use haema_core::provider::{Llm, ProviderError, ProviderErrorKind, StructuredRequest};
use haema_core::{
    AddInput, AddStatus, ChangesetFilter, CoreSections, ImportItem, Memory, MemoryRecord, Record, SearchMode, Section,
    Settings, format_utc, is_export, parse_items, parse_time,
};
use serde_json::Value;

use super::{SCRATCH, block_on};

/// Inputs a scratch store takes before it is made again.
const INPUTS_PER_STORE: usize = 50;

/// A store in a temporary folder, reused for a few inputs.
pub(crate) struct Scratch {
    _dir: tempfile::TempDir,
    memory: Memory,
    answer: Arc<Mutex<String>>,
    uses: usize,
}

/// An LLM that answers every stage with the JSON object in one text, as a provider would
/// find it in a model's message (no object: an unusable answer).
struct Answering(Arc<Mutex<String>>);

#[async_trait]
impl Llm for Answering {
    fn id(&self) -> String {
        "fuzz:answer".into()
    }

    async fn generate_structured(&self, _request: StructuredRequest<'_>) -> Result<Value, ProviderError> {
        let text = self.0.lock().unwrap_or_else(PoisonError::into_inner).clone();
        extract_object(&text)
            .ok_or_else(|| ProviderError::new("fuzz:answer", ProviderErrorKind::BadAnswer, "no JSON object"))
    }
}

/// A new store in a temporary folder (no embedder: memories are found by words), with an
/// LLM that answers from `answer`.
async fn fresh(answer: &Arc<Mutex<String>>) -> (tempfile::TempDir, Memory) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let llm: Arc<dyn Llm> = Arc::new(Answering(Arc::clone(answer)));
    let memory = Memory::open_with(dir.path(), Settings::default(), Some(llm), None)
        .await
        .expect("a new store opens");
    (dir, memory)
}

/// This thread's scratch store for `purpose`, made (and seeded by `seed`) when missing or
/// used up; `answer` is what its LLM answers next.
fn scratch(
    purpose: &'static str,
    answer: &str,
    seed: fn(&Memory) -> std::pin::Pin<Box<dyn Future<Output = ()> + '_>>,
) -> (Memory, usize) {
    SCRATCH.with(|cell| {
        let mut map = cell.borrow_mut();
        if map.get(purpose).is_none_or(|s| s.uses >= INPUTS_PER_STORE) {
            map.remove(purpose);
            let slot = Arc::new(Mutex::new(String::new()));
            let (dir, memory) = block_on(fresh(&slot));
            block_on(seed(&memory));
            map.insert(
                purpose,
                Scratch {
                    _dir: dir,
                    memory,
                    answer: slot,
                    uses: 0,
                },
            );
        }
        let current = map.get_mut(purpose).expect("made above");
        current.uses += 1;
        answer.clone_into(&mut current.answer.lock().unwrap_or_else(PoisonError::into_inner));
        (current.memory.clone(), current.uses)
    })
}

fn seed_memories(memory: &Memory) -> std::pin::Pin<Box<dyn Future<Output = ()> + '_>> {
    Box::pin(async move {
        let items = [
            "The user likes green tea in the morning",
            "The user's sister is called Ana",
            "The user lives in Porto",
        ]
        .map(|content| ImportItem {
            content: content.into(),
            ..ImportItem::default()
        });
        memory
            .import_items(items.to_vec(), "seed")
            .await
            .expect("seed memories");
        memory
            .replace_core("# SOUL\n\nA careful assistant.\n\n# TOOLS\n\n# RULE\n\n- Never share the address.\n\n# USER\n\n- Likes tea.\n")
            .await
            .expect("seed core");
        memory.set_section_lock(Section::Rule, true).await.expect("lock RULE");
    })
}

fn no_seed(_: &Memory) -> std::pin::Pin<Box<dyn Future<Output = ()> + '_>> {
    Box::pin(async {})
}

/// An add whose LLM answers every stage (split, reconstruct, refine, core update) with the
/// fuzzer's text; then the change is approved if it waits, or reverted if it went in, so
/// commit, revert and core rendering see what the model made.
pub fn add_with_answer(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (memory, uses) = scratch("add_with_answer", &text, seed_memories);
    block_on(async {
        // Not one short fact, so the split stage runs too; the words meet the seeds.
        let input = if uses % 2 == 0 {
            AddInput::Text(
                "The user moved from Porto to Lisbon, and now drinks green tea at night; their sister Ana visits."
                    .into(),
            )
        } else {
            AddInput::Items(vec!["The user now drinks green tea at night".into()])
        };
        let Ok(outcome) = memory.add(input).await else {
            return;
        };
        if let Some(id) = outcome.changeset {
            let _ = match outcome.status {
                AddStatus::Pending | AddStatus::Stale => memory.approve(id).await,
                AddStatus::Committed => memory.revert(id).await,
                _ => memory.changeset(id).await,
            };
        }
        read_back(&memory, "green tea").await;
        if let Ok(core) = memory.get_core().await {
            assert!(
                CoreSections::parse(&core).is_ok(),
                "core.md keeps its four sections whatever the model answers:\n{core}"
            );
        }
    });
}

/// A list of items as `haema import` reads it (JSONL, mem0's JSON, a JSON list), then
/// imported into a store and read back.
pub fn import_items(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        // `import` refuses a file that is not UTF-8 before parsing it.
        return;
    };
    for line in text.lines() {
        let _ = parse_time(line);
    }
    if is_export(text) {
        return;
    }
    let Ok(items) = parse_items(text) else {
        return;
    };
    for item in &items {
        assert_eq!(item.content.trim(), item.content, "an item's text is trimmed");
        if let Some(ts) = item.timestamp_ms {
            let _ = format_utc(ts);
        }
    }
    let (memory, _) = scratch("import_items", "", no_seed);
    block_on(async {
        if memory.import_text("fuzz.jsonl", text, |_, _| {}).await.is_err() {
            return;
        }
        let query = items.first().map_or("", |i| i.content.as_str());
        read_back(&memory, query).await;
    });
}

/// haema's own export as `haema import` reads it: the header test, every line as a record,
/// and an export that passes them imported into a new store, read back and exported again.
pub fn import_export(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.lines() {
        let _ = serde_json::from_str::<Record>(line);
    }
    if !is_export(text) {
        return;
    }
    block_on(async {
        let (_dir, memory) = fresh(&Arc::default()).await;
        if memory.import_text("fuzz.jsonl", text, |_, _| {}).await.is_err() {
            return;
        }
        read_back(&memory, "the").await;
        let _ = memory.changesets(ChangesetFilter::All).await;
        let _ = memory.core_versions().await;
        let mut again = Vec::new();
        if memory.export_jsonl(&mut again).await.is_ok() {
            let again = String::from_utf8(again).expect("an export is UTF-8");
            assert!(is_export(&again), "an export starts with its header");
        }
    });
}

/// The reads every front end makes of what was stored: latest, search, recall, history,
/// the Markdown export.
async fn read_back(memory: &Memory, query: &str) {
    if let Ok(records) = memory.get_latest_records(1, 20).await {
        records.iter().for_each(shown);
    }
    for mode in [SearchMode::Hybrid, SearchMode::Lexical] {
        let _ = memory.search_records(query, 5, mode).await;
    }
    let _ = memory.recall(query, 300).await;
    let _ = memory.changeset_summaries(None, 20).await;
    let mut markdown = Vec::new();
    let _ = memory.export_markdown(&mut markdown).await;
}

fn shown(record: &MemoryRecord) {
    let _ = format_utc(record.timestamp_ms);
}
