//! A password of one plain word said in an English sentence or after an English label:
//! "my password is mittens", "our netflix password is pancakes, don't share it",
//! "Password: bluebird". The word must end its sentence and be no word a sentence says
//! about a password instead ("my password is wrong", "the password is required", "the
//! problem with the wifi password is length"): judgements, states, places and the forms of
//! adjectives, participles and abstract nouns. Other languages keep their words: a
//! judgement there ("Das Passwort ist sicher") is too easily taken for a password.

use super::Around;
use super::words::{DESCRIBING, LOCATION_WORDS, NOT_A_PASSWORD, SENTENCE_WORDS, TECH_NAMES};

/// Words said about a password, besides the ones [`NOT_A_PASSWORD`] holds, that a suffix
/// below does not already catch.
#[rustfmt::skip]
const SAID_ABOUT: &[&str] = &[
    "mine", "yours", "ours", "theirs", "hers", "gone", "lost", "stolen", "known", "shown", "done", "due", "soon",
    "later", "elsewhere", "everywhere", "somewhere", "attached", "inside", "outside", "correct", "ready", "broken",
    "open", "public", "standard", "common", "free", "everything", "enough", "cool", "nice", "safe", "unsafe",
    "perfect", "awful", "horrible", "worse", "better", "best", "worst", "lame", "silly", "stupid", "dumb", "tricky",
    "lowercase", "uppercase", "numeric", "alphanumeric", "english", "ascii", "unicode", "plaintext", "cleartext",
    "current", "previous", "next", "first", "last", "final", "initial", "real", "fake", "legit", "length",
    "strength", "entropy", "expiry", "reuse", "format", "policy", "spelling", "history", "timing", "key", "code",
    "pin", "it", "them", "him", "me", "us", "you", "yes", "who", "why", "how", "where", "when", "what", "mandatory",
    "weird", "odd", "strange", "fine", "gibberish", "nonsense", "ancient", "outdated", "dead", "live", "online",
    "offline", "local", "global", "same", "similar", "different", "shorter", "longer", "stronger", "weaker",
    "easier", "harder", "simpler", "safer", "down", "up", "out", "over", "back", "away", "through", "again",
    "wrong", "below", "above", "attached", "included", "inline",
    "varies", "differs", "changes", "rotates", "expires", "depends", "matches", "works", "fails", "foolish",
    "childish", "selfish", "stylish", "rubbish", "medium", "high", "low", "fair", "poor", "average", "moderate",
    "decent", "solid",
    // Password managers and keychains, where it is kept.
    "gopass", "enpass", "roboform", "nordpass", "keeper", "passbolt", "vaultwarden", "psono", "onepassword",
    "proton", "authy", "keyring", "kwallet",
];

/// Endings of adjectives, participles, adverbs and abstract nouns ("expired", "expiring",
/// "reusable", "useless", "famous", "obviously", "complexity", "rotation").
#[rustfmt::skip]
const SAID_ENDINGS: &[&str] = &[
    "ed", "ing", "ly", "able", "ible", "ful", "less", "ous", "ive", "ent", "ant", "ary", "ory", "est",
    "ical", "ional", "ity", "tion", "sion", "ment", "ness", "ance", "ence", "ism", "ship",
];

/// Whether a plain word said as a password in English is one: 4 to 24 letters, lower-case
/// but the first, ending its sentence (or followed by `,`, `;` or a dash and more), after an
/// English word for a password, and no word said about one.
pub(super) fn is_plain_word_password(value: &str, around: &Around<'_>) -> bool {
    let written = value.trim_end_matches(['.', '!']);
    let len = written.chars().count();
    let mut letters = written.chars();
    let plain = letters.next().is_some_and(|c| c.is_ascii_alphabetic()) && letters.all(|c| c.is_ascii_lowercase());
    if !(4..=24).contains(&len) || !plain {
        return false;
    }
    let word = written.to_ascii_lowercase();
    let word = word.as_str();
    if !said_in_english(around.prefix) || !ends_sentence(around.after) {
        return false;
    }
    let known = [
        NOT_A_PASSWORD,
        SENTENCE_WORDS,
        LOCATION_WORDS,
        DESCRIBING,
        TECH_NAMES,
        SAID_ABOUT,
    ];
    !known.iter().any(|list| list.contains(&word)) && !SAID_ENDINGS.iter().any(|end| word.ends_with(end))
}

/// Whether the prefix names the password in English and gives it with "is", "was", "'s" or
/// a colon ("my password is", "the wifi password for the office is", "Password:").
fn said_in_english(prefix: &str) -> bool {
    let lower = prefix.to_lowercase();
    let named = ["password", "passcode", "passphrase", "passwd"]
        .iter()
        .any(|w| lower.contains(w));
    let head = lower.trim_end();
    let given = head.ends_with(':')
        || [" is", " was", "'s", "’s", " is now", " is still", " was still"]
            .iter()
            .any(|v| head.ends_with(v));
    // "The Password Is Courage": a title, not a sentence.
    let title = prefix.trim_end().ends_with(" Is");
    named && given && !title
}

/// Whether the words after a value end its sentence: nothing, punctuation or a note in
/// brackets, or a `,`, `;` or dash before the next clause ("…, don't share it").
fn ends_sentence(after: &str) -> bool {
    let rest = after.trim_start();
    super::prose::ends_line(after)
        || rest.starts_with([',', ';'])
        || rest.starts_with(['—', '–'])
        || rest.starts_with("- ")
}
