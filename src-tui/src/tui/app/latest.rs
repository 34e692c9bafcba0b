//! Latest: the newest memories, paged by keyset as the cursor nears the end.

use haema_core::MemoryRecord;

use super::{App, Cursor, Effect, PAGE, PAGE_STEP, PREFETCH};
use crate::tui::action::Action;

/// The Latest view.
#[derive(Debug, Default)]
pub struct LatestState {
    /// Loaded memories, newest first.
    pub items: Vec<MemoryRecord>,
    /// Selection.
    pub cursor: Cursor,
    /// No more pages.
    pub exhausted: bool,
    /// A page is on its way.
    pub loading: bool,
    /// The first answer arrived.
    pub loaded: bool,
}

impl LatestState {
    /// Reloads from the top as many rows as are loaded (at least a page).
    pub fn reload(&mut self) -> Effect {
        self.loading = true;
        Effect::LoadLatest {
            after: None,
            limit: self.items.len().max(PAGE),
        }
    }

    /// The selected memory.
    pub fn selected(&self) -> Option<&MemoryRecord> {
        self.items.get(self.cursor.selected)
    }

    /// Takes a page; a reload keeps the selection on the same memory when it is still there.
    pub fn receive(&mut self, append: bool, records: Vec<MemoryRecord>, limit: usize) {
        self.loading = false;
        self.loaded = true;
        self.exhausted = records.len() < limit;
        if append {
            let known: std::collections::HashSet<&str> = self.items.iter().map(|m| m.id.as_str()).collect();
            let fresh: Vec<MemoryRecord> = records.into_iter().filter(|m| !known.contains(m.id.as_str())).collect();
            self.items.extend(fresh);
        } else {
            let keep = self.selected().map(|m| m.id.clone());
            self.items = records;
            if let Some(pos) = keep.and_then(|id| self.items.iter().position(|m| m.id == id)) {
                self.cursor.selected = pos;
            }
        }
        self.cursor.clamp(self.items.len());
    }

    /// The next page, when the cursor is near the end and more may exist.
    pub fn more(&mut self) -> Option<Effect> {
        if self.loading || self.exhausted || self.items.len() > self.cursor.selected + PREFETCH {
            return None;
        }
        let last = self.items.last()?.clone();
        self.loading = true;
        Some(Effect::LoadLatest {
            after: Some(last),
            limit: PAGE,
        })
    }
}

impl App {
    pub(super) fn latest_action(&mut self, action: Action) -> Vec<Effect> {
        let len = self.latest.items.len();
        if Self::move_cursor(&mut self.latest.cursor, action, len, PAGE_STEP) {
            return self.latest.more().into_iter().collect();
        }
        match action {
            Action::Open => match self.latest.selected() {
                Some(m) => vec![Effect::LoadLineage(m.id.clone())],
                None => Vec::new(),
            },
            _ => Vec::new(),
        }
    }
}
