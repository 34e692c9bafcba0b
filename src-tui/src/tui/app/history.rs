//! History: every changeset as a summary line, newest first, paged; details (the
//! changeset read whole) and revert.

use haema_core::{ChangesetKind, ChangesetStatus, ChangesetSummary};

use super::{Ctx, Effect, Overlay, PAGE, PagedList, Pane, Reply};
use crate::tui::action::Action;

/// The History view: loaded changeset summaries, newest first.
pub type HistoryState = PagedList<ChangesetSummary>;

impl Pane for HistoryState {
    fn load(&mut self) -> Vec<Effect> {
        let limit = self.reload();
        vec![Effect::LoadHistory { before: None, limit }]
    }

    fn act(&mut self, action: Action, _ctx: &Ctx<'_>) -> Reply {
        if self.move_cursor(action) {
            let before = self.next_page().map(|c| c.id);
            return before
                .map(|before| Effect::LoadHistory {
                    before: Some(before),
                    limit: PAGE,
                })
                .into();
        }
        let Some(selected) = self.selected() else {
            return Reply::none();
        };
        match action {
            Action::Open => vec![Effect::LoadChangeset(selected.id)].into(),
            Action::Revert => match selected.status {
                _ if selected.kind == ChangesetKind::Forget => Reply::fail(format!(
                    "changeset #{} forgot memories; what is forgotten cannot come back",
                    selected.id
                )),
                ChangesetStatus::Committed => Reply::overlay(Overlay::confirm(
                    format!(
                        "Revert changeset #{}? Its {} new memories are set aside and the {} it replaced come back, as a new changeset (z undoes the revert).",
                        selected.id, selected.added, selected.removed
                    ),
                    "revert it",
                    vec![Effect::Revert(selected.id)],
                )),
                status => Reply::fail(format!(
                    "changeset #{} is {}; only committed changesets can be reverted",
                    selected.id,
                    status.as_str()
                )),
            },
            _ => Reply::none(),
        }
    }

    fn failed(&mut self) {
        PagedList::failed(self);
    }
}
