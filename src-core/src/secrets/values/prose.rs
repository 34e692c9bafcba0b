//! The word said or written as a key: whether "Password: …" / "the password is …" is
//! prose (the value must look like a password: [`super::shape`]) or a config's key
//! (`password: …`, `PASSWORD=…`: a named value), and how far a value assigned to an
//! identifier runs (`wifi_password: correct horse battery staple`).

use super::Around;
use super::shape::app_password_tail;
use super::words::{DESCRIBES, ENTRY_WORDS, EXAMPLE_WORDS, LABELS, NOT_A_PASSWORD, TECH_NAMES};

/// The English words a config names a password with (`password:`, `pwd=`).
const KEY_WORDS: &[&str] = &["password", "passwd", "passphrase", "passcode", "pwd"];

/// How the word was written before its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Said {
    /// In a sentence or as a label: "the password is …", "Password: …", "Passwort: …",
    /// "密码：…", "the wifi password: …".
    Prose,
    /// As a config's key: `password: …` or `PASSWORD: …` starting its line, or
    /// `password=…` anywhere.
    Key,
}

/// How the word that begins `around.prefix` was written: an English word assigned with
/// `=`, or given a value with `:` at the start of its line and not capitalised as a
/// label is (`Password:`), is a key; anything else is prose.
pub(super) fn said_as(around: &Around<'_>) -> Said {
    let prefix = around.prefix.trim_start();
    let word: String = prefix.chars().take_while(|c| c.is_alphabetic()).collect();
    let english = KEY_WORDS.contains(&word.to_lowercase().as_str());
    let head = prefix.trim_end().trim_end_matches(['*', '_', '"', '\'']).trim_end();
    let line_before = around
        .line
        .len()
        .checked_sub(around.prefix.len())
        .and_then(|at| around.line.get(..at))
        .unwrap_or("");
    let starts_line = !line_before.chars().any(char::is_alphanumeric);
    let capitalised =
        word.chars().next().is_some_and(char::is_uppercase) && word.chars().skip(1).any(char::is_lowercase);
    let key = english && (head.ends_with('=') || head.ends_with(':') && starts_line && !capitalised);
    if key { Said::Key } else { Said::Prose }
}

/// Whether the bare `password:` key goes on with prose (`password: expires in 30 days`,
/// `password: rotated monthly`): a plain word (letters only) followed by more words.
pub(super) fn goes_on_with_words(value: &str, around: &Around<'_>) -> bool {
    // A word, or a number (`password: 600000 iterations of PBKDF2`).
    let plain =
        !value.is_empty() && (value.chars().all(char::is_alphabetic) || value.chars().all(|c| c.is_ascii_digit()));
    plain
        && around
            .after
            .strip_prefix(' ')
            .is_some_and(|rest| rest.starts_with(char::is_alphabetic))
}

/// Whether the name a value is assigned to is an identifier (`wifi_password:`,
/// `DB_PASSWORD=`, `DbPassword=`, `PASSWORD=`), not the word as a label (`Password:`).
fn assigned_identifier(prefix: &str) -> bool {
    let head = prefix.trim_end().trim_end_matches(['"', '\'', '`']).trim_end();
    if !head.ends_with([':', '=']) {
        return false;
    }
    let name = super::assigned_name(prefix);
    let upper_after_first = name.chars().skip(1).any(char::is_uppercase);
    name.contains(['_', '.', '-']) || upper_after_first
}

/// How far a bare value runs past its first word (`value`) into `around.after`, in
/// bytes: over an app password's groups (`abcd efgh ijkl mnop`), and, assigned to an
/// identifier, over the plain words to the end of the line or a comment
/// (`DB_PASSWORD=correct horse battery staple # prod`). A first word with a digit or a
/// symbol is the whole password (`DB_PASSWORD=Sunflower42 npm start`).
pub(in crate::secrets) fn tail(value: &str, around: &Around<'_>) -> usize {
    let app = app_password_tail(value, around.after);
    if app > 0 {
        return app;
    }
    let plain = |w: &str| !w.is_empty() && w.chars().all(char::is_alphabetic);
    if !assigned_identifier(around.prefix) || !plain(value) || NOT_A_PASSWORD.contains(&value.to_lowercase().as_str()) {
        return 0;
    }
    let line = around.after.split(" #").next().unwrap_or("");
    let words = line.trim_end();
    if !words.starts_with(' ') || words.contains("  ") {
        return 0;
    }
    let rest: Vec<&str> = words.split(' ').skip(1).collect();
    if (1..=7).contains(&rest.len())
        && rest
            .iter()
            .all(|w| w.chars().all(char::is_alphanumeric) && !w.is_empty())
    {
        words.len()
    } else {
        0
    }
}

/// Whether the words after a value say it names an entry of a password manager, not the
/// password (`Home-WiFi-5G entry in Bitwarden`, `Netflix item from 1Password`).
pub(super) fn names_an_entry(after: &str) -> bool {
    let mut words = after.split_whitespace().map(str::to_lowercase);
    let (Some(noun), Some(link)) = (words.next(), words.next()) else {
        return false;
    };
    ENTRY_WORDS.contains(&noun.as_str()) && ["in", "from", "on", "under", "of"].contains(&link.as_str())
}

/// Whether the rest of a value's line is nothing more: punctuation, or a note in brackets
/// (`Sunflower42.`, `Sunflower42 (work)`).
pub(in crate::secrets) fn ends_line(after: &str) -> bool {
    let rest = after
        .trim()
        .trim_start_matches(['.', '!', '?', ')', ';', '`', '"', '\''])
        .trim();
    // A sentence written without spaces ends in its own script (`4827입니다`, `4827です。`).
    let own_script = rest
        .chars()
        .all(|c| super::shape::is_cjk(c) || c.is_ascii_punctuation() || "。、".contains(c));
    rest.is_empty() || own_script || rest.starts_with('(') && rest.ends_with(')')
}

/// Whether the word is qualified by what describes it rather than what it is for:
/// "Password (PBKDF2 iterations): …", "Password (SHA-256): …", "Password (last changed): …".
pub(super) fn qualifier_describes(prefix: &str) -> bool {
    let Some((_, inside)) = prefix.split_once(['(', '[']) else {
        return false;
    };
    let inside = inside.split([')', ']']).next().unwrap_or("").to_lowercase();
    inside
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        // A password manager names where it is kept, as "(Bitwarden)" does: what it is for.
        .any(|w| w != "1password" && (DESCRIBES.contains(&w) || TECH_NAMES.contains(&w) || LABELS.contains(&w)))
}

/// Whether a value is given to a Wi-Fi key ("Wi-Fi key: …", "network security key is …").
pub(super) fn names_wifi_key(prefix: &str) -> bool {
    let lower = prefix.trim_start().to_lowercase();
    [
        "wi-fi", "wifi", "wlan", "wireless", "wpa", "wep", "network", "netzwerk", "clé", "clave",
    ]
    .iter()
    .any(|w| lower.starts_with(w))
        && ["key", "schlüssel", "clé", "clave"].iter().any(|k| lower.contains(k))
}

/// Whether the name is the shell's `PWD` (`if PWD == "build2"`, `$PWD`): the working
/// directory, not a password. In a connection string (`UID=sa;PWD=…`) it is the password.
pub(super) fn is_working_directory(prefix: &str, line: &str) -> bool {
    let name = prefix.trim_start().trim_start_matches('$');
    let upper = line.to_ascii_uppercase();
    let connection = ["UID=", "USER ID=", "DRIVER=", "SERVER=", "DSN=", "DATABASE=", "JDBC:"]
        .iter()
        .any(|field| upper.contains(field));
    name.starts_with("PWD") && !connection && !name[3..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
}

/// Whether the line shows an example, not a secret: "Dummy password: …", "Sample password:
/// … (from xkcd 936)", "`password: hunter2` is the classic example", "e.g. …".
pub(super) fn shows_an_example(around: &Around<'_>, value: &str) -> bool {
    // Whole words only: `example.com` is a host, not an example.
    let line = format!("{}{value}{}", around.line, around.after).to_lowercase();
    line.contains("e.g.")
        || line
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .any(|w| EXAMPLE_WORDS.contains(&w))
}
