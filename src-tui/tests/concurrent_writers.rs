//! Four processes write one store at once (and a fifth approves and reverts meanwhile),
//! through the real binary: no write fails with "database is locked", every add a process
//! reported is there exactly once, what was reverted is gone, and SQLite finds the file
//! whole.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

const WRITERS: usize = 4;
const ADDS: usize = 8;

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
                (0..ADDS)
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
            for r in 0..ADDS {
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
    let mut expected: Vec<String> = vec!["The store exists before the writers start".into()];
    for writer in writers {
        expected.extend(writer.join().unwrap().into_iter().flatten());
    }
    let (kept, reverted) = reviewer.join().unwrap();
    expected.extend(kept);

    let rows = json_of(&haema(&store, &[], &["latest", "--json", "--count", "1000"], None));
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
