//! Retrieval evaluation on LoCoMo through the public [`Memory`] API, so that it measures
//! exactly the search users get: one real store per conversation, each turn imported as a
//! memory (`speaker: text`) with its session's date as its time, no LLM, then
//! [`Memory::search_records`] with the mode asked for.

#[cfg(feature = "bench")]
pub mod bench;
pub mod llm_cost;
pub mod locomo;
pub mod metrics;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use crate::provider::Embedder;
use crate::{config::Settings, error::Result, memory::Memory, transfer::ImportItem, types::SearchMode};
pub use locomo::{Conversation, Dataset, Query, Turn};
pub use metrics::{Scores, Tally};

/// The categories scored: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop.
/// Category 5 (adversarial: the answer is not in the conversation) is left out.
pub const CATEGORIES: [u8; 4] = [1, 2, 3, 4];

/// LoCoMo's name of a category.
///
/// ```
/// use haema_core::eval::{CATEGORIES, category_name};
/// assert_eq!(CATEGORIES.map(category_name), ["multi-hop", "temporal", "open-domain", "single-hop"]);
/// ```
pub fn category_name(category: u8) -> &'static str {
    match category {
        1 => "multi-hop",
        2 => "temporal",
        3 => "open-domain",
        4 => "single-hop",
        5 => "adversarial",
        _ => "unknown",
    }
}

/// How to run the evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalOptions {
    /// The search mode.
    pub mode: SearchMode,
    /// Hits asked of each search (at least 10, for recall@10); MRR is computed over them.
    pub k: usize,
}

impl Default for EvalOptions {
    fn default() -> Self {
        Self {
            mode: SearchMode::Hybrid,
            k: 10,
        }
    }
}

/// The figures of one category.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CategoryScores {
    /// 1 to 4.
    pub category: u8,
    /// LoCoMo's name for it.
    pub name: &'static str,
    /// Its figures.
    #[serde(flatten)]
    pub scores: Scores,
}

/// What an evaluation measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalReport {
    /// The mode asked for.
    pub mode: SearchMode,
    /// Hits asked of each search.
    pub k: usize,
    /// Conversations (one store each).
    pub conversations: usize,
    /// Memories imported in all stores.
    pub memories: usize,
    /// Categories 1 to 4, in order.
    pub categories: Vec<CategoryScores>,
    /// All scored queries of categories 1 to 4.
    pub overall: Scores,
    /// Queries of categories 1 to 4 without evidence (not scored).
    pub unscored: usize,
    /// Median time of one `search_records` call, milliseconds (query embedding included).
    pub search_ms_median: f64,
    /// Set when a search ran in another mode than asked for, saying why.
    pub notice: Option<String>,
}

/// Where the evaluation is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// Importing (and embedding) the turns of conversation `index` (0-based) of `of`.
    Importing {
        /// The conversation id.
        conversation: String,
        /// Its position.
        index: usize,
        /// Conversations in all.
        of: usize,
        /// Turns embedded so far.
        done: usize,
        /// Turns to embed.
        total: usize,
    },
    /// Searching: `done` of `total` questions of conversation `index`.
    Searching {
        /// The conversation id.
        conversation: String,
        /// Its position.
        index: usize,
        /// Conversations in all.
        of: usize,
        /// Questions searched.
        done: usize,
        /// Questions to search.
        total: usize,
    },
}

/// Runs the evaluation: a store per conversation in a new folder under `work_dir`, opened
/// with `settings` and `embedder` (`None`: a lexical-only store; `--mode lexical` needs no
/// embedder), the turns imported, every question of categories 1–4 searched.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use haema_core::eval::{Dataset, EvalOptions, run_locomo};
/// use haema_core::{SearchMode, Settings};
///
/// let turns = r#"{"conv": "c1", "dia_id": "D1:1", "session_date": "1:56 pm on 8 May, 2023", "speaker": "Ana", "text": "I adopted a cat named Miso."}
/// {"conv": "c1", "dia_id": "D1:2", "session_date": "1:56 pm on 8 May, 2023", "speaker": "Bo", "text": "I am training for a marathon."}"#;
/// let queries = r#"{"conv": "c1", "question": "What is the name of Ana's cat?", "category": 4, "evidence": ["D1:1"]}"#;
/// let data = Dataset::parse("turns.jsonl", turns, "queries.jsonl", queries)?;
/// let work = tempfile::tempdir()?;
/// let options = EvalOptions { mode: SearchMode::Lexical, k: 10 };
/// let report = run_locomo(&data, &Settings::default(), None, work.path(), options, |_| {}).await?;
/// assert_eq!((report.overall.queries, report.overall.r10), (1, 100.0));
/// # Ok(()) }
/// ```
pub async fn run_locomo(
    data: &Dataset,
    settings: &Settings,
    embedder: Option<Arc<dyn Embedder>>,
    work_dir: &Path,
    options: EvalOptions,
    mut progress: impl FnMut(Progress) + Send,
) -> Result<EvalReport> {
    let depth = options.k.max(10);
    let of = data.conversations.len();
    let mut tallies: HashMap<u8, Tally> = HashMap::new();
    let (mut unscored, mut memories, mut notice, mut times) = (0, 0, None, Vec::new());
    for (index, conversation) in data.conversations.iter().enumerate() {
        // Lexical-only stores and stores with vectors cannot be opened as each other.
        let kind = if embedder.is_some() { "vectors" } else { "lexical-only" };
        let dir = work_dir.join(kind).join(format!("conversation-{index}"));
        let memory = Memory::open_with(&dir, settings.clone(), None, embedder.clone()).await?;
        let ids_of = import_turns(&memory, conversation, |done, total| {
            progress(Progress::Importing {
                conversation: conversation.id.clone(),
                index,
                of,
                done,
                total,
            });
        })
        .await?;
        memories += ids_of.len();
        let queries: Vec<&Query> = conversation
            .queries
            .iter()
            .filter(|q| CATEGORIES.contains(&q.category))
            .collect();
        for (done, query) in queries.iter().enumerate() {
            progress(Progress::Searching {
                conversation: conversation.id.clone(),
                index,
                of,
                done,
                total: queries.len(),
            });
            if query.evidence.is_empty() {
                unscored += 1;
                continue;
            }
            let started = Instant::now();
            let results = memory
                .search_records(&query.question, i64::try_from(depth).unwrap_or(i64::MAX), options.mode)
                .await?;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            if notice.is_none() {
                notice = results.notice;
            }
            let ranked: Vec<Vec<&str>> = results
                .hits
                .iter()
                .take(depth)
                .map(|h| {
                    ids_of
                        .get(&h.memory.content)
                        .map(|ids| ids.iter().map(String::as_str).collect())
                        .unwrap_or_default()
                })
                .collect();
            let gold: HashSet<String> = query.evidence.iter().cloned().collect();
            tallies
                .entry(query.category)
                .or_default()
                .add(metrics::first_hit(&ranked, &gold));
        }
    }
    let mut overall = Tally::default();
    let categories = CATEGORIES
        .iter()
        .map(|&category| {
            let tally = tallies.get(&category).copied().unwrap_or_default();
            overall.merge(&tally);
            CategoryScores {
                category,
                name: category_name(category),
                scores: tally.scores(),
            }
        })
        .collect();
    times.sort_by(f64::total_cmp);
    Ok(EvalReport {
        mode: options.mode,
        k: depth,
        conversations: of,
        memories,
        categories,
        overall: overall.scores(),
        unscored,
        search_ms_median: times.get(times.len() / 2).copied().unwrap_or(0.0),
        notice,
    })
}

/// Imports the turns as memories with their session times, as `haema import` does with a
/// JSONL file of timestamped memories. Returns the turn ids of each memory text (turns
/// with the same text become one memory).
async fn import_turns(
    memory: &Memory,
    conversation: &Conversation,
    progress: impl FnMut(usize, usize) + Send,
) -> Result<HashMap<String, Vec<String>>> {
    let mut ids_of: HashMap<String, Vec<String>> = HashMap::new();
    let mut items = Vec::with_capacity(conversation.turns.len());
    for turn in &conversation.turns {
        let content = turn.memory_text();
        ids_of.entry(content.clone()).or_default().push(turn.dia_id.clone());
        items.push(ImportItem {
            content,
            timestamp_ms: locomo::session_time_ms(&turn.session_date),
            ..Default::default()
        });
    }
    memory
        .import_items_with_progress(items, &format!("locomo {}", conversation.id), progress)
        .await?;
    Ok(ids_of)
}
