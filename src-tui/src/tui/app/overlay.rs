//! Windows over a view: help, confirmation, the add and edit text areas, details.

use haema_core::{Changeset, ChangesetId, Lineage, MemoryId, Section};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Borders};
use ratatui_textarea::{TextArea, WrapMode};

use super::{App, Effect};

/// What an editor window edits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditTarget {
    /// A core section.
    Section(Section),
    /// The proposed memories of a pending changeset, one per line; saving approves.
    Proposal(ChangesetId),
    /// One memory's text; saving replaces it (a change History can revert).
    Memory(MemoryId),
    /// One memory's attributes as JSON; saving replaces them (a change History can revert).
    Attributes(MemoryId),
}

/// A window over the current view.
pub enum Overlay {
    /// The key list, the current view's keys first.
    Help {
        /// First line shown.
        scroll: u16,
        /// Only the lines holding this text (`/` then type); empty: every line.
        filter: String,
        /// Keys go to the filter (after `/`, until enter or esc).
        filtering: bool,
    },
    /// The last messages of the status line, newest first.
    Messages {
        /// First line shown.
        scroll: u16,
    },
    /// A yes/no question that only `y` answers yes: every other key, Enter too, is no
    /// (a key never does something on its own that the person did not spell out).
    Confirm {
        /// Question.
        question: String,
        /// What `y` does, in a few words ("forget for good"); shown on the answer line.
        yes: String,
        /// What yes does.
        effects: Vec<Effect>,
    },
    /// Text to add.
    Add(Box<TextArea<'static>>),
    /// An editor.
    Editor {
        /// What it edits.
        target: EditTarget,
        /// The text area (with undo).
        area: Box<TextArea<'static>>,
        /// The text it started with.
        original: String,
    },
    /// A memory's lineage.
    Lineage {
        /// The lineage.
        lineage: Box<Lineage>,
        /// First line shown.
        scroll: u16,
    },
    /// A key just made or rotated: shown this once, never kept in the messages.
    NewKey(Box<haema_core::NewAgentKey>),
    /// One changeset in full.
    Changeset {
        /// The changeset.
        changeset: Box<Changeset>,
        /// First line shown.
        scroll: u16,
    },
}

fn text_area(text: &str, title: String) -> TextArea<'static> {
    let mut area = TextArea::new(text.split('\n').map(str::to_owned).collect());
    area.set_wrap_mode(WrapMode::Word);
    area.set_block(Block::default().borders(Borders::ALL).title(title));
    area.set_cursor_line_style(Style::default());
    area.set_cursor_style(Style::default().add_modifier(Modifier::REVERSED));
    area.move_cursor(ratatui_textarea::CursorMove::Bottom);
    area.move_cursor(ratatui_textarea::CursorMove::End);
    area
}

impl Overlay {
    /// The help window, at its top, unfiltered.
    pub fn help() -> Self {
        Self::Help {
            scroll: 0,
            filter: String::new(),
            filtering: false,
        }
    }

    /// A question only `y` answers yes ([`Overlay::Confirm`]); `yes` says what it does.
    pub fn confirm(question: impl Into<String>, yes: impl Into<String>, effects: Vec<Effect>) -> Self {
        Self::Confirm {
            question: question.into(),
            yes: yes.into(),
            effects,
        }
    }

    /// The add window, starting from a draft.
    pub fn add(draft: &str) -> Self {
        let mut area = text_area(
            draft,
            " Add a memory · enter adds · alt-enter new line · esc keeps a draft ".into(),
        );
        area.set_placeholder_text("What should the memory learn? e.g. \"The user prefers tea to coffee.\"");
        Self::Add(Box::new(area))
    }

    /// An editor window.
    pub fn editor(target: EditTarget, text: &str) -> Self {
        let title = match &target {
            EditTarget::Section(s) => format!(" Edit {s} · ctrl-s saves · esc cancels · ctrl-z undo "),
            EditTarget::Proposal(id) => {
                format!(" Changeset #{id}: one memory per line · ctrl-s approves · esc cancels · ctrl-z undo ")
            }
            EditTarget::Memory(_) => " Change this memory · ctrl-s saves · esc cancels · ctrl-z undo ".to_owned(),
            EditTarget::Attributes(_) => " Attributes as JSON · ctrl-s saves · esc cancels ".to_owned(),
        };
        Self::Editor {
            target,
            area: Box::new(text_area(text, title)),
            original: text.to_owned(),
        }
    }

    /// Inserts pasted text where it makes sense.
    pub fn paste(&mut self, text: &str) {
        match self {
            Self::Add(area) | Self::Editor { area, .. } => {
                area.insert_str(text);
            }
            _ => {}
        }
    }
}

/// Scrolls a window by a key: the list keys (j/k, arrows, page up/down, ctrl-f/ctrl-b,
/// space, g/Home, G/End). The drawing keeps the line shown within the text.
fn scroll(value: &mut u16, key: KeyEvent) -> bool {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('f') if ctrl => *value = value.saturating_add(10),
        KeyCode::Char('b') if ctrl => *value = value.saturating_sub(10),
        KeyCode::Down | KeyCode::Char('j') => *value = value.saturating_add(1),
        KeyCode::Up | KeyCode::Char('k') => *value = value.saturating_sub(1),
        KeyCode::PageDown | KeyCode::Char(' ') => *value = value.saturating_add(10),
        KeyCode::PageUp => *value = value.saturating_sub(10),
        KeyCode::Home | KeyCode::Char('g') => *value = 0,
        KeyCode::End | KeyCode::Char('G') => *value = u16::MAX,
        _ => return false,
    }
    true
}

/// A key in a text area, with the terminal's usual editing keys: ctrl-z undoes, ctrl-y
/// (or ctrl-r) redoes, ctrl-u deletes to the start of the line (as in the search box) and
/// ctrl-w the word before the cursor.
fn edit_key(area: &mut TextArea<'static>, key: KeyEvent) {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('z') if ctrl => {
            area.undo();
        }
        KeyCode::Char('y' | 'r') if ctrl => {
            area.redo();
        }
        KeyCode::Char('u') if ctrl => {
            area.delete_line_by_head();
        }
        _ => {
            area.input(key);
        }
    }
}

/// The one answer that is yes to a question: `y`, with no modifier but shift.
fn is_yes(key: KeyEvent) -> bool {
    matches!(key.code, KeyCode::Char('y' | 'Y')) && !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

fn is_close(key: KeyEvent) -> bool {
    matches!(key.code, KeyCode::Esc | KeyCode::Char('q') | KeyCode::Enter)
        || (key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL))
}

impl App {
    /// A key while a window is open.
    pub(super) fn overlay_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let Some(mut overlay) = self.overlay.take() else {
            return Vec::new();
        };
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let mut keep = true;
        let mut effects = Vec::new();
        match &mut overlay {
            Overlay::Help {
                scroll: s,
                filter,
                filtering,
            } => {
                if *filtering {
                    // Typing narrows the list; enter keeps the filter, esc drops it.
                    match key.code {
                        KeyCode::Enter => *filtering = false,
                        KeyCode::Esc => {
                            *filtering = false;
                            filter.clear();
                        }
                        KeyCode::Backspace => {
                            filter.pop();
                        }
                        KeyCode::Char(c) if !ctrl => filter.push(c),
                        _ => {}
                    }
                    *s = 0;
                } else if key.code == KeyCode::Char('/') {
                    *filtering = true;
                    filter.clear();
                } else if key.code == KeyCode::Esc && !filter.is_empty() {
                    filter.clear();
                } else if !scroll(s, key) && (is_close(key) || matches!(key.code, KeyCode::Char('?') | KeyCode::F(1))) {
                    keep = false;
                }
            }
            Overlay::Lineage { scroll: s, .. }
            | Overlay::Changeset { scroll: s, .. }
            | Overlay::Messages { scroll: s } => {
                if !scroll(s, key) && is_close(key) {
                    keep = false;
                }
            }
            Overlay::NewKey(_) => {
                // Only a key meant to close it does: a stray key must not hide the key
                // before it is copied.
                if matches!(key.code, KeyCode::Esc | KeyCode::Enter) {
                    keep = false;
                }
            }
            Overlay::Confirm { effects: yes, .. } => {
                // Only `y` is yes; any other key (Enter, a letter typed by mistake) is no.
                if is_yes(key) {
                    effects = std::mem::take(yes);
                }
                keep = false;
            }
            Overlay::Add(area) => {
                let newline = key.code == KeyCode::Enter && key.modifiers.contains(KeyModifiers::ALT)
                    || (ctrl && key.code == KeyCode::Char('j'));
                if newline {
                    area.insert_newline();
                } else if key.code == KeyCode::Enter || (ctrl && key.code == KeyCode::Char('s')) {
                    let text = area.lines().join("\n");
                    if text.trim().is_empty() {
                        self.fail("nothing to add: type what the memory should learn, or press esc");
                    } else {
                        self.add_draft.clear();
                        self.busy = Some(super::Busy {
                            label: "adding: the LLM is merging it with related memories".into(),
                            since: self.now,
                        });
                        effects.push(Effect::Add(text));
                        keep = false;
                    }
                } else if key.code == KeyCode::Esc || (ctrl && key.code == KeyCode::Char('c')) {
                    self.add_draft = area.lines().join("\n");
                    keep = false;
                } else {
                    edit_key(area, key);
                }
            }
            Overlay::Editor { target, area, original } => {
                let text = area.lines().join("\n");
                if ctrl && key.code == KeyCode::Char('s') {
                    effects = self.save_editor(target, &text);
                    keep = effects.is_empty();
                } else if key.code == KeyCode::Esc || (ctrl && key.code == KeyCode::Char('c')) {
                    if text == *original {
                        keep = false;
                    } else {
                        // Ask before throwing edits away; "no" returns to the editor.
                        let restore = std::mem::replace(&mut overlay, Overlay::Messages { scroll: 0 });
                        self.pending_editor = Some(restore);
                        self.overlay = Some(Overlay::confirm(
                            "Discard your changes? No goes back to editing.",
                            "discard them",
                            vec![],
                        ));
                        return Vec::new();
                    }
                } else {
                    edit_key(area, key);
                }
            }
        }
        // A question about quitting was answered yes: the app quits; the runtime never
        // sees the effect.
        if effects.contains(&Effect::Quit) {
            effects.retain(|e| *e != Effect::Quit);
            self.quit = true;
        }
        // A scroll stops at the end of the text, as last drawn.
        if let Overlay::Help { scroll: s, .. }
        | Overlay::Messages { scroll: s }
        | Overlay::Lineage { scroll: s, .. }
        | Overlay::Changeset { scroll: s, .. } = &mut overlay
        {
            *s = (*s).min(self.overlay_max_scroll.get());
        }
        if keep {
            self.overlay = Some(overlay);
        } else if let Some(editor) = self.pending_editor.take() {
            // A discard question was answered: "no" (no effects, not yes) goes back to editing.
            if !is_yes(key) {
                self.overlay = Some(editor);
            }
        }
        effects
    }

    fn save_editor(&mut self, target: &EditTarget, text: &str) -> Vec<Effect> {
        match target {
            EditTarget::Section(section) => vec![Effect::SaveSection {
                section: *section,
                text: text.trim_end().to_owned(),
            }],
            EditTarget::Proposal(id) => {
                let memories: Vec<String> = text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(str::to_owned)
                    .collect();
                if memories.is_empty() {
                    self.fail("no memories left; to drop the whole change, reject it instead (n)");
                    return Vec::new();
                }
                vec![Effect::ApproveEdited { id: *id, memories }]
            }
            EditTarget::Memory(id) => {
                let text = text.trim();
                if text.is_empty() {
                    self.fail("the text is empty; to remove the memory, delete it (d)");
                    return Vec::new();
                }
                vec![Effect::UpdateMemory {
                    id: id.clone(),
                    text: text.to_owned(),
                }]
            }
            EditTarget::Attributes(id) => match parse_attributes(text) {
                Ok(attributes) => vec![Effect::UpdateAttributes {
                    id: id.clone(),
                    attributes,
                }],
                Err(problem) => {
                    self.fail(problem);
                    Vec::new()
                }
            },
        }
    }
}

/// The attributes a person wrote as JSON; what is wrong with them, in words, otherwise (an
/// unknown key is refused, never dropped).
fn parse_attributes(text: &str) -> Result<haema_core::MemoryAttributes, String> {
    const KEYS: [&str; 7] = [
        "memory_type",
        "importance",
        "source",
        "agent_id",
        "session_id",
        "user_id",
        "metadata",
    ];
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("the attributes are not JSON ({e}); fix them or press esc"))?;
    let Some(object) = value.as_object() else {
        return Err("the attributes must be one JSON object: {\"importance\": 0.8, ...}".to_owned());
    };
    if let Some(unknown) = object.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!("`{unknown}` is not an attribute; use {}", KEYS.join(", ")));
    }
    let attributes: haema_core::MemoryAttributes =
        serde_json::from_value(value).map_err(|e| format!("the attributes do not fit ({e})"))?;
    let attributes = attributes.checked().map_err(|e| e.to_string())?;
    haema_core::secrets::refuse_in_ids(&attributes).map_err(|e| e.to_string())?;
    Ok(attributes)
}
