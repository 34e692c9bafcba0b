//! The measured operations of `haema bench`.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use haema_core::{AddInput, LatestOptions, SearchMode};

use super::measure::{self, Row, time_each};
use super::synthetic;
use super::workload::Source;
use crate::cli::BenchEmbedder;

/// Queries per search figure (the first is a warm-up).
const QUERIES: usize = 101;
/// Adds per add figure.
const ADDS: usize = 31;
/// New processes for the open figure.
const OPENS: usize = 7;

/// Every in-process figure of a store of `n` memories in `dir`.
pub async fn run_all(source: &Source, dir: &Path, n: usize) -> Result<Vec<Row>> {
    let memory = source.open(dir).await?;
    let mut rows = Vec::new();
    let query_sets = [
        ("stored", source.stored_queries(n, QUERIES)),
        ("words", source.word_queries(QUERIES)),
    ];
    for mode in [SearchMode::Hybrid, SearchMode::Vector, SearchMode::Lexical] {
        for (kind, queries) in &query_sets {
            let samples = time_each(queries, |q| {
                let memory = memory.clone();
                async move { Ok(memory.search_records(q, 10, mode).await?) }
            })
            .await?;
            rows.push(
                Row::new("search", n)
                    .with("mode", mode.as_str())
                    .with("queries", *kind)
                    .timings(&samples),
            );
        }
    }
    // The same stored queries among one agent's memories (one in ten), in every mode.
    let filter = haema_core::MemoryFilter {
        agent_id: Some("agent-3".into()),
        ..Default::default()
    };
    if memory
        .latest_records(
            1,
            &LatestOptions {
                filter: filter.clone(),
                ..LatestOptions::default()
            },
        )
        .await?
        .is_empty()
    {
        anyhow::bail!(
            "the bench store in {} was built by an earlier haema without agents on its memories: delete it to build it again",
            dir.display()
        );
    }
    for mode in [SearchMode::Hybrid, SearchMode::Vector, SearchMode::Lexical] {
        let samples = time_each(&query_sets[0].1, |q| {
            let (memory, filter) = (memory.clone(), filter.clone());
            let options = haema_core::SearchOptions {
                mode,
                filter,
                min_score: None,
            };
            async move { Ok(memory.search_records(q, 10, &options).await?) }
        })
        .await?;
        rows.push(
            Row::new("search_filtered", n)
                .with("mode", mode.as_str())
                .with("queries", "stored")
                .with("filter", format!("agent_id, 1 in {}", super::workload::FILTER_AGENTS))
                .timings(&samples),
        );
    }
    // Each exact answer scans every float vector: fewer queries on the largest stores.
    let per_set = if n > 200_000 { 20 } else { 100 };
    let recall_queries: Vec<String> = query_sets
        .iter()
        .flat_map(|(_, q)| q.iter().take(per_set).cloned())
        .collect();
    let vector = memory.vector_recall(&recall_queries, 10).await?;
    rows.push(
        Row::new("vector_recall", n)
            .with("recall_at_10", (vector.recall * 10_000.0).round() / 10_000.0)
            .with("worst_query", vector.worst)
            .with("queries", vector.queries),
    );
    let samples = time_each(&query_sets[0].1[..51], |q| {
        let memory = memory.clone();
        async move { Ok(memory.recall(q, 1000).await?) }
    })
    .await?;
    rows.push(Row::new("recall", n).with("budget_tokens", 1000).timings(&samples));
    if source.kind == BenchEmbedder::Local {
        return Ok(rows);
    }
    for (page, begin) in [("newest", 1i64), ("deep", i64::try_from(n / 2).unwrap_or(1).max(1))] {
        let samples = time_each(0..QUERIES, |_| {
            let memory = memory.clone();
            async move { Ok(memory.get_latest_records(begin, 10).await?) }
        })
        .await?;
        rows.push(
            Row::new("latest", n)
                .with("page", page)
                .with("begin", begin)
                .timings(&samples),
        );
    }
    // New facts, numbered past every stored one.
    let fresh = |k: usize| synthetic::fact(2_000_000_000 + n * 64 + k);
    let inputs: [(&str, Vec<AddInput>); 3] = [
        ("items_1", (0..ADDS).map(|k| AddInput::Items(vec![fresh(k)])).collect()),
        (
            "items_10",
            (0..ADDS)
                .map(|k| AddInput::Items((0..10).map(|j| fresh(100 + k * 10 + j)).collect()))
                .collect(),
        ),
        (
            "text",
            (0..ADDS)
                .map(|k| AddInput::Text(synthetic::text_of_facts(2_000_000_000 + n * 64 + 1000 + k * 3, 3)))
                .collect(),
        ),
    ];
    for (input, adds) in inputs {
        let samples = time_each(adds, |add| {
            let memory = memory.clone();
            async move { Ok(memory.add(add).await?) }
        })
        .await?;
        rows.push(Row::new("add", n).with("input", input).timings(&samples));
    }
    Ok(rows)
}

/// Opening the store in a new `haema` process, first search included.
pub async fn open_in_new_process(source: &Source, dir: &Path, n: usize) -> Result<Vec<Row>> {
    let exe = std::env::current_exe().context("cannot find the haema executable to start")?;
    let query = source.stored_queries(n, 1).remove(0);
    let mut samples = Vec::new();
    let mut rss = Vec::new();
    for _ in 0..OPENS {
        let start = Instant::now();
        let mut command = std::process::Command::new(&exe);
        command
            .arg("bench")
            .arg("--probe-open")
            .arg(dir)
            .arg("--probe-query")
            .arg(&query)
            .arg("--embedder")
            .arg(source.label());
        let output = tokio::task::spawn_blocking(move || command.output())
            .await?
            .with_context(|| format!("cannot start {}", exe.display()))?;
        samples.push(start.elapsed().as_secs_f64() * 1000.0);
        if !output.status.success() {
            bail!(
                "opening the store in a new process failed: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            );
        }
        let answer: serde_json::Value = serde_json::from_slice(&output.stdout).context("the probe's answer")?;
        if let Some(mb) = answer.get("rss_mb").and_then(serde_json::Value::as_f64) {
            rss.push(mb);
        }
    }
    Ok(vec![
        Row::new("open", n).with("first_search", true).timings(&samples),
        Row::new("peak_rss", n)
            .with("mb", measure::percentiles(&rss).0)
            .with("process", "open and search"),
    ])
}
