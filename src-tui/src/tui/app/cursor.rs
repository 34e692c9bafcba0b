//! A cursor in a list: the selected row and the first row shown.

use std::cell::Cell;

use crate::tui::action::Action;

/// Selection in a list of `len` rows. The scroll offset is kept by the drawing code (it
/// knows the height) in a `Cell`, so drawing can stay `&self`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cursor {
    /// Selected row.
    pub selected: usize,
    /// First row shown, as last drawn.
    pub offset: Cell<usize>,
}

impl Cursor {
    /// Moves by `delta` rows within `0..len`.
    pub fn move_by(&mut self, delta: isize, len: usize) {
        if len == 0 {
            self.selected = 0;
            return;
        }
        let target = self.selected.saturating_add_signed(delta);
        self.selected = target.min(len - 1);
    }

    /// Moves for a list action (`page` rows for page up/down); returns whether `action`
    /// was a list move.
    pub fn act(&mut self, action: Action, len: usize, page: usize) -> bool {
        let page = isize::try_from(page.max(1)).unwrap_or(10);
        match action {
            Action::Up => self.move_by(-1, len),
            Action::Down => self.move_by(1, len),
            Action::PageUp => self.move_by(-page, len),
            Action::PageDown => self.move_by(page, len),
            Action::Top => self.selected = 0,
            Action::Bottom => self.selected = len.saturating_sub(1),
            _ => return false,
        }
        true
    }

    /// Keeps the selection inside `0..len` after the list changed.
    pub fn clamp(&mut self, len: usize) {
        self.selected = self.selected.min(len.saturating_sub(1));
    }

    /// The offset that shows the selection in `height` rows, scrolling as little as
    /// possible from the last one; remembers it.
    pub fn visible_offset(&self, height: usize) -> usize {
        let height = height.max(1);
        let mut offset = self.offset.get();
        if self.selected < offset {
            offset = self.selected;
        } else if self.selected >= offset + height {
            offset = self.selected + 1 - height;
        }
        self.offset.set(offset);
        offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_within_bounds_and_scrolls_minimally() {
        let mut c = Cursor::default();
        c.move_by(-1, 10);
        assert_eq!(c.selected, 0);
        c.move_by(25, 10);
        assert_eq!(c.selected, 9);
        assert_eq!(c.visible_offset(4), 6);
        c.move_by(-1, 10);
        assert_eq!(c.visible_offset(4), 6, "moving up inside the window does not scroll");
        c.move_by(-5, 10);
        assert_eq!(c.visible_offset(4), 3);
        c.clamp(2);
        assert_eq!(c.selected, 1);
        c.move_by(1, 0);
        assert_eq!(c.selected, 0);
    }
}
