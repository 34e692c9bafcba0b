//! Prose after the word: whether "the password is …" / "Password: …" goes on with a
//! sentence or gives a value, how far a passphrase runs, and what looks like a password
//! when nothing but its place says so.

use super::Around;
use super::words::{NOT_A_PASSWORD, PASSWORD_WORDS, PROSE_WHEN_LAST, SENTENCE_WORDS};

/// Whether a word looks like a password by itself: six characters or more, letters with
/// digits or symbols (`Sunflower42`, `Tr0ub4dor&3`, `P@ssw0rd!`), not a name holding the
/// word (`1Password`). What follows "password" with nothing between, or "set … to", must.
pub(in crate::secrets) fn looks_strong(value: &str) -> bool {
    let word = value.trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
    let lower = word.to_lowercase();
    let letters = word.chars().filter(char::is_ascii_alphabetic).count();
    let digits = word.chars().any(|c| c.is_ascii_digit());
    let symbols = word.chars().any(|c| "!@#$%^&*~+=_".contains(c));
    word.chars().count() >= 6
        && letters >= 2
        && (digits || symbols)
        && !word.contains(char::is_whitespace)
        && !PASSWORD_WORDS.iter().any(|w| lower.contains(w))
}

/// A word of a sentence after "password is" or "password:", not a value: a word that
/// begins prose ([`NOT_A_PASSWORD`]: "is stored in", "is too short", "Password: see the
/// vault", "ist abgelaufen"), a judgement ending the sentence ("is correct."), a
/// participle or an adverb going on ("is synced daily", "is literally"), a hyphenated
/// judgement ("is case-sensitive", "is Bitwarden-managed"), or a description of the
/// password ("password: plaintext password"). Anything else is a value, lower-case or
/// not ("is swordfish for the door"); an assignment's (`=`) and a quoted value never are.
pub(super) fn is_prose(value: &str, prefix: &str, around: &Around<'_>) -> bool {
    if matches!(around.before, Some('"' | '\'' | '`')) || prefix.trim_end().ends_with('=') {
        return false;
    }
    let word = value.trim_end_matches(['.', ',', ';', '!', '?', ':']);
    let letters = !word.is_empty() && word.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'');
    if !letters {
        return false;
    }
    let lower = word.to_lowercase();
    let rest = around.after.trim_start();
    let more_words = rest.starts_with(char::is_alphabetic);
    let description = rest
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| PASSWORD_WORDS.contains(&w.to_lowercase().as_str()));
    let parts: Vec<&str> = lower.split('-').collect();
    let participle = |w: &str| w.len() > 4 && (w.ends_with("ed") || w.ends_with("ive") || w.ends_with("ing"));
    NOT_A_PASSWORD.contains(&lower.as_str())
        || (PROSE_WHEN_LAST.contains(&lower.as_str()) && !more_words)
        || (parts.len() > 1
            && (NOT_A_PASSWORD.contains(&parts[0]) && !PROSE_WHEN_LAST.contains(&parts[0])
                || parts.last().is_some_and(|p| participle(p))))
        || (more_words && (participle(&lower) || lower.len() > 4 && lower.ends_with("ly")))
        || description
}

/// How far a passphrase written after "password is" / "Passphrase:" runs past its first
/// word (`value`), in bytes of `after`: over the lower-case words that follow to the end
/// of the sentence ("correct horse battery staple"), none of them a word of a sentence
/// going on ("pineapple and the network is …", "swordfish for the door": one word).
pub(in crate::secrets) fn passphrase_tail(value: &str, after: &str) -> usize {
    let plain = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_alphabetic() && c.is_lowercase());
    let first = value.chars().skip(1).collect::<String>();
    if !value.chars().next().is_some_and(char::is_alphabetic) || !(first.is_empty() || plain(&first)) {
        return 0;
    }
    let mut end = 0;
    let mut at = 0;
    for _ in 0..6 {
        let rest = &after[at..];
        let gap = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        if gap == 0 {
            break;
        }
        let word_len = rest[gap..]
            .find(|c: char| !c.is_alphabetic())
            .unwrap_or(rest.len() - gap);
        let word = &rest[gap..gap + word_len];
        if !plain(word) || SENTENCE_WORDS.contains(&word) || NOT_A_PASSWORD.contains(&word) {
            break;
        }
        at += gap + word_len;
        end = at;
        // A word followed by punctuation or the end of the line ends the phrase.
        if !after[at..].starts_with([' ', '\t']) {
            break;
        }
    }
    end
}
