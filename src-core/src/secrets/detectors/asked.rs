//! A password or a PIN asked for and answered: "What's the wifi password? It's …",
//! "Q: What is the router password?" and "A: …" on the next line, a chat's answer on the
//! next line (`[10:03] ben: …`), "wifi pw? …", "What's the alarm code? 4827"; and a label
//! alone on its line with the value on the next (`Password:` then `…`).

use super::{ANY_GROUP, Format, VALUE, format};
use crate::secrets::SecretKind as K;
use crate::secrets::values::Form;

/// A question: "what's the (wifi) password?", or a line that is the question alone ("wifi
/// pw?", "Q: password?").
fn question(word: &str) -> String {
    format!(
        r"(?:\bwhat(?:['’]s|s|[ \t]+is|[ \t]+was)[ \t]+(?:the|your|our|my|his|her|their)[ \t]+(?:[\w-]+[ \t]+){{0,3}}?(?:{word})(?:[ \t]+(?:for|of|to|on)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?[\w'’.@-]+)?|(?m:^)[ \t]*(?:(?:q|question)[ \t]*[:.)][ \t]*)?(?:[\w-]+[ \t]+)?(?:{word}))[ \t]*\?+"
    )
}

/// The answer after the question: on its line or the next (after a chat's time and name,
/// or "A:"), "it's …", "→ …".
const ANSWER: &str = r"[ \t]*(?:\r?\n[ \t]*(?:\[[^\]\n]{1,20}\][ \t]*)?(?:[\w .-]{1,20}:[ \t]*)?)?(?:(?:a|answer)[ \t]*[:.)][ \t]*|it['’]s[ \t]+|it[ \t]+is[ \t]+|(?:[-–—→]|->)[ \t]*)?";

/// The asked-and-answered formats, and the label with its value on the next line.
pub(super) fn formats() -> Vec<Format> {
    let password = question(r"password|passwd|passphrase|pw|pass");
    let pin = question(
        r"pin|passcode|(?:door|gate|garage|alarm|safe|lockbox|keypad)[ \t]+code|code[ \t]+(?:for|to)[ \t]+(?:the[ \t]+)?(?:(?:front[ \t]+)?door|gate|garage|alarm|safe|lockbox)",
    );
    vec![
        format(
            K::Password,
            &format!(r"(?i){password}{ANSWER}{VALUE}[ \t]*[.!]?[ \t]*(?:\([^)\n]*\))?[ \t]*(?m:$)"),
            ANY_GROUP,
        )
        .form(Form::Said),
        format(K::Pin, &format!(r"(?i){pin}{ANSWER}#?(\d{{4,10}})\b"), 1).form(Form::Said),
        // `Password:` alone on its line, the value alone on the next.
        format(
            K::Password,
            &format!(
                r"(?im)^[ \t]*(?:[-*][ \t]+)?(?:\*\*|__)?(?:password|passwort|passcode|pwd|pw)(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*\r?\n[ \t]*{VALUE}[ \t]*$"
            ),
            ANY_GROUP,
        )
        .form(Form::Strict),
    ]
}
