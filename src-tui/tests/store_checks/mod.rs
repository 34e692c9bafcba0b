//! Reading a store's `memory.db` directly (read-only) to check it is whole: SQLite's own
//! integrity check, and every changeset applied fully or not at all. Used by the crash and
//! concurrency tests, which drive the real `haema` binary.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rusqlite::{Connection, OpenFlags};

/// A memory row.
#[derive(Debug, Clone)]
pub struct Row {
    pub id: String,
    pub content: String,
    pub status: String,
    pub changeset: Option<i64>,
}

/// A changeset row with its items.
#[derive(Debug, Clone, Default)]
pub struct Change {
    pub id: i64,
    pub kind: String,
    pub status: String,
    pub reverts: Option<i64>,
    pub reverted_by: Option<i64>,
    /// Proposed items that are new memories (not carried over): their memory ids.
    pub added: Vec<String>,
    /// Related items: the memories it replaced (or, for a revert, hid; for a forget, forgot).
    pub related: Vec<(String, bool)>,
}

/// What `memory.db` holds, read in one read transaction.
pub struct Snapshot {
    pub memories: Vec<Row>,
    pub changes: HashMap<i64, Change>,
    pub latest_core: Option<String>,
    pub meta: HashMap<String, String>,
    pub fts_entries: i64,
}

impl Snapshot {
    pub fn memory(&self, id: &str) -> Option<&Row> {
        self.memories.iter().find(|m| m.id == id)
    }

    /// Rows holding exactly `content` (forgotten rows hold none).
    pub fn count_of(&self, content: &str) -> usize {
        self.memories.iter().filter(|m| m.content == content).count()
    }
}

fn open(store: &Path) -> Connection {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    Connection::open_with_flags(store.join("memory.db"), flags).unwrap()
}

/// `PRAGMA integrity_check` and `foreign_key_check`: both must find nothing wrong.
pub fn assert_integrity(store: &Path) {
    let db = open(store);
    let result: Vec<String> = db
        .prepare("PRAGMA integrity_check")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(result, vec!["ok".to_owned()], "integrity_check");
    let broken: Vec<String> = db
        .prepare("PRAGMA foreign_key_check")
        .unwrap()
        .query_map([], |r| {
            Ok(format!(
                "{:?} row {:?}",
                r.get::<_, String>(0)?,
                r.get::<_, Option<i64>>(1)?
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(broken.is_empty(), "foreign keys point nowhere: {broken:?}");
}

pub fn snapshot(store: &Path) -> Snapshot {
    let mut db = open(store);
    let tx = db.transaction().unwrap();
    let memories = tx
        .prepare("SELECT id, content, status, changeset_id FROM memories")
        .unwrap()
        .query_map([], |r| {
            Ok(Row {
                id: r.get(0)?,
                content: r.get(1)?,
                status: r.get(2)?,
                changeset: r.get(3)?,
            })
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut changes: HashMap<i64, Change> = tx
        .prepare("SELECT id, kind, status, reverts_id, reverted_by_id FROM changesets")
        .unwrap()
        .query_map([], |r| {
            Ok(Change {
                id: r.get(0)?,
                kind: r.get(1)?,
                status: r.get(2)?,
                reverts: r.get(3)?,
                reverted_by: r.get(4)?,
                ..Change::default()
            })
        })
        .unwrap()
        .map(|c| c.map(|c| (c.id, c)))
        .collect::<Result<_, _>>()
        .unwrap();
    let items: Vec<(i64, String, Option<String>, bool)> = tx
        .prepare(
            "SELECT changeset_id, role, memory_id, kept FROM changeset_items ORDER BY changeset_id, role, position",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get::<_, i64>(3)? != 0)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (changeset, role, memory, kept) in items {
        let change = changes.get_mut(&changeset).expect("items belong to a changeset");
        match (role.as_str(), memory) {
            ("proposed", Some(memory)) if !kept => change.added.push(memory),
            ("related", Some(memory)) => change.related.push((memory, kept)),
            _ => {}
        }
    }
    let latest_core = tx
        .query_row("SELECT content FROM core_versions ORDER BY id DESC LIMIT 1", [], |r| {
            r.get(0)
        })
        .ok();
    let meta = tx
        .prepare("SELECT key, value FROM meta")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let fts_entries = tx
        .query_row("SELECT count(*) FROM memories_fts_docsize", [], |r| r.get(0))
        .unwrap();
    Snapshot {
        memories,
        changes,
        latest_core,
        meta,
        fts_entries,
    }
}

/// What holds in any store once the command after a crash has opened it: ids unique, each
/// changeset applied fully or not at all, the full-text index in step, core.md equal to the
/// newest core version, no interrupted write left to finish. Returns the snapshot.
pub fn assert_whole(store: &Path) -> Snapshot {
    assert_integrity(store);
    let snap = snapshot(store);
    let ids: HashSet<&str> = snap.memories.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids.len(), snap.memories.len(), "memory ids are unique");
    let status_of = |id: &str| snap.memory(id).map(|m| m.status.as_str());
    let mut changes: Vec<&Change> = snap.changes.values().collect();
    changes.sort_by_key(|c| c.id);
    for c in changes {
        let what = format!("changeset {} ({} {})", c.id, c.kind, c.status);
        match (c.kind.as_str(), c.status.as_str()) {
            ("add", "committed" | "reverted") => {
                for id in &c.added {
                    assert!(
                        matches!(status_of(id), Some("active" | "superseded" | "forgotten")),
                        "{what}: its memory {id} is {:?}",
                        status_of(id)
                    );
                }
                for (id, kept) in &c.related {
                    if !kept {
                        assert!(
                            matches!(status_of(id), Some("superseded" | "forgotten" | "active")),
                            "{what}: the memory {id} it replaced is {:?}",
                            status_of(id)
                        );
                    }
                }
            }
            ("add", "pending" | "stale") => {
                for id in &c.added {
                    assert!(
                        matches!(status_of(id), Some("pending" | "forgotten")),
                        "{what}: its memory {id} is {:?}",
                        status_of(id)
                    );
                }
            }
            ("add", "rejected") => {
                for id in &c.added {
                    assert!(
                        matches!(status_of(id), None | Some("forgotten")),
                        "{what}: its memory {id} is {:?}",
                        status_of(id)
                    );
                }
            }
            ("revert", "committed") => {
                let target = c
                    .reverts
                    .and_then(|t| snap.changes.get(&t))
                    .expect("a revert names its changeset");
                assert_eq!(target.status, "reverted", "{what}: the changeset it reverts");
                assert_eq!(target.reverted_by, Some(c.id), "{what}: the changeset it reverts");
                for (id, _) in &c.related {
                    assert!(
                        matches!(status_of(id), Some("superseded" | "forgotten")),
                        "{what}: the memory {id} it hid is {:?}",
                        status_of(id)
                    );
                }
            }
            ("forget", "committed") => {
                for (id, _) in &c.related {
                    let row = snap.memory(id).unwrap_or_else(|| panic!("{what}: memory {id} is gone"));
                    assert!(
                        row.status == "forgotten" && row.content.is_empty(),
                        "{what}: memory {id} is {} with {:?}",
                        row.status,
                        row.content
                    );
                }
            }
            (_, "reverted") => {
                let by = c.reverted_by.and_then(|b| snap.changes.get(&b));
                assert!(
                    by.is_some_and(|b| b.kind == "revert" && b.reverts == Some(c.id)),
                    "{what}: reverted by a revert of it"
                );
            }
            _ => {}
        }
    }
    for m in &snap.memories {
        let change = m.changeset.and_then(|c| snap.changes.get(&c));
        let change_status = change.map(|c| c.status.as_str());
        match m.status.as_str() {
            "pending" => assert!(
                matches!(change_status, Some("pending" | "stale")),
                "pending memory {} belongs to a changeset that is {change_status:?}",
                m.id
            ),
            "active" => assert!(
                matches!(change_status, Some("committed")),
                "active memory {} belongs to a changeset that is {change_status:?}",
                m.id
            ),
            "forgotten" => assert!(m.content.is_empty(), "forgotten memory {} keeps text", m.id),
            _ => {}
        }
    }
    let active = snap.memories.iter().filter(|m| m.status == "active").count();
    assert_eq!(
        usize::try_from(snap.fts_entries).unwrap(),
        active,
        "the full-text index holds the active memories, no more"
    );
    for key in ["core_pending_write", "scrub_pending"] {
        assert!(!snap.meta.contains_key(key), "{key} is finished by the next command");
    }
    let core = std::fs::read_to_string(store.join("core.md")).unwrap();
    assert_eq!(
        Some(&core),
        snap.latest_core.as_ref(),
        "core.md is the newest committed core version"
    );
    snap
}
