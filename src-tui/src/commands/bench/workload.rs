//! What a bench store holds and how it is built: synthetic facts with instant vectors, or
//! LoCoMo turns (repeated with small edits up to n) with the local model's vectors.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use haema_core::eval::Dataset;
use haema_core::provider::{Embedder, Llm};
use haema_core::{ImportItem, Memory, ReviewPolicy, SearchMode, Settings};

use super::synthetic::{self, InstantLlm, Rng, WordsEmbedder};
use crate::UsageError;
use crate::cli::BenchEmbedder;

/// Memories imported per transaction while building.
const BUILD_BATCH: usize = 20_000;

/// The texts and providers of a bench run.
pub struct Source {
    pub kind: BenchEmbedder,
    pub embedder: Arc<dyn Embedder>,
    /// LoCoMo turns (`--embedder local`); empty for synthetic facts.
    turns: Vec<String>,
    /// LoCoMo questions (`--embedder local`).
    questions: Vec<String>,
}

impl Source {
    pub async fn new(kind: BenchEmbedder, data: Option<&Path>) -> Result<Self> {
        match kind {
            BenchEmbedder::Synthetic => Ok(Self {
                kind,
                embedder: Arc::new(WordsEmbedder),
                turns: Vec::new(),
                questions: Vec::new(),
            }),
            BenchEmbedder::Local => {
                let data = data.map_or_else(|| PathBuf::from("../shared/data/locomo-dev"), Path::to_path_buf);
                let dataset = Dataset::read(&data).map_err(|e| {
                    UsageError(format!("{e}; --embedder local needs the LoCoMo turns: pass --data DIR"))
                })?;
                let turns: Vec<String> = dataset
                    .conversations
                    .iter()
                    .flat_map(|c| c.turns.iter().map(haema_core::eval::locomo::Turn::memory_text))
                    .collect();
                let questions = dataset
                    .conversations
                    .iter()
                    .flat_map(|c| c.queries.iter().map(|q| q.question.clone()))
                    .collect();
                if turns.is_empty() {
                    bail!(UsageError(format!("{} has no turns", data.display())));
                }
                let embedder = local_embedder().await?;
                Ok(Self {
                    kind,
                    embedder,
                    turns,
                    questions,
                })
            }
        }
    }

    pub fn label(&self) -> &'static str {
        match self.kind {
            BenchEmbedder::Synthetic => "synthetic",
            BenchEmbedder::Local => "local",
        }
    }

    /// Memory text number `i`.
    pub fn text(&self, i: usize) -> String {
        if self.turns.is_empty() {
            return synthetic::fact(i);
        }
        let turn = &self.turns[i % self.turns.len()];
        let round = i / self.turns.len();
        if round == 0 {
            return turn.clone();
        }
        // A small edit per round: drop, swap or add a word, and mark the copy.
        let mut words: Vec<&str> = turn.split_whitespace().collect();
        let at = (i * 7 + round * 3) % words.len().max(1);
        match round % 3 {
            1 if words.len() > 3 => {
                words.remove(at);
            }
            2 if words.len() > 1 => {
                let next = (at + 1) % words.len();
                words.swap(at, next);
            }
            _ => words.insert(at, "really"),
        }
        format!("{} ({round})", words.join(" "))
    }

    /// Queries that look like stored memories (another wording of a stored one).
    pub fn stored_queries(&self, n: usize, count: usize) -> Vec<String> {
        let mut rng = Rng::new(7);
        if self.questions.is_empty() {
            (0..count).map(|_| synthetic::fact(rng.below(n))).collect()
        } else {
            (0..count)
                .map(|k| self.questions[k * 7 % self.questions.len()].clone())
                .collect()
        }
    }

    /// Queries of a few random words.
    pub fn word_queries(&self, count: usize) -> Vec<String> {
        let mut rng = Rng::new(11);
        (0..count).map(|_| synthetic::random_words(&mut rng)).collect()
    }

    /// Settings of a bench store: defaults, every change committed without review.
    pub fn settings(&self) -> Settings {
        bench_settings()
    }

    /// Opens a bench store with this source's providers.
    pub async fn open(&self, dir: &Path) -> Result<Memory> {
        let llm: Arc<dyn Llm> = Arc::new(InstantLlm);
        Memory::open_with(dir, self.settings(), Some(llm), Some(Arc::clone(&self.embedder)))
            .await
            .with_context(|| format!("cannot open the bench store at {}", dir.display()))
    }
}

/// Default settings with every change committed without review.
fn bench_settings() -> Settings {
    Settings {
        review: ReviewPolicy::Auto,
        ..Settings::default()
    }
}

/// What building a store took.
pub struct Built {
    pub seconds: f64,
    /// The store of a previous run (`--work`) had the right size and was kept.
    pub reused: bool,
}

/// Makes the store of `n` memories in `dir` (kept when a previous run made it).
pub async fn build(source: &Source, dir: &Path, n: usize, mut progress: impl FnMut(usize)) -> Result<Built> {
    let started = Instant::now();
    let memory = source.open(dir).await?;
    let have = memory.info().await?.active;
    if have >= n {
        return Ok(Built {
            seconds: 0.0,
            reused: true,
        });
    }
    // Items the import skips (a repeated edit of a turn, already known) are made up for
    // with the next ones; a store left short by an earlier run is topped up the same way.
    let (mut have, mut next) = (have, have);
    while have < n {
        if next > n.saturating_mul(2).saturating_add(BUILD_BATCH) {
            bail!("the bench's texts ran out at {have} distinct memories of the {n} asked for");
        }
        let end = next + (n - have).min(BUILD_BATCH);
        let items = (next..end)
            .map(|i| ImportItem {
                content: source.text(i),
                timestamp_ms: None,
                // One memory in ten per agent, for the filtered searches.
                attributes: haema_core::MemoryAttributes {
                    agent_id: Some(format!("agent-{}", i % FILTER_AGENTS)),
                    ..Default::default()
                },
            })
            .collect();
        memory.import_items(items, "bench").await?;
        next = end;
        have = memory.info().await?.active;
        progress(have);
    }
    Ok(Built {
        seconds: started.elapsed().as_secs_f64(),
        reused: false,
    })
}

/// Agents the bench's memories are spread over (each writes one memory in this many).
pub const FILTER_AGENTS: usize = 10;

/// The local embedder of a new store's settings (defaults and `HAEMA_EMBED_*`), so that
/// `HAEMA_EMBED_MODEL` can name a model folder.
async fn local_embedder() -> Result<Arc<dyn Embedder>> {
    let settings = Settings::load(&std::env::temp_dir())?;
    super::super::model::build_embedder(&settings)
        .await?
        .context("no embedder is configured; unset HAEMA_EMBEDDER=none to use the local model")
}

/// The child side of "open a store in a new process": opens the store, runs one hybrid
/// search and prints `{"rss_mb": …}`.
pub async fn probe_open(dir: &Path, kind: BenchEmbedder, query: &str) -> Result<()> {
    let embedder: Arc<dyn Embedder> = match kind {
        BenchEmbedder::Synthetic => Arc::new(WordsEmbedder),
        BenchEmbedder::Local => local_embedder().await?,
    };
    let llm: Arc<dyn Llm> = Arc::new(InstantLlm);
    let memory = Memory::open_with(dir, bench_settings(), Some(llm), Some(embedder)).await?;
    let hits = memory.search_records(query, 10, SearchMode::Hybrid).await?;
    println!(
        "{}",
        serde_json::json!({ "hits": hits.hits.len(), "rss_mb": super::measure::peak_rss_mb() })
    );
    Ok(())
}
