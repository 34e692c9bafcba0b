//! Local embedding throughput: sentences per second at batch 1 and batch 32 on short,
//! memory-like sentences. Prints one JSON object. Run: `cargo bench -p haema-tests --bench embed`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

/// The allocator the `haema` binary uses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use haema_core::provider::Embedder;
use haema_core::provider::local::LocalEmbedder;

/// sentence-transformers on PyTorch, CPU, batch 32, on this 2-core machine (from the issue).
const PYTORCH_BATCH_32: f64 = 288.0;

fn sentences(n: usize) -> Vec<String> {
    let subjects = ["The user", "Ana", "The agent", "Min-jun", "The team lead", "My sister"];
    let facts = [
        "prefers green tea in the morning",
        "is allergic to peanuts and avoids Thai food",
        "moved to Busan last spring to work at a bakery",
        "wants short answers without bullet points",
        "uses Neovim with the gruvbox theme on every machine",
        "has a cat called Miso who hates the vacuum cleaner",
        "runs the nightly backup at 02:00 on the old NAS",
        "asked never to push directly to the main branch",
        "is learning Korean and practises every evening for twenty minutes",
        "plans a trip to Jeju island in October with two friends",
    ];
    (0..n)
        .map(|i| {
            format!(
                "{} {}.",
                subjects[i % subjects.len()],
                facts[(i / subjects.len() + i) % facts.len()]
            )
        })
        .collect()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn throughput(embedder: &LocalEmbedder, texts: &[String], batch: usize, rounds: usize) -> f64 {
    let runs: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for chunk in texts.chunks(batch) {
                let vectors = embedder.embed_blocking(chunk, false).unwrap();
                assert_eq!(vectors.len(), chunk.len());
            }
            texts.len() as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    median(runs)
}

fn main() {
    let Some(dir) = std::env::var_os("HAEMA_BENCH_MODEL")
        .map(std::path::PathBuf::from)
        .or_else(haema_tests::minilm_dir)
    else {
        eprintln!("no model: run .ci/fetch-model or set HAEMA_BENCH_MODEL");
        return;
    };
    let embedder = LocalEmbedder::load(dir.to_str().unwrap(), 32).unwrap();
    let texts = sentences(256);
    let tokens: usize = texts.iter().map(|t| t.split_whitespace().count()).sum();
    throughput(&embedder, &texts[..64], 32, 1); // warm-up
    let batch_32 = throughput(&embedder, &texts, 32, 5);
    let batch_1 = throughput(&embedder, &texts[..64], 1, 5);
    let report = serde_json::json!({
        "model": "all-MiniLM-L6-v2",
        "dims": embedder.dims(),
        "sentences": texts.len(),
        "mean_words_per_sentence": tokens as f64 / texts.len() as f64,
        "threads": std::thread::available_parallelism().map_or(1, usize::from),
        "batch_1_sentences_per_s": (batch_1 * 10.0).round() / 10.0,
        "batch_32_sentences_per_s": (batch_32 * 10.0).round() / 10.0,
        "pytorch_batch_32_reference": PYTORCH_BATCH_32,
        "ratio_batch_32_vs_pytorch": (batch_32 / PYTORCH_BATCH_32 * 100.0).round() / 100.0,
    });
    println!("{}", serde_json::to_string_pretty(&report).unwrap());
}
