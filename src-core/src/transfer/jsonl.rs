//! Export and import: a lossless JSONL file of a whole store, and Markdown for people.
//!
//! The JSONL file has one record per line, each with a `type`: a `header`, then every
//! `core_version`, `lock`, `changeset` and `memory` exactly as stored (ids, timestamps,
//! statuses, raw LLM answers), then every `agent_state` change, oldest first. Importing it into an empty store gives the same store; vectors
//! are made again with the configured embedder. A file from elsewhere goes through the
//! screens every write goes through first (`screen`): too large a memory fails the import,
//! secrets are replaced, and what reads like a prompt injection waits for review.

use crate::store::MetaKey;
use crate::store::Writer;
use std::io::BufRead;

use serde::{Deserialize, Serialize};

use super::screen;
use crate::store;
use crate::types::{Changeset, ChangesetFilter, ChangesetId, CoreVersion, MemoryRecord, MemoryStatus, Section};

use crate::error::{Error, Result};

/// The `format` of haema's JSONL export.
pub const EXPORT_FORMAT: &str = "haema-export";

/// One line of an export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Record {
    /// First line.
    Header {
        /// Always [`EXPORT_FORMAT`].
        format: String,
        /// Format version.
        version: u32,
        /// The embedder of the exported store (vectors are not exported).
        embedder: String,
    },
    /// A version of core.md.
    CoreVersion(CoreVersion),
    /// A locked core section.
    Lock {
        /// The section.
        section: Section,
    },
    /// A changeset with its items.
    Changeset(Box<Changeset>),
    /// A memory in any status.
    Memory(Box<MemoryRecord>),
    /// One change of an agent's state, oldest first: the value it was given, or `null`
    /// when the key was deleted. Replayed in order, they give the same state and history.
    AgentState {
        /// The agent.
        agent_id: String,
        /// The key.
        key: String,
        /// The value given (any JSON), or `None` for a deletion.
        value: Option<serde_json::Value>,
        /// When (Unix ms).
        at_ms: i64,
    },
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ImportReport {
    /// Memories added (those held for review included).
    pub memories: usize,
    /// Memories already in the store (a second import of the same file).
    pub already_present: usize,
    /// Changesets added (those that hold memories for review included).
    pub changesets: usize,
    /// Core versions added.
    pub core_versions: usize,
    /// Changes of agent state replayed (values and deletions, with their times).
    pub agent_state_changes: usize,
    /// Memories that were active in the export and now wait for review: their text reads
    /// like a prompt injection (under the `guarded` and `review` policies), or held a
    /// secret under `secrets.policy = hold`.
    pub held: usize,
    /// The pending changesets that hold them (one per user they are for).
    pub pending: Vec<ChangesetId>,
    /// The secrets replaced by markers in what was restored, by kind (never the secrets).
    pub secrets: crate::secrets::SecretTally,
    /// What the screens found and did.
    pub warnings: Vec<String>,
}

/// The records of a JSONL export, each checked as it is read (too large a memory, or a
/// secret in a name, fails the whole import before anything is written; the error names
/// the line), the first being haema's header.
pub(crate) fn read_export(input: impl BufRead) -> Result<Vec<Record>> {
    let mut records = Vec::new();
    for (index, line) in input.lines().enumerate() {
        let line = line.map_err(|e| Error::io("read", "the import file", e))?;
        let line = if index == 0 {
            line.strip_prefix('\u{feff}').map(str::to_owned).unwrap_or(line)
        } else {
            line
        };
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str::<Record>(&line).map_err(|e| line_error(index + 1, e))?;
        screen::check_record(&record, index + 1)?;
        records.push(record);
    }
    match records.first() {
        Some(Record::Header { format, version: 1, .. }) if format == EXPORT_FORMAT => Ok(records),
        _ => Err(Error::InvalidArgument(
            "the import file does not start with the header of a haema export (its first line names the format and version)".into(),
        )),
    }
}

fn line_error(number: usize, e: impl std::fmt::Display) -> Error {
    Error::InvalidArgument(format!(
        "line {number} of the import file is not a haema export record: {e}"
    ))
}

/// Whether `text` is a haema export (its first line is the export header), as opposed to
/// plain JSONL or mem0 JSON for [`crate::parse_items`].
///
/// ```
/// assert!(!haema_core::is_export("{\"content\": \"a memory\"}")); // a list of items
/// // The example on `Memory::export_jsonl` writes one that is.
/// ```
pub fn is_export(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or_default();
    matches!(serde_json::from_str::<Record>(first), Ok(Record::Header { .. }))
}

/// Every record of an export but the header, in the order of the file, and the store's
/// embedder.
pub(crate) fn export_records(conn: &dyn store::Reader) -> Result<(Vec<Record>, String)> {
    let mut records: Vec<Record> = Vec::new();
    let mut all = conn.changesets().list(ChangesetFilter::All, None)?;
    all.reverse();
    records.extend(all.into_iter().map(|c| Record::Changeset(Box::new(c))));
    let mut versions = conn.core().versions()?;
    versions.reverse();
    records.extend(versions.into_iter().map(Record::CoreVersion));
    records.extend(conn.core().locks()?.into_iter().map(|section| Record::Lock { section }));
    records.extend(conn.memories().all()?.into_iter().map(|m| Record::Memory(Box::new(m))));
    Ok((records, conn.meta(MetaKey::Embedder)?.unwrap_or_else(|| "none".into())))
}

/// Every change of every agent's state, oldest first, as export records.
pub(crate) fn agent_state_records(conn: &dyn store::Reader) -> Result<Vec<Record>> {
    Ok(state_records(conn.agents().log()?))
}

/// Agent state changes as export records (a value that is not JSON, which haema never
/// writes, is kept as a JSON string).
pub(crate) fn state_records(log: Vec<store::backend::AgentStateLogEntry>) -> Vec<Record> {
    log.into_iter()
        .map(|(agent_id, key, value, at_ms)| Record::AgentState {
            agent_id,
            key,
            value: value.map(|text| serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))),
            at_ms,
        })
        .collect()
}

pub(crate) fn restore<'v>(
    tx: &dyn Writer,
    records: &[Record],
    vector_of: &dyn Fn(&MemoryRecord) -> Option<&'v [f32]>,
) -> Result<(ImportReport, Option<String>)> {
    let mut report = ImportReport::default();
    let mut latest_core: Option<String> = None;
    let has_vectors = tx.vectors().exist()?;
    let mut last_ts = 0;
    // Changesets first: core versions and memories refer to them.
    for record in records {
        if let Record::Changeset(c) = record {
            // An agent's changes stay apart from a key of this store that has its name: they
            // would be found, and undone, as that agent's.
            if let Some(name) = &c.agent_key
                && tx.agent_keys().by_name(name)?.is_some()
            {
                return Err(Error::InvalidArgument(format!(
                    "the export holds changes made through an agent key named {name}, and this store has a key of that name already: they would count as its agent's. Import into a new store"
                )));
            }
            tx.changesets_mut().restore(c)?;
            report.changesets += 1;
        }
    }
    for record in records {
        match record {
            Record::Header { .. } | Record::Changeset(_) => {}
            Record::CoreVersion(v) => {
                tx.core_mut().restore(v)?;
                latest_core = Some(v.content.clone());
                report.core_versions += 1;
            }
            Record::Lock { section } => tx.core_mut().set_lock(*section, true, crate::types::now_ms())?,
            Record::AgentState {
                agent_id,
                key,
                value,
                at_ms,
            } => {
                match value {
                    Some(value) => tx.agents_mut().put(agent_id, key, &value.to_string(), *at_ms)?,
                    None => {
                        tx.agents_mut().delete(agent_id, key, *at_ms)?;
                    }
                }
                report.agent_state_changes += 1;
            }
            Record::Memory(m) => {
                let rowid = tx.memories_mut().restore(m)?;
                last_ts = last_ts.max(m.timestamp_ms);
                if matches!(m.status, MemoryStatus::Active | MemoryStatus::Superseded) {
                    match (has_vectors, vector_of(m)) {
                        (true, Some(vector)) => {
                            tx.vectors_mut().insert(rowid, vector)?;
                            if m.status != MemoryStatus::Active {
                                tx.vectors_mut().set_active(rowid, false)?;
                            }
                        }
                        // The embedder is missing for now: the next open with it catches up.
                        (true, None) => tx.set_meta(MetaKey::VectorsBehind, "1")?,
                        (false, _) => {}
                    }
                    if m.status == MemoryStatus::Active {
                        tx.text_index_mut().insert(rowid, &m.content)?;
                    }
                }
                report.memories += 1;
            }
        }
    }
    for record in records {
        if let Record::Changeset(c) = record
            && let Some(by) = c.reverted_by_id
        {
            tx.changesets_mut().restore_reverted_by(c.id, by)?;
        }
    }
    let previous: i64 = tx
        .meta(MetaKey::LastTimestamp)?
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    tx.set_meta(MetaKey::LastTimestamp, &previous.max(last_ts).to_string())?;
    if let Some(version) = tx.core().latest()? {
        crate::store::core_write::mark_pending(tx, version.id)?;
    }
    Ok((report, latest_core))
}
