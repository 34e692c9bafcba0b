//! Search: a debounced type-ahead query, the mode toggle, and the recall preview.

use std::time::{Duration, Instant};

use haema_core::{Recall, SearchHit, SearchMode, SearchResults};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{Ctx, Edit, Effect, LineInput, PagedList, Pane, Reply};
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
    /// The hits of the last answer (one complete page).
    pub hits: PagedList<SearchHit>,
    /// The mode the last answer ran in; `None` until a query has answered.
    pub ran: Option<SearchMode>,
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
    /// Query and mode of the request on its way, and of the hits shown: an answer to the
    /// same question again (a refresh) keeps the selection on the same memory.
    asked: (String, SearchMode),
    shown: Option<(String, SearchMode)>,
}

impl SearchState {
    fn run(&mut self) -> Vec<Effect> {
        self.due = None;
        self.generation += 1;
        let query = self.query.text().trim().to_owned();
        let mut effects = Vec::new();
        if query.is_empty() {
            self.hits = PagedList::default();
            self.ran = None;
            self.shown = None;
            self.searching = false;
        } else {
            self.searching = true;
            self.asked = (query.clone(), self.mode);
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

    /// Takes a search answer if it belongs to the current query; returns its notice.
    pub fn search_done(&mut self, generation: u64, results: SearchResults) -> Option<String> {
        if generation != self.generation {
            return None;
        }
        self.searching = false;
        self.ran = Some(results.mode);
        if self.shown.as_ref() == Some(&self.asked) {
            let limit = results.hits.len();
            self.hits.receive(false, results.hits, limit);
        } else {
            self.hits.replace(results.hits);
        }
        self.hits.exhausted = true;
        self.shown = Some(self.asked.clone());
        results.notice
    }

    /// Takes a recall answer if it belongs to the current query.
    pub fn recall_done(&mut self, generation: u64, recall: Recall) {
        if generation == self.generation {
            self.recall = Some(recall);
        }
    }

    /// The selected hit.
    pub fn selected(&self) -> Option<&SearchHit> {
        self.hits.selected()
    }
}

fn next_mode(mode: SearchMode) -> SearchMode {
    match mode {
        SearchMode::Hybrid => SearchMode::Vector,
        SearchMode::Vector => SearchMode::Lexical,
        SearchMode::Lexical => SearchMode::Hybrid,
    }
}

impl Pane for SearchState {
    fn load(&mut self) -> Vec<Effect> {
        self.run()
    }

    fn tick(&mut self, now: Instant) -> Vec<Effect> {
        match self.due {
            Some(due) if due <= now => self.run(),
            _ => Vec::new(),
        }
    }

    fn paste(&mut self, text: &str, ctx: &Ctx<'_>) -> Reply {
        self.query.insert_str(text);
        self.editing = true;
        self.due = Some(ctx.now + DEBOUNCE);
        Reply::none()
    }

    fn typing(&self) -> bool {
        self.editing
    }

    /// A key while the query has the focus.
    fn input(&mut self, key: KeyEvent, ctx: &Ctx<'_>) -> Reply {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('c') if ctrl => Reply::quit(),
            KeyCode::Esc | KeyCode::Down | KeyCode::Tab => {
                self.editing = false;
                if self.due.is_some() {
                    self.run().into()
                } else {
                    Reply::none()
                }
            }
            KeyCode::Enter => {
                self.editing = false;
                self.run().into()
            }
            _ => {
                if self.query.handle(key) == Edit::Changed {
                    self.due = Some(ctx.now + DEBOUNCE);
                }
                Reply::none()
            }
        }
    }

    fn act(&mut self, action: Action, _ctx: &Ctx<'_>) -> Reply {
        if self.hits.move_cursor(action) {
            return Reply::none();
        }
        match action {
            Action::CycleMode => {
                self.mode = next_mode(self.mode);
                self.run().into()
            }
            Action::ToggleRecall => {
                self.show_recall = !self.show_recall;
                if self.show_recall {
                    self.run().into()
                } else {
                    Reply::none()
                }
            }
            Action::Open if self.selected().is_none() => {
                self.editing = true;
                Reply::none()
            }
            _ => self
                .selected()
                .and_then(|hit| super::memory_keys::on_memory(action, &hit.memory))
                .unwrap_or_else(Reply::none),
        }
    }

    fn failed(&mut self) {
        self.searching = false;
    }
}
