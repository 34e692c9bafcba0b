//! `haema bench`: builds stores of n memories in-process and measures haema's own time for
//! each operation, through `haema mcp --http` with a client in the same run ([`server`]),
//! and `haema hook claude-code` as Claude Code runs it ([`hook`]), printing one JSON object
//! a line (or a table).
//!
//! The default providers are instant and deterministic ([`synthetic`]): vectors are 384-d
//! bag-of-words directions, the LLM keeps every memory and adds the new ones. With
//! `--embedder local` the vectors are real all-MiniLM-L6-v2 ones of the LoCoMo turns.

#[cfg(unix)]
mod hook;
mod measure;
mod ops;
mod server;
mod synthetic;
mod workload;

use std::path::Path;
use std::time::Instant;

use anyhow::{Result, bail};

use crate::UsageError;
use crate::cli::{BenchArgs, BenchEmbedder};
use measure::Row;

pub use workload::probe_open;

pub async fn run(args: BenchArgs) -> Result<()> {
    if let Some(dir) = &args.probe_open {
        return probe_open(dir, args.embedder, args.probe_query.as_deref().unwrap_or("")).await;
    }
    check_args(&args)?;
    if args.n.is_empty() || args.n.contains(&0) {
        return Err(UsageError("--n takes store sizes of at least 1, e.g. --n 1000,10000".into()).into());
    }
    let (_temp, work) = super::work_folder("haema-bench-", args.work.as_deref())?;
    let source = workload::Source::new(args.embedder, args.data.as_deref()).await?;
    let mut table = Vec::new();
    let mut emit = |row: Row| {
        if args.json {
            println!("{}", serde_json::Value::Object(row.0.clone()));
        }
        table.push(row);
    };
    // The LLM's share of an add: calls and prompt size over the demo sample's stream.
    let cost = haema_core::eval::llm_cost::demo_stream_cost(super::demo::SAMPLE).await?;
    emit(
        Row::new("llm_calls_per_add", cost.adds)
            .with("value", measure::round(cost.calls_per_add()))
            .with("stream", "demo sample"),
    );
    emit(
        Row::new("prompt_chars_per_add", cost.adds)
            .with("value", cost.prompt_chars_per_add().round())
            .with("stream", "demo sample"),
    );
    let mut links = Vec::new();
    for &n in &args.n {
        let dir = work.join(format!("{}-{n}", source.label()));
        if let Some(url) = &args.postgres {
            let separator = if url.contains('?') { '&' } else { '?' };
            let schema = format!("haema_bench_{}_{n}", source.label().replace('-', "_"));
            haema_core::link_postgres_store(&dir, &format!("{url}{separator}schema={schema}"))?;
            links.push(dir.clone());
        }
        let started = Instant::now();
        let built = workload::build(&source, &dir, n, |done| {
            if !args.json {
                crate::output::to_stderr_exact(&format!("\rhaema bench: building a store of {n} memories: {done}"));
            }
        })
        .await?;
        if !args.json {
            crate::output::to_stderr_exact(&format!(
                "\rhaema bench: store of {n} memories ready in {:.1} s\n",
                started.elapsed().as_secs_f64()
            ));
        }
        emit(
            Row::new("build", n)
                .with("seconds", measure::round(built.seconds))
                .with("reused", built.reused),
        );
        for row in ops::run_all(&source, &dir, n).await? {
            emit(row);
        }
        for row in server::run(&source, &dir, n).await? {
            emit(row);
        }
        for row in ops::open_in_new_process(&source, &dir, n).await? {
            emit(row);
        }
        #[cfg(unix)]
        {
            let scratch = tempfile::Builder::new().prefix("hooks-").tempdir_in(&work)?;
            for row in hook::run(&source, &dir, n, scratch.path()).await? {
                emit(row);
            }
        }
        emit(disk_row(&dir, n)?);
        emit(
            Row::new("peak_rss", n)
                .with("mb", measure::peak_rss_mb())
                .with("process", "bench"),
        );
    }
    if args.work.is_none() {
        for dir in &links {
            haema_core::drop_postgres_store(dir)?;
        }
    }
    if !args.json {
        print_table(&table);
    }
    Ok(())
}

/// Bytes of the store per memory: its files (the database with its write-ahead log), or
/// a PostgreSQL store's tables with their indexes.
fn disk_row(dir: &Path, n: usize) -> Result<Row> {
    let size = |name: &str| std::fs::metadata(dir.join(name)).map_or(0, |m| m.len());
    let bytes = match haema_core::postgres_store_bytes(dir)? {
        Some(bytes) => bytes,
        None => size("memory.db") + size("memory.db-wal"),
    };
    Ok(Row::new("disk", n)
        .with("bytes", bytes)
        .with("bytes_per_memory", (bytes as f64 / n as f64).round()))
}

fn print_table(rows: &[Row]) {
    println!("{:<26} {:>9} {:>10} {:>10}  other", "op", "n", "p50 ms", "p95 ms");
    for row in rows {
        let text = |key: &str| row.get(key).map(|v| v.to_string().trim_matches('"').to_owned());
        let other: Vec<String> = row
            .0
            .iter()
            .filter(|(k, _)| !["op", "n", "p50_ms", "p95_ms"].contains(&k.as_str()))
            .map(|(k, v)| format!("{k}={}", v.to_string().trim_matches('"')))
            .collect();
        println!(
            "{:<26} {:>9} {:>10} {:>10}  {}",
            text("op").unwrap_or_default(),
            text("n").unwrap_or_default(),
            text("p50_ms").unwrap_or_else(|| "-".into()),
            text("p95_ms").unwrap_or_else(|| "-".into()),
            other.join(" ")
        );
    }
}

/// Refuses `--data` without `--embedder local`, before any work.
fn check_args(args: &BenchArgs) -> Result<()> {
    match (args.embedder, &args.data) {
        (BenchEmbedder::Synthetic, Some(_)) => bail!(UsageError(
            "--data is for --embedder local (the LoCoMo turns to embed)".into()
        )),
        _ => Ok(()),
    }
}
