//! Search: a debounced type-ahead query, the mode toggle, and the recall preview.

use std::time::{Duration, Instant};

use haema_core::{Recall, SearchMode, SearchResults};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{App, Cursor, Edit, Effect, LineInput, PAGE_STEP};
use crate::tui::action::Action;

/// Typing pauses this long before a query runs.
pub const DEBOUNCE: Duration = Duration::from_millis(250);
/// Hits asked for.
pub const HITS: i64 = 50;
/// Token budget of the recall preview.
pub const RECALL_BUDGET: usize = 1000;

/// The Search view.
#[derive(Debug, Default)]
pub struct SearchState {
    /// The query.
    pub query: LineInput,
    /// Keys go to the query.
    pub editing: bool,
    /// Mode asked for.
    pub mode: SearchMode,
    /// The last answer.
    pub results: Option<SearchResults>,
    /// Selection in the hits.
    pub cursor: Cursor,
    /// Tags requests; answers to older ones are dropped.
    pub generation: u64,
    /// When the typed query is due to run.
    pub due: Option<Instant>,
    /// A query is on its way.
    pub searching: bool,
    /// The recall preview is shown instead of the hit preview.
    pub show_recall: bool,
    /// The last recall block.
    pub recall: Option<Recall>,
}

impl SearchState {
    fn run(&mut self) -> Vec<Effect> {
        self.due = None;
        self.generation += 1;
        let query = self.query.text().trim().to_owned();
        let mut effects = Vec::new();
        if query.is_empty() {
            self.results = None;
            self.searching = false;
        } else {
            self.searching = true;
            effects.push(Effect::Search {
                generation: self.generation,
                query: query.clone(),
                mode: self.mode,
            });
        }
        if self.show_recall {
            effects.push(Effect::Recall {
                generation: self.generation,
                query,
                budget: RECALL_BUDGET,
            });
        }
        effects
    }

    /// Takes a recall answer if it belongs to the current query.
    pub fn recall_done(&mut self, generation: u64, recall: Recall) {
        if generation == self.generation {
            self.recall = Some(recall);
        }
    }

    /// The selected hit.
    pub fn selected(&self) -> Option<&haema_core::SearchHit> {
        self.results.as_ref().and_then(|r| r.hits.get(self.cursor.selected))
    }
}

fn next_mode(mode: SearchMode) -> SearchMode {
    match mode {
        SearchMode::Hybrid => SearchMode::Vector,
        SearchMode::Vector => SearchMode::Lexical,
        SearchMode::Lexical => SearchMode::Hybrid,
    }
}

impl App {
    pub(super) fn search_reload(&mut self) -> Vec<Effect> {
        self.search.run()
    }

    pub(super) fn search_tick(&mut self, now: Instant) -> Vec<Effect> {
        match self.search.due {
            Some(due) if due <= now => self.search.run(),
            _ => Vec::new(),
        }
    }

    pub(super) fn search_paste(&mut self, text: &str) -> Vec<Effect> {
        self.search.query.insert_str(text);
        self.search.editing = true;
        self.search.due = Some(self.now + DEBOUNCE);
        Vec::new()
    }

    pub(super) fn search_done(&mut self, generation: u64, results: SearchResults) -> Vec<Effect> {
        if generation != self.search.generation {
            return Vec::new();
        }
        self.search.searching = false;
        if let Some(notice) = &results.notice {
            self.inform(notice.clone());
        }
        self.search.results = Some(results);
        self.search.cursor = Cursor::default();
        Vec::new()
    }

    /// A key while the query has the focus.
    pub(super) fn search_input(&mut self, key: KeyEvent) -> Vec<Effect> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('c') if ctrl => {
                self.quit = true;
                Vec::new()
            }
            KeyCode::Esc | KeyCode::Down | KeyCode::Tab => {
                self.search.editing = false;
                if self.search.due.is_some() {
                    self.search.run()
                } else {
                    Vec::new()
                }
            }
            KeyCode::Enter => {
                self.search.editing = false;
                self.search.run()
            }
            _ => {
                if self.search.query.handle(key) == Edit::Changed {
                    self.search.due = Some(self.now + DEBOUNCE);
                }
                Vec::new()
            }
        }
    }

    pub(super) fn search_action(&mut self, action: Action) -> Vec<Effect> {
        let len = self.search.results.as_ref().map_or(0, |r| r.hits.len());
        if Self::move_cursor(&mut self.search.cursor, action, len, PAGE_STEP) {
            return Vec::new();
        }
        match action {
            Action::CycleMode => {
                self.search.mode = next_mode(self.search.mode);
                self.search.run()
            }
            Action::ToggleRecall => {
                self.search.show_recall = !self.search.show_recall;
                if self.search.show_recall {
                    self.search.run()
                } else {
                    Vec::new()
                }
            }
            Action::Open => match self.search.selected() {
                Some(hit) => vec![Effect::LoadLineage(hit.memory.id.clone())],
                None => {
                    self.search.editing = true;
                    Vec::new()
                }
            },
            _ => Vec::new(),
        }
    }
}
