//! Which formats can match a text at all, found in one pass: most formats need a word
//! (`password`, `pin`, `login`, a vendor's prefix) that an ordinary text does not hold, and
//! running each format's regex over every text cost most of the screen.
//!
//! Each pattern's required words are read from the pattern itself ([`required`]): a set of
//! strings one of which every match holds, folded to lower case. The words of every
//! pattern are found in a text by one Aho-Corasick pass over the text folded the same way;
//! a format none of whose words is there is not run. A pattern with no such set (a token's
//! shape, `[0-9a-f]{40}`) is always run. The gate only skips work: a format it lets
//! through is matched exactly as before.

use std::collections::HashMap;

use aho_corasick::AhoCorasick;
use regex_syntax::ast::{Ast, ClassBracketed, ClassSet, ClassSetItem, RepetitionKind, RepetitionRange};

/// The shortest word worth a gate: a shorter one is in almost every text.
const SHORTEST: usize = 2;

/// Letters case-insensitive matching takes for another whose lower case they are not
/// (simple case folding puts them in one class, `to_lowercase` does not): read as it.
const FOLDED_TOO: &[(char, char)] = &[
    ('ſ', 's'),
    ('\u{1E9B}', 'ṡ'),
    ('µ', 'μ'),
    ('ς', 'σ'),
    ('ϐ', 'β'),
    ('ϑ', 'θ'),
    ('ϕ', 'φ'),
    ('ϖ', 'π'),
    ('ϰ', 'κ'),
    ('ϱ', 'ρ'),
    ('ϵ', 'ε'),
    ('\u{345}', 'ι'),
    ('\u{1FBE}', 'ι'),
    ('\u{1C80}', 'в'),
    ('\u{1C81}', 'д'),
    ('\u{1C82}', 'о'),
    ('\u{1C83}', 'с'),
    ('\u{1C84}', 'т'),
    ('\u{1C85}', 'т'),
    ('\u{1C86}', 'ъ'),
    ('\u{1C87}', 'ѣ'),
    ('\u{1C88}', 'ꙋ'),
    ('\u{1FD3}', '\u{390}'),
    ('\u{1FE3}', '\u{3B0}'),
    ('\u{FB05}', '\u{FB06}'),
];

/// A letter folded as the gate reads text: lower case, one character at a time, and the
/// letters of [`FOLDED_TOO`] as the letter `(?i)` takes them for. A test holds that every
/// letter `(?i)` matches for another folds as that one does.
fn fold_char(c: char) -> impl Iterator<Item = char> {
    let c = if c.is_ascii() {
        c
    } else {
        FOLDED_TOO.iter().find(|(from, _)| *from == c).map_or(c, |(_, to)| *to)
    };
    c.to_lowercase()
}

/// `text` folded as the gate reads it.
fn fold(text: &str) -> String {
    text.chars().flat_map(fold_char).collect()
}

/// The one string every character of a bracketed class folds to, when it is one letter in
/// its case forms (`[Kk]`).
fn one_letter(class: &ClassBracketed) -> Option<String> {
    fn chars_of(item: &ClassSetItem, chars: &mut Vec<char>) -> Option<()> {
        match item {
            ClassSetItem::Literal(literal) => chars.push(literal.c),
            ClassSetItem::Range(range) if u32::from(range.end.c) - u32::from(range.start.c) <= 4 => {
                chars.extend(range.start.c..=range.end.c);
            }
            ClassSetItem::Union(union) => {
                for item in &union.items {
                    chars_of(item, chars)?;
                }
            }
            _ => return None,
        }
        (chars.len() <= 8).then_some(())
    }
    let ClassSet::Item(item) = &class.kind else { return None };
    let mut chars = Vec::new();
    if class.negated {
        return None;
    }
    chars_of(item, &mut chars)?;
    let mut folded = chars.iter().map(|c| fold_char(*c).collect::<String>());
    let first = folded.next()?;
    folded.all(|f| f == first).then_some(first)
}

/// The most strings a piece's [`exact`] set holds: a longer list is not worth the product.
const MOST: usize = 64;

/// Every text a piece of a pattern can match (folded), when they are few: a word, one
/// letter in its case forms, a choice of such (`pin|passcode`), a run of them. Case flags
/// are not followed: every text is folded, so a case-sensitive word is found too.
fn exact(ast: &Ast) -> Option<Vec<String>> {
    match ast {
        Ast::Empty(_) | Ast::Flags(_) | Ast::Assertion(_) => Some(vec![String::new()]),
        Ast::Literal(literal) => Some(vec![fold_char(literal.c).collect()]),
        Ast::ClassBracketed(class) => one_letter(class).map(|s| vec![s]),
        Ast::Group(group) => exact(&group.ast),
        Ast::Alternation(alternation) => {
            let mut all = Vec::new();
            for alternative in &alternation.asts {
                all.extend(exact(alternative)?);
            }
            (all.len() <= MOST).then_some(all)
        }
        Ast::Concat(concat) => concat
            .asts
            .iter()
            .try_fold(vec![String::new()], |run, part| product(&run, &exact(part)?)),
        Ast::Dot(_) | Ast::ClassUnicode(_) | Ast::ClassPerl(_) | Ast::Repetition(_) => None,
    }
}

/// Each of `a` followed by each of `b`, when there are not too many.
fn product(a: &[String], b: &[String]) -> Option<Vec<String>> {
    (a.len() * b.len() <= MOST).then(|| {
        a.iter()
            .flat_map(|x| b.iter().map(move |y| format!("{x}{y}")))
            .collect()
    })
}

/// The better of two sets of required strings: the one whose shortest string is longer
/// (fewer texts hold it), then the smaller.
fn better(a: Option<Vec<String>>, b: Option<Vec<String>>) -> Option<Vec<String>> {
    let shortest = |set: &[String]| set.iter().map(|s| s.chars().count()).min().unwrap_or(0);
    // Every text holds the empty string.
    let (a, b) = (a.filter(|a| shortest(a) > 0), b.filter(|b| shortest(b) > 0));
    match (a, b) {
        (Some(a), Some(b)) => {
            let (sa, sb) = (shortest(&a), shortest(&b));
            Some(if sb > sa || sb == sa && b.len() < a.len() { b } else { a })
        }
        (a, b) => a.or(b),
    }
}

/// Strings one of which every match of `ast` holds (folded), when there are such.
pub(super) fn required(ast: &Ast) -> Option<Vec<String>> {
    if let Some(all) = exact(ast) {
        return better(None, Some(all));
    }
    match ast {
        Ast::Group(group) => required(&group.ast),
        Ast::Repetition(repetition) if at_least_once(&repetition.op.kind) => required(&repetition.ast),
        Ast::Alternation(alternation) => {
            let mut all = Vec::new();
            for alternative in &alternation.asts {
                all.extend(required(alternative)?);
            }
            Some(all)
        }
        Ast::Concat(concat) => {
            // Pieces with few texts join into runs (every text of a run is one of their
            // products); any run, or any other piece's set, holds for the whole.
            let mut best = None;
            let mut run = vec![String::new()];
            for part in &concat.asts {
                match exact(part) {
                    Some(texts) => {
                        run = match product(&run, &texts) {
                            Some(longer) => longer,
                            None => {
                                best = better(best, Some(run));
                                texts
                            }
                        }
                    }
                    None => {
                        best = better(best, Some(std::mem::replace(&mut run, vec![String::new()])));
                        best = better(best, required(part));
                    }
                }
            }
            better(best, Some(run))
        }
        _ => None,
    }
}

/// Whether a repetition matches its piece at least once.
fn at_least_once(kind: &RepetitionKind) -> bool {
    match kind {
        RepetitionKind::OneOrMore => true,
        RepetitionKind::ZeroOrOne | RepetitionKind::ZeroOrMore => false,
        RepetitionKind::Range(
            RepetitionRange::Exactly(min) | RepetitionRange::AtLeast(min) | RepetitionRange::Bounded(min, _),
        ) => *min >= 1,
    }
}

/// The words of every pattern, and which of them each pattern needs.
/// The words `pattern` needs ([`required`]), read from its syntax tree: translating it
/// (case folding every class of a `(?i)` pattern over all of Unicode) was most of a new
/// process's start, and the tree holds every word.
fn words_of(pattern: &str) -> Option<Vec<String>> {
    regex_syntax::ast::parse::Parser::new()
        .parse(pattern)
        .ok()
        .as_ref()
        .and_then(required)
}

pub(in crate::secrets) struct Gate {
    words: AhoCorasick,
    /// Per pattern, the numbers of the words one of which it needs; `None`: always run.
    needs: Vec<Option<Vec<usize>>>,
    count: usize,
}

impl Gate {
    /// The gate of `patterns` (regex syntax). A pattern that does not parse is always run.
    pub(super) fn new<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Self {
        let mut numbers: HashMap<String, usize> = HashMap::new();
        let mut needs = Vec::new();
        for pattern in patterns {
            let set = words_of(pattern);
            let set = set.filter(|set| set.iter().all(|s| s.chars().count() >= SHORTEST));
            needs.push(set.map(|set| {
                set.into_iter()
                    .map(|word| {
                        let next = numbers.len();
                        *numbers.entry(word).or_insert(next)
                    })
                    .collect()
            }));
        }
        let count = numbers.len();
        let mut words = vec![String::new(); count];
        for (word, at) in numbers {
            words[at] = word;
        }
        // The words are short strings; building cannot fail on them.
        let words = AhoCorasick::new(&words).unwrap_or_else(|e| unreachable!("the gate's words: {e}"));
        Self { words, needs, count }
    }

    /// For each pattern, whether it can match `text`.
    pub(in crate::secrets) fn open(&self, text: &str) -> Vec<bool> {
        let mut present = vec![false; self.count];
        for found in self.words.find_overlapping_iter(&fold(text)) {
            present[found.pattern().as_usize()] = true;
        }
        self.needs
            .iter()
            .map(|needs| needs.as_ref().is_none_or(|needs| needs.iter().any(|&w| present[w])))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(pattern: &str) -> Option<Vec<String>> {
        assert!(regex::Regex::new(pattern).is_ok(), "{pattern}");
        words_of(pattern)
    }

    #[test]
    fn every_letter_folds_as_case_insensitive_matching_takes_it() {
        use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
        let folded = |c: char| fold_char(c).collect::<String>();
        let mut apart = Vec::new();
        for c in (0..=0x10FFFF_u32).filter_map(char::from_u32) {
            let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
            class.case_fold_simple();
            for range in class.ranges() {
                for other in range.start()..=range.end() {
                    if folded(other) != folded(c) {
                        apart.push(format!("{c} {:X} ~ {other} {:X}", u32::from(c), u32::from(other)));
                    }
                }
            }
        }
        assert!(
            apart.is_empty(),
            "(?i) takes these for one another, the gate does not:\n{}",
            apart.join("\n")
        );
    }

    #[test]
    fn the_words_a_pattern_needs_are_read_from_it() {
        let set = |words: &[&str]| Some(words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>());
        assert_eq!(
            words(r"(?i)\bpass(?:word|phrase)\s*=\s*(\S+)"),
            set(&["password", "passphrase"])
        );
        assert_eq!(words(r"(?i)\b(?:pin|passcode)[ \t]*:"), set(&["pin", "passcode"]));
        assert_eq!(words(r"\bAKIA[0-9A-Z]{16}\b"), set(&["akia"]));
        assert_eq!(
            words(r"(?i)what(?:'s| is) the (?:wifi|wi-fi) password"),
            set(&[
                "what's the wifi password",
                "what's the wi-fi password",
                "what is the wifi password",
                "what is the wi-fi password"
            ])
        );
        assert_eq!(
            words(r"(?i)what(?:'s| is) the \w+ password"),
            set(&["what's the ", "what is the "])
        );
        assert_eq!(words(r"[0-9a-f]{40}"), None);
        assert_eq!(words(r"(?:abc)?[0-9]+"), None);
        assert_eq!(words(r"(?i)k(?:ey)+"), set(&["ey"]), "the longer of the two");
    }

    #[test]
    fn a_text_opens_the_patterns_whose_words_it_holds_in_any_case() {
        let gate = Gate::new([r"(?i)\bpassword\b", r"(?i)\bpin\b", r"[0-9]{6}", r"(?i)\bkey:"]);
        assert_eq!(gate.open("The PASSWORD is here"), vec![true, false, true, false]);
        assert_eq!(
            gate.open("my \u{212A}EY: x"),
            vec![false, false, true, true],
            "the Kelvin sign is a k"
        );
        assert_eq!(
            gate.open("paſſword"),
            vec![true, false, true, false],
            "the long s is an s"
        );
        assert_eq!(gate.open("tea"), vec![false, false, true, false]);
    }

    #[test]
    fn every_format_that_matches_a_corpus_line_is_let_through() {
        let corpora = [
            include_str!("../corpus/review10_leaks.txt"),
            include_str!("../corpus/review11_leaks.txt"),
            include_str!("../corpus/review12_leaks.txt"),
            include_str!("../corpus/review14_leaks.txt"),
            include_str!("../corpus/review15_leaks.txt"),
            include_str!("../corpus/review16_leaks.txt"),
            include_str!("../corpus/review17_leaks.txt"),
            include_str!("../corpus/review18_leaks.txt"),
            include_str!("../corpus/review19_leaks.txt"),
            include_str!("../corpus/review10_benign.txt"),
            include_str!("../corpus/review19_benign.txt"),
        ];
        let formats = &*super::super::FORMATS;
        let gate = &*super::super::GATE;
        let gated = gate.needs.iter().filter(|n| n.is_some()).count();
        assert!(
            gated * 4 > formats.len() * 3,
            "most formats have words: {gated} of {}",
            formats.len()
        );
        let mut matched = 0;
        for line in corpora.iter().flat_map(|c| c.lines()) {
            // As written, and with its escaped line breaks as real ones.
            for text in [line.to_owned(), line.replace("\\n", "\n")] {
                let open = gate.open(&text);
                for (format, open) in formats.iter().zip(open) {
                    if format.pattern.regex().is_match(&text) {
                        matched += 1;
                        assert!(
                            open,
                            "{text:?} matches {} but the gate kept it out",
                            format.pattern.as_str()
                        );
                    }
                }
            }
        }
        assert!(matched > 1000, "{matched}");
    }
}
