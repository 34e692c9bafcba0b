//! Search latency in a warm process: `search_records` end to end (the query embedded by the
//! local all-MiniLM-L6-v2 included) on a 10,000-memory store, per mode, median and p95 of
//! 200 LoCoMo questions. Memory texts are LoCoMo turns (or built sentences when the data is
//! not beside the repository); their vectors are pseudo-random unit vectors, which cost the
//! exact KNN scan the same as real ones and save embedding 10,000 texts.
//! Prints one JSON object. Run: `cargo bench -p haema-tests --bench search`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use haema_core::provider::local::LocalEmbedder;
use haema_core::provider::{Embedder, ProviderError};
use haema_core::{ImportItem, Memory, SearchMode, Settings};
use serde_json::Value;

/// The allocator the `haema` binary uses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const MEMORIES: usize = 10_000;

/// The real model for queries; pseudo-random vectors for memories.
struct QueryModel(LocalEmbedder);

#[async_trait]
impl Embedder for QueryModel {
    fn id(&self) -> String {
        self.0.id()
    }
    fn dims(&self) -> usize {
        self.0.dims()
    }
    async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.0.embed_query(texts).await
    }
    async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        let dims = self.dims();
        Ok(texts
            .iter()
            .map(|t| {
                let mut state = t.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
                });
                let v: Vec<f32> = (0..dims)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        (state % 2001) as f32 / 1000.0 - 1.0
                    })
                    .collect();
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                v.into_iter().map(|x| x / norm).collect()
            })
            .collect())
    }
}

fn jsonl(path: PathBuf) -> Vec<Value> {
    std::fs::read_to_string(path)
        .map(|t| t.lines().filter_map(|l| serde_json::from_str(l).ok()).collect())
        .unwrap_or_default()
}

/// Memory texts and questions: LoCoMo's when it is there.
fn corpus() -> (Vec<String>, Vec<String>) {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/locomo-dev");
    let turns: Vec<String> = jsonl(data.join("turns.jsonl"))
        .iter()
        .map(|t| {
            format!(
                "{}: {}",
                t["speaker"].as_str().unwrap_or(""),
                t["text"].as_str().unwrap_or("")
            )
        })
        .collect();
    let questions: Vec<String> = jsonl(data.join("queries.jsonl"))
        .iter()
        .filter_map(|q| q["question"].as_str().map(str::to_owned))
        .take(200)
        .collect();
    if !turns.is_empty() && !questions.is_empty() {
        return (turns, questions);
    }
    let base: Vec<String> = (0..500)
        .map(|i| format!("The user mentioned fact number {i} about tea, Busan and the cat Miso."))
        .collect();
    let questions = (0..200)
        .map(|i| format!("What did the user say about fact {i}?"))
        .collect();
    (base, questions)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let Some(dir) = std::env::var_os("HAEMA_BENCH_MODEL")
        .map(PathBuf::from)
        .or_else(haema_tests::minilm_dir)
    else {
        eprintln!("no model: run .ci/fetch-model or set HAEMA_BENCH_MODEL");
        return;
    };
    let model = QueryModel(LocalEmbedder::load(dir.to_str().unwrap(), 32).unwrap());
    let store = tempfile::tempdir().unwrap();
    let memory = Memory::open_with(store.path(), Settings::default(), None, Some(Arc::new(model)))
        .await
        .unwrap();
    let (texts, questions) = corpus();
    let start_ms: i64 = 1_672_531_200_000; // 2023-01-01
    let items: Vec<ImportItem> = (0..MEMORIES)
        .map(|i| ImportItem {
            content: format!("{} ({})", texts[i % texts.len()], i / texts.len() + 1),
            timestamp_ms: Some(start_ms + i as i64 * 3_600_000),
            ..Default::default()
        })
        .collect();
    let built = Instant::now();
    memory.import_items(items, "bench").await.unwrap();
    eprintln!(
        "store of {MEMORIES} memories built in {:.1} s",
        built.elapsed().as_secs_f64()
    );
    for q in questions.iter().take(20) {
        memory.search_records(q, 10, SearchMode::Hybrid).await.unwrap();
    }
    let mut report = serde_json::Map::new();
    report.insert("memories".into(), MEMORIES.into());
    report.insert("questions".into(), questions.len().into());
    for mode in [SearchMode::Hybrid, SearchMode::Lexical, SearchMode::Vector] {
        let mut times: Vec<f64> = Vec::with_capacity(questions.len());
        for q in &questions {
            let t = Instant::now();
            let hits = memory.search_records(q, 10, mode).await.unwrap();
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            assert!(hits.hits.len() <= 10);
        }
        times.sort_by(f64::total_cmp);
        report.insert(
            mode.as_str().into(),
            serde_json::json!({
                "median_ms": (percentile(&times, 0.5) * 100.0).round() / 100.0,
                "p95_ms": (percentile(&times, 0.95) * 100.0).round() / 100.0,
            }),
        );
    }
    println!("{}", serde_json::to_string_pretty(&Value::Object(report)).unwrap());
}
