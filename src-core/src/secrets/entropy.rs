//! Long random-looking tokens that match no known format: a key of an unknown service.
//!
//! A token is a run of letters, digits and `+/_-` at least [`MIN_LEN`] long. It is a
//! secret when it mixes upper case, lower case and digits, switches between them often (as
//! random text does, and words, CamelCase names and paths do not) and its Shannon entropy
//! is high. Never flagged: hex (git SHAs, digests), UUIDs, base64 after `base64,` (a data
//! URL such as an inline image), words, paths and URLs made of words, numbers, dates.

/// Shortest token looked at.
pub(super) const MIN_LEN: usize = 24;
/// Lowest Shannon entropy, in bits per character.
const MIN_ENTROPY: f64 = 3.8;
/// Lowest share of neighbouring characters of different classes (random base62: ~0.6).
const MIN_SWITCHES: f64 = 0.3;

fn token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '_' | '-')
}

/// The Shannon entropy of `text`, in bits per character.
pub(super) fn entropy(text: &str) -> f64 {
    let mut counts = [0u32; 128];
    let mut n = 0u32;
    for b in text.bytes().filter(u8::is_ascii) {
        counts[usize::from(b)] += 1;
        n += 1;
    }
    if n == 0 {
        return 0.0;
    }
    let n = f64::from(n);
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

#[derive(PartialEq, Clone, Copy)]
enum Class {
    Upper,
    Lower,
    Digit,
    Other,
}

fn class(c: char) -> Class {
    if c.is_ascii_uppercase() {
        Class::Upper
    } else if c.is_ascii_lowercase() {
        Class::Lower
    } else if c.is_ascii_digit() {
        Class::Digit
    } else {
        Class::Other
    }
}

/// Whether one token (already cut out of its text) looks random enough to be a secret.
pub(super) fn looks_random(token: &str) -> bool {
    let token = token.trim_end_matches('=');
    if token.len() < MIN_LEN {
        return false;
    }
    let (mut upper, mut lower, mut digit) = (0, 0, 0);
    for c in token.chars() {
        match class(c) {
            Class::Upper => upper += 1,
            Class::Lower => lower += 1,
            Class::Digit => digit += 1,
            Class::Other => {}
        }
    }
    if upper == 0 || lower == 0 || digit == 0 {
        return false;
    }
    // Hex in either case (a digest, a SHA, a UUID) is not random enough to matter here.
    if token.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
        return false;
    }
    // Words joined by separators (a path, a slug, a snake_case name): no long random part.
    let longest_part = token.split(['/', '_', '-', '+', '=']).map(str::len).max().unwrap_or(0);
    if longest_part < 16 {
        return false;
    }
    let chars: Vec<char> = token.chars().collect();
    let switches = chars.windows(2).filter(|w| class(w[0]) != class(w[1])).count();
    let share = switches as f64 / (chars.len() - 1) as f64;
    share >= MIN_SWITCHES && entropy(token) >= MIN_ENTROPY
}

/// The byte spans of random-looking tokens in `text`.
pub(super) fn random_tokens(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut spans = Vec::new();
    let mut start = None;
    let bytes_end = text.len();
    // Where the current word (between white space) began: kept as the text is read, so that
    // looking back at it costs nothing (a 64 KiB text without spaces was quadratic).
    let mut word_start = 0;
    let push = |word_start: usize, start: usize, end: usize, spans: &mut Vec<std::ops::Range<usize>>| {
        let token = &text[start..end];
        let before = &text[..start];
        // A data URL's payload (`data:image/png;base64,…`), or a path inside a URL.
        let data_url = before.ends_with("base64,");
        let word = &text[word_start..start];
        let in_url = word.contains("://") && !word.contains('@') && !before.ends_with('=');
        if !data_url && !in_url && looks_random(token) {
            let padding = text[end..].len() - text[end..].trim_start_matches('=').len();
            spans.push(start..end + padding);
        }
    };
    for (i, c) in text.char_indices() {
        match (token_char(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                push(word_start, s, i, &mut spans);
                start = None;
            }
            _ => {}
        }
        if c.is_whitespace() {
            word_start = i + c.len_utf8();
        }
    }
    if let Some(s) = start {
        push(word_start, s, bytes_end, &mut spans);
    }
    spans
}
