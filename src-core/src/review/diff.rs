//! Line and word diffs, shared by every front end (review view, core history).

use serde::Serialize;

/// What happened to a piece of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// In both.
    Same,
    /// Only in the old text.
    Removed,
    /// Only in the new text.
    Added,
}

/// One piece of a diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Piece {
    /// What happened to it.
    pub change: Change,
    /// The text (a line without its newline, or a word with its trailing space).
    pub text: String,
}

/// Longest-common-subsequence diff of two token lists.
fn diff_tokens(old: &[&str], new: &[&str]) -> Vec<Piece> {
    // Trim the common prefix and suffix first: most edits are small.
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (a, b) = (&old[prefix..old.len() - suffix], &new[prefix..new.len() - suffix]);
    let piece = |change, text: &str| Piece {
        change,
        text: text.to_owned(),
    };
    let mut out: Vec<Piece> = old[..prefix].iter().map(|t| piece(Change::Same, t)).collect();
    if a.len().saturating_mul(b.len()) > 4_000_000 {
        // Too large for a table: show it as replaced.
        out.extend(a.iter().map(|t| piece(Change::Removed, t)));
        out.extend(b.iter().map(|t| piece(Change::Added, t)));
    } else {
        let mut table = vec![vec![0u32; b.len() + 1]; a.len() + 1];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                table[i][j] = if a[i] == b[j] {
                    table[i + 1][j + 1] + 1
                } else {
                    table[i + 1][j].max(table[i][j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            if i < a.len() && j < b.len() && a[i] == b[j] {
                out.push(piece(Change::Same, a[i]));
                i += 1;
                j += 1;
            } else if i < a.len() && (j == b.len() || table[i + 1][j] >= table[i][j + 1]) {
                // Removals before additions, as people read a change.
                out.push(piece(Change::Removed, a[i]));
                i += 1;
            } else {
                out.push(piece(Change::Added, b[j]));
                j += 1;
            }
        }
    }
    out.extend(old[old.len() - suffix..].iter().map(|t| piece(Change::Same, t)));
    out
}

/// Line diff.
///
/// ```
/// use haema_core::review::diff::{self, Change};
/// let pieces = diff::lines("# USER\nAna", "# USER\nAna\nVegetarian");
/// assert_eq!(pieces.last().map(|p| (p.change, p.text.as_str())), Some((Change::Added, "Vegetarian")));
/// ```
pub fn lines(old: &str, new: &str) -> Vec<Piece> {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    diff_tokens(&a, &b)
}

/// Word diff: words keep their following whitespace, so joining the texts of the `Same`
/// and `Added` pieces gives the new text back.
///
/// ```
/// use haema_core::review::{Change, diff};
/// let pieces = diff::words("likes green tea", "likes black tea");
/// let changed: Vec<(Change, &str)> = pieces.iter().filter(|p| p.change != Change::Same).map(|p| (p.change, p.text.as_str())).collect();
/// assert_eq!(changed, [(Change::Removed, "green "), (Change::Added, "black ")]);
/// ```
pub fn words(old: &str, new: &str) -> Vec<Piece> {
    fn split(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut start = 0;
        let mut in_space = false;
        for (i, c) in text.char_indices() {
            if c.is_whitespace() {
                in_space = true;
            } else if in_space {
                out.push(&text[start..i]);
                start = i;
                in_space = false;
            }
        }
        if start < text.len() {
            out.push(&text[start..]);
        }
        out
    }
    diff_tokens(&split(old), &split(new))
}

/// Pieces as `same [-removed ][+added ]` text, for tests.
#[cfg(test)]
pub(crate) fn render(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(|p| match p.change {
            Change::Same => p.text.clone(),
            Change::Removed => format!("[-{}]", p.text),
            Change::Added => format!("[+{}]", p.text),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_diff_marks_changed_words() {
        assert_eq!(
            render(&words("likes green tea", "likes black tea")),
            "likes [-green ][+black ]tea"
        );
        let new = "likes black tea a lot";
        let rebuilt: String = words("likes green tea", new)
            .iter()
            .filter(|p| p.change != Change::Removed)
            .map(|p| p.text.as_str())
            .collect();
        assert_eq!(rebuilt, new);
    }

    #[test]
    fn line_diff_keeps_order() {
        let d = lines("a\nb\nc", "a\nc\nd");
        let kinds: Vec<(Change, &str)> = d.iter().map(|p| (p.change, p.text.as_str())).collect();
        assert_eq!(
            kinds,
            vec![
                (Change::Same, "a"),
                (Change::Removed, "b"),
                (Change::Same, "c"),
                (Change::Added, "d")
            ]
        );
        assert!(lines("", "").is_empty());
    }
}
