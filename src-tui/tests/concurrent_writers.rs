//! Four processes write one store at once (and a fifth approves and reverts meanwhile, and
//! a sixth reads), through the real binary: no write fails with "database is locked", every
//! add a process reported is there exactly once, what was reverted is gone, and SQLite finds
//! the file whole. `HAEMA_WRITER_ADDS` sets the adds per writer (default 8; 500 makes the
//! 2,000-add run of docs/reliability.md).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

const WRITERS: usize = 4;

fn adds() -> usize {
    std::env::var("HAEMA_WRITER_ADDS").map_or(8, |v| v.parse().expect("HAEMA_WRITER_ADDS is a number"))
}

/// The environment of a "machine": its own home (so its own link folders and settings).
type Machine = Vec<(&'static str, String)>;

fn add(store: &Path, machine: &Machine, policy: &str, items: &[String]) -> Value {
    let mut args = vec!["add", "--json", "--items"];
    args.extend(items.iter().map(String::as_str));
    let mut env = refs(machine);
    env.push(("HAEMA_REVIEW", policy));
    let out = haema(store, &env, &args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    json_of(&out)
}

#[test]
fn four_writers_and_a_reviewer_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store: PathBuf = dir.path().join("shared");
    writers_reviewer_and_reader(&store, &[Machine::new()]);
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

/// The same on one PostgreSQL store from two "machines" (processes with separate homes,
/// so separate link folders and settings), and two reviewers racing to approve one change
/// from both: one wins, the other is told.
#[test]
fn four_writers_on_two_machines_share_one_postgres_store() {
    let Ok(url) = std::env::var("HAEMA_TEST_PG_URL") else {
        eprintln!("skipped: no PostgreSQL test server (HAEMA_TEST_PG_URL; .ci/run starts one)");
        return;
    };
    let homes = tempfile::tempdir().unwrap();
    let machines: Vec<Machine> = ["machine-a", "machine-b"]
        .iter()
        .map(|m| vec![("HOME", homes.path().join(m).display().to_string())])
        .collect();
    let schema = format!(
        "cli_{}_{}",
        std::process::id(),
        homes
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_lowercase()
            .replace(|c: char| !c.is_ascii_alphanumeric(), "")
    );
    let store = PathBuf::from(format!("{url}?schema={schema}"));
    writers_reviewer_and_reader(&store, &machines);

    for round in 0..3 {
        let answer = add(&store, &machines[0], "review", &[format!("Raced fact {round}")]);
        let id = answer["changeset"].as_i64().unwrap().to_string();
        let racers: Vec<_> = machines
            .iter()
            .map(|machine| {
                let (store, machine, id) = (store.clone(), machine.clone(), id.clone());
                std::thread::spawn(move || haema(&store, &refs(&machine), &["review", "approve", &id, "--yes"], None))
            })
            .collect();
        let results: Vec<_> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        let won = results.iter().filter(|o| o.status.success()).count();
        assert_eq!(
            won,
            1,
            "one approval wins: {:?}",
            results.iter().map(stderr).collect::<Vec<_>>()
        );
        let lost = results.iter().find(|o| !o.status.success()).unwrap();
        assert!(
            stderr(lost).contains(&format!("changeset {id} is committed")),
            "{}",
            stderr(lost)
        );
    }
    let status = json_of(&haema(&store, &refs(&machines[1]), &["status", "--json"], None));
    assert_eq!(status["pending_changesets"], 0, "{status}");
    assert!(
        status["location"].as_str().unwrap().starts_with("postgres://haema@"),
        "{status}"
    );
}

/// Writers (spread over `machines`) add at once while a reviewer approves and reverts and a
/// reader reads; then every reported add is there exactly once and nothing reverted is.
fn writers_reviewer_and_reader(store: &Path, machines: &[Machine]) {
    let machine = |n: usize| machines[n % machines.len()].clone();
    ok(&haema(
        store,
        &refs(&machine(0)),
        &["add", "--items", "The store exists before the writers start"],
        None,
    ));

    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let (store, machine) = (store.to_path_buf(), machine(w));
            std::thread::spawn(move || {
                (0..adds())
                    .map(|a| {
                        let items: Vec<String> = (0..3)
                            .map(|i| format!("Writer {w} add {a} item {i}: a distinct fact {w}x{a}x{i}"))
                            .collect();
                        let answer = add(&store, &machine, "auto", &items);
                        assert_eq!(answer["status"], "committed", "{answer}");
                        items
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let reviewer = {
        let (store, machine) = (store.to_path_buf(), machine(0));
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut reverted = Vec::new();
            for r in 0..adds().min(8) {
                let items = vec![format!("Reviewed fact {r}: checked by a person {r}")];
                let answer = add(&store, &machine, "review", &items);
                assert_eq!(answer["status"], "pending", "{answer}");
                let id = answer["changeset"].as_i64().unwrap().to_string();
                ok(&haema(
                    &store,
                    &refs(&machine),
                    &["review", "approve", &id, "--yes"],
                    None,
                ));
                if r % 2 == 0 {
                    ok(&haema(&store, &refs(&machine), &["revert", &id], None));
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
        let (store, reading, machine) = (store.to_path_buf(), std::sync::Arc::clone(&reading), machine(1));
        std::thread::spawn(move || {
            let mut reads = 0;
            while reading.load(std::sync::atomic::Ordering::Relaxed) {
                for args in [vec!["latest", "--json"], vec!["search", "fact", "--json"]] {
                    let out = haema(&store, &refs(&machine), &args, None);
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

    let rows = json_of(&haema(
        store,
        &refs(&machine(1)),
        &["latest", "--json", "--count", "100000"],
        None,
    ));
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
}
