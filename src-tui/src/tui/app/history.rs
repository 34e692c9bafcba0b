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
            let mut reply: Reply = before
                .map(|before| Effect::LoadHistory {
                    before: Some(before),
                    limit: PAGE,
                })
                .into();
            reply.note = self.partial_end(action, "changes");
            return reply;
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
                        "Revert changeset #{}? {}. The revert is a new changeset (z undoes it).",
                        selected.id,
                        revert_words(selected.added, selected.removed)
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

/// What a revert does, counted in words: "Its 1 new memory is set aside and the 2 it
/// replaced come back".
fn revert_words(added: usize, removed: usize) -> String {
    let set_aside = match added {
        0 => None,
        1 => Some("its 1 new memory is set aside".to_owned()),
        n => Some(format!("its {n} new memories are set aside")),
    };
    let back = match removed {
        0 => None,
        1 => Some("the 1 memory it replaced comes back".to_owned()),
        n => Some(format!("the {n} memories it replaced come back")),
    };
    let words = match (set_aside, back) {
        (Some(a), Some(b)) => format!("{a} and {b}"),
        (Some(a), None) => a,
        (None, Some(b)) => b,
        (None, None) => "its profile change is taken back".to_owned(),
    };
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
