//! What the pictures of the desktop show: activity over time by who decided, a memory's
//! whole ancestry across merges and edits, and how the store changed this week.

use std::collections::{HashMap, HashSet, VecDeque};

use serde::Serialize;

use super::Memory;
use crate::error::Result;
use crate::types::{ChangesetId, ChangesetKind, ChangesetStatus, ChangesetSummary, DecidedBy, MemoryId, MemoryRecord};

closed_set! {
    /// Who decided a change, as the activity picture groups it.
    pub enum ActivityWho ("decider") {
        /// A person approved, rejected, edited or forgot.
        You = "you",
        /// Kept without asking anyone (the review policy let it through).
        Ai = "ai",
        /// Brought in by an import.
        Import = "import",
        /// The undo of an earlier change.
        Undo = "undo",
        /// Still waiting for a person.
        Waiting = "waiting",
    }
}

/// One change, when it was decided (or made, while it waits) and by whom.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ActivityEvent {
    /// Unix milliseconds.
    pub at_ms: i64,
    /// Who decided it.
    pub who: ActivityWho,
}

/// One memory in an ancestry: what it says and which memories it was made from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AncestryNode {
    /// The memory, in any status.
    pub memory: MemoryRecord,
    /// The change that made it; `None` for a memory older than changesets.
    pub made_by: Option<MadeBy>,
    /// The memories that change replaced to make it (its parents in the picture).
    pub parents: Vec<MemoryId>,
    /// The memories that replaced it, when it is no longer active.
    pub successors: Vec<MemoryId>,
}

/// The change that made a memory, in brief.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MadeBy {
    /// Its id.
    pub changeset: ChangesetId,
    /// What made it.
    pub kind: ChangesetKind,
    /// Who decided it.
    pub decided_by: Option<DecidedBy>,
    /// When it was made (Unix milliseconds).
    pub at_ms: i64,
}

/// A memory and every memory it was built from, back to the first ones.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Ancestry {
    /// The memory asked about.
    pub root: MemoryId,
    /// It and its ancestors, nearest first.
    pub nodes: Vec<AncestryNode>,
    /// True when there were more ancestors than were followed.
    pub truncated: bool,
}

/// How the store changed over a week.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct WeekSummary {
    /// Memories in use now.
    pub active: usize,
    /// Changes waiting for a person.
    pub waiting: usize,
    /// Memories the changes of the week added.
    pub added: usize,
    /// Memories the changes of the week set aside (replaced or deleted).
    pub removed: usize,
    /// New versions of the profile this week.
    pub profile_versions: usize,
    /// Lines of the profile that differ from a week ago (added or gone).
    pub profile_lines_changed: usize,
}

/// How many ancestors [`Memory::ancestry`] follows at most.
pub const ANCESTRY_LIMIT: usize = 64;

impl Memory {
    /// Every change decided (or waiting) since `since_ms`, oldest first, by who decided:
    /// what the History view's picture counts per day.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::ActivityWho;
    /// let made = memory.add("The user keeps bees.").await?.changeset.ok_or("no change")?;
    /// memory.revert(made).await?;
    /// let who: Vec<ActivityWho> = memory.activity(0).await?.iter().map(|e| e.who).collect();
    /// assert_eq!(who, [ActivityWho::Ai, ActivityWho::Undo]);
    /// # Ok(()) }
    /// ```
    pub async fn activity(&self, since_ms: i64) -> Result<Vec<ActivityEvent>> {
        let mut events = Vec::new();
        for summary in self.summaries_since(since_ms).await?.into_iter().rev() {
            if let Some(event) = activity_of(&summary).filter(|e| e.at_ms >= since_ms) {
                events.push(event);
            }
        }
        events.sort_by_key(|e| e.at_ms);
        Ok(events)
    }

    /// The memory `id` and the memories it was built from, through every merge and edit,
    /// nearest first (at most [`ANCESTRY_LIMIT`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let first = memory.add("The user lives in Oslo.").await?.memory_ids.remove(0);
    /// let second = memory.update_memory(&first, "The user lives in Bergen.").await?.memory_ids.remove(0);
    /// let third = memory.update_memory(&second, "The user lives in Bergen, near the harbour.").await?.memory_ids.remove(0);
    /// let tree = memory.ancestry(&third).await?;
    /// let ids: Vec<_> = tree.nodes.iter().map(|n| n.memory.id.clone()).collect();
    /// assert_eq!(ids, [third.clone(), second.clone(), first.clone()]);
    /// assert_eq!(tree.nodes[0].parents, [second]);
    /// # Ok(()) }
    /// ```
    pub async fn ancestry(&self, id: &MemoryId) -> Result<Ancestry> {
        let mut nodes: Vec<AncestryNode> = Vec::new();
        let mut seen: HashSet<MemoryId> = HashSet::new();
        let mut queue = VecDeque::from([id.clone()]);
        let mut truncated = false;
        while let Some(next) = queue.pop_front() {
            if !seen.insert(next.clone()) {
                continue;
            }
            if nodes.len() >= ANCESTRY_LIMIT {
                truncated = true;
                break;
            }
            let lineage = self.lineage(&next).await?;
            let parents: Vec<MemoryId> = lineage.replaced().iter().map(|r| r.memory_id.clone()).collect();
            let successors = lineage
                .successors()
                .iter()
                .filter_map(|p| p.memory_id.clone())
                .collect();
            queue.extend(parents.iter().cloned());
            nodes.push(AncestryNode {
                made_by: lineage.origin.as_ref().map(|c| MadeBy {
                    changeset: c.id,
                    kind: c.kind,
                    decided_by: c.decided_by,
                    at_ms: c.created_at_ms,
                }),
                memory: lineage.memory,
                parents,
                successors,
            });
        }
        Ok(Ancestry {
            root: id.clone(),
            nodes,
            truncated,
        })
    }

    /// How the store changed between `since_ms` and now: what the Memories view's summary
    /// shows for the week.
    pub async fn week_summary(&self, since_ms: i64) -> Result<WeekSummary> {
        let info = self.info().await?;
        let (mut added, mut removed) = (0, 0);
        for s in self.summaries_since(since_ms).await? {
            if s.status == ChangesetStatus::Committed && s.created_at_ms >= since_ms {
                added += s.added;
                removed += s.removed;
            }
        }
        let versions = if self.user().is_some() {
            Vec::new()
        } else {
            self.core_versions().await?
        };
        let recent = versions.iter().filter(|v| v.created_at_ms >= since_ms).count();
        let then = versions.iter().find(|v| v.created_at_ms < since_ms).or(versions.last());
        let profile_lines_changed = match (versions.first(), then) {
            (Some(now), Some(then)) if recent > 0 => lines_changed(&then.content, &now.content),
            _ => 0,
        };
        Ok(WeekSummary {
            active: info.active,
            waiting: info.pending_changesets,
            added,
            removed,
            profile_versions: recent,
            profile_lines_changed,
        })
    }

    /// The changeset summaries made or decided since `since_ms`, newest first, read a page
    /// at a time.
    async fn summaries_since(&self, since_ms: i64) -> Result<Vec<ChangesetSummary>> {
        const PAGE: usize = 500;
        let mut out = Vec::new();
        let mut before = None;
        loop {
            let page = self.changeset_summaries(before, PAGE).await?;
            let done = page.len() < PAGE
                || page
                    .last()
                    .is_some_and(|s| s.created_at_ms < since_ms && s.decided_at_ms.unwrap_or(0) < since_ms);
            before = page.last().map(|s| s.id);
            out.extend(page);
            if done {
                return Ok(out);
            }
        }
    }
}

/// Who decided a change, and when; `None` for the bookkeeping of stale checks and re-runs.
fn activity_of(s: &ChangesetSummary) -> Option<ActivityEvent> {
    // A change that waits counts when it was made; a decided one, when it was decided.
    let (who, at_ms) = if s.status == ChangesetStatus::Pending {
        (ActivityWho::Waiting, s.created_at_ms)
    } else if s.kind == ChangesetKind::Revert {
        (ActivityWho::Undo, s.decided_at_ms.unwrap_or(s.created_at_ms))
    } else {
        let who = match s.decided_by? {
            DecidedBy::User => ActivityWho::You,
            DecidedBy::Auto => ActivityWho::Ai,
            DecidedBy::Import => ActivityWho::Import,
            DecidedBy::Check | DecidedBy::Rerun => return None,
        };
        (who, s.decided_at_ms.unwrap_or(s.created_at_ms))
    };
    Some(ActivityEvent { at_ms, who })
}

/// Lines in one text and not the other, counted both ways (a changed line counts twice).
fn lines_changed(before: &str, after: &str) -> usize {
    let mut counts: HashMap<&str, i64> = HashMap::new();
    for line in before.lines().filter(|l| !l.trim().is_empty()) {
        *counts.entry(line.trim()).or_default() += 1;
    }
    for line in after.lines().filter(|l| !l.trim().is_empty()) {
        *counts.entry(line.trim()).or_default() -= 1;
    }
    counts.values().map(|c| c.unsigned_abs() as usize).sum()
}

#[cfg(test)]
mod tests {
    use super::lines_changed;

    #[test]
    fn changed_lines_are_counted_both_ways() {
        assert_eq!(lines_changed("a\nb\n", "a\nb\n"), 0);
        assert_eq!(lines_changed("a\nb\n", "a\nc\n"), 2);
        assert_eq!(lines_changed("a\n", "a\nb\nc\n"), 2);
    }
}
