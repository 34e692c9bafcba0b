//! How a changeset reads for a person, shared by every front end: each memory it replaces
//! beside the memories it proposes, with the words that changed marked against the most
//! similar text on the other side, and the core.md line diff.

use serde::Serialize;

use crate::review::diff::{self, Change, Piece};
use crate::types::{Changeset, MemoryId};

/// Items of one side shown before the rest is only counted (an import can hold thousands).
pub const SHOWN_ITEMS: usize = 200;

/// Share of words two texts have in common (0..=1).
///
/// ```
/// use haema_core::review::view::similarity;
/// assert_eq!(similarity("likes green tea", "likes black tea"), 2.0 / 3.0);
/// ```
pub fn similarity(a: &str, b: &str) -> f64 {
    let pieces = diff::words(a, b);
    let same = pieces.iter().filter(|p| p.change == Change::Same).count();
    let total = a.split_whitespace().count().max(b.split_whitespace().count()).max(1);
    same as f64 / total as f64
}

/// The most similar text among `others`, when they share at least a fifth of their words.
///
/// ```
/// use haema_core::review::partner;
/// let proposed = ["The user lives in Bergen.", "The user has a cat."];
/// assert_eq!(partner("The user lives in Oslo.", &proposed), Some("The user lives in Bergen."));
/// assert_eq!(partner("Completely unrelated", &proposed), None);
/// ```
pub fn partner<'a>(text: &str, others: &[&'a str]) -> Option<&'a str> {
    others
        .iter()
        .map(|o| (similarity(text, o), *o))
        .filter(|(s, _)| *s >= 0.2)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, o)| o)
}

/// `text` in pieces: `Same` words, and the words it does not share with `partner` marked
/// `Removed` (when `text` is the old side) or `Added` (the new side). Without a partner the
/// whole text is one piece of `change` when it is going or coming, `Same` when kept.
///
/// ```
/// use haema_core::review::{Change, view::marked};
/// let old_side = marked("lives in Oslo", Some("lives in Bergen"), true);
/// assert_eq!(old_side.last().map(|p| (p.change, p.text.as_str())), Some((Change::Removed, "Oslo")));
/// ```
pub fn marked(text: &str, partner: Option<&str>, old_side: bool) -> Vec<Piece> {
    let Some(other) = partner else {
        return vec![Piece {
            change: if old_side { Change::Removed } else { Change::Added },
            text: text.to_owned(),
        }];
    };
    let (old, new) = if old_side { (text, other) } else { (other, text) };
    diff::words(old, new)
        .into_iter()
        .filter(|p| match p.change {
            Change::Same => true,
            Change::Removed => old_side,
            Change::Added => !old_side,
        })
        .collect()
}

/// One memory on one side of a change.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ItemView {
    /// The memory's id, when it has one.
    pub memory_id: Option<MemoryId>,
    /// Its whole text.
    pub content: String,
    /// Carried over unchanged (neither replaced nor new).
    pub kept: bool,
    /// Distance to the new input (related memories only).
    pub distance: Option<f64>,
    /// The text in pieces, changed words marked.
    pub pieces: Vec<Piece>,
}

/// How many memories a changeset adds or takes away, and the first of them: what a title
/// says ("Replaced “…” with “…” and 2 more").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChangeCount {
    /// How many.
    pub count: usize,
    /// The first one's text.
    pub first: Option<String>,
}

impl ChangeCount {
    fn of<'a>(texts: impl Iterator<Item = &'a str>) -> Self {
        let mut count = 0;
        let mut first = None;
        for text in texts {
            count += 1;
            first.get_or_insert_with(|| text.to_owned());
        }
        Self { count, first }
    }
}

/// A changeset as a before/after for people.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChangesetView {
    /// The changeset itself (ids, status, inputs, warnings, raw answers).
    pub changeset: Changeset,
    /// What it was built on: the memories it replaces and the ones it keeps.
    pub before: Vec<ItemView>,
    /// Related memories beyond [`SHOWN_ITEMS`].
    pub before_more: usize,
    /// What it proposes.
    pub after: Vec<ItemView>,
    /// Proposed memories beyond [`SHOWN_ITEMS`].
    pub after_more: usize,
    /// core.md line by line, when the change touches it.
    pub core: Option<Vec<Piece>>,
    /// The memories it adds: proposed ones that do not exist yet ([`Changeset::added`]).
    pub added: ChangeCount,
    /// The memories it takes away: related ones it does not carry over ([`Changeset::removed`]).
    pub removed: ChangeCount,
}

impl ChangesetView {
    /// Pairs every replaced memory with its most similar proposed one and marks the
    /// changed words on both sides.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::ChangesetView;
    /// let old = memory.add("The user lives in Oslo.").await?.memory_ids.remove(0);
    /// let id = memory.update_memory(&old, "The user lives in Bergen.").await?.changeset.ok_or("no change")?;
    /// let view = ChangesetView::new(memory.changeset(id).await?);
    /// for (side, items) in [("-", &view.before), ("+", &view.after)] {
    ///     for item in items {
    ///         let words: Vec<String> = item.pieces.iter().map(|p| format!("{:?}:{}", p.change, p.text)).collect();
    ///         println!("{side} {}", words.join(" "));
    ///     }
    /// }
    /// assert_eq!(view.before[0].content, "The user lives in Oslo.");
    /// # Ok(()) }
    /// ```
    pub fn new(changeset: Changeset) -> Self {
        let added: Vec<&str> = changeset.added().map(|p| p.content.as_str()).collect();
        let removed: Vec<&str> = changeset.removed().map(|r| r.content.as_str()).collect();
        let kept = |content: &str| {
            vec![Piece {
                change: Change::Same,
                text: content.to_owned(),
            }]
        };
        let before = changeset
            .related
            .iter()
            .take(SHOWN_ITEMS)
            .map(|r| ItemView {
                memory_id: Some(r.memory_id.clone()),
                content: r.content.clone(),
                kept: r.kept,
                distance: r.distance,
                pieces: if r.kept {
                    kept(&r.content)
                } else {
                    marked(&r.content, partner(&r.content, &added), true)
                },
            })
            .collect();
        let after = changeset
            .proposed
            .iter()
            .take(SHOWN_ITEMS)
            .map(|p| ItemView {
                memory_id: p.memory_id.clone(),
                content: p.content.clone(),
                kept: p.kept,
                distance: None,
                pieces: if p.kept {
                    kept(&p.content)
                } else {
                    marked(&p.content, partner(&p.content, &removed), false)
                },
            })
            .collect();
        let core = match (&changeset.core_before, &changeset.core_after) {
            (Some(before), Some(after)) => Some(diff::lines(before, after)),
            _ => None,
        };
        Self {
            added: ChangeCount::of(added.iter().copied()),
            removed: ChangeCount::of(removed.iter().copied()),
            before_more: changeset.related.len().saturating_sub(SHOWN_ITEMS),
            after_more: changeset.proposed.len().saturating_sub(SHOWN_ITEMS),
            before,
            after,
            core,
            changeset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::diff::render;
    use crate::types::{ChangesetStatus, Outcome, ProposedItem, RelatedItem};

    fn changeset(related: &[(&str, bool)], proposed: &[(&str, bool)]) -> Changeset {
        Changeset {
            attributes: Default::default(),
            agent_key: None,
            id: crate::types::ChangesetId::from(7),
            kind: crate::types::ChangesetKind::Add,
            status: ChangesetStatus::Pending,
            outcome: Outcome::Reconstructed,
            created_at_ms: 0,
            decided_at_ms: None,
            decided_by: None,
            raw_input: None,
            inputs: vec!["input".into()],
            related: related
                .iter()
                .enumerate()
                .map(|(i, (content, kept))| RelatedItem {
                    memory_id: MemoryId::from(format!("m{i}")),
                    content: (*content).into(),
                    distance: Some(0.25),
                    kept: *kept,
                })
                .collect(),
            proposed: proposed
                .iter()
                .map(|(content, kept)| ProposedItem {
                    attributes: Default::default(),
                    memory_id: None,
                    content: (*content).into(),
                    kept: *kept,
                })
                .collect(),
            core_before: None,
            core_after: None,
            llm: None,
            embedder: None,
            llm_calls: Vec::new(),
            warnings: Vec::new(),
            reverts_id: None,
            reverted_by_id: None,
            forget: None,
        }
    }

    #[test]
    fn a_merge_marks_the_changed_words_on_both_sides() {
        let view = ChangesetView::new(changeset(
            &[("The user drinks green tea", false), ("Lives in Oslo", true)],
            &[("The user drinks black tea", false), ("Lives in Oslo", true)],
        ));
        assert_eq!(render(&view.before[0].pieces), "The user drinks [-green ]tea");
        assert_eq!(render(&view.after[0].pieces), "The user drinks [+black ]tea");
        assert_eq!(render(&view.before[1].pieces), "Lives in Oslo");
        assert!(view.before[1].kept && view.after[1].kept);
        assert_eq!(view.before[0].distance, Some(0.25));
        assert!(view.core.is_none());
    }

    #[test]
    fn unrelated_texts_are_wholly_new_or_gone() {
        let view = ChangesetView::new(changeset(&[("Owns a cat", false)], &[("Speaks Korean", false)]));
        assert_eq!(render(&view.before[0].pieces), "[-Owns a cat]");
        assert_eq!(render(&view.after[0].pieces), "[+Speaks Korean]");
    }

    #[test]
    fn long_changesets_are_cut_and_counted() {
        let many: Vec<String> = (0..SHOWN_ITEMS + 5).map(|i| format!("memory {i}")).collect();
        let proposed: Vec<(&str, bool)> = many.iter().map(|m| (m.as_str(), false)).collect();
        let view = ChangesetView::new(changeset(&[], &proposed));
        assert_eq!((view.after.len(), view.after_more), (SHOWN_ITEMS, 5));
        assert_eq!((view.before.len(), view.before_more), (0, 0));
    }

    #[test]
    fn core_changes_are_a_line_diff() {
        let mut cs = changeset(&[], &[]);
        cs.core_before = Some("a\nb".into());
        cs.core_after = Some("a\nc".into());
        let core = ChangesetView::new(cs).core.unwrap_or_default();
        let kinds: Vec<Change> = core.iter().map(|p| p.change).collect();
        assert_eq!(kinds, vec![Change::Same, Change::Removed, Change::Added]);
    }
}
