//! The matcher of instruction-override phrases: a text as word tokens, and patterns as rows
//! of slots (a set of words, `prefix*` for any word that starts with `prefix`, `~part` for
//! any word that holds `part`; a gap of up to n words that never crosses a sentence end; a
//! colon; the start of a sentence; a run of sentence ends and colons). Words are folded
//! (`super::normal`) and a typo of a long word counts as the word. The phrases are in
//! [`super::phrases`] and [`super::families`]. A text's words are compared with the words
//! of every pattern once, as they are read (`super::vocabulary`); patterns are matched as
//! the numbers of their words ([`Patterns`]).

use super::normal;
use super::vocabulary::{self, WordId};

/// A word of a text, folded, with the matchers' words it matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Word {
    pub(crate) text: String,
    /// The numbers of the matchers' words it matches (`super::vocabulary`), sorted; empty
    /// for most words.
    ids: Box<[WordId]>,
}

impl Word {
    pub(crate) fn new(text: String) -> Self {
        let ids = vocabulary::matched(&text);
        Self { text, ids }
    }

    /// Whether it matches one of the words numbered `ids` (sorted).
    pub(crate) fn is_one_of(&self, ids: &[WordId]) -> bool {
        self.ids.iter().any(|id| ids.binary_search(id).is_ok())
    }

    /// Whether it matches any of the matchers' words.
    pub(crate) fn is_known(&self) -> bool {
        !self.ids.is_empty()
    }
}

/// One token of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    Word(Word),
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
            out.push(Tok::Word(Word::new(normal::fold_word(w))));
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
    let single =
        |t: &Tok| matches!(t, Tok::Word(w) if w.text.chars().count() == 1 && w.text.chars().all(char::is_alphabetic));
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len());
    let mut run: Vec<String> = Vec::new();
    let end_run = |run: &mut Vec<String>, out: &mut Vec<Tok>| {
        if run.len() >= 3 {
            out.push(Tok::Word(Word::new(run.concat())));
        } else {
            out.extend(run.iter().cloned().map(|w| Tok::Word(Word::new(w))));
        }
        run.clear();
    };
    for t in tokens {
        if single(&t) {
            if let Tok::Word(w) = t {
                run.push(w.text);
            }
        } else {
            end_run(&mut run, &mut out);
            out.push(t);
        }
    }
    end_run(&mut run, &mut out);
    out
}

/// A slot of a pattern as it is written.
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

/// A slot of a pattern as it is matched: its words as their numbers.
#[derive(Debug)]
enum Step {
    Words(Box<[WordId]>),
    Gap(usize),
    Colon,
    Start,
    Marks,
}

/// Patterns as they are matched, in the order they are tried.
#[derive(Debug)]
pub(crate) struct Patterns(Vec<Vec<Step>>);

impl Patterns {
    pub(crate) fn new(patterns: &[&[Slot]]) -> Self {
        let step = |slot: &Slot| match *slot {
            W(words) => Step::Words(vocabulary::ids_of(words)),
            Gap(n) => Step::Gap(n),
            Colon => Step::Colon,
            Start => Step::Start,
            Marks => Step::Marks,
        };
        Self(patterns.iter().map(|p| p.iter().map(step).collect()).collect())
    }
}

/// Whether `word` is `a` as a pattern writes it (a word, `prefix*`, `~part`), or a typo of it.
pub(crate) fn one_matches(word: &str, a: &str) -> bool {
    // Byte tests first: this runs for each new word of a text against the vocabulary's words
    // that start with its letter.
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
    alternatives.iter().any(|a| one_matches(word, a))
        || elided_tail(word).is_some_and(|tail| alternatives.iter().any(|a| one_matches(tail, a)))
}

/// The word after an elided article (`ia` in `l'ia`), not after a contraction (`don't`,
/// `you're`).
pub(crate) fn elided_tail(word: &str) -> Option<&str> {
    if !word.as_bytes().contains(&b'\'') {
        return None;
    }
    match word.rsplit_once('\'') {
        Some((head, tail)) if head.chars().count() <= 4 && !tail.is_empty() && tail != "t" && tail != "re" => {
            Some(tail)
        }
        _ => None,
    }
}

/// Where `pattern` ends when it matches from token `at`.
fn match_at(tokens: &[Tok], at: usize, pattern: &[Step]) -> Option<usize> {
    let Some((first, rest)) = pattern.split_first() else {
        return Some(at);
    };
    match *first {
        Step::Words(ref ids) => match tokens.get(at) {
            Some(Tok::Word(w)) if w.is_one_of(ids) => match_at(tokens, at + 1, rest),
            _ => None,
        },
        Step::Colon => match tokens.get(at) {
            Some(Tok::Colon) => match_at(tokens, at + 1, rest),
            _ => None,
        },
        Step::Start => match at.checked_sub(1).map(|p| &tokens[p]) {
            None | Some(Tok::Stop) => match_at(tokens, at, rest),
            _ => None,
        },
        Step::Marks => {
            let skip = tokens[at.min(tokens.len())..]
                .iter()
                .take_while(|t| matches!(t, Tok::Stop | Tok::Colon))
                .count();
            if skip == 0 {
                return None;
            }
            match_at(tokens, at + skip, rest)
        }
        Step::Gap(n) => {
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
pub(crate) fn first_match(tokens: &[Tok], patterns: &Patterns) -> Option<String> {
    for start in 0..tokens.len() {
        for pattern in &patterns.0 {
            if let Some(end) = match_at(tokens, start, pattern) {
                let words: Vec<&str> = tokens[start..end]
                    .iter()
                    .map(|t| match t {
                        Tok::Word(w) => w.text.as_str(),
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
