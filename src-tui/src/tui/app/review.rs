//! Review: pending and stale changesets; approve, reject, edit then approve, approve all,
//! re-run.

use haema_core::{Changeset, ChangesetId, ChangesetKind, ChangesetStatus, PendingForget};

use super::{Ctx, Cursor, EditTarget, Effect, Overlay, PAGE_STEP, Pane, Reply};
use crate::tui::action::Action;

/// The Review view.
#[derive(Debug, Default)]
pub struct ReviewState {
    /// Pending changesets, then stale ones, newest first.
    pub items: Vec<Changeset>,
    /// Selection.
    pub cursor: Cursor,
    /// What approving each pending forget request among them would remove, worked out
    /// when the list was loaded.
    pub forgets: Vec<PendingForget>,
    /// The first answer arrived.
    pub loaded: bool,
}

impl ReviewState {
    /// Takes the list, keeping the selection on the same changeset.
    pub fn receive(&mut self, items: Vec<Changeset>, forgets: Vec<PendingForget>) {
        let keep = self.selected().map(|c| c.id);
        self.items = items;
        self.forgets = forgets;
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

    /// What approving pending forget request `id` would remove, when it is one.
    pub fn forget_of(&self, id: ChangesetId) -> Option<&PendingForget> {
        self.forgets.iter().find(|f| f.changeset == id)
    }
}

impl Pane for ReviewState {
    fn load(&mut self) -> Vec<Effect> {
        vec![Effect::LoadReview]
    }

    fn act(&mut self, action: Action, _ctx: &Ctx<'_>) -> Reply {
        if self.cursor.act(action, self.items.len(), PAGE_STEP) {
            return Reply::none();
        }
        if action == Action::ApproveAll {
            let ids: Vec<ChangesetId> = self
                .items
                .iter()
                // A forget request cannot be undone: it is approved on its own, after its
                // plan was shown.
                .filter(|c| c.status == ChangesetStatus::Pending && c.kind != ChangesetKind::Forget)
                .map(|c| c.id)
                .rev()
                .collect();
            return if ids.is_empty() {
                Reply::fail("nothing pending to approve all at once (forget requests are approved one by one, with y)")
            } else {
                Reply::overlay(Overlay::confirm(
                    format!("Approve all {} pending changesets, oldest first?", ids.len()),
                    "approve them all",
                    vec![Effect::ApproveAll(ids)],
                ))
            };
        }
        let Some(selected) = self.selected() else {
            if matches!(
                action,
                Action::Approve | Action::Reject | Action::EditProposal | Action::Rerun
            ) {
                return Reply::fail("nothing to review");
            }
            return Reply::none();
        };
        let (id, status) = (selected.id, selected.status);
        match action {
            Action::Approve | Action::EditProposal if status == ChangesetStatus::Stale => Reply::fail(format!(
                "changeset #{id} is stale: {}; re-run it (R) or reject it (n)",
                haema_core::STALE_MEANING
            )),
            Action::Approve if selected.kind == ChangesetKind::Forget => match self.forget_of(id) {
                Some(forget) => Reply::overlay(Overlay::confirm(
                    super::effect::pending_forget_question(forget),
                    "forget it for good",
                    vec![Effect::Approve(id)],
                )),
                // Never approved without showing what goes.
                None => Reply::fail(format!(
                    "what approving changeset #{id} would forget is not worked out yet; try again"
                )),
            },
            Action::Approve if selected.added().count() == 0 && selected.removed().count() > 0 => {
                Reply::overlay(Overlay::confirm(
                    format!(
                        "Changeset #{id} adds nothing and sets aside {} memories. Approve it anyway?",
                        selected.removed().count()
                    ),
                    "approve it",
                    vec![Effect::Approve(id)],
                ))
            }
            Action::Approve => vec![Effect::Approve(id)].into(),
            Action::Reject => vec![Effect::Reject(id)].into(),
            Action::Rerun => vec![Effect::Rerun(id)].into(),
            Action::EditProposal => {
                let text = selected
                    .proposed
                    .iter()
                    .map(|p| p.content.replace('\n', " "))
                    .collect::<Vec<_>>()
                    .join("\n");
                Reply::overlay(Overlay::editor(EditTarget::Proposal(id), &text))
            }
            Action::Open => Reply::overlay(Overlay::Changeset {
                changeset: Box::new(selected.clone()),
                scroll: 0,
            }),
            _ => Reply::none(),
        }
    }
}
