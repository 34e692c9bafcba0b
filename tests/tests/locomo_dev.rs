//! The search on the whole LoCoMo dev split (`shared/data/locomo-dev` beside the
//! repository): a fall in recall fails CI. Thresholds are the targets of the issue that
//! asked for the evaluation (lexical >= 60, hybrid >= 70 recall@10 over categories 1-4);
//! the figures measured when it was written are in docs/search.md ("Figures").
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;

use haema_core::eval::{self, Dataset, EvalOptions, EvalReport};
use haema_core::provider::Embedder;
use haema_core::provider::local::LocalEmbedder;
use haema_core::{SearchMode, Settings};
use haema_tests::minilm_dir;

fn dev_split() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/locomo-dev");
    if dir.join("turns.jsonl").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "the LoCoMo dev split is missing at {}",
        dir.display()
    );
    eprintln!("skipped: no LoCoMo dev split at {}", dir.display());
    None
}

async fn run(data: &Dataset, embedder: Option<Arc<dyn Embedder>>, mode: SearchMode) -> EvalReport {
    let work = tempfile::tempdir().unwrap();
    let options = EvalOptions { mode, k: 10 };
    let report = eval::run_locomo(data, &Settings::default(), embedder, work.path(), options, |_| {})
        .await
        .unwrap();
    eprintln!(
        "{}: R@5 {:.1} R@10 {:.1} MRR {:.3} over {} questions",
        mode.as_str(),
        report.overall.r5,
        report.overall.r10,
        report.overall.mrr,
        report.overall.queries
    );
    assert_eq!(report.overall.queries, 760);
    assert!(report.notice.is_none(), "{:?}", report.notice);
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lexical_search_reaches_60_recall_at_10() {
    let Some(dir) = dev_split() else { return };
    let data = Dataset::read(&dir).unwrap();
    let report = run(&data, None, SearchMode::Lexical).await;
    assert!(
        report.overall.r10 >= 60.0,
        "lexical R@10 {:.1} < 60",
        report.overall.r10
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hybrid_search_with_the_local_model_reaches_70_recall_at_10() {
    let Some(dir) = dev_split() else { return };
    let Some(model) = minilm_dir() else { return };
    let data = Dataset::read(&dir).unwrap();
    let embedder: Arc<dyn Embedder> = Arc::new(LocalEmbedder::load(model.to_str().unwrap(), 32).unwrap());
    let report = run(&data, Some(embedder), SearchMode::Hybrid).await;
    assert!(report.overall.r10 >= 70.0, "hybrid R@10 {:.1} < 70", report.overall.r10);
}
