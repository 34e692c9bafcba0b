//! A key that names a secret (a JSON key, a metadata key, an agent-state key) and whether
//! the text under it is one: `{"password": …}`, `{"API_TOKEN": …}`, `{"password for
//! gmail": …}`, `{"Password (Gmail)": …}`, `{"door_code": "4827"}`.

use super::words::{NOT_A_PASSWORD, NOT_A_VALUE, PASS_NAMES};
use super::{SecretKind, code, is_action_name, is_label, looks_strong};

/// A key that names a secret: the kind it names, and whether the name is an action on it
/// (`change_password`: only a value that looks like a password is one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::secrets) struct Named {
    pub kind: SecretKind,
    pub action: bool,
}

/// The names of a PIN or a keypad's code, as a key ends (`bank_pin`, `pin_code`, `door code`).
const PIN_KEYS: &[&str] = &[
    "pin",
    "pin_code",
    "pincode",
    "pin code",
    "passcode",
    "door_code",
    "door code",
    "gate_code",
    "gate code",
    "alarm_code",
    "alarm code",
    "lockbox_code",
    "lockbox code",
    "garage_code",
    "safe_code",
    "keypad_code",
];

/// The kind of secret a key names: a name that ends in a word for a secret, or starts
/// with the word and says what it is for (`password for gmail`, `Password (Gmail)`).
/// `password_reset_url` or `api_key_id` name no secret.
pub(in crate::secrets) fn secret_named_by(key: &str) -> Option<Named> {
    let key = key.trim();
    let lower = key.to_ascii_lowercase();
    // "Password (Gmail)", "password for gmail": the word, then what it is for.
    let head = lower
        .split_once(['(', '['])
        .map_or(lower.as_str(), |(head, _)| head)
        .trim();
    let head = head
        .split_once(" for ")
        .or_else(|| head.split_once(" of "))
        .map_or(head, |(head, _)| head)
        .trim();
    let action = is_action_name(key);
    let ends = |words: &[&str]| words.iter().any(|w| head.ends_with(w));
    if ends(&[
        "password",
        "passwd",
        "passphrase",
        "pwd",
        "psk",
        "wifi_key",
        "mnemonic",
        "seed_phrase",
    ]) || head == "seed"
    {
        return Some(Named {
            kind: SecretKind::Password,
            action,
        });
    }
    let ends_as_part = |w: &&str| head == *w || head.ends_with(&format!("_{w}")) || head.ends_with(&format!(" {w}"));
    if PIN_KEYS.iter().any(ends_as_part) {
        return Some(Named {
            kind: SecretKind::Pin,
            action: false,
        });
    }
    if ["cvv", "cvc", "card_cvv", "cvv2"].iter().any(ends_as_part) {
        return Some(Named {
            kind: SecretKind::Pin,
            action: false,
        });
    }
    // `pass`, a `pw` name (`router_pw`) or a `_pass` name (`ldap_pass`, `login_pass`):
    // only what looks like a password.
    if head == "pass"
        || head == "pw"
        || head.ends_with("_pw")
        || PASS_NAMES
            .iter()
            .any(|p| head.ends_with(&format!("{p}_pass")) || head.ends_with(&format!("{p}pass")))
    {
        return Some(Named {
            kind: SecretKind::Password,
            action: true,
        });
    }
    ends(&[
        "secret",
        "token",
        "api_key",
        "apikey",
        "api-key",
        "secret_key",
        "private_key",
        "access_key",
    ])
    .then_some(Named {
        kind: SecretKind::ApiKey,
        action,
    })
}

/// Whether a text under a key that names a secret is one: a credential-like value, never a
/// phrase, a label, a short word, a template, a path or a cursor (`"page-2"`, `"gpt-4o"`,
/// `"expires in 30 days"`). It is never code: a JSON value is data.
pub(in crate::secrets) fn is_named_secret(named: Named, value: &str) -> bool {
    let value = value.trim();
    let lower = value.to_lowercase();
    if value.is_empty() || value.contains("[secret: ") || code::is_template(value, "") || code::is_path_or_link(value) {
        return false;
    }
    if named.action {
        return looks_strong(value);
    }
    match named.kind {
        // A password may be a passphrase of a few words; a sentence or a label is not one.
        SecretKind::Password => {
            value.chars().count() >= 4
                && value.split_whitespace().count() <= 5
                && !value.contains(" > ")
                && !NOT_A_PASSWORD.contains(&lower.as_str())
                && !NOT_A_VALUE.contains(&lower.as_str())
                && !is_label(&lower)
        }
        // A PIN is its digits (a keypad's `#` after them); a card's CVV has three or four.
        SecretKind::Pin => {
            let digits = value.trim_start_matches(['#', '*']).trim_end_matches(['#', '*']);
            (3..=10).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
        }
        // A key or token is one run of at least 12 characters.
        _ => value.chars().count() >= 12 && !value.contains(char::is_whitespace),
    }
}
