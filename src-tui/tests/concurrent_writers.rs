//! Four processes write one store at once (and a fifth approves and reverts meanwhile, and
//! a sixth reads), through the real binary: no write fails with "database is locked", every
//! add a process reported is there exactly once, what was reverted is gone, and SQLite finds
//! the file whole. `HAEMA_WRITER_ADDS` sets the adds per writer (default 8; 500 makes the
//! 2,000-add run of the README).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

const WRITERS: usize = 4;

fn adds() -> usize {
    std::env::var("HAEMA_WRITER_ADDS").map_or(8, |v| v.parse().expect("HAEMA_WRITER_ADDS is a number"))
}

fn add(store: &Path, policy: &str, items: &[String]) -> Value {
    let mut args = vec!["add", "--json", "--items"];
    args.extend(items.iter().map(String::as_str));
    let out = haema(store, &[("HAEMA_REVIEW", policy)], &args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    json_of(&out)
}

#[test]
fn four_writers_and_a_reviewer_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store: PathBuf = dir.path().join("shared");
    ok(&haema(
        &store,
        &[],
        &["add", "--items", "The store exists before the writers start"],
        None,
    ));

    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let store = store.clone();
            std::thread::spawn(move || {
                (0..adds())
                    .map(|a| {
                        let items: Vec<String> = (0..3)
                            .map(|i| format!("Writer {w} add {a} item {i}: a distinct fact {w}x{a}x{i}"))
                            .collect();
                        let answer = add(&store, "auto", &items);
                        assert_eq!(answer["status"], "committed", "{answer}");
                        items
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let reviewer = {
        let store = store.clone();
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut reverted = Vec::new();
            for r in 0..adds().min(8) {
                let items = vec![format!("Reviewed fact {r}: checked by a person {r}")];
                let answer = add(&store, "review", &items);
                assert_eq!(answer["status"], "pending", "{answer}");
                let id = answer["changeset"].as_i64().unwrap().to_string();
                ok(&haema(&store, &[], &["review", "approve", &id, "--yes"], None));
                if r % 2 == 0 {
                    ok(&haema(&store, &[], &["revert", &id], None));
                    reverted.extend(items);
                } else {
                    kept.extend(items);
                }
            }
            (kept, reverted)
        })
    };
    let reading = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let reader = {
        let (store, reading) = (store.clone(), std::sync::Arc::clone(&reading));
        std::thread::spawn(move || {
            let mut reads = 0;
            while reading.load(std::sync::atomic::Ordering::Relaxed) {
                for args in [vec!["latest", "--json"], vec!["search", "fact", "--json"]] {
                    let out = haema(&store, &[], &args, None);
                    assert!(out.status.success(), "a read failed: {}", stderr(&out));
                    reads += 1;
                }
            }
            reads
        })
    };
    let started = std::time::Instant::now();
    let mut expected: Vec<String> = vec!["The store exists before the writers start".into()];
    for writer in writers {
        expected.extend(writer.join().unwrap().into_iter().flatten());
    }
    let (kept, reverted) = reviewer.join().unwrap();
    expected.extend(kept);
    reading.store(false, std::sync::atomic::Ordering::Relaxed);
    let reads = reader.join().unwrap();
    eprintln!(
        "{WRITERS} writers x {} adds, a reviewer and {reads} reads in {:.1} s",
        adds(),
        started.elapsed().as_secs_f64()
    );

    let rows = json_of(&haema(&store, &[], &["latest", "--json", "--count", "100000"], None));
    let mut seen: HashMap<String, usize> = HashMap::new();
    for text in contents(&rows) {
        *seen.entry(text).or_default() += 1;
    }
    for text in &expected {
        assert_eq!(seen.get(text), Some(&1), "{text} is there exactly once");
    }
    for text in &reverted {
        assert!(!seen.contains_key(text), "{text} was reverted");
    }
    assert_eq!(seen.len(), expected.len(), "nothing else is there");
    let timestamps: Vec<i64> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["timestamp_ms"].as_i64().unwrap())
        .collect();
    let mut distinct = timestamps.clone();
    distinct.dedup();
    assert_eq!(
        distinct, timestamps,
        "timestamps stay strictly ordered across processes"
    );

    let conn =
        rusqlite::Connection::open_with_flags(store.join("memory.db"), rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let integrity: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(integrity, "ok");
    let pending: i64 = conn
        .query_row("SELECT count(*) FROM changesets WHERE status = 'pending'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(pending, 0);
}
