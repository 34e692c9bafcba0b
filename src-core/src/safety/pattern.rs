//! The matcher of instruction-override phrases: a text as word tokens, and patterns as rows
//! of slots (a set of words, `prefix*` for any word that starts with `prefix`; a gap of up to
//! n words that never crosses a sentence end; a colon). The phrases are in [`super::phrases`].

/// One token of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    Word(String),
    Colon,
    /// The end of a sentence or line.
    Stop,
}

/// Words (letters, digits and inner apostrophes) of lowercase text, colons and sentence
/// ends; other punctuation only separates words.
pub(crate) fn tokens(lower: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Tok>| {
        let w = word.trim_end_matches('\'');
        if !w.is_empty() {
            out.push(Tok::Word(w.to_owned()));
        }
        word.clear();
    };
    for c in lower.chars() {
        match c {
            c if c.is_alphanumeric() => word.push(c),
            '\'' | '’' if !word.is_empty() => word.push('\''),
            _ => {
                flush(&mut word, &mut out);
                match c {
                    ':' => out.push(Tok::Colon),
                    '.' | '!' | '?' | '\n' | '。' | '！' | '？' => out.push(Tok::Stop),
                    _ => {}
                }
            }
        }
    }
    flush(&mut word, &mut out);
    out
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Slot {
    W(&'static [&'static str]),
    Gap(usize),
    Colon,
}
use Slot::{Colon, Gap, W};

fn word_matches(word: &str, alternatives: &[&str]) -> bool {
    alternatives.iter().any(|a| match a.strip_suffix('*') {
        Some(prefix) => word.starts_with(prefix),
        None => word == *a,
    })
}

/// Where `pattern` ends when it matches from token `at`.
fn match_at(tokens: &[Tok], at: usize, pattern: &[Slot]) -> Option<usize> {
    let Some((first, rest)) = pattern.split_first() else {
        return Some(at);
    };
    match *first {
        W(alternatives) => match tokens.get(at) {
            Some(Tok::Word(w)) if word_matches(w, alternatives) => match_at(tokens, at + 1, rest),
            _ => None,
        },
        Colon => match tokens.get(at) {
            Some(Tok::Colon) => match_at(tokens, at + 1, rest),
            _ => None,
        },
        Gap(n) => {
            for skip in 0..=n {
                if let Some(end) = match_at(tokens, at + skip, rest) {
                    return Some(end);
                }
                if matches!(tokens.get(at + skip), None | Some(Tok::Stop)) {
                    break;
                }
            }
            None
        }
    }
}

/// The words of the first match of any pattern, e.g. "ignore all previous instructions".
pub(crate) fn first_match(tokens: &[Tok], patterns: &[&[Slot]]) -> Option<String> {
    for start in 0..tokens.len() {
        for pattern in patterns {
            if let Some(end) = match_at(tokens, start, pattern) {
                let words: Vec<&str> = tokens[start..end]
                    .iter()
                    .map(|t| match t {
                        Tok::Word(w) => w.as_str(),
                        Tok::Colon => ":",
                        Tok::Stop => ".",
                    })
                    .collect();
                return Some(words.join(" ").replace(" :", ":"));
            }
        }
    }
    None
}
