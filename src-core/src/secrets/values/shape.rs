//! What a password looks like by itself, when nothing but its shape can say so: in prose
//! ("the password is …", "Password: …"), beside the word, after a command's flag or a
//! `_pass` name. A plain word is no password there (`pineapple`, `ungültig`, `updated`):
//! a one-word dictionary password said in prose is kept, which is the price of never
//! destroying an ordinary sentence ("the password is funny" reads the same).

use super::words::{DESCRIBING, LOCATION_WORDS, NOT_A_PASSWORD, SENTENCE_WORDS, TECH_NAMES};

/// Whether a word looks like a password by itself: four characters or more, two letters
/// or more, with a digit or a symbol (`Sunflower42`, `Tr0ub4dor&3`, `P@ss!`, `hunter2`),
/// and not the name of a technology (`OAuth2`, `SHA256`, `Argon2id`, `1Password`) or a
/// compound that describes (`SHA256-hashed`, `4-digit`, `hash_v2`, `test_auth_2fa`).
pub(in crate::secrets) fn looks_strong(value: &str) -> bool {
    strong(value.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']']))
}

/// [`looks_strong`] with a trailing `!` kept as the password's own symbol: after a label's
/// colon no sentence ends there (`Password: letmein!`).
pub(in crate::secrets) fn looks_strong_as_written(value: &str) -> bool {
    strong(value.trim_end_matches(['.', ',', ';', ':', '?', ')', ']']))
}

fn strong(word: &str) -> bool {
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    let digits = word.chars().any(|c| c.is_ascii_digit());
    let symbols = word.chars().any(|c| "!@#$%^&*~+=_?".contains(c));
    // A number with a unit is a length or a rank (`12chars`, `10th`, `30d`).
    let unit = word.starts_with(|c: char| c.is_ascii_digit())
        && word
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .chars()
            .all(|c| c.is_ascii_lowercase());
    word.chars().count() >= 4
        && !unit
        && letters >= 2
        && (digits || symbols)
        && !word.contains(char::is_whitespace)
        && !is_tech_name(word)
        && !is_descriptive_compound(word)
}

/// Whether a value is a passphrase by its shape: three or more lower-case words joined by
/// hyphens (`correct-horse-battery-staple`).
pub(in crate::secrets) fn is_hyphen_passphrase(value: &str) -> bool {
    let word = value.trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
    let parts: Vec<&str> = word.split('-').collect();
    parts.len() >= 3
        && parts
            .iter()
            .all(|p| p.chars().count() >= 2 && p.chars().all(|c| c.is_alphabetic() && c.is_lowercase()))
}

/// Whether a value is a password of digits only: `min` digits or more (a PIN-like
/// `4827` after "the password is", six beside the word), at most 16 (a longer run is an
/// account or card number, found by its own rules or not at all).
pub(in crate::secrets) fn is_digit_password(value: &str, min: usize) -> bool {
    let digits = value.trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
    (min..=16).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a value is a whole app password: four groups of four lower-case letters
/// (`abcd efgh ijkl mnop`).
pub(in crate::secrets) fn is_app_password(value: &str) -> bool {
    let groups: Vec<&str> = value.split(' ').collect();
    groups.len() == 4
        && groups
            .iter()
            .all(|g| g.len() == 4 && g.chars().all(|c| c.is_ascii_lowercase()))
}

/// Whether a value is a key of digit groups, as routers print a Wi-Fi key
/// (`4821-9921-3310-7732`): twelve digits or more.
pub(in crate::secrets) fn is_digit_groups(value: &str) -> bool {
    value.chars().all(|c| c.is_ascii_digit() || c == '-') && value.chars().filter(char::is_ascii_digit).count() >= 12
}

/// Whether a passphrase's plain words are one: 3 to 25 lower-case words of 2 to 12
/// letters. Up to 11 words, none is a word sentences are made of (`stored in the vault`,
/// `use something long`); a wallet's phrase of 12 or more random words holds some
/// (`about`, `above`), at most one in four.
pub(in crate::secrets) fn is_word_passphrase(value: &str) -> bool {
    let words: Vec<&str> = value.split_whitespace().map(|w| w.trim_end_matches(',')).collect();
    // Lower-case words, or each capitalised (`Orbit Lantern Cactus Meadow`).
    let plain = |w: &&str| {
        let mut letters = w.chars();
        let first = letters.next().is_some_and(char::is_alphabetic);
        (2..=12).contains(&w.chars().count()) && first && letters.all(|c| c.is_alphabetic() && c.is_lowercase())
    };
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let of_sentences = lower
        .iter()
        .filter(|w| NOT_A_PASSWORD.contains(&w.as_str()) || SENTENCE_WORDS.contains(&w.as_str()))
        .count();
    let allowed = if words.len() >= 12 { words.len() / 4 } else { 0 };
    // A phrase of one or two words said over and over is a well-known test phrase
    // (Hardhat's `test test … junk`, BIP-39's `abandon … about`).
    let mut distinct = lower.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let repeated = words.len() >= 6 && distinct.len() * 2 < words.len();
    (3..=25).contains(&words.len()) && words.iter().all(plain) && of_sentences <= allowed && !repeated
}

/// Whether a quoted value of several words says where a password is written or kept
/// (`"on the fridge"`, `"in 1Password"`, `"under the keyboard"`), not what it is.
pub(in crate::secrets) fn is_location(lower: &str) -> bool {
    let mut words = lower.split_whitespace();
    let first = words.next().unwrap_or("");
    let rest = words.count();
    (1..=6).contains(&rest)
        && LOCATION_WORDS.contains(&first)
        && lower.chars().all(|c| c.is_alphanumeric() || " '’-.".contains(c))
}

/// Whether a value is shaped as a password in prose: [`looks_strong`] or
/// [`is_hyphen_passphrase`].
pub(in crate::secrets) fn is_password_shaped(value: &str) -> bool {
    looks_strong(value) || is_hyphen_passphrase(value)
}

/// The name of a technology, an algorithm or a password manager (`OAuth2`, `SHA256`,
/// `Argon2id`, `AES-256`, `1Password`): what a password is hashed with or moved to.
fn is_tech_name(word: &str) -> bool {
    let lower = word.to_lowercase();
    TECH_NAMES.contains(&lower.as_str())
        || lower
            .split_once('-')
            .is_some_and(|(head, _)| TECH_NAMES.contains(&head))
}

/// A compound that describes rather than hides: parts joined by `_` with a plain
/// lower-case word among them (`hash_v2`, `v2_done`, `run_2024_05_01`, `test_auth_2fa`),
/// or two parts joined by `-` that say what something is: a number and a unit
/// (`4-digit`, `256-bit`), a technology and what was done (`SHA256-hashed`), or a word of
/// description after (`utf8-encoded`, `ipv6-only`). A word and a number (`tiger-9981`,
/// `summer-2024`) or a random run and a word (`Kq7mZ2x9-home`) is a password.
fn is_descriptive_compound(word: &str) -> bool {
    let plain = |p: &&str| p.chars().count() >= 3 && p.chars().all(|c| c.is_alphabetic() && c.is_lowercase());
    let underscored: Vec<&str> = word.split('_').collect();
    if underscored.len() > 1 && underscored.iter().any(plain) {
        return true;
    }
    let hyphened: Vec<&str> = word.split('-').collect();
    let [first, second] = hyphened[..] else {
        return false;
    };
    let number_first = !first.is_empty() && first.chars().all(|c| c.is_ascii_digit());
    let tech_first = TECH_NAMES.contains(&first.to_lowercase().as_str());
    (number_first && plain(&second)) || (tech_first && plain(&second)) || DESCRIBING.contains(&second)
}

/// How far an app password (`abcd efgh ijkl mnop`: four groups of four lower-case
/// letters, as Google gives one) runs past its first group (`value`) into `after`, in
/// bytes; 0 when it is not one.
pub(in crate::secrets) fn app_password_tail(value: &str, after: &str) -> usize {
    let group = |w: &str| w.len() == 4 && w.chars().all(|c| c.is_ascii_lowercase());
    if !group(value) {
        return 0;
    }
    let mut at = 0;
    for _ in 0..3 {
        let rest = &after[at..];
        let Some(word) = rest.strip_prefix(' ') else {
            return 0;
        };
        let len = word.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(word.len());
        if !group(&word[..len]) {
            return 0;
        }
        at += 1 + len;
    }
    let next = after[at..].chars().next();
    if next.is_some_and(|c| c.is_alphanumeric()) {
        0
    } else {
        at
    }
}

/// How many bytes of a bare value come before the first character of a script written
/// without spaces (CJK, Hangul) or a full-width sign: `Sunflower42です` is `Sunflower42`.
/// An opening bracket left at the cut goes too (`Sunflower42（不要…`).
pub(in crate::secrets) fn before_cjk(value: &str) -> usize {
    let cut = value
        .char_indices()
        .find(|(_, c)| is_cjk(*c))
        .map_or(value.len(), |(i, _)| i);
    if cut == value.len() {
        return cut;
    }
    value[..cut].trim_end_matches(['(', '[', '{', ' ']).len()
}

/// A character of a script written without spaces (CJK, kana, Hangul) or a full-width sign.
pub(super) fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}' | '\u{2E80}'..='\u{9FFF}' | '\u{A960}'..='\u{A97F}'
        | '\u{AC00}'..='\u{D7FF}' | '\u{F900}'..='\u{FAFF}' | '\u{FE30}'..='\u{FE4F}' | '\u{FF00}'..='\u{FFEF}')
}

/// Whether a Docker or npm `auth` value is the base64 of `user:password` (`anonymous`
/// and `firebase` are names, not credentials).
pub(in crate::secrets) fn is_basic_auth(value: &str) -> bool {
    decode_base64(value).is_some_and(|bytes| {
        std::str::from_utf8(&bytes).is_ok_and(|s| {
            s.split_once(':')
                .is_some_and(|(user, pass)| !user.is_empty() && !pass.is_empty() && !s.chars().any(|c| c.is_control()))
        })
    })
}

fn decode_base64(value: &str) -> Option<Vec<u8>> {
    let digits = value.trim_end_matches('=');
    if digits.is_empty() || !value.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in digits.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(u8::try_from((acc >> bits) & 0xFF).ok()?);
        }
    }
    Some(out)
}

/// Whether a `.pgpass` line's fields before the password (`host:port:db:user:`) are
/// those of one: a port `*` or 1–65535, a user that is not a number, and a host that is
/// `*`, `localhost`, an address or a name with a dot. Any other line
/// (`user:1000:orders:2024:summary`) gives a password only when it looks like one.
pub(in crate::secrets) fn is_pgpass_line(prefix: &str) -> bool {
    let fields: Vec<&str> = prefix.trim().trim_end_matches(':').split(':').collect();
    let [host, port, _db, user] = fields[..] else {
        return false;
    };
    let port_ok = port == "*" || port.parse::<u32>().is_ok_and(|p| (1..=65_535).contains(&p));
    let user_ok = !user.chars().all(|c| c.is_ascii_digit());
    let host_ok = host == "*" || host.eq_ignore_ascii_case("localhost") || host.contains('.');
    port_ok && user_ok && host_ok
}

/// `value` without Markdown's emphasis around it: `**never**`, `*required*`, `_case-sensitive_`,
/// and a mark cut off at either end (`*not`, `length?**`).
pub(in crate::secrets) fn without_emphasis(value: &str) -> &str {
    let value = value.trim_matches('*');
    if value.len() > 2 && value.starts_with('_') && value.ends_with('_') {
        value.trim_matches('_')
    } else {
        value
    }
}

/// Whether a value is a password's hash rather than the password: a scheme's form
/// (`$2b$12$…`, `pbkdf2_sha256$600000$…`, `sha1$…`), or a hex digest (MD5 to SHA-512) on a
/// line that says it is a hash.
pub(in crate::secrets) fn is_password_hash(value: &str, line: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let scheme = crate::secrets::public::HASH_PREFIXES
        .iter()
        .any(|p| lower.starts_with(p))
        || [
            "pbkdf2_", "sha1$", "sha256$", "md5$", "bcrypt$", "argon2$", "{ssha}", "{sha}",
        ]
        .iter()
        .any(|p| lower.starts_with(p));
    // A bare hex digest only where the line says it is one: `openssl rand -hex 32` makes
    // passwords of the same shape (`POSTGRES_PASSWORD=<64 hex>`).
    let digest = [32, 40, 56, 64, 96, 128].contains(&value.len()) && value.bytes().all(|b| b.is_ascii_hexdigit()) && {
        let line = line.to_ascii_lowercase();
        ["hash", "md5", "sha", "digest", "checksum", "bcrypt", "fingerprint"]
            .iter()
            .any(|w| line.contains(w))
    };
    scheme || digest
}

/// Whether a value after `login: user /` or `Wi-Fi: name /` is a terminal, a session, a
/// time or a specification, not a password (`tty2`, `pts/0`, `2024-05-01T09:15:10Z`,
/// `2h30m`, `5GHz`, `802.11ac`, `ch36`, `300Mbps`, `Wi-Fi6`, `us-east-1`).
pub(in crate::secrets) fn is_session_or_time(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let unit = lower.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let measured = unit.len() < lower.len()
        && [
            "ghz", "mhz", "khz", "hz", "mbps", "gbps", "kbps", "ms", "s", "m", "h", "d", "kb", "mb", "gb", "tb",
        ]
        .contains(&unit);
    let duration = lower.starts_with(|c: char| c.is_ascii_digit())
        && lower.ends_with(['h', 'm', 's'])
        && lower.chars().all(|c| c.is_ascii_digit() || "hms".contains(c));
    let spec = lower.starts_with("802.11")
        || lower
            .strip_prefix("ch")
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        || lower.starts_with("wi-fi")
        || lower.starts_with("wifi");
    let region = lower.split('-').count() == 3
        && lower.ends_with(|c: char| c.is_ascii_digit())
        && lower.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if measured || duration || spec || region {
        return true;
    }
    let lower = value.to_ascii_lowercase();
    let terminal = ["tty", "pts", "console", "ttys", "vty", "seat"].iter().any(|t| {
        lower
            .strip_prefix(t)
            .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit() || c == '/'))
    });
    // By characters: a value's fifth byte may sit inside `é` or `€` (`Café2024!`, `29€/month`).
    let time = lower.len() >= 8
        && lower.get(..4).is_some_and(|y| y.bytes().all(|b| b.is_ascii_digit()))
        && lower.get(4..).is_some_and(|rest| rest.starts_with(['-', '/', ':']));
    terminal || time
}

/// Whether a value is a list of validation rules (`required|string|min:8|confirmed`):
/// lower-case names, each with an optional argument, joined by `|`.
pub(in crate::secrets) fn is_validation_rules(value: &str) -> bool {
    let rules: Vec<&str> = value.split('|').collect();
    rules.len() >= 2
        && rules.iter().all(|rule| {
            let name = rule.split_once(':').map_or(*rule, |(name, _)| name);
            !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        })
}
