//! A one-line text input (search query, store name) with a cursor.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Text and a cursor position (in characters).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineInput {
    text: String,
    cursor: usize,
}

/// What a key did to the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// The text changed.
    Changed,
    /// Only the cursor moved, or nothing happened.
    Moved,
    /// Not an editing key.
    Ignored,
}

impl LineInput {
    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Cursor position in characters.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    fn byte_at(&self, chars: usize) -> usize {
        self.text.char_indices().nth(chars).map_or(self.text.len(), |(i, _)| i)
    }

    fn len(&self) -> usize {
        self.text.chars().count()
    }

    /// Inserts pasted text (newlines become spaces).
    pub fn insert_str(&mut self, text: &str) {
        for c in text.chars() {
            self.insert(if c == '\n' || c == '\r' { ' ' } else { c });
        }
    }

    fn insert(&mut self, c: char) {
        let at = self.byte_at(self.cursor);
        self.text.insert(at, c);
        self.cursor += 1;
    }

    /// Applies an editing key: characters, backspace, delete, arrows, home/end, ctrl-u
    /// (clear to start), ctrl-w (delete word), ctrl-a / ctrl-e.
    pub fn handle(&mut self, key: KeyEvent) -> Edit {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('u') if ctrl => {
                let at = self.byte_at(self.cursor);
                self.text.replace_range(..at, "");
                self.cursor = 0;
                Edit::Changed
            }
            KeyCode::Char('w') if ctrl => {
                let chars: Vec<char> = self.text.chars().collect();
                let mut start = self.cursor;
                while start > 0 && chars[start - 1].is_whitespace() {
                    start -= 1;
                }
                while start > 0 && !chars[start - 1].is_whitespace() {
                    start -= 1;
                }
                let (a, b) = (self.byte_at(start), self.byte_at(self.cursor));
                self.text.replace_range(a..b, "");
                self.cursor = start;
                Edit::Changed
            }
            KeyCode::Char('a') if ctrl => {
                self.cursor = 0;
                Edit::Moved
            }
            KeyCode::Char('e') if ctrl => {
                self.cursor = self.len();
                Edit::Moved
            }
            KeyCode::Char(c) if !ctrl && !key.modifiers.contains(KeyModifiers::ALT) => {
                self.insert(c);
                Edit::Changed
            }
            KeyCode::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                let at = self.byte_at(self.cursor);
                self.text.remove(at);
                Edit::Changed
            }
            KeyCode::Delete if self.cursor < self.len() => {
                let at = self.byte_at(self.cursor);
                self.text.remove(at);
                Edit::Changed
            }
            KeyCode::Left => {
                self.cursor = self.cursor.saturating_sub(1);
                Edit::Moved
            }
            KeyCode::Right => {
                self.cursor = (self.cursor + 1).min(self.len());
                Edit::Moved
            }
            KeyCode::Home => {
                self.cursor = 0;
                Edit::Moved
            }
            KeyCode::End => {
                self.cursor = self.len();
                Edit::Moved
            }
            KeyCode::Backspace | KeyCode::Delete => Edit::Moved,
            _ => Edit::Ignored,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn edits_multibyte_text_by_characters() {
        let mut input = LineInput::default();
        for c in "커피 ☕ tea".chars() {
            assert_eq!(input.handle(key(KeyCode::Char(c))), Edit::Changed);
        }
        input.handle(key(KeyCode::Left));
        input.handle(key(KeyCode::Left));
        input.handle(key(KeyCode::Left));
        input.handle(key(KeyCode::Backspace));
        assert_eq!(input.text(), "커피 ☕tea");
        input.handle(KeyEvent::new(KeyCode::Char('w'), KeyModifiers::CONTROL));
        assert_eq!(input.text(), "커피 tea");
        input.handle(key(KeyCode::End));
        input.insert_str("\nx");
        assert_eq!(input.text(), "커피 tea x");
        input.handle(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        assert_eq!(input.text(), "");
        assert_eq!(input.handle(key(KeyCode::Backspace)), Edit::Moved);
        assert_eq!(input.handle(key(KeyCode::Tab)), Edit::Ignored);
    }
}
