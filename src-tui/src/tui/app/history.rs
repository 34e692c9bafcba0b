//! History: every changeset, newest first, paged; details and revert.

use haema_core::{Changeset, ChangesetStatus};

use super::{App, Cursor, Effect, Overlay, PAGE, PAGE_STEP, PREFETCH};
use crate::tui::action::Action;

/// The History view.
#[derive(Debug, Default)]
pub struct HistoryState {
    /// Loaded changesets, newest first.
    pub items: Vec<Changeset>,
    /// Selection.
    pub cursor: Cursor,
    /// No more pages.
    pub exhausted: bool,
    /// A page is on its way.
    pub loading: bool,
    /// The first answer arrived.
    pub loaded: bool,
}

impl HistoryState {
    /// Reloads from the newest as many rows as are loaded.
    pub fn reload(&mut self) -> Effect {
        self.loading = true;
        Effect::LoadHistory {
            before: None,
            limit: self.items.len().max(PAGE),
        }
    }

    /// The selected changeset.
    pub fn selected(&self) -> Option<&Changeset> {
        self.items.get(self.cursor.selected)
    }

    /// Takes a page, keeping the selection on the same changeset.
    pub fn receive(&mut self, append: bool, page: Vec<Changeset>, limit: usize) {
        self.loading = false;
        self.loaded = true;
        self.exhausted = page.len() < limit;
        if append {
            let last = self.items.last().map(|c| c.id);
            self.items
                .extend(page.into_iter().filter(|c| last.is_none_or(|l| c.id < l)));
        } else {
            let keep = self.selected().map(|c| c.id);
            self.items = page;
            if let Some(pos) = keep.and_then(|id| self.items.iter().position(|c| c.id == id)) {
                self.cursor.selected = pos;
            }
        }
        self.cursor.clamp(self.items.len());
    }

    fn more(&mut self) -> Option<Effect> {
        if self.loading || self.exhausted || self.items.len() > self.cursor.selected + PREFETCH {
            return None;
        }
        let last = self.items.last()?.id;
        self.loading = true;
        Some(Effect::LoadHistory {
            before: Some(last),
            limit: PAGE,
        })
    }
}

impl App {
    pub(super) fn history_action(&mut self, action: Action) -> Vec<Effect> {
        let len = self.history.items.len();
        if Self::move_cursor(&mut self.history.cursor, action, len, PAGE_STEP) {
            return self.history.more().into_iter().collect();
        }
        let Some(selected) = self.history.selected() else {
            return Vec::new();
        };
        match action {
            Action::Open => {
                self.overlay = Some(Overlay::Changeset {
                    changeset: Box::new(selected.clone()),
                    scroll: 0,
                });
            }
            Action::Revert => match selected.status {
                ChangesetStatus::Committed => {
                    let (removed, added) = (selected.removed().count(), selected.added().count());
                    self.overlay = Some(Overlay::Confirm {
                        question: format!(
                            "Revert changeset #{}? Its {added} new memories are set aside and the {removed} it replaced come back, as a new changeset. (y/n)",
                            selected.id
                        ),
                        effects: vec![Effect::Revert(selected.id)],
                    });
                }
                status => {
                    let id = selected.id;
                    self.fail(format!(
                        "changeset #{id} is {}; only committed changesets can be reverted",
                        status.as_str()
                    ));
                }
            },
            _ => {}
        }
        Vec::new()
    }
}
