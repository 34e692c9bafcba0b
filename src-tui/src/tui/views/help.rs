//! The help window: every binding, grouped by where it applies.

use ratatui::text::{Line, Span};

use super::Ui;
use crate::tui::action::{Action, Scope};
use crate::tui::keymap::Keymap;

/// Lines of the help window: the keys of the view it was opened from (`here`) first, then
/// those that work everywhere and in lists, then the other views'; with a `filter`, only
/// the keys whose name, key or words hold it.
pub fn lines(keymap: &Keymap, ui: &Ui, here: Scope, filter: &str) -> Vec<Line<'static>> {
    let mut scopes = vec![here];
    scopes.extend(
        [
            Scope::Global,
            Scope::List,
            Scope::Latest,
            Scope::Search,
            Scope::Core,
            Scope::Review,
            Scope::History,
            Scope::Stores,
            Scope::Agents,
        ]
        .into_iter()
        .filter(|s| *s != here),
    );
    let wanted = filter.to_lowercase();
    let matches = |action: Action| {
        wanted.is_empty()
            || [action.help(), action.name(), &keymap.label(action)]
                .iter()
                .any(|t| t.to_lowercase().contains(&wanted))
    };
    let mut out = Vec::new();
    for scope in scopes {
        let actions: Vec<Action> = Action::ALL
            .iter()
            .copied()
            .filter(|a| a.scope() == scope && matches(*a))
            .collect();
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
    if !wanted.is_empty() {
        if out.is_empty() {
            out.push(Line::from(Span::styled(
                format!("No key matches “{filter}”."),
                ui.theme.dim(),
            )));
        }
        return out;
    }
    out.push(Line::from(""));
    out.push(Line::from(Span::styled("Questions".to_owned(), ui.theme.accent())));
    out.push(Line::from(vec![
        Span::styled(format!("  {:<16}", "y"), ui.theme.warning()),
        Span::raw("yes: the only answer that does what a question asks; enter and every other key are no"),
    ]));
    out.push(Line::from(""));
    out.push(Line::from(Span::styled("Text areas".to_owned(), ui.theme.accent())));
    for (keys, what) in [
        ("ctrl-s", "save (core) / approve (review)"),
        ("enter", "add (add window); alt-enter or ctrl-j: new line"),
        ("ctrl-z / ctrl-y", "undo / redo"),
        ("ctrl-u / ctrl-w", "delete to the start of the line / the word before"),
        ("esc", "close (asks before dropping changes)"),
    ] {
        out.push(Line::from(vec![
            Span::styled(format!("  {keys:<16}"), ui.theme.warning()),
            Span::raw(what.to_owned()),
        ]));
    }
    out.push(Line::from(""));
    out.push(Line::from(Span::styled(
        "Rebind any action in your config.toml (haema config shows where) under [tui.keys], e.g. approve = [\"y\", \"enter\"]".to_owned(),
        ui.theme.dim(),
    )));
    out
}
