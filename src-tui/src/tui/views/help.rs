//! The help window: every binding, grouped by where it applies.

use ratatui::text::{Line, Span};

use super::Ui;
use crate::tui::action::{Action, Scope};
use crate::tui::keymap::Keymap;

/// Lines of the help window.
pub fn lines(keymap: &Keymap, ui: &Ui) -> Vec<Line<'static>> {
    let scopes = [
        Scope::Global,
        Scope::List,
        Scope::Latest,
        Scope::Search,
        Scope::Core,
        Scope::Review,
        Scope::History,
        Scope::Stores,
    ];
    let mut out = Vec::new();
    for scope in scopes {
        let actions: Vec<Action> = Action::ALL.iter().copied().filter(|a| a.scope() == scope).collect();
        if actions.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(Line::from(""));
        }
        out.push(Line::from(Span::styled(scope.title().to_owned(), ui.theme.accent())));
        for action in actions {
            out.push(Line::from(vec![
                Span::styled(format!("  {:<16}", keymap.label(action)), ui.theme.warning()),
                Span::raw(action.help().to_owned()),
                Span::styled(format!("  [{}]", action.name()), ui.theme.dim()),
            ]));
        }
    }
    out.push(Line::from(""));
    out.push(Line::from(Span::styled("Text areas".to_owned(), ui.theme.accent())));
    for (keys, what) in [
        ("ctrl-s", "save (core) / approve (review)"),
        ("enter", "add (add window); alt-enter or ctrl-j: new line"),
        ("ctrl-u / ctrl-r", "undo / redo"),
        ("esc", "close (asks before dropping changes)"),
    ] {
        out.push(Line::from(vec![
            Span::styled(format!("  {keys:<16}"), ui.theme.warning()),
            Span::raw(what.to_owned()),
        ]));
    }
    out.push(Line::from(""));
    out.push(Line::from(Span::styled(
        "Rebind any action in <store>/haema.toml under [tui.keys], e.g. approve = [\"y\", \"enter\"]".to_owned(),
        ui.theme.dim(),
    )));
    out
}
