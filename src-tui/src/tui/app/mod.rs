//! The TUI's state machine: events and provider results go in, effects come out as data.
//! Nothing here touches the terminal or the store, so every path is unit-tested.
//!
//! Each view's state is a [`Pane`]: it loads itself, answers its key scope and returns a
//! [`Reply`] (effects, a window, a status line) that [`App`] applies; the drawing half is
//! [`Render`](crate::tui::views::Render). Latest, History and Search keep their rows in
//! one [`PagedList`] (cursor, loading flags, the next page near the end, the selection
//! kept on the same row across reloads).

mod agents;
mod core_view;
mod cursor;
mod effect;
#[cfg(test)]
pub mod fixtures;
mod history;
mod latest;
mod line_input;
mod memory_keys;
mod overlay;
mod paged;
mod pane;
mod review;
mod search;
mod stores;
#[cfg(test)]
mod tests;
mod update;
mod view;

use std::time::{Duration, Instant};

use haema_core::StoreInfo;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};

pub use agents::{AgentsState, NEW_KEY_HINT};
pub use core_view::{CoreMode, CoreState};
pub use cursor::Cursor;
pub use effect::{Effect, Msg, StoreEntry, Undo, describe_add, describe_forget};
pub use history::HistoryState;
pub use latest::LatestState;
pub use line_input::{Edit, LineInput};
pub use overlay::{EditTarget, Overlay};
pub use paged::{PagedList, Row};
pub use pane::{Ctx, Note, Pane, Reply};
pub use review::ReviewState;
pub use search::{HITS, PROFILE_LINES, SearchState};
pub use stores::StoresState;
pub use view::{Busy, Event, Status, View};

use super::action::Action;
use super::keymap::{Key, Keymap};

/// Rows fetched per page of an endless list.
pub const PAGE: usize = 200;
/// Load the next page when the selection comes this close to the end.
const PREFETCH: usize = 40;
/// Rows moved by page up / page down.
const PAGE_STEP: usize = 10;
/// How long an information message stays in the status line.
const MESSAGE_TTL: Duration = Duration::from_secs(6);
/// Messages the message log keeps.
const MESSAGES_KEPT: usize = 100;

/// Everything the TUI shows.
pub struct App {
    /// Current view.
    pub view: View,
    /// The view shown before it (where leaving a view goes back to).
    pub previous_view: View,
    /// Key bindings.
    pub keymap: Keymap,
    /// The open store, as last read.
    pub info: Option<StoreInfo>,
    /// Folder of the open store.
    pub store_dir: std::path::PathBuf,
    /// View states.
    pub latest: LatestState,
    /// Search view.
    pub search: SearchState,
    /// Core view.
    pub core: CoreState,
    /// Review view.
    pub review: ReviewState,
    /// History view.
    pub history: HistoryState,
    /// Stores view.
    pub stores: StoresState,
    /// Agents view.
    pub agents: AgentsState,
    /// A window over the view (help, confirmation, editor, details).
    pub overlay: Option<Overlay>,
    /// An editor waiting while the "discard changes?" question is open.
    pub pending_editor: Option<Overlay>,
    /// Status line.
    pub status: Option<Status>,
    /// Long work in progress (adding with the LLM).
    pub busy: Option<Busy>,
    /// Draft of the add window, kept when it is closed without adding.
    pub add_draft: String,
    /// How to take back the last change (z).
    pub undo: Option<Undo>,
    /// The last messages of the status line, newest first (M shows them whole).
    pub messages: std::collections::VecDeque<Status>,
    /// Changesets a decision is on its way for (approve, reject, revert...): a second key
    /// on one of them before the answer is not sent again.
    pub deciding: Vec<haema_core::ChangesetId>,
    /// Time as of the last tick.
    pub now: Instant,
    /// Ticks so far (drives the spinner).
    pub ticks: u64,
    /// Set when the user quits.
    pub quit: bool,
    /// Rows of the tab bar as last drawn: (view, first column, last column).
    pub tab_hits: std::cell::RefCell<Vec<(View, u16, u16)>>,
    /// The furthest a scrolled window can go, as last drawn (a scroll stops there).
    pub overlay_max_scroll: std::cell::Cell<u16>,
    /// How far the view's text beside its list (a preview, a change's details) is
    /// scrolled; any other key brings it back to the top.
    pub pane_scroll: u16,
    /// The furthest the view's text can scroll, as last drawn.
    pub pane_max_scroll: std::cell::Cell<u16>,
}

impl App {
    /// A new app on the store in `store_dir`; call [`App::start`] for the first effects.
    pub fn new(store_dir: std::path::PathBuf, keymap: Keymap, now: Instant) -> Self {
        Self {
            view: View::Latest,
            previous_view: View::Latest,
            keymap,
            info: None,
            store_dir,
            latest: LatestState::default(),
            search: SearchState::default(),
            core: CoreState::default(),
            review: ReviewState::default(),
            history: HistoryState::default(),
            stores: StoresState::default(),
            agents: AgentsState::default(),
            overlay: None,
            pending_editor: None,
            status: None,
            busy: None,
            add_draft: String::new(),
            undo: None,
            messages: std::collections::VecDeque::new(),
            deciding: Vec::new(),
            now,
            ticks: 0,
            quit: false,
            tab_hits: std::cell::RefCell::new(Vec::new()),
            overlay_max_scroll: std::cell::Cell::new(u16::MAX),
            pane_scroll: 0,
            pane_max_scroll: std::cell::Cell::new(0),
        }
    }

    /// The effects that fill the first frame.
    pub fn start(&mut self) -> Vec<Effect> {
        let mut effects = vec![Effect::LoadInfo];
        effects.extend(self.load_view(self.view));
        effects
    }

    /// Number of changesets waiting for review (the badge).
    pub fn pending_count(&self) -> usize {
        self.info.as_ref().map_or(0, |i| i.pending_changesets)
    }

    /// Shows an information message (and keeps it in the message log).
    pub fn inform(&mut self, text: impl Into<String>) {
        self.say(text.into(), false);
    }

    /// Shows an error until the next action (and keeps it in the message log).
    pub fn fail(&mut self, text: impl Into<String>) {
        self.say(text.into(), true);
    }

    fn say(&mut self, text: String, error: bool) {
        let status = Status {
            text,
            error,
            at: self.now,
        };
        if self.messages.front().is_none_or(|last| last.text != status.text) {
            self.messages.push_front(status.clone());
            self.messages.truncate(MESSAGES_KEPT);
        }
        self.status = Some(status);
    }

    /// Handles a terminal event.
    pub fn handle_event(&mut self, event: Event) -> Vec<Effect> {
        match event {
            Event::Tick(now) => self.tick(now),
            Event::Resize => Vec::new(),
            Event::Paste(text) => self.paste(&text),
            Event::Mouse(mouse) => self.mouse(mouse),
            Event::Key(key) => {
                if self.status.as_ref().is_some_and(|s| s.error) {
                    self.status = None;
                }
                let effects = self.key(key);
                self.once_per_decision(effects)
            }
        }
    }

    /// Drops a decision on a changeset whose last decision is still on its way (y pressed
    /// twice), and notes the others as on their way.
    fn once_per_decision(&mut self, mut effects: Vec<Effect>) -> Vec<Effect> {
        let decided = |e: &Effect| match e {
            Effect::Approve(id) | Effect::Reject(id) | Effect::Revert(id) | Effect::Reopen(id) | Effect::Rerun(id) => {
                Some(*id)
            }
            Effect::ApproveEdited { id, .. } => Some(*id),
            _ => None,
        };
        let mut repeated = None;
        effects.retain(|e| match decided(e) {
            Some(id) if self.deciding.contains(&id) => {
                repeated = Some(id);
                false
            }
            _ => true,
        });
        self.deciding.extend(effects.iter().filter_map(decided));
        if let Some(id) = repeated {
            self.inform(format!("changeset #{id} is being decided already"));
        }
        effects
    }

    fn tick(&mut self, now: Instant) -> Vec<Effect> {
        self.now = now;
        self.ticks += 1;
        if self
            .status
            .as_ref()
            .is_some_and(|s| !s.error && now.duration_since(s.at) > MESSAGE_TTL)
        {
            self.status = None;
        }
        self.panes_mut().into_iter().flat_map(|p| p.tick(now)).collect()
    }

    fn paste(&mut self, text: &str) -> Vec<Effect> {
        if let Some(overlay) = &mut self.overlay {
            overlay.paste(text);
            return Vec::new();
        }
        self.on_pane(|pane, ctx| pane.paste(text, ctx))
    }

    fn mouse(&mut self, mouse: MouseEvent) -> Vec<Effect> {
        if self.overlay.is_some() {
            return match mouse.kind {
                MouseEventKind::ScrollDown => self.overlay_key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE)),
                MouseEventKind::ScrollUp => self.overlay_key(KeyEvent::new(KeyCode::Up, KeyModifiers::NONE)),
                _ => Vec::new(),
            };
        }
        match mouse.kind {
            MouseEventKind::ScrollDown => self.act(Action::Down),
            MouseEventKind::ScrollUp => self.act(Action::Up),
            MouseEventKind::Down(_) if mouse.row == 0 => {
                let hit = self
                    .tab_hits
                    .borrow()
                    .iter()
                    .find(|(_, a, b)| (*a..=*b).contains(&mouse.column))
                    .map(|(v, _, _)| *v);
                hit.map(|v| self.show(v)).unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }

    fn key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if self.overlay.is_some() {
            return self.overlay_key(key);
        }
        let action = self.keymap.lookup(Key::from_event(key), self.view.scope());
        // The text beside the list scrolls with its own keys (from a text field too, when
        // the key is no character); any other key brings it back to the top.
        let typing = self.pane(self.view).typing();
        if let Some(scroll @ (Action::ScrollDown | Action::ScrollUp)) = action
            && !(typing && matches!(key.code, KeyCode::Char(_)))
        {
            self.scroll_pane(scroll);
            return Vec::new();
        }
        self.pane_scroll = 0;
        // Shift-tab goes to the previous view from a text field too (tab moves the focus
        // within the view first).
        if typing && key.code != KeyCode::BackTab {
            return self.on_pane(|pane, ctx| pane.input(key, ctx));
        }
        match action {
            Some(action) => self.act(action),
            None => Vec::new(),
        }
    }

    /// Scrolls the view's text beside its list by a line, within the text as last drawn.
    fn scroll_pane(&mut self, action: Action) {
        let max = self.pane_max_scroll.get();
        self.pane_scroll = match action {
            Action::ScrollDown => self.pane_scroll.saturating_add(1).min(max),
            _ => self.pane_scroll.min(max).saturating_sub(1),
        };
    }

    /// Performs an action.
    pub fn act(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::Quit => self.quit_or_ask(),
            Action::Help => {
                self.overlay = Some(Overlay::help());
                Vec::new()
            }
            Action::NextView => self.show(View::ALL[(self.view.index() + 1) % View::ALL.len()]),
            Action::PrevView => self.show(View::ALL[(self.view.index() + View::ALL.len() - 1) % View::ALL.len()]),
            Action::ShowLatest => self.show(View::Latest),
            Action::ShowSearch => self.show(View::Search),
            Action::ShowCore => self.show(View::Core),
            Action::ShowReview => self.show(View::Review),
            Action::ShowHistory => self.show(View::History),
            Action::ShowStores => self.show(View::Stores),
            Action::ShowAgents => self.show(View::Agents),
            Action::Search => {
                let mut effects = self.show(View::Search);
                // `/` starts a new query: the next character typed replaces the old one.
                self.search.focus_query(true);
                effects.retain(|e| !matches!(e, Effect::Search { .. } | Effect::Recall { .. }));
                effects
            }
            Action::Add => {
                if self.busy.is_some() {
                    self.fail("still adding the last memory; wait until it is done");
                    return Vec::new();
                }
                self.overlay = Some(Overlay::add(&self.add_draft));
                Vec::new()
            }
            Action::Refresh => {
                self.inform("reloaded");
                self.refresh()
            }
            Action::Messages => {
                self.overlay = Some(Overlay::Messages { scroll: 0 });
                Vec::new()
            }
            Action::Undo => match self.undo.take() {
                Some(undo) => {
                    self.inform(format!("undoing {}…", undo.what));
                    vec![undo.effect]
                }
                None => {
                    self.fail("nothing to undo yet: z takes back the last change made here (approve, reject, delete, edit, pin, lock, a core edit)");
                    Vec::new()
                }
            },
            _ => self.on_pane(|pane, ctx| pane.act(action, ctx)),
        }
    }

    /// Quits, unless that would drop the add window's draft: then asks first.
    fn quit_or_ask(&mut self) -> Vec<Effect> {
        if self.add_draft.trim().is_empty() {
            self.quit = true;
        } else {
            let draft: String = self.add_draft.chars().take(60).collect();
            let more = if self.add_draft.chars().count() > 60 { "…" } else { "" };
            self.overlay = Some(Overlay::confirm(
                format!(
                    "Your draft «{}{more}» is not added yet and goes when haema closes. Quit anyway? No keeps it (a adds it).",
                    crate::output::printable(&draft).replace('\n', " ")
                ),
                "quit and drop the draft",
                vec![Effect::Quit],
            ));
        }
        Vec::new()
    }

    /// The state of a view.
    pub fn pane(&self, view: View) -> &dyn Pane {
        match view {
            View::Latest => &self.latest,
            View::Search => &self.search,
            View::Core => &self.core,
            View::Review => &self.review,
            View::History => &self.history,
            View::Stores => &self.stores,
            View::Agents => &self.agents,
        }
    }

    fn panes_mut(&mut self) -> [&mut dyn Pane; 7] {
        [
            &mut self.latest,
            &mut self.search,
            &mut self.core,
            &mut self.review,
            &mut self.history,
            &mut self.stores,
            &mut self.agents,
        ]
    }

    /// The state of a view to change, with what it may read of the app.
    fn pane_mut(&mut self, view: View) -> (&mut dyn Pane, Ctx<'_>) {
        let ctx = Ctx {
            now: self.now,
            store_dir: &self.store_dir,
        };
        let pane: &mut dyn Pane = match view {
            View::Latest => &mut self.latest,
            View::Search => &mut self.search,
            View::Core => &mut self.core,
            View::Review => &mut self.review,
            View::History => &mut self.history,
            View::Stores => &mut self.stores,
            View::Agents => &mut self.agents,
        };
        (pane, ctx)
    }

    /// Runs `f` on the current view's pane and applies its reply.
    fn on_pane(&mut self, f: impl FnOnce(&mut dyn Pane, &Ctx<'_>) -> Reply) -> Vec<Effect> {
        let (pane, ctx) = self.pane_mut(self.view);
        let reply = f(pane, &ctx);
        self.apply(reply)
    }

    /// Does what a pane asked for; returns its effects.
    fn apply(&mut self, reply: Reply) -> Vec<Effect> {
        if let Some(overlay) = reply.overlay {
            self.overlay = Some(overlay);
        }
        match reply.note {
            Some(Note::Inform(text)) => self.inform(text),
            Some(Note::Fail(text)) => self.fail(text),
            None => {}
        }
        let mut effects = reply.effects;
        if reply.quit {
            effects.extend(self.quit_or_ask());
        }
        if reply.leave {
            let back = if self.previous_view == self.view {
                View::Latest
            } else {
                self.previous_view
            };
            effects.extend(self.show(back));
        }
        effects
    }

    /// The folder that holds the stores: the parent of the open one.
    pub fn stores_root(&self) -> std::path::PathBuf {
        stores::stores_root(&self.store_dir)
    }

    /// Switches to a view and reloads it.
    pub fn show(&mut self, view: View) -> Vec<Effect> {
        if view != self.view {
            self.previous_view = self.view;
        }
        self.view = view;
        if view == View::Search {
            // Search takes typing at once: letters go to the query, never to commands.
            self.search.focus_query(false);
        }
        self.load_view(view)
    }

    fn load_view(&mut self, view: View) -> Vec<Effect> {
        self.pane_mut(view).0.load()
    }

    /// Reloads what is shown (after a write, or when another process wrote the store).
    pub fn refresh(&mut self) -> Vec<Effect> {
        let mut effects = vec![Effect::LoadInfo];
        effects.extend(self.load_view(self.view));
        effects
    }
}
