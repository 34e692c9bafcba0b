//! The lines of the profile (core.md) that a search's words are in, shown beside the
//! memories a search finds: the profile is always given to the assistant, but it is no
//! memory, so search itself never returns it.

use serde::Serialize;

use crate::text::terms::{query_words, words};
use crate::types::Section;
use crate::types::core_md::CoreSections;

/// One line of the profile that matches a search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProfileLine {
    /// The section it is in.
    pub section: Section,
    /// The line, without its list marker (`-`, `*`, `+`, `1.`).
    pub text: String,
}

/// The lines of `core` that hold a word of `query` (its content words, as search looks for
/// them; a word also matches its other endings, such as "allergy" and "allergic"), the
/// lines with most of them first, then in file order; at most `limit`.
///
/// ```
/// use haema_core::{CoreSections, review::profile_lines};
/// let core = CoreSections::parse("# SOUL\n\n# TOOLS\n\n# RULE\n- Peanuts are a hard no in any food suggestion.\n\n# USER\n- Lives in Lyon.\n")?;
/// let found = profile_lines(&core, "food", 5);
/// assert_eq!(found[0].text, "Peanuts are a hard no in any food suggestion.");
/// assert!(profile_lines(&core, "what about the", 5).is_empty()); // no content word
/// # Ok::<(), haema_core::Error>(())
/// ```
pub fn profile_lines(core: &CoreSections, query: &str, limit: usize) -> Vec<ProfileLine> {
    let wanted = query_words(query);
    if wanted.iter().all(|w| crate::text::terms::is_stop_word(w)) {
        return Vec::new();
    }
    let mut found: Vec<(usize, usize, ProfileLine)> = Vec::new();
    for (section, text) in core.iter() {
        for line in text.lines() {
            let shown = list_item(line.trim());
            if shown.is_empty() || shown.starts_with('#') || shown.starts_with("<!--") {
                continue;
            }
            let have = words(shown);
            let hits = wanted.iter().filter(|w| have.iter().any(|h| alike(w, h))).count();
            if hits > 0 {
                let order = found.len();
                found.push((
                    hits,
                    order,
                    ProfileLine {
                        section,
                        text: shown.to_owned(),
                    },
                ));
            }
        }
    }
    found.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    found.into_iter().take(limit).map(|(_, _, line)| line).collect()
}

/// A line without its list marker: `- `, `* `, `+ ` or a number and `.` or `)`.
fn list_item(line: &str) -> &str {
    let bullet = line.strip_prefix(['-', '*', '+']).filter(|rest| rest.starts_with(' '));
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let numbered = (digits > 0)
        .then(|| line[digits..].strip_prefix(['.', ')']))
        .flatten()
        .filter(|rest| rest.starts_with(' '));
    bullet.or(numbered).unwrap_or(line).trim()
}

/// The same word, or two forms of it: they share all but their last two letters (and at
/// least four).
fn alike(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let shared = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let shorter = a.chars().count().min(b.chars().count());
    shared >= 4 && shared + 2 >= shorter
}

#[cfg(test)]
mod tests {
    use super::{alike, list_item};

    #[test]
    fn list_markers_are_dropped_and_other_text_kept() {
        assert_eq!(list_item("- Tea."), "Tea.");
        assert_eq!(list_item("3. Peanuts are a hard no."), "Peanuts are a hard no.");
        assert_eq!(list_item("12) Twelve."), "Twelve.");
        assert_eq!(list_item("2026 was a good year."), "2026 was a good year.");
        assert_eq!(list_item("-5 degrees"), "-5 degrees");
    }

    #[test]
    fn forms_of_a_word_are_alike_and_short_words_only_themselves() {
        assert!(alike("allergy", "allergic"));
        assert!(alike("food", "foods"));
        assert!(!alike("tea", "team"));
        assert!(!alike("cat", "category"));
        assert!(!alike("peanut", "pear"));
    }
}
