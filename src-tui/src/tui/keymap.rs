//! Key bindings: parsing key names, the defaults, overrides from `[tui.keys]`, lookup.

use std::collections::BTreeMap;

use haema_core::TuiSettings;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::{Action, Scope};

/// A key with its modifiers, normalised so that a bound key and a pressed key compare equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    code: KeyCode,
    mods: KeyModifiers,
}

impl Key {
    /// Normalises a crossterm key event: `shift` is dropped from characters (the
    /// character already says it) and shift-tab is one key.
    pub fn from_event(event: KeyEvent) -> Self {
        let mut mods = event.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        let code = match event.code {
            KeyCode::Char(c) => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::Char(c)
            }
            KeyCode::BackTab => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            other => other,
        };
        Self { code, mods }
    }

    /// Parses `q`, `G`, `ctrl-r`, `alt-x`, `shift-tab`, `enter`, `esc`, `space`, `f5`,
    /// `up`, `pagedown`...
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut mods = KeyModifiers::NONE;
        let mut rest = text;
        loop {
            let lower = rest.to_ascii_lowercase();
            let (prefix, flag) = if lower.starts_with("ctrl-") {
                ("ctrl-", KeyModifiers::CONTROL)
            } else if lower.starts_with("alt-") {
                ("alt-", KeyModifiers::ALT)
            } else if lower.starts_with("shift-") {
                ("shift-", KeyModifiers::SHIFT)
            } else {
                break;
            };
            mods |= flag;
            rest = &rest[prefix.len()..];
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => KeyCode::Char(c),
            _ => match rest.to_ascii_lowercase().as_str() {
                "enter" | "return" => KeyCode::Enter,
                "esc" | "escape" => KeyCode::Esc,
                "tab" => KeyCode::Tab,
                "backtab" => KeyCode::BackTab,
                "space" => KeyCode::Char(' '),
                "backspace" => KeyCode::Backspace,
                "delete" | "del" => KeyCode::Delete,
                "insert" => KeyCode::Insert,
                "up" => KeyCode::Up,
                "down" => KeyCode::Down,
                "left" => KeyCode::Left,
                "right" => KeyCode::Right,
                "home" => KeyCode::Home,
                "end" => KeyCode::End,
                "pageup" | "pgup" => KeyCode::PageUp,
                "pagedown" | "pgdn" => KeyCode::PageDown,
                f if f.len() > 1 && f.starts_with('f') && f[1..].parse::<u8>().is_ok_and(|n| (1..=12).contains(&n)) => {
                    KeyCode::F(f[1..].parse().unwrap_or(1))
                }
                _ => {
                    return Err(format!(
                        "`{text}` is not a key; write a character (`q`, `G`), a name (`enter`, `esc`, `tab`, `space`, `up`, `pagedown`, `f5`) with optional `ctrl-`, `alt-` or `shift-`"
                    ));
                }
            },
        };
        if rest.is_empty() {
            return Err("an empty key name; write a character or a key name such as `enter`".into());
        }
        let shift_only = mods == KeyModifiers::SHIFT;
        Ok(match code {
            KeyCode::Tab if mods.contains(KeyModifiers::SHIFT) => {
                Self::from_event(KeyEvent::new(KeyCode::BackTab, mods))
            }
            KeyCode::Char(c) if shift_only && c.is_ascii_alphabetic() => Self {
                code: KeyCode::Char(c.to_ascii_uppercase()),
                mods: KeyModifiers::NONE,
            },
            _ => Self::from_event(KeyEvent::new(code, mods)),
        })
    }

    /// How the help screen shows it.
    pub fn label(self) -> String {
        let mut out = String::new();
        if self.mods.contains(KeyModifiers::CONTROL) {
            out.push_str("ctrl-");
        }
        if self.mods.contains(KeyModifiers::ALT) {
            out.push_str("alt-");
        }
        if self.mods.contains(KeyModifiers::SHIFT) {
            out.push_str("shift-");
        }
        match self.code {
            KeyCode::Char(' ') => out.push_str("space"),
            KeyCode::Char(c) => out.push(c),
            KeyCode::Enter => out.push_str("enter"),
            KeyCode::Esc => out.push_str("esc"),
            KeyCode::Tab => out.push_str("tab"),
            KeyCode::BackTab => out.push_str("shift-tab"),
            KeyCode::Up => out.push('↑'),
            KeyCode::Down => out.push('↓'),
            KeyCode::Left => out.push('←'),
            KeyCode::Right => out.push('→'),
            KeyCode::PageUp => out.push_str("pgup"),
            KeyCode::PageDown => out.push_str("pgdn"),
            KeyCode::F(n) => out.push_str(&format!("f{n}")),
            other => out.push_str(&format!("{other:?}").to_lowercase()),
        }
        out
    }
}

/// Which keys do what.
#[derive(Debug, Clone, PartialEq)]
pub struct Keymap {
    bindings: BTreeMap<Action, Vec<Key>>,
}

impl Default for Keymap {
    fn default() -> Self {
        let bindings = Action::ALL
            .iter()
            .map(|&a| {
                let keys = a.default_keys().iter().filter_map(|k| Key::parse(k).ok()).collect();
                (a, keys)
            })
            .collect();
        Self { bindings }
    }
}

impl Keymap {
    /// The defaults with `[tui.keys]` laid over them. Unknown action names, keys that do
    /// not parse and two actions on one key in one scope are errors that say how to fix them.
    pub fn from_settings(settings: &TuiSettings) -> Result<Self, String> {
        let mut map = Self::default();
        for (name, keys) in &settings.keys {
            let action = Action::ALL.iter().copied().find(|a| a.name() == name).ok_or_else(|| {
                let names: Vec<&str> = Action::ALL.iter().map(|a| a.name()).collect();
                format!(
                    "[tui.keys] has an unknown action `{name}`; actions are: {}",
                    names.join(", ")
                )
            })?;
            let parsed = keys
                .keys()
                .into_iter()
                .map(|k| Key::parse(k).map_err(|e| format!("[tui.keys] {name}: {e}")))
                .collect::<Result<Vec<_>, _>>()?;
            map.bindings.insert(action, parsed);
        }
        map.check_conflicts()?;
        Ok(map)
    }

    fn check_conflicts(&self) -> Result<(), String> {
        let mut seen: BTreeMap<(Scope, String), Action> = BTreeMap::new();
        for (&action, keys) in &self.bindings {
            for key in keys {
                if let Some(other) = seen.insert((action.scope(), key.label()), action) {
                    return Err(format!(
                        "[tui.keys]: `{}` is bound to both `{}` and `{}`; give one of them another key",
                        key.label(),
                        other.name(),
                        action.name()
                    ));
                }
            }
        }
        Ok(())
    }

    /// The action `key` triggers in `scope` (then in lists, then everywhere).
    pub fn lookup(&self, key: Key, scope: Scope) -> Option<Action> {
        [scope, Scope::List, Scope::Global].into_iter().find_map(|s| {
            self.bindings
                .iter()
                .find(|(a, keys)| a.scope() == s && keys.contains(&key))
                .map(|(&a, _)| a)
        })
    }

    /// The first key of an action, as a hint shows it (`/` stays `/`).
    pub fn first_label(&self, action: Action) -> String {
        self.bindings
            .get(&action)
            .and_then(|keys| keys.first())
            .map(|k| k.label())
            .unwrap_or_default()
    }

    /// The keys of an action as the help screen and hints show them (`y`, `n/x`).
    pub fn label(&self, action: Action) -> String {
        self.bindings
            .get(&action)
            .map(|keys| keys.iter().map(|k| k.label()).collect::<Vec<_>>().join("/"))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use haema_core::KeyList;

    fn press(code: KeyCode, mods: KeyModifiers) -> Key {
        Key::from_event(KeyEvent::new(code, mods))
    }

    #[test]
    fn parsed_names_match_pressed_keys() {
        assert_eq!(Key::parse("q").unwrap(), press(KeyCode::Char('q'), KeyModifiers::NONE));
        assert_eq!(Key::parse("G").unwrap(), press(KeyCode::Char('G'), KeyModifiers::SHIFT));
        assert_eq!(
            Key::parse("shift-g").unwrap(),
            press(KeyCode::Char('G'), KeyModifiers::SHIFT)
        );
        assert_eq!(
            Key::parse("ctrl-r").unwrap(),
            press(KeyCode::Char('r'), KeyModifiers::CONTROL)
        );
        assert_eq!(
            Key::parse("shift-tab").unwrap(),
            press(KeyCode::BackTab, KeyModifiers::SHIFT)
        );
        assert_eq!(
            Key::parse("space").unwrap(),
            press(KeyCode::Char(' '), KeyModifiers::NONE)
        );
        assert_eq!(Key::parse("F5").unwrap(), press(KeyCode::F(5), KeyModifiers::NONE));
        assert_eq!(Key::parse("?").unwrap(), press(KeyCode::Char('?'), KeyModifiers::SHIFT));
        assert!(Key::parse("hyper-x").unwrap_err().contains("not a key"));
        assert!(Key::parse("").is_err());
        assert!(Key::parse("f13").is_err());
    }

    #[test]
    fn every_default_key_parses_and_defaults_do_not_conflict() {
        for action in Action::ALL {
            for key in action.default_keys() {
                assert!(Key::parse(key).is_ok(), "{key}");
            }
        }
        Keymap::default().check_conflicts().unwrap();
    }

    #[test]
    fn lookup_prefers_the_view_then_lists_then_global() {
        let map = Keymap::default();
        let y = Key::parse("y").unwrap();
        assert_eq!(map.lookup(y, Scope::Review), Some(Action::Approve));
        assert_eq!(map.lookup(y, Scope::Latest), None);
        assert_eq!(map.lookup(Key::parse("j").unwrap(), Scope::Review), Some(Action::Down));
        assert_eq!(map.lookup(Key::parse("q").unwrap(), Scope::Core), Some(Action::Quit));
    }

    #[test]
    fn settings_override_defaults_and_bad_ones_are_explained() {
        let mut settings = TuiSettings::default();
        settings
            .keys
            .insert("approve".into(), KeyList::Many(vec!["enter".into(), "ctrl-a".into()]));
        let map = Keymap::from_settings(&settings).unwrap();
        assert_eq!(
            map.lookup(Key::parse("ctrl-a").unwrap(), Scope::Review),
            Some(Action::Approve)
        );
        assert_eq!(map.lookup(Key::parse("y").unwrap(), Scope::Review), None);
        assert_eq!(map.label(Action::Approve), "enter/ctrl-a");

        settings.keys.insert("aprove".into(), KeyList::One("y".into()));
        let err = Keymap::from_settings(&settings).unwrap_err();
        assert!(
            err.contains("unknown action `aprove`") && err.contains("approve"),
            "{err}"
        );

        let mut clash = TuiSettings::default();
        clash.keys.insert("reject".into(), KeyList::One("y".into()));
        let err = Keymap::from_settings(&clash).unwrap_err();
        assert!(err.contains("`y` is bound to both"), "{err}");

        let mut bad = TuiSettings::default();
        bad.keys.insert("quit".into(), KeyList::One("ctrl-".into()));
        assert!(Keymap::from_settings(&bad).unwrap_err().contains("[tui.keys] quit"));
    }
}
