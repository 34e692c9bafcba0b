//! Drawing: pure functions from the app state to a frame. Nothing here changes state
//! (list offsets are remembered in cells) or touches the store.

mod agents;
mod changeset;
mod chrome;
mod core_view;
mod help;
mod latest;
mod overlay;
mod render;
mod review;
mod search;
mod stores_history;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_capture;
mod widgets;

pub use render::Render;
pub use widgets::thousands;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};

use super::app::App;
use super::clock::Clock;
use super::highlight::Highlighter;
use super::theme::Theme;

/// What drawing needs besides the state.
#[derive(Debug, Clone)]
pub struct Ui {
    /// Styles.
    pub theme: Theme,
    /// Time zone.
    pub clock: Clock,
    /// Markdown highlighting.
    pub highlighter: Highlighter,
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame<'_>, app: &App, ui: &Ui) {
    let [tabs, body, status] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(1), Constraint::Length(1)]).areas(frame.area());
    chrome::tabs(frame, tabs, app, ui);
    app.pane_max_scroll.set(0);
    app.pane(app.view).render(frame, body, app, ui);
    chrome::status(frame, status, app, ui);
    if app.overlay.is_some() {
        overlay::draw(frame, frame.area(), app, ui);
    }
}
