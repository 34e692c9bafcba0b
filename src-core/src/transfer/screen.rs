//! The screens a haema export goes through before it is restored, as a list of items goes
//! through them (`import_items.rs`): the size limit, the secret screen and the
//! prompt-injection screen. A clean export is restored exactly as it was; what the screens
//! change:
//!
//! - a memory (in any status) or a memory a changeset proposes that is larger than one
//!   memory may be fails the whole import, naming its line, before anything is written;
//! - every secret is replaced by its marker: in memories and their attributes, in
//!   changesets (inputs, related and proposed memories, core.md before and after, the LLM's
//!   raw answers and errors, warnings) and in core versions;
//! - an active memory that reads like a prompt injection (under the `guarded` and `review`
//!   policies), or that held a secret under `secrets.policy = hold`, is not restored
//!   active: it comes back as a pending memory, with its id, text, time and attributes, of
//!   a new changeset that waits for review (one per user the memories are for). Approving
//!   it makes the memory active again (at the approval's time, as for the held items of a
//!   plain import); rejecting it leaves the memory out. The changeset that made it in the
//!   exported store stays in the history as it was. Under `auto` it is restored active,
//!   with a warning in the report.

use std::collections::BTreeMap;

use super::jsonl::Record;
use crate::config::ReviewPolicy;
use crate::error::Result;
use crate::secrets::{SecretPolicy, SecretTally};
use crate::types::{
    Changeset, ChangesetId, ChangesetKind, ChangesetStatus, MemoryAttributes, MemoryRecord, MemoryStatus, Outcome,
    ProposedItem,
};

/// What the screens did to an export.
#[derive(Debug, Default)]
pub(crate) struct Screened {
    /// The secrets replaced, by kind.
    pub(crate) secrets: SecretTally,
    /// Active memories held for review.
    pub(crate) held: usize,
    /// The changesets that hold them.
    pub(crate) pending: Vec<ChangesetId>,
    /// What the screens found and did, in words.
    pub(crate) warnings: Vec<String>,
}

/// Refuses a record that would store a memory larger than one memory may be, or a name
/// (an agent, session or user id, a state key) holding a credential, naming its line of
/// the file: names are matched and shown as they are, so they cannot be redacted.
pub(super) fn check_record(record: &Record, line: usize) -> Result<()> {
    let at = format!("on line {line} of the import file");
    match record {
        Record::Memory(m) => {
            crate::limits::check_memory_size_of(&m.content, &format!("the memory {at}"))?;
            check_names(&m.attributes, &format!("of the memory {at}"))
        }
        Record::Changeset(c) => {
            check_names(&c.attributes, &format!("of the changeset {at}"))?;
            c.proposed.iter().try_for_each(|p| {
                if !p.kept {
                    crate::limits::check_memory_size_of(
                        &p.content,
                        &format!("a memory proposed by the changeset {at}"),
                    )?;
                }
                check_names(&p.attributes, &format!("of a memory proposed by the changeset {at}"))
            })
        }
        Record::AgentState { agent_id, key, .. } => {
            crate::secrets::refuse_in_name(&format!("the agent id of the agent state {at}"), agent_id)?;
            crate::secrets::refuse_in_name(&format!("the state key {at}"), key)
        }
        Record::Header { .. } | Record::CoreVersion(_) | Record::Lock { .. } => Ok(()),
    }
}

/// Refuses ids of `attributes` that hold a credential (`whose` says where they are).
fn check_names(attributes: &MemoryAttributes, whose: &str) -> Result<()> {
    for (field, value) in [
        ("agent_id", &attributes.agent_id),
        ("session_id", &attributes.session_id),
        ("user_id", &attributes.user_id),
    ] {
        if let Some(name) = value {
            crate::secrets::refuse_in_name(&format!("`{field}` {whose}"), name)?;
        }
    }
    Ok(())
}

/// Replaces the secrets of every record, and holds the active memories the policies do
/// not let become active without a person: they become pending memories of new changesets
/// appended to `records` (ids after the export's own). `now` is the new changesets' time.
pub(crate) fn screen(
    records: &mut Vec<Record>,
    review: ReviewPolicy,
    secret_policy: SecretPolicy,
    now: i64,
) -> Screened {
    let mut screened = Screened::default();
    let mut hostile: Vec<String> = Vec::new();
    let mut held_for_secrets = false;
    // The held memories, by the user they are for.
    let mut held: BTreeMap<Option<String>, Vec<usize>> = BTreeMap::new();
    for (index, record) in records.iter_mut().enumerate() {
        match record {
            Record::Memory(m) => {
                let mut mine = SecretTally::default();
                mine.memory(m);
                screened.secrets.merge(&mine);
                if m.status != MemoryStatus::Active {
                    continue;
                }
                // Its text, and its source, ids and metadata, which are read beside it.
                let is_hostile = !crate::marked::record_flags(m).is_empty();
                if is_hostile {
                    hostile.push(format!("{}\n{}", m.content, m.attributes.screened_text()));
                }
                let hold_secret = !mine.is_empty() && secret_policy == SecretPolicy::Hold;
                held_for_secrets |= hold_secret;
                if (is_hostile && review != ReviewPolicy::Auto) || hold_secret {
                    held.entry(m.attributes.user_id.clone()).or_default().push(index);
                }
            }
            Record::Changeset(c) => screened.secrets.changeset(c),
            Record::CoreVersion(v) => screened.secrets.string(&mut v.content),
            Record::AgentState { value: Some(value), .. } => screened.secrets.value(value),
            Record::Header { .. } | Record::Lock { .. } | Record::AgentState { value: None, .. } => {}
        }
    }
    if !screened.secrets.is_empty() {
        screened
            .warnings
            .push(secret_policy.warning(&screened.secrets, held_for_secrets));
    }
    if !hostile.is_empty() {
        let findings = crate::safety::screen(hostile.iter().map(String::as_str));
        screened
            .warnings
            .push(crate::safety::warning(&findings, review != ReviewPolicy::Auto));
    }
    if let Some(warning) = core_warning(records) {
        screened.warnings.push(warning);
    }
    let mut next_id = records
        .iter()
        .filter_map(|r| {
            if let Record::Changeset(c) = r {
                Some(c.id.get())
            } else {
                None
            }
        })
        .max()
        .unwrap_or(0);
    let why = screened.warnings.clone();
    for (user, indexes) in held {
        next_id += 1;
        let id = ChangesetId::from(next_id);
        let (mut memories, mut made_by) = (Vec::new(), Vec::new());
        for index in indexes {
            if let Record::Memory(m) = &mut records[index] {
                made_by.extend(m.changeset_id);
                m.status = MemoryStatus::Pending;
                m.changeset_id = Some(id);
                m.superseded_by = None;
                memories.push((**m).clone());
            }
        }
        screened.held += memories.len();
        screened.pending.push(id);
        let changeset = holding_changeset(id, user, &memories, &made_by, &why, now);
        records.push(Record::Changeset(Box::new(changeset)));
    }
    if !screened.pending.is_empty() {
        let ids: Vec<String> = screened.pending.iter().map(ChangesetId::to_string).collect();
        screened.warnings.push(format!(
            "{} memories that were active in the export wait for review in changeset {}: approve or reject them there",
            screened.held,
            ids.join(", ")
        ));
    }
    screened
}

/// The pending changeset that holds `memories` (already pending, of changeset `id`), which
/// the changesets `made_by` made in the exported store.
fn holding_changeset(
    id: ChangesetId,
    user: Option<String>,
    memories: &[MemoryRecord],
    made_by: &[ChangesetId],
    why: &[String],
    now: i64,
) -> Changeset {
    let mut changeset = Changeset::empty(ChangesetKind::Add, ChangesetStatus::Pending, Outcome::Import, now);
    changeset.id = id;
    changeset.raw_input = Some("import of a haema export (held for review)".into());
    changeset.inputs = memories.iter().map(|m| m.content.clone()).collect();
    changeset.proposed = memories
        .iter()
        .map(|m| ProposedItem {
            memory_id: Some(m.id.clone()),
            content: m.content.clone(),
            kept: false,
            attributes: m.attributes.clone(),
        })
        .collect();
    changeset.attributes = MemoryAttributes {
        user_id: user,
        ..MemoryAttributes::default()
    };
    changeset.warnings = why.to_vec();
    let mut made_by: Vec<String> = made_by.iter().map(ChangesetId::to_string).collect();
    made_by.dedup();
    changeset.warnings.push(format!(
        "these memories were active in the exported store{}; approving makes them active again, rejecting leaves them out",
        if made_by.is_empty() {
            String::new()
        } else {
            format!(" (made by changeset {})", made_by.join(", "))
        }
    ));
    changeset
}

/// A warning when the core.md the export makes current reads like a prompt injection: it
/// is restored as it is (its history is the export's), marked in every recall.
fn core_warning(records: &[Record]) -> Option<String> {
    let latest = records
        .iter()
        .filter_map(|r| if let Record::CoreVersion(v) = r { Some(v) } else { None })
        .max_by_key(|v| v.id)?;
    crate::safety::core_warning(&latest.content, "the core.md of the export")
}
