//! Moving a store whole to another backend (`haema migrate --from … --to …`): a folder
//! to a PostgreSQL database, back, or any store to a new one.
//!
//! Everything is copied as stored: memories in every status with their ids, attributes and
//! timestamps, changesets with their raw LLM answers, core versions, locks, agent state
//! with its history, the vectors (not made again, matched to their memories by id), the
//! access statistics, and core.md. The copy is written in one transaction of the target
//! and checked inside it before it commits: the same records (a SHA-256 of the lossless
//! export of both), the same number of vectors and of agent state changes, the same access
//! statistics. An interrupted or failed copy leaves the target as it was: empty.
//!
//! One thing is not copied as stored: a secret. A store written before the secret screen
//! existed can hold credentials in its texts; a migration is a write into a new store, so
//! they go through the screen every write goes through ([`crate::secrets`]): each is
//! replaced by its marker in the copy (memories and their attributes, changesets with their
//! raw LLM answers, core versions, agent state and its history, core.md), the vector of a
//! memory whose text changed is left to be made again from the new text (it was made from
//! the secret), and the check compares the copy with the source's export with the same
//! secrets replaced. The source is only read: the report says how many of its records
//! still hold what looks like a secret, and `haema forget --mentioning` removes them there.

use std::collections::HashMap;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::jsonl::{Record, agent_state_records, export_records, restore, state_records};
use crate::error::{Error, Result};
use crate::secrets::SecretTally;
use crate::store::{MetaKey, Reader, Store};
use crate::types::MemoryId;

/// What [`migrate_store`] copied.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MigrateReport {
    /// Memories, in every status.
    pub memories: usize,
    /// Changesets.
    pub changesets: usize,
    /// Versions of core.md.
    pub core_versions: usize,
    /// Locked core sections.
    pub locks: usize,
    /// Vectors.
    pub vectors: usize,
    /// Changes of agent state.
    pub agent_state_changes: usize,
    /// Memories with access statistics (how often they were returned, and when last).
    pub access_stats: usize,
    /// SHA-256 of the lossless export of the copy, which matched the source's (with its
    /// secrets replaced by markers, when it held any).
    pub checksum: String,
    /// Secrets replaced by markers in the copy, by kind (never the secrets): texts the
    /// source stored before the secret screen existed.
    pub secrets: SecretTally,
    /// Records of the source that hold what looks like a secret (memories, changesets, core
    /// versions, agent state changes, core.md): the copy has markers in their place, the
    /// source still has them.
    pub records_with_secrets: usize,
    /// Vectors not copied because their memory's text changed: made again from the new text
    /// by the next open (or `haema embed-pending`) with the store's embedder.
    pub vectors_to_remake: usize,
}

/// The values a store records about itself that a copy keeps (the rest belong to one
/// backend's inner workings, or to work in progress the copy does not carry).
const COPIED_META: &[MetaKey] = &[
    MetaKey::Embedder,
    MetaKey::Dims,
    MetaKey::EmbedderWanted,
    MetaKey::VectorsBehind,
    MetaKey::Scope,
];

/// Everything a copy reads from the source, in one consistent read.
struct Snapshot {
    records: Vec<Record>,
    meta: Vec<(MetaKey, String)>,
    vectors_by_id: HashMap<MemoryId, Vec<f32>>,
    vectors: usize,
    access: Vec<(MemoryId, u64, i64)>,
    agent_log: Vec<crate::store::backend::AgentStateLogEntry>,
    staged: bool,
}

fn checksum(records: &[Record]) -> Result<String> {
    let mut hash = Sha256::new();
    for record in records {
        hash.update(serde_json::to_vec(record).map_err(|e| Error::Internal(e.to_string()))?);
        hash.update(b"\n");
    }
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// What replacing the secrets of a snapshot did.
struct Redacted {
    secrets: SecretTally,
    records: usize,
    vectors_dropped: usize,
}

/// Replaces the secrets of everything a copy writes (the records, the agent state log,
/// core.md), and drops the vectors of memories whose text changed: they are made again.
fn redact(taken: &mut Snapshot, core_text: &mut Option<String>) -> Redacted {
    let mut done = Redacted {
        secrets: SecretTally::default(),
        records: 0,
        vectors_dropped: 0,
    };
    let latest_core = taken.records.iter().rev().find_map(|r| match r {
        Record::CoreVersion(v) => Some(v.content.clone()),
        _ => None,
    });
    let mut latest_redacted = None;
    for record in &mut taken.records {
        let mut mine = SecretTally::default();
        match record {
            Record::Memory(m) => {
                mine.memory(m);
                if !mine.is_empty() && taken.vectors_by_id.remove(&m.id).is_some() {
                    done.vectors_dropped += 1;
                    // What the copy says of it: its vector is still to be made.
                    m.has_embedding = false;
                }
            }
            Record::Changeset(c) => mine.changeset(c),
            Record::CoreVersion(v) => {
                mine.string(&mut v.content);
                latest_redacted = Some(v.content.clone());
            }
            // Not in a store's records: its agent state log is copied on its own.
            Record::Header { .. } | Record::Lock { .. } | Record::AgentState { .. } => {}
        }
        done.records += usize::from(!mine.is_empty());
        done.secrets.merge(&mine);
    }
    for (_, _, value, _) in &mut taken.agent_log {
        let Some(text) = value else { continue };
        let mut mine = SecretTally::default();
        match serde_json::from_str::<serde_json::Value>(text) {
            Ok(mut json) => {
                mine.value(&mut json);
                if !mine.is_empty() {
                    *text = json.to_string();
                }
            }
            Err(_) => mine.string(text),
        }
        done.records += usize::from(!mine.is_empty());
        done.secrets.merge(&mine);
    }
    // core.md is the newest version's text (then it is that version's copy), or was edited
    // outside since (then it is a text of its own).
    if let Some(text) = core_text {
        if latest_core.as_ref() == Some(text) {
            if let Some(clean) = latest_redacted {
                *text = clean;
            }
        } else {
            let mut mine = SecretTally::default();
            mine.string(text);
            done.records += usize::from(!mine.is_empty());
            done.secrets.merge(&mine);
        }
    }
    if done.vectors_dropped > 0 && !taken.meta.iter().any(|(k, _)| *k == MetaKey::VectorsBehind) {
        taken.meta.push((MetaKey::VectorsBehind, "1".into()));
    }
    done
}

fn snapshot(conn: &dyn Reader) -> Result<Snapshot> {
    let (records, _) = export_records(conn)?;
    let mut meta = Vec::new();
    for key in COPIED_META {
        if let Some(value) = conn.meta(*key)? {
            meta.push((*key, value));
        }
    }
    let vectors = conn.whole()?.vectors()?;
    let rowids: Vec<i64> = vectors.iter().map(|(r, _)| *r).collect();
    let owners = conn.memories().by_rowids(&rowids)?;
    let count = vectors.len();
    let vectors_by_id = vectors
        .into_iter()
        .filter_map(|(rowid, v)| owners.get(&rowid).map(|m| (m.id.clone(), v)))
        .collect();
    Ok(Snapshot {
        records,
        meta,
        vectors_by_id,
        vectors: count,
        access: conn.whole()?.access_stats()?,
        agent_log: conn.agents().log()?,
        staged: conn.vectors().staged_exist()?,
    })
}

/// Copies the store in folder `from` whole into the store of folder `to` (a new folder, or
/// the link folder of a PostgreSQL store with an empty schema), and checks the copy.
/// Blocking: run it off an async runtime's threads.
///
/// # Errors
/// [`Error::InvalidArgument`] when `from` holds no store or `to` is not empty;
/// [`Error::InvalidState`] when a re-embedding is half done in `from`, or the copy does not
/// match (then nothing was written); a store error otherwise.
pub fn migrate_store(from: &Path, to: &Path) -> Result<MigrateReport> {
    if !crate::store::places::is_store_dir(from) {
        return Err(Error::InvalidArgument(format!(
            "{} holds no store (no memory.db, no postgres.url): check --from",
            from.display()
        )));
    }
    let source = Store::open(from)?;
    let mut taken = source.read(snapshot)?;
    if taken.staged {
        return Err(Error::ReembedUnfinished);
    }
    let mut core_text = source.core_text()?;
    let redacted = redact(&mut taken, &mut core_text);
    let target = Store::open(to)?;
    let target_shown = target.location();
    // The export's records, then its agent state: what `haema export` of the copy writes.
    let expected = checksum(&[taken.records.clone(), state_records(taken.agent_log.clone())].concat())?;
    let expected_vectors = taken.vectors - redacted.vectors_dropped;
    let dims: usize = taken
        .meta
        .iter()
        .find(|(k, _)| *k == MetaKey::Dims)
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let report = target.write(|tx| {
        let used = tx.memories().any()? || tx.changesets().any()? || !tx.core().versions()?.is_empty();
        if used || !tx.agents().entries()?.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "{target_shown} already holds a store: move into a new one (a new folder, or a new schema: ?schema=name)"
            )));
        }
        for (key, value) in &taken.meta {
            tx.set_meta(*key, value)?;
        }
        if taken.vectors > 0 || (dims > 0 && taken.meta.iter().any(|(k, v)| *k == MetaKey::Embedder && v != "none")) {
            tx.vectors_mut().create(dims)?;
        }
        restore(tx, &taken.records, &|m| taken.vectors_by_id.get(&m.id).map(Vec::as_slice))?;
        tx.memories_mut().add_access(&taken.access)?;
        for (agent, key, value, at) in &taken.agent_log {
            match value {
                Some(value) => tx.agents_mut().put(agent, key, value, *at)?,
                None => {
                    tx.agents_mut().delete(agent, key, *at)?;
                }
            }
        }
        // The check, before anything commits.
        let (mut copied, _) = export_records(tx)?;
        copied.extend(agent_state_records(tx)?);
        let found = checksum(&copied)?;
        let vectors = tx.whole()?.vectors()?.len();
        let log = tx.agents().log()?;
        let access = tx.whole()?.access_stats()?;
        if found != expected || vectors != expected_vectors || log != taken.agent_log || access != taken.access {
            return Err(Error::InvalidState(format!(
                "the copy does not match the source (records {}, vectors {vectors} of {}, agent state changes {} of {}, \
                 access statistics {} of {}): nothing was written",
                if found == expected { "match" } else { "differ" },
                expected_vectors,
                log.len(),
                taken.agent_log.len(),
                access.len(),
                taken.access.len()
            )));
        }
        let count = |f: &dyn Fn(&Record) -> bool| taken.records.iter().filter(|r| f(r)).count();
        Ok(MigrateReport {
            memories: count(&|r| matches!(r, Record::Memory(_))),
            changesets: count(&|r| matches!(r, Record::Changeset(_))),
            core_versions: count(&|r| matches!(r, Record::CoreVersion(_))),
            locks: count(&|r| matches!(r, Record::Lock { .. })),
            vectors,
            agent_state_changes: log.len(),
            access_stats: access.len(),
            checksum: found,
            secrets: redacted.secrets,
            records_with_secrets: redacted.records,
            vectors_to_remake: redacted.vectors_dropped,
        })
    })?;
    let latest = taken.records.iter().rev().find_map(|r| match r {
        Record::CoreVersion(v) => Some(v.content.clone()),
        _ => None,
    });
    if let Some(text) = core_text.or(latest) {
        crate::store::core_write::finish_write(&target, &text)?;
    }
    Ok(report)
}
