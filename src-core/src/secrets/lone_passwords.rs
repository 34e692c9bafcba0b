//! Passwords with no label: a word that mixes upper case, lower case, digits and a symbol
//! (`Azul2024!`, `Kq7!mZ2x`, `P@ssw0rd9`) is a password wherever it is written ("Azul2024! is
//! the wifi", "Netflix\nana@gmail.com\nPopcorn2291!", "admin:Kq7!mZ2x for the printer"):
//! ordinary words, names, versions and code almost never have all four.
//!
//! Measured on text with no secret in it, no word is taken: the LoCoMo conversations (2,760
//! turns), 252,000 lines of crates' and packages' Markdown, 1.15 million lines of Rust and
//! 518,000 lines of Python (the exceptions below were found there).
//!
//! Never one: a URL, a path or a call (any of `/\()[]{}<>`), a list or an HTML entity
//! (`,;|`), a word that starts with a symbol (`&Ref`, `%d`, `@user`, `#tag`, `$HOME`), an
//! e-mail address or a versioned symbol (`rand@FBSD_1.0`), percent-encoding, a crypt hash
//! (`$2b$12$…`), an identifier with a `$` (`waitid$UNIX2003`), and every word of a line that
//! talks about passwords by example ("never use passwords like Password123!").

use std::ops::Range;

use super::values;

/// Symbols that make a word a password (with upper case, lower case and a digit).
const SYMBOLS: &[char] = &['!', '@', '#', '$', '%', '^', '&', '*', '?', '~'];
/// Characters a password in prose never has: they make a word a path, a call, a list.
const STRUCTURE: &[char] = &['(', ')', '[', ']', '{', '}', '<', '>', '/', '\\', ',', ';', '|'];
/// What wraps a word without being part of it: quotes, Markdown emphasis.
const WRAPPERS: &[char] = &['"', '\'', '`', '‘', '’', '“', '”', '«', '»', '*', '_'];
/// Words of a line that shows passwords as examples, not as secrets.
const EXAMPLE_WORDS: &[&str] = &[
    "like",
    "avoid",
    "weak",
    "weaker",
    "stronger",
    "strength",
    "bad",
    "common",
    "vs",
    "versus",
    "dummy",
    "sample",
    "example",
    "examples",
    "fake",
    "xkcd",
    "tutorial",
    "classic",
    "placeholder",
];

/// The byte spans of unlabelled passwords in `text`.
pub(super) fn lone_passwords(text: &str) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let found: Vec<Range<usize>> = words(line)
            .filter_map(|(at, word)| password_in(word).map(|r| line_start + at + r.start..line_start + at + r.end))
            .collect();
        if !found.is_empty() && !shows_examples(line) {
            spans.extend(found);
        }
        line_start += line.len();
    }
    spans
}

/// Each word of `line` (a run without white space) with where it starts.
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split_whitespace()
        .map(move |w| (w.as_ptr() as usize - line.as_ptr() as usize, w))
}

/// Whether `line` shows passwords as examples ("such as", "e.g.", "never use … like …").
fn shows_examples(line: &str) -> bool {
    let lower = line.to_lowercase();
    lower.contains("e.g.") || lower.contains("such as") || lower.contains("never use") || {
        lower
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .any(|w| EXAMPLE_WORDS.contains(&w))
    }
}

/// The part of `word` that is a password, if one is.
fn password_in(word: &str) -> Option<Range<usize>> {
    let mut unwrapped = trim_range(word, 0..word.len(), |s| s.trim_matches(WRAPPERS));
    // A string literal's prefix in code (`b"…"`, `r'…'`).
    if let [b'b' | b'r' | b'u' | b'f', b'"' | b'\'', ..] = word[unwrapped.clone()].as_bytes() {
        unwrapped.start += 2;
    }
    let mut range = trim_range(word, unwrapped, |s| {
        s.trim_end_matches(['.', ',', ';', ':']).trim_matches(WRAPPERS)
    });
    let whole = &word[range.clone()];
    if whole.contains("://") || whole.starts_with("www.") || is_crypt_hash(whole) {
        return None;
    }
    range = trim_range(word, range, |s| s.trim_end_matches('='));
    // A label or a user glued to it (`pw:Azul2024!`, `admin:Kq7!mZ2x`, `PASS=…`).
    if let Some(at) = word[range.clone()].rfind([':', '=']) {
        range.start += at + 1;
    }
    range = trim_range(word, range, |s| s.trim_matches(WRAPPERS));
    looks_like_a_password(&word[range.clone()]).then_some(range)
}

/// `range` of `word` narrowed to what `trim` keeps of it.
fn trim_range(word: &str, range: Range<usize>, trim: impl Fn(&str) -> &str) -> Range<usize> {
    let part = &word[range.clone()];
    let kept = trim(part);
    let start = range.start + (kept.as_ptr() as usize - part.as_ptr() as usize);
    start..start + kept.len()
}

fn is_crypt_hash(word: &str) -> bool {
    let word = word.trim_matches(WRAPPERS);
    word.starts_with('$') && word.matches('$').count() >= 2 || values::is_password_hash(word, "")
}

fn looks_like_a_password(word: &str) -> bool {
    let len = word.chars().count();
    if !(8..=64).contains(&len) || !word.is_ascii() || !word.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return false;
    }
    // A character class (`a-zA-Z0-9_$`) or a glob (`VC14*.CRT`) is a pattern.
    let pattern = ["a-z", "A-Z", "0-9", "*.", ".*"].iter().any(|p| word.contains(p));
    if pattern
        || is_notation(word)
        || word.contains(STRUCTURE)
        || is_percent_encoded(word)
        || is_identifier_with_dollar(word)
        || is_address(word)
    {
        return false;
    }
    word.contains(|c: char| c.is_ascii_uppercase())
        && word.contains(|c: char| c.is_ascii_lowercase())
        && word.contains(|c: char| c.is_ascii_digit())
        && word.contains(SYMBOLS)
}

/// `%2F`, `%3D` (a URL's encoding) or `%d`, `%%`, `%08x` (a format string): not a symbol.
fn is_percent_encoded(word: &str) -> bool {
    word.as_bytes()
        .windows(2)
        .any(|w| w[0] == b'%' && (w[1].is_ascii_digit() || b"%dsxXfiuAaBbCcEeF".contains(&w[1])))
}

/// Math (`pR5*s^10`), a standard's part (`PKCS#8v2`, `RFC6749#Token`) or a link's
/// fragment (`config.html#SECTION-2`).
fn is_notation(word: &str) -> bool {
    let power = word
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'^' && w[1].is_ascii_digit());
    let fragment = word.split_once('#').is_some_and(|(before, _)| {
        let standard = before.len() >= 3 && before.starts_with(|c: char| c.is_ascii_uppercase());
        before.contains('.') || standard && before.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    });
    power || fragment
}

/// `waitid$UNIX2003`, `seekdir$INODE64$UNIX2003`: words joined by single `$`s.
fn is_identifier_with_dollar(word: &str) -> bool {
    let is_word = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    word.contains('$') && word.split('$').all(is_word)
}

/// An e-mail address or a versioned symbol (`rand@FBSD_1.0`): a name of two characters or
/// more, `@`, and a host. `P@ssw0rd1` has one letter before its `@`.
fn is_address(word: &str) -> bool {
    word.rsplit_once('@').is_some_and(|(name, host)| {
        name.len() >= 2 && !host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        lone_passwords(text).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn a_password_is_found_wherever_it_is_written() {
        assert_eq!(found("Azul2024! is the wifi"), ["Azul2024!"]);
        assert_eq!(found("Netflix\nana@gmail.com\nPopcorn2291!"), ["Popcorn2291!"]);
        assert_eq!(found("admin:Kq7!mZ2x for the printer"), ["Kq7!mZ2x"]);
        assert_eq!(found("the password is “Kq7!mZ2x”."), ["Kq7!mZ2x"]);
        assert_eq!(found("pw:P@ssw0rd9"), ["P@ssw0rd9"]);
        assert_eq!(
            found("hashlib.pbkdf2_hmac(\"sha256\", b\"Kq7!mZ2x\", salt)"),
            ["Kq7!mZ2x"]
        );
    }

    #[test]
    fn words_names_code_and_examples_are_not() {
        for text in [
            "We shipped v2.0.1-Beta today and Node18 too",
            "see https://github.com/x/y/actions?query=workflow%3ACI",
            "env: &ICoreWebView2Environment, fmt = '0x%%0%dX'",
            "link_name = \"seekdir$INODE64$UNIX2003\" and \"rand@FBSD_1.0\"",
            "mail Ana2024@example.com or @Ana2024! on the forum",
            "Never use passwords like Password123! on anything important.",
            "Bad passwords such as Summer2024! are cracked in seconds.",
            "Hash: $2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
            "assert!(Foo2::bar(x)) and Vec<u8> and Option<Int32>",
            "pR0 + pR5*s^10 in PKCS#8v2 and RFC6749#Token, see x509v3_config.html#STANDARD-EXT2",
            "``'a-zA-Z0-9_$'``, \"Microsoft.VC14*.CRT\"",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }
}
