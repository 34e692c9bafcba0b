//! A password or a PIN asked for and answered: "What's the wifi password? It's …",
//! "Q: What is the router password?" and "A: …" on the next line, a chat's answer on the
//! next line (`[10:03] ben: …`), "wifi pw? …", "What's the alarm code? 4827"; and a label
//! alone on its line with the value on the next (`Password:` then `…`).

use super::{ANY_GROUP, Format, VALUE, format};
use crate::secrets::SecretKind as K;
use crate::secrets::values::Form;

/// A question asked for a password or a code `word` names, and how its answer follows:
/// "what's the (wifi) password" ends with [`ASKED`] or its line (the answer on the next);
/// a line that is the question alone ("wifi pw?", "Q: password?", "ana: door code pls")
/// with [`ASKED`].
fn question(word: &str) -> String {
    format!(
        r"(?:\bwhat(?:['’]s|s|[ \t]+is|[ \t]+was)[ \t]+(?:the|your|our|my|his|her|their)[ \t]+(?:[\w-]+[ \t]+){{0,3}}?(?:{word})\b(?:[ \t]+(?:for|of|to|on)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?[\w'’.@-]+)?(?:{ASKED}{ANSWER}|{NEXT_LINE})|(?m:^)[ \t]*{CHAT}(?:(?:q|question)[ \t]*[:.)][ \t]*)?(?:[\w-]+[ \t]+)?(?:{word})\b(?:[ \t]+(?:for|of|to|on)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?[\w'’.@-]+)?{ASKED}{ANSWER})"
    )
}

/// A chat line's time and speaker before a question (`[10:02] ana: `, `ana (10:02): `).
const CHAT: &str = r"(?:\[[^\]\n]{1,20}\][ \t]*)?(?:[\w .-]{1,20}(?:[ \t]*\([^)\n]{1,12}\))?:[ \t]*)?";

/// The answer after the question: on its line or the next (after a chat's time and name,
/// or "A:"), "it's …", "→ …".
const ANSWER: &str = r"[ \t]*(?:\r?\n[ \t]*(?:\[[^\]\n]{1,20}\][ \t]*)?(?:[\w .-]{1,20}(?:[ \t]*\([^)\n]{1,12}\))?:[ \t]*)?)?(?:(?:a|answer)[ \t]*[:.)][ \t]*|it['’]?s[ \t]+|it[ \t]+is[ \t]+|(?:[-–—→]|->)[ \t]*)?";

/// What ends a question on its line: "?", "pls".
const ASKED: &str = r"(?:[ \t]*\?+|[ \t]+(?:pls|please|plz)\b)";

/// The answer on the next line after a question without a question mark (a chat's
/// `[10:03] ben: …`).
const NEXT_LINE: &str = r"[ \t]*\r?\n[ \t]*(?:\[[^\]\n]{1,20}\][ \t]*)?(?:[\w .-]{1,20}(?:[ \t]*\([^)\n]{1,12}\))?:[ \t]*)?(?:(?:a|answer)[ \t]*[:.)][ \t]*|it['’]?s[ \t]+|it[ \t]+is[ \t]+|(?:[-–—→]|->)[ \t]*)?";

/// The asked-and-answered formats, and the label with its value on the next line.
pub(super) fn formats() -> Vec<Format> {
    let password = question(r"password|passwd|passphrase|pw|pass|wi-?fi");
    let pin = question(
        r"pin|passcode|(?:door|gate|garage|alarm|safe|lockbox|keypad)[ \t]+code|code[ \t]+(?:for|to)[ \t]+(?:the[ \t]+)?(?:(?:front[ \t]+)?door|gate|garage|alarm|safe|lockbox)",
    );
    vec![
        format(
            K::Password,
            &format!(r"(?i){password}{VALUE}[ \t]*[.!]?[ \t]*(?:\([^)\n]*\))?[ \t]*(?m:$)"),
            ANY_GROUP,
        )
        .form(Form::Said),
        format(K::Pin, &format!(r"(?i){pin}#?(\d{{4,10}})\b"), 1).form(Form::Said),
        // A security question's answer, a memorable word, a mother's maiden name: "Security
        // answer: …", "Security question: first pet? Answer: …".
        format(
            K::Password,
            &format!(
                r"(?i)\b(?:security[ \t]+answer|secret[ \t]+(?:question[ \t]+)?answer|answer[ \t]+to[ \t]+(?:my|the)[ \t]+security[ \t]+question|memorable[ \t]+(?:word|information|info)|mother['’]?s[ \t]+maiden[ \t]+name|security[ \t]+question[^\n?]{{1,60}}\?[ \t]*(?:\r?\n[ \t]*)?(?:a|answer))[ \t]*(?::|[ \t]+is)[ \t]*{VALUE}"
            ),
            ANY_GROUP,
        ),
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
