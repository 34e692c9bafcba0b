//! Long random-looking tokens that match no known format: a key of an unknown service.
//!
//! A token is a run of letters, digits and `+/_-` at least [`MIN_LEN`] long. It is a
//! secret when it mixes upper case, lower case and digits (or lower case and digits in a
//! long part that is not hex), switches between them often (as
//! random text does, and words, CamelCase names and paths do not), its long parts do not
//! read as words run together (by their letter pairs), and its Shannon entropy is high. Never flagged: hex (git SHAs, digests), UUIDs, base64 after `base64,` (a data
//! URL such as an inline image), words, paths and URLs made of words, numbers, dates.

/// Shortest token looked at.
pub(super) const MIN_LEN: usize = 24;
/// Lowest Shannon entropy, in bits per character.
const MIN_ENTROPY: f64 = 3.8;
/// Lowest share of neighbouring characters of different classes (random base62: ~0.6).
const MIN_SWITCHES: f64 = 0.3;
/// The same for lower case and digits, where only a letter and a digit switch (random
/// base36: ~0.4, and a fifth of such tokens under 0.25).
const MIN_SWITCHES_LOWER: f64 = 0.12;

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

/// Common letter pairs of English words and of the names made of them (`th`, `er`, `ht`,
/// `tp`…): a quarter of all pairs, most pairs of a word, few of a random text's.
const WORD_PAIRS: &str = "th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve co me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur ca el ta la ns di fo ho pe ec pr no ct us ac ot il tr ly nc et ut ss so rs un lo wa ge ie wh ee wi em ad ol rt po we na ul ni ts mo ow pa im mi ai sh ir su id os iv ia am fi ci vi pl ig tu ev ld ry mp fe bl ab gh ty op wo sa ay ex ke fr oo av ag if ap gr od bo sp rd do uc bu ei ov by rm ep tt oc fa ef cu rn sc gi da yo cr cl du ga qu ue ff ba ey ls va um pp ua up lu go ht ru ug ds lt pi rc rr eg au ck ew mu br bi pt ak pu ui rg ib tl ny ki rk ys ob mm fu ph og ms ye ud mb ip ub oi rl gu dr hr cc tw ft wn nu tc gl ya ps ks tp xm ml js sq ql";

/// Whether `part` reads as words run together (`UserProfile2Card`,
/// `AbstractSingletonProxyFactoryBean2Impl`, `deployStaging2EuWest1`): at least 70 % of its
/// neighbouring letters are a common pair of words. Random text has a fifth of them (of
/// random base62 tokens of 24 characters, under 1 % read as words).
fn reads_as_words(part: &str) -> bool {
    let bytes = part.as_bytes();
    let (mut pairs, mut common) = (0u32, 0u32);
    for pair in bytes.windows(2) {
        if pair[0].is_ascii_alphabetic() && pair[1].is_ascii_alphabetic() {
            pairs += 1;
            let lower = [pair[0].to_ascii_lowercase(), pair[1].to_ascii_lowercase()];
            if WORD_PAIRS.split(' ').any(|p| p.as_bytes() == lower) {
                common += 1;
            }
        }
    }
    pairs >= 6 && common * 10 >= pairs * 7
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
    // Lower case and digits only (`x9mq2plr8vtbn4wz7yh3cf6gj5ds0ae2`, many services' keys):
    // a long part of it must be random, and more than hex (a digest after a name is no key).
    let lower_only = upper == 0 && lower >= 8 && digit >= 4;
    if (upper == 0 || lower == 0 || digit == 0) && !lower_only {
        return false;
    }
    // Hex in either case (a digest, a SHA, a UUID, `0x…`) is not random enough to matter here.
    let body = token.strip_prefix("0x").unwrap_or(token);
    if body.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
        return false;
    }
    if lower_only
        && !token
            .split(['/', '_', '-', '+', '='])
            .any(|p| p.len() >= 20 && !p.strip_prefix("0x").unwrap_or(p).chars().all(|c| c.is_ascii_hexdigit()))
    {
        return false;
    }
    // Words joined by separators (a path, a slug, a snake_case name): no long random part;
    // and a long part that reads as words (`UserProfile2Card`, `Q3Report2026Final`) is a
    // name, not a key.
    let long_parts: Vec<&str> = token
        .split(['/', '_', '-', '+', '='])
        .filter(|p| p.len() >= 16)
        .collect();
    if long_parts.iter().all(|p| reads_as_words(p)) {
        return false;
    }
    let chars: Vec<char> = token.chars().collect();
    let switches = chars.windows(2).filter(|w| class(w[0]) != class(w[1])).count();
    let share = switches as f64 / (chars.len() - 1) as f64;
    let min_switches = if lower_only { MIN_SWITCHES_LOWER } else { MIN_SWITCHES };
    share >= min_switches && entropy(token) >= MIN_ENTROPY
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
        // A folder of a path (`/nix/store/<hash>-python3`): named by a hash, not a key.
        let path = token.starts_with('/') || word.starts_with('/') && before.ends_with('/');
        let in_path = path && !token.contains(|c: char| c.is_ascii_uppercase());
        if !data_url && !in_url && !in_path && looks_random(token) && !super::public::is_public(token, before, word) {
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
