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
/// Profile lines shown beside the hits, at most.
pub const PROFILE_LINES: usize = 4;

/// The Search view.
#[derive(Debug, Default)]
pub struct SearchState {
    /// The query.
    pub query: LineInput,
    /// Keys go to the query (the focus the view opens with); otherwise they are commands
    /// on the selected result.
    pub editing: bool,
    /// The next character typed replaces the query instead of extending it (after `/`).
    pub replace_on_type: bool,
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
    /// The profile's lines that hold the query's words.
    pub profile: Vec<haema_core::review::ProfileLine>,
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
            self.profile.clear();
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

    /// Gives the query the focus; with `replace`, the next character typed starts a new
    /// query (as after `/`).
    pub fn focus_query(&mut self, replace: bool) {
        self.editing = true;
        self.replace_on_type = replace && !self.query.text().is_empty();
    }

    /// Runs the typed query now if it is waiting for the typing to pause.
    fn run_if_due(&mut self) -> Vec<Effect> {
        if self.due.is_some() { self.run() } else { Vec::new() }
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

    /// A key while the query has the focus: text goes to the query, the arrows choose a
    /// result, Enter opens it, Tab moves the focus to the results (where letters are
    /// commands on the selected one), Esc leaves the view.
    fn input(&mut self, key: KeyEvent, ctx: &Ctx<'_>) -> Reply {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let replace = std::mem::take(&mut self.replace_on_type);
        match key.code {
            KeyCode::Char('c') if ctrl => Reply::quit(),
            KeyCode::Esc => Reply {
                leave: true,
                ..self.run_if_due().into()
            },
            KeyCode::Tab => {
                let effects = self.run_if_due();
                self.editing = false;
                effects.into()
            }
            KeyCode::Up => {
                self.hits.move_cursor(Action::Up);
                Reply::none()
            }
            KeyCode::Down => {
                self.hits.move_cursor(Action::Down);
                Reply::none()
            }
            KeyCode::PageUp => {
                self.hits.move_cursor(Action::PageUp);
                Reply::none()
            }
            KeyCode::PageDown => {
                self.hits.move_cursor(Action::PageDown);
                Reply::none()
            }
            KeyCode::Enter => {
                // The hits shown answer the query typed: open the selected one. Otherwise
                // run the query now.
                if self.due.is_none()
                    && !self.searching
                    && let Some(hit) = self.selected()
                {
                    return super::memory_keys::on_memory(Action::Open, &hit.memory).unwrap_or_else(Reply::none);
                }
                self.run().into()
            }
            _ => {
                if replace && matches!(key.code, KeyCode::Char(_) | KeyCode::Backspace | KeyCode::Delete) && !ctrl {
                    self.query = LineInput::default();
                    if matches!(key.code, KeyCode::Backspace | KeyCode::Delete) {
                        self.due = Some(ctx.now + DEBOUNCE);
                        return Reply::none();
                    }
                }
                if self.query.handle(key) == Edit::Changed {
                    self.due = Some(ctx.now + DEBOUNCE);
                }
                Reply::none()
            }
        }
    }

    fn act(&mut self, action: Action, _ctx: &Ctx<'_>) -> Reply {
        // Up from the first result, or Esc, goes back to the query.
        if matches!(action, Action::Back) || (action == Action::Up && self.hits.cursor.selected == 0) {
            self.focus_query(false);
            return Reply::none();
        }
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
                self.focus_query(false);
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
