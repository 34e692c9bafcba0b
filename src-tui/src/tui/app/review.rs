//! Review: pending and stale changesets; approve, reject, edit then approve, approve all,
//! re-run.

use haema_core::{Changeset, ChangesetId, ChangesetStatus};

use super::{App, Cursor, EditTarget, Effect, Overlay, PAGE_STEP};
use crate::tui::action::Action;

/// The Review view.
#[derive(Debug, Default)]
pub struct ReviewState {
    /// Pending changesets, then stale ones, newest first.
    pub items: Vec<Changeset>,
    /// Selection.
    pub cursor: Cursor,
    /// The first answer arrived.
    pub loaded: bool,
}

impl ReviewState {
    /// Takes the list, keeping the selection on the same changeset.
    pub fn receive(&mut self, items: Vec<Changeset>) {
        let keep = self.selected().map(|c| c.id);
        self.items = items;
        self.loaded = true;
        if let Some(pos) = keep.and_then(|id| self.items.iter().position(|c| c.id == id)) {
            self.cursor.selected = pos;
        }
        self.cursor.clamp(self.items.len());
    }

    /// The selected changeset.
    pub fn selected(&self) -> Option<&Changeset> {
        self.items.get(self.cursor.selected)
    }
}

impl App {
    pub(super) fn review_action(&mut self, action: Action) -> Vec<Effect> {
        let len = self.review.items.len();
        if Self::move_cursor(&mut self.review.cursor, action, len, PAGE_STEP) {
            return Vec::new();
        }
        if action == Action::ApproveAll {
            let ids: Vec<ChangesetId> = self
                .review
                .items
                .iter()
                .filter(|c| c.status == ChangesetStatus::Pending)
                .map(|c| c.id)
                .rev()
                .collect();
            if ids.is_empty() {
                self.fail("nothing pending to approve");
            } else {
                self.overlay = Some(Overlay::Confirm {
                    question: format!("Approve all {} pending changesets, oldest first? (y/n)", ids.len()),
                    effects: vec![Effect::ApproveAll(ids)],
                });
            }
            return Vec::new();
        }
        let Some(selected) = self.review.selected() else {
            if matches!(
                action,
                Action::Approve | Action::Reject | Action::EditProposal | Action::Rerun
            ) {
                self.fail("nothing to review");
            }
            return Vec::new();
        };
        let (id, status) = (selected.id, selected.status);
        match action {
            Action::Approve | Action::EditProposal if status == ChangesetStatus::Stale => {
                self.fail(format!(
                    "changeset #{id} is stale: the memories it was built on changed; re-run it (R) or reject it (n)"
                ));
                Vec::new()
            }
            Action::Approve => vec![Effect::Approve(id)],
            Action::Reject => vec![Effect::Reject(id)],
            Action::Rerun => vec![Effect::Rerun(id)],
            Action::EditProposal => {
                let text = selected
                    .proposed
                    .iter()
                    .map(|p| p.content.replace('\n', " "))
                    .collect::<Vec<_>>()
                    .join("\n");
                self.overlay = Some(Overlay::editor(EditTarget::Proposal(id), &text));
                Vec::new()
            }
            Action::Open => {
                self.overlay = Some(Overlay::Changeset {
                    changeset: Box::new(selected.clone()),
                    scroll: 0,
                });
                Vec::new()
            }
            _ => Vec::new(),
        }
    }
}
