//! The drawing half of a pane: each view's state draws itself and names its key hints.

use ratatui::Frame;
use ratatui::layout::Rect;

use super::{Ui, agents, core_view, latest, review, search, stores_history};
use crate::tui::action::Action;
use crate::tui::app::{
    AgentsState, App, CoreMode, CoreState, HistoryState, LatestState, ReviewState, SearchState, StoresState,
};

/// How a pane looks. The app's [`Pane`](crate::tui::app::Pane) trait requires it, so every
/// view is drawn and hinted through one trait object.
pub trait Render {
    /// Draws the pane into `area` (`app` for what all panes share: keys, store, clock).
    fn render(&self, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui);

    /// The keys the status line suggests, most useful first.
    fn hints(&self) -> Vec<(Action, &'static str)>;
}

impl Render for LatestState {
    fn render(&self, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
        latest::draw(self, frame, area, app, ui);
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![(Action::Open, "lineage"), (Action::Add, "add")]
    }
}

impl Render for SearchState {
    fn render(&self, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
        search::draw(self, frame, area, app, ui);
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        if self.editing {
            return Vec::new();
        }
        vec![
            (Action::Search, "query"),
            (Action::CycleMode, "mode"),
            (Action::ToggleRecall, "recall"),
        ]
    }
}

impl Render for CoreState {
    fn render(&self, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
        core_view::draw(self, frame, area, app, ui);
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        match self.mode {
            CoreMode::Versions => vec![
                (Action::MarkVersion, "mark"),
                (Action::Restore, "restore"),
                (Action::Back, "sections"),
            ],
            CoreMode::Sections => vec![
                (Action::EditSection, "edit"),
                (Action::EditExternal, "$EDITOR"),
                (Action::ToggleLock, "lock"),
                (Action::Versions, "versions"),
            ],
        }
    }
}

impl Render for ReviewState {
    fn render(&self, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
        review::draw(self, frame, area, app, ui);
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Approve, "approve"),
            (Action::Reject, "reject"),
            (Action::EditProposal, "edit"),
            (Action::ApproveAll, "all"),
            (Action::Rerun, "re-run"),
        ]
    }
}

impl Render for HistoryState {
    fn render(&self, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
        stores_history::history(self, frame, area, app, ui);
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![(Action::Open, "details"), (Action::Revert, "revert")]
    }
}

impl Render for StoresState {
    fn render(&self, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
        stores_history::stores(self, frame, area, app, ui);
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![(Action::SwitchStore, "open"), (Action::NewStore, "new")]
    }
}

impl Render for AgentsState {
    fn render(&self, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
        agents::agents(self, frame, area, app, ui);
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::NewKey, "new key"),
            (Action::RevokeKey, "revoke"),
            (Action::UndoAgent, "undo its changes"),
        ]
    }
}
