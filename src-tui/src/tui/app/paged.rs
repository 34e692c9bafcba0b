//! One list for every pane that shows rows read from the store (Latest, History, Search):
//! the cursor, the loading flags, the next page when the cursor nears the end, and the
//! selection kept on the same row when the list is read again.

use std::collections::HashSet;
use std::hash::Hash;

use haema_core::{ChangesetId, ChangesetSummary, MemoryId, MemoryRecord, SearchHit};

use super::{Cursor, PAGE, PAGE_STEP, PREFETCH};
use crate::tui::action::Action;

/// A row that knows which stored thing it shows, so that a reload can find it again.
pub trait Row {
    /// What identifies the row.
    type Key: Eq + Hash;
    /// The row's identity.
    fn key(&self) -> Self::Key;
}

impl Row for MemoryRecord {
    type Key = MemoryId;
    fn key(&self) -> MemoryId {
        self.id.clone()
    }
}

impl Row for ChangesetSummary {
    type Key = ChangesetId;
    fn key(&self) -> ChangesetId {
        self.id
    }
}

impl Row for SearchHit {
    type Key = MemoryId;
    fn key(&self) -> MemoryId {
        self.memory.id.clone()
    }
}

/// Rows loaded page by page, newest first.
#[derive(Debug)]
pub struct PagedList<T> {
    /// Loaded rows.
    pub items: Vec<T>,
    /// Selection.
    pub cursor: Cursor,
    /// No more pages.
    pub exhausted: bool,
    /// A page is on its way.
    pub loading: bool,
    /// The first answer arrived.
    pub loaded: bool,
}

impl<T> Default for PagedList<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            cursor: Cursor::default(),
            exhausted: false,
            loading: false,
            loaded: false,
        }
    }
}

impl<T> PagedList<T> {
    /// After a move to the bottom (`G`) that stopped at the last row loaded so far, not the
    /// last there is: says so, in `rows` ("memories", "changes").
    pub fn partial_end(&self, action: Action, rows: &str) -> Option<super::Note> {
        (action == Action::Bottom && !self.exhausted && !self.items.is_empty()).then(|| {
            super::Note::Inform(format!(
                "the last of the {} newest {rows} loaded so far; older ones load as you go on (the same key again)",
                haema_core::limits::grouped(self.items.len())
            ))
        })
    }
}

impl<T: Row> PagedList<T> {
    /// Starts reading the list again from the top; returns how many rows to ask for: as
    /// many as are loaded (at least a page), so that the selection can stay where it is.
    pub fn reload(&mut self) -> usize {
        self.loading = true;
        self.items.len().max(PAGE)
    }

    /// The selected row.
    pub fn selected(&self) -> Option<&T> {
        self.items.get(self.cursor.selected)
    }

    /// Takes an answer to a request for `limit` rows (fewer means the end): appended to
    /// what is loaded (rows already there are skipped), or replacing it with the selection
    /// kept on the same row when that row is still there.
    pub fn receive(&mut self, append: bool, page: Vec<T>, limit: usize) {
        self.loading = false;
        self.loaded = true;
        self.exhausted = page.len() < limit;
        if append {
            let known: HashSet<T::Key> = self.items.iter().map(Row::key).collect();
            self.items
                .extend(page.into_iter().filter(|r| !known.contains(&r.key())));
        } else {
            let keep = self.selected().map(Row::key);
            self.items = page;
            if let Some(pos) = keep.and_then(|k| self.items.iter().position(|r| r.key() == k)) {
                self.cursor.selected = pos;
            }
        }
        self.cursor.clamp(self.items.len());
    }

    /// Replaces the rows with a complete answer (no pages follow) and selects the first.
    pub fn replace(&mut self, rows: Vec<T>) {
        *self = Self {
            items: rows,
            loaded: true,
            exhausted: true,
            ..Self::default()
        };
    }

    /// Moves the cursor for a list action; returns whether `action` was one.
    pub fn move_cursor(&mut self, action: Action) -> bool {
        self.cursor.act(action, self.items.len(), PAGE_STEP)
    }

    /// The last row, when the cursor is near the end and more may exist: the caller asks
    /// for the page after it. Marks the page as on its way, so it is asked for once.
    pub fn next_page(&mut self) -> Option<&T> {
        if self.loading || self.exhausted || self.items.len() > self.cursor.selected + PREFETCH {
            return None;
        }
        self.loading = self.items.last().is_some();
        self.items.last()
    }

    /// A read failed: nothing is on its way any more.
    pub fn failed(&mut self) {
        self.loading = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq)]
    struct N(u32);

    impl Row for N {
        type Key = u32;
        fn key(&self) -> u32 {
            self.0
        }
    }

    fn rows(range: std::ops::Range<u32>) -> Vec<N> {
        range.rev().map(N).collect()
    }

    #[test]
    fn pages_prefetch_once_and_reloads_keep_the_selected_row() {
        let mut list = PagedList::default();
        assert_eq!(list.reload(), PAGE);
        list.receive(false, rows(100..300), PAGE);
        assert!(list.loaded && !list.loading && !list.exhausted);
        assert!(list.next_page().is_none(), "the cursor is far from the end");
        list.move_cursor(Action::Bottom);
        assert_eq!(list.next_page(), Some(&N(100)));
        assert!(list.next_page().is_none(), "asked once while on its way");
        list.receive(true, rows(90..101), PAGE);
        assert_eq!(list.items.len(), 210, "the overlapping row is skipped");
        assert!(list.exhausted);

        list.cursor.selected = 5;
        let key = list.selected().map(Row::key);
        assert_eq!(list.reload(), 210);
        let mut newer = rows(300..303);
        newer.extend(rows(90..300));
        list.receive(false, newer, 210);
        assert_eq!(list.selected().map(Row::key), key);
        assert_eq!(list.cursor.selected, 8);

        list.replace(rows(0..3));
        assert_eq!((list.cursor.selected, list.items.len()), (0, 3));
        assert!(list.exhausted && list.next_page().is_none());
    }
}
