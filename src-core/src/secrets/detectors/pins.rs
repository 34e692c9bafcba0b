//! PINs and keypad codes: the digits said after "PIN", "passcode", "door code", "the
//! alarm code for the shop", "CVV" ("My bank PIN is 4827", "gate code #4821", "PIN:
//! 0417"), and a lock's combination ("the locker combination is 12-34-56"). Digits after
//! any other code (a zip, area, error or status code) are no secret.

use super::{Format, format};
use crate::secrets::SecretKind as K;
use crate::secrets::values::Form;

/// What names a PIN or a keypad's code.
const NAMES: &str = r"pin(?:[ \t-]+(?:code|number))?|passcode|pass[ \t]+code|(?:door|gate|garage|alarm|lock|safe|keypad|entry|access|unlock|building|house|front[ \t]+door|locker|padlock|bike[ \t]+lock|phone|sim|voicemail|debit[ \t]+card|card)[ \t]+(?:code|pin)";

/// The words between the name and the verb that say whose ("for the shop", "of the safe").
const WHICH: &str = r"(?:[ \t]+(?:for|of|to|on|at)[ \t]+(?:[\w'’.-]+[ \t]+){0,4}?)";

/// The verb or sign before the digits ("is", "was", "is now", `:`, `=`).
const SAID: &str = r"[ \t]*(?:[:=]|\b(?:is|was)(?:[ \t]+(?:now|still))?\b)[ \t]*";

/// The formats: the digits of a PIN, of a card's CVV and of a lock's combination.
pub(super) fn formats() -> Vec<Format> {
    let digits = r"[#*]?(\d{4,10})\b";
    let combination = r"(\d{1,2}(?:[ \t]*[-–/][ \t]*\d{1,2}){2,3})\b";
    vec![
        // "PIN: 4827", "my PIN is 4827", "the alarm code for the shop is 4827".
        format(K::Pin, &format!(r"(?i)\b(?:{NAMES})\b{WHICH}?{SAID}{digits}"), 1),
        // "PIN 4827": beside the word, never a year ("PIN 2024 release notes").
        format(K::Pin, &format!(r"(?i)\b(?:{NAMES})[ \t]+{digits}"), 1).form(Form::Strict),
        // The three or four digits of a card's security code ("CVV 123", "CVC: 4321").
        format(
            K::Pin,
            r"(?i)\b(?:cvv2?|cvc2?|cid|card[ \t]+security[ \t]+code)\b(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+|[ \t]+)(\d{3,4})\b",
            1,
        ),
        // "the locker combination is 12-34-56", "safe combo: 4-18-30".
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:lock|locker|safe|padlock|bike[ \t]+lock|gym[ \t]+lock)[ \t]+(?:combination|combo)\b{WHICH}?{SAID}{combination}"
            ),
            1,
        ),
    ]
}
