//! Markdown highlighting of core sections with syntect's Markdown grammar, mapped to the
//! theme's 16-colour styles (not to a true-colour theme, which 16-colour terminals and
//! `NO_COLOR` could not show).

use std::sync::{Arc, OnceLock};

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use syntect::easy::ScopeRangeIterator;
use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxSet};

use super::theme::Theme;

/// Loads the grammar in the background (about 20 ms) so that the first frame does not wait.
#[derive(Clone, Default)]
pub struct Highlighter {
    syntaxes: Arc<OnceLock<SyntaxSet>>,
}

impl std::fmt::Debug for Highlighter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Highlighter")
            .field("loaded", &self.syntaxes.get().is_some())
            .finish()
    }
}

impl Highlighter {
    /// Starts loading on a background thread; until it is done text is shown plain.
    pub fn start() -> Self {
        let this = Self::default();
        let syntaxes = Arc::clone(&this.syntaxes);
        std::thread::Builder::new()
            .name("haema-syntax".into())
            .spawn(move || {
                syntaxes.get_or_init(SyntaxSet::load_defaults_newlines);
            })
            .ok();
        this
    }

    /// Loads now (tests, where frames must not depend on timing).
    pub fn loaded() -> Self {
        let this = Self::default();
        this.syntaxes.get_or_init(SyntaxSet::load_defaults_newlines);
        this
    }

    /// Markdown as styled lines (plain while the grammar loads).
    pub fn markdown(&self, text: &str, theme: Theme) -> Vec<Line<'static>> {
        let plain = || text.lines().map(|l| Line::raw(l.to_owned())).collect();
        let Some(set) = self.syntaxes.get() else {
            return plain();
        };
        let Some(syntax) = set.find_syntax_by_extension("md") else {
            return plain();
        };
        let rules = Rules::new(theme);
        let mut state = ParseState::new(syntax);
        let mut stack = ScopeStack::new();
        let mut out = Vec::new();
        for line in text.lines() {
            let with_newline = format!("{line}\n");
            let Ok(ops) = state.parse_line(&with_newline, set) else {
                return plain();
            };
            let mut spans = Vec::new();
            for (range, op) in ScopeRangeIterator::new(&ops, &with_newline) {
                if stack.apply(op).is_err() {
                    return plain();
                }
                let piece = with_newline.get(range).unwrap_or("").trim_end_matches('\n');
                if !piece.is_empty() {
                    spans.push(Span::styled(piece.to_owned(), rules.style(&stack)));
                }
            }
            out.push(Line::from(spans));
        }
        out
    }
}

/// Scope prefixes and their styles, most specific first.
struct Rules {
    rules: Vec<(Scope, Style)>,
}

impl Rules {
    fn new(theme: Theme) -> Self {
        let italic = Style::default().add_modifier(Modifier::ITALIC);
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let table: [(&str, Style); 10] = [
            ("markup.heading", theme.heading()),
            ("entity.name.section", theme.heading()),
            ("markup.raw", theme.code()),
            ("markup.underline.link", theme.link()),
            ("markup.bold", bold),
            ("markup.italic", italic),
            ("punctuation.definition.list_item", theme.marker()),
            ("punctuation.definition.blockquote", theme.marker()),
            ("markup.quote", italic),
            ("markup.list", theme.text()),
        ];
        Self {
            rules: table
                .into_iter()
                .filter_map(|(name, style)| Scope::new(name).ok().map(|s| (s, style)))
                .collect(),
        }
    }

    fn style(&self, stack: &ScopeStack) -> Style {
        let mut style = Style::default();
        for scope in stack.as_slice() {
            for (prefix, s) in &self.rules {
                if prefix.is_prefix_of(*scope) {
                    style = style.patch(*s);
                }
            }
        }
        style
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Color;

    #[test]
    fn headings_code_and_bullets_get_their_styles() {
        let h = Highlighter::loaded();
        let lines = h.markdown("## Tone\n- likes `rg` and **bold** words\n", Theme::new(true));
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].spans.iter().all(|s| s.style.fg == Some(Color::Blue)),
            "{:?}",
            lines[0]
        );
        let code = lines[1].spans.iter().find(|s| s.content.contains("rg")).unwrap();
        assert_eq!(code.style.fg, Some(Color::Yellow));
        let bullet = lines[1].spans.iter().find(|s| s.content.trim() == "-").unwrap();
        assert_eq!(bullet.style.fg, Some(Color::Magenta));
        let bold = lines[1].spans.iter().find(|s| s.content.contains("bold")).unwrap();
        assert!(bold.style.add_modifier.contains(Modifier::BOLD));
        let text: String = lines[1].spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "- likes `rg` and **bold** words");
    }

    #[test]
    fn without_colour_only_modifiers_remain_and_unloaded_is_plain() {
        let lines = Highlighter::loaded().markdown("# Title", Theme::new(false));
        assert!(lines[0].spans.iter().all(|s| s.style.fg.is_none()));
        let plain = Highlighter::default().markdown("# Title\nx", Theme::new(true));
        assert_eq!(plain.len(), 2);
        assert_eq!(plain[0].spans[0].style, Style::default());
    }
}
