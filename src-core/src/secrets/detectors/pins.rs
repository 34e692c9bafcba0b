//! PINs and keypad codes: the digits said after "PIN", "passcode", "the door code", "the
//! code for the garage", "the alarm code for the shop" ("My bank PIN is 4827", "gate code:
//! #4821", "Lockbox: 4827"), in a config or JSON (`door_code: 4827`, `"pin": "4827"`), a
//! card's CVV, and a lock's combination ("the locker combination is 12-34-56"). The digits
//! of a zip, area, error, phone or building code are no secret, and neither is a PIN's
//! number in an address, a data sheet or a manual (`values::pins`).

use super::{Format, format};
use crate::secrets::SecretKind as K;
use crate::secrets::values::Form;

/// What names a PIN, in any case ("PIN", "pin code", "passcode", "Geheimzahl").
const PIN: &str = r"pin(?:[ \t-]*(?:code|number|nummer))?|passcode|pass[ \t]+code|geheimzahl|code[ \t]+pin|código[ \t]+pin|code[ \t]+(?:de[ \t]+la[ \t]+porte|du[ \t]+portail|d['’]accès)|código[ \t]+de[ \t]+la[ \t]+puerta|türcode|torcode";

/// The things a keypad's code opens or arms.
const KEYPADS: &str = r"(?:front[ \t]+|back[ \t]+|garage[ \t]+)?door(?:[ \t]+opener)?|gate|garage|lock[ \t]*box|key[ \t]*box|key[ \t]+safe|mailbox|keypad|alarm|safe|locker|padlock|(?:bike[ \t]+)?lock|entry|access|security";

/// What a code "for the …" opens ("the code for the garage is 4827").
const OPENS: &str = r"garage|gate|(?:front[ \t]+|back[ \t]+)?door|lock[ \t]*box|key[ \t]*box|alarm|safe|house|building|apartment|flat|shed|storage|locker|padlock|keypad|mailbox";

/// The words between the name and the verb that say whose ("for the shop", "of the safe").
const WHICH: &str = r"(?:[ \t]+(?:for|of|to|on|at|für|von|der|de|del|para|du)[ \t]+(?:[\w'’.-]+[ \t]+){0,4}?[\w'’.-]*|[ \t]*[(\[][^()\[\]\n]{1,30}[)\]]|[ \t]+(?:no\.?|#|number))";

/// The verb or sign before the digits ("is", "is now", "is:", `:`, `=`, "ist", "es", "est", "は").
const SAID: &str = r"(?:[ \t]*[:=：]|[ \t]+[-–—→]|[ \t]*\b(?:is|was|ist|lautet|es|est|era|é|è|är)(?:[ \t]+(?:now|still))?\b[ \t]*:?|[ \t]*は)[ \t]*";

/// The formats: the digits of a PIN or a keypad's code, of a card's CVV and of a lock's
/// combination.
pub(super) fn formats() -> Vec<Format> {
    let digits = r"[#*]?(\d{4,10})\b";
    let combination = r"(\d{1,2}(?:[ \t]*[-–/ ][ \t]*\d{1,2}){2,3}|\d{4,10})\b";
    vec![
        // "PIN: 4827", "my PIN is 4827", "the alarm code for the shop is 4827", "Die PIN ist 4827".
        format(
            K::Pin,
            &format!(r"(?i)\b(?:{PIN}|(?:{KEYPADS})[ \t]+(?:code|pin))\b{WHICH}?{SAID}{digits}"),
            1,
        )
        .form(Form::Said),
        // Changed or set: "Gate code changed to 4827", "I set the alarm code to 4827".
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:{PIN}|(?:{KEYPADS})[ \t]+code)[ \t]+(?:(?:was|is|has[ \t]+been)[ \t]+)?(?:changed|set|reset|updated)[ \t]+to[ \t]+{digits}"
            ),
            1,
        )
        .form(Form::Said),
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:changed|set|reset|updated)[ \t]+(?:the|my|our)[ \t]+(?:{PIN}|(?:{KEYPADS})[ \t]+code)[ \t]+to[ \t]+{digits}"
            ),
            1,
        )
        .form(Form::Said),
        // The label alone on its line, the digits alone on the next (`PIN:` then `4827`).
        format(
            K::Pin,
            &format!(r"(?im)^[ \t]*(?:{PIN}|(?:{KEYPADS})[ \t]+code|code)[ \t]*:[ \t]*\r?\n[ \t]*#?(\d{{4,10}})#?[ \t]*$"),
            1,
        )
        .form(Form::Said),
        // "PIN 4827", "passcode 839201": beside the acronym written so, never a year.
        format(K::Pin, &format!(r"\b(?:PIN|PIN[ \t-]?[Cc]ode|[Pp]asscode)[ \t]+{digits}"), 1).form(Form::Strict),
        // "Lockbox: 4827", "Key box code 4827", "Keypad: 4827#".
        format(
            K::Pin,
            &format!(r"(?i)\b(?:lock[ \t]*box|key[ \t]*box|key[ \t]+safe|keypad)(?:[ \t]+code)?(?:{SAID}|[ \t]+){digits}"),
            1,
        )
        .form(Form::Said),
        // "the code for the garage is 4827".
        format(
            K::Pin,
            &format!(
                r"(?i)\bcode[ \t]+(?:for|to|of)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+|your[ \t]+)?(?:{OPENS})\b{SAID}{digits}"
            ),
            1,
        )
        .form(Form::Said),
        // Written without spaces: "暗証番号は4827です", "비밀번호는 4827입니다".
        format(K::Pin, r"(?:暗証番号|暗証コード|비밀번호|密码|密碼)[ \t]*(?:は|는|은|:|：|是)[ \t]*(\d{4,10})", 1)
            .form(Form::Said),
        // "The code is 4827 for the front door".
        format(
            K::Pin,
            &format!(
                r"(?i)\bcode{SAID}{digits}[ \t]+(?:for|to|of)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?(?:{OPENS})\b"
            ),
            1,
        )
        .form(Form::Said),
        // A config's or JSON's name: `door_code: 4827`, `"pin": "4827"`, `card_pin=4827`.
        format(
            K::Pin,
            r#"(?i)(?:^|[\s{,\[(])["']?(?:[a-z0-9]+[_.\-])*(?:pin|pin_?code|passcode|(?:door|gate|alarm|lockbox|garage|safe|keypad)[_\-]?code)["']?[ \t]*(?:=>|[:=])[ \t]*["']?(\d{4,10})\b"#,
            1,
        ),
        // A card's security code in a config or JSON (`card_cvv: "482"`, `{"cvv": "482"}`).
        format(
            K::Pin,
            r#"(?i)(?:^|[\s{,\[(])["']?(?:[a-z0-9]+[_.\-])*(?:cvv2?|cvc2?)["']?[ \t]*(?:=>|[:=])[ \t]*["']?(\d{3,4})\b"#,
            1,
        ),
        // The three or four digits of a card's security code ("CVV 123", "CVC: 4321").
        format(
            K::Pin,
            r"(?i)\b(?:cvv2?|cvc2?|card[ \t]+security[ \t]+code)\b(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+|[ \t]+)(\d{3,4})\b",
            1,
        ),
        // "the locker combination is 12-34-56", "Combination lock: 12-34-56", "lock combo 4-18-30".
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:(?:(?:bike|gym|locker|safe|master)[ \t]+)?lock[ \t]+(?:combination|combo)|(?:locker|safe|padlock)[ \t]+(?:combination|combo)|combination[ \t]+lock|combination[ \t]+(?:for|of)[ \t]+(?:the[ \t]+|my[ \t]+)?(?:lock|locker|safe|padlock))\b(?:{SAID}|[ \t]+){combination}"
            ),
            1,
        )
        .form(Form::Said),
    ]
}
