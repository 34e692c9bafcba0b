//! The matcher of instruction-override phrases: a text as word tokens, and patterns as rows
//! of slots (a set of words, `prefix*` for any word that starts with `prefix`, `~part` for
//! any word that holds `part`; a gap of up to n words that never crosses a sentence end; a
//! colon; the start of a sentence; a run of sentence ends and colons). Words are folded
//! (`super::normal`) and a typo of a long word counts as the word. The phrases are in
//! [`super::phrases`] and [`super::families`].

use super::normal;

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
            out.push(Tok::Word(normal::fold_word(w)));
        }
        word.clear();
    };
    for c in lower.chars() {
        match c {
            c if normal::is_word_char(c) => word.push(c),
            '\'' | '’' if !word.is_empty() => word.push('\''),
            _ => {
                flush(&mut word, &mut out);
                match c {
                    ':' => out.push(Tok::Colon),
                    '.' | '!' | '?' | '\n' | '。' | '！' | '？' | '؟' | '।' | ';' => out.push(Tok::Stop),
                    _ => {}
                }
            }
        }
    }
    flush(&mut word, &mut out);
    join_spelled_out(out)
}

/// Runs of three or more one-letter words read as one word: `i g n o r e` as `ignore`.
fn join_spelled_out(tokens: Vec<Tok>) -> Vec<Tok> {
    let single = |t: &Tok| matches!(t, Tok::Word(w) if w.chars().count() == 1 && w.chars().all(char::is_alphabetic));
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len());
    let mut run: Vec<String> = Vec::new();
    let end_run = |run: &mut Vec<String>, out: &mut Vec<Tok>| {
        if run.len() >= 3 {
            out.push(Tok::Word(run.concat()));
        } else {
            out.extend(run.iter().cloned().map(Tok::Word));
        }
        run.clear();
    };
    for t in tokens {
        if single(&t) {
            if let Tok::Word(w) = t {
                run.push(w);
            }
        } else {
            end_run(&mut run, &mut out);
            out.push(t);
        }
    }
    end_run(&mut run, &mut out);
    out
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Slot {
    W(&'static [&'static str]),
    Gap(usize),
    Colon,
    /// The start of the text or of a sentence.
    Start,
    /// One or more sentence ends or colons (`IMPORTANT!!! New policy`).
    Marks,
}
use Slot::{Colon, Gap, Marks, Start, W};

fn one_matches(word: &str, a: &str) -> bool {
    // Byte tests: this runs for every word against every alternative of every pattern.
    let bytes = a.as_bytes();
    if bytes.first() == Some(&b'~') {
        return word.contains(&a[1..]);
    }
    if bytes.last() == Some(&b'*') {
        let prefix = &a[..a.len() - 1];
        return word.starts_with(prefix) || normal::typo_of(word, prefix, true);
    }
    word == a || normal::typo_of(word, a, false)
}

/// Whether `word` is one of `alternatives`; after an elided article (`l'ia`, `un'ia`,
/// `dell'assistente`) the word after the apostrophe counts too.
pub(crate) fn word_matches(word: &str, alternatives: &[&str]) -> bool {
    if alternatives.iter().any(|a| one_matches(word, a)) {
        return true;
    }
    if !word.as_bytes().contains(&b'\'') {
        return false;
    }
    match word.rsplit_once('\'') {
        Some((head, tail)) if head.chars().count() <= 4 && !tail.is_empty() && tail != "t" && tail != "re" => {
            alternatives.iter().any(|a| one_matches(tail, a))
        }
        _ => false,
    }
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
        Start => match at.checked_sub(1).map(|p| &tokens[p]) {
            None | Some(Tok::Stop) => match_at(tokens, at, rest),
            _ => None,
        },
        Marks => {
            let skip = tokens[at.min(tokens.len())..]
                .iter()
                .take_while(|t| matches!(t, Tok::Stop | Tok::Colon))
                .count();
            if skip == 0 {
                return None;
            }
            match_at(tokens, at + skip, rest)
        }
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
