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
const PIN: &str = r"pin(?:[ \t-]*(?:code|number|nummer))?|passcode|(?:iphone|ipad|phone[ \t]+unlock|screen[ \t]+lock)[ \t]+code|combo[ \t]+(?:to|for)[ \t]+the[ \t]+lock|pass[ \t]+code|geheimzahl|code[ \t]+pin|código[ \t]+pin|code[ \t]+(?:de[ \t]+la[ \t]+porte|du[ \t]+portail|d['’]accès)|código[ \t]+de[ \t]+la[ \t]+puerta|türcode|torcode|key[ \t]?code|unlock[ \t]+code|puk(?:[ \t]*code)?|(?:duress|panic|disarm|arming)[ \t]+code|memorable[ \t]+number|(?:telephone[ \t]+banking[ \t]+)?security[ \t]+number|code[ \t]+(?:de[ \t]+(?:ma[ \t]+)?carte(?:[ \t]+bleue)?|secret(?:[ \t]+(?:de[ \t]+(?:ma[ \t]+)?)?(?:cb|carte))?|confidentiel(?:[ \t]+de[ \t]+(?:ma[ \t]+)?carte)?)|nip|clave[ \t]+de[ \t]+(?:mi[ \t]+)?tarjeta";

/// The things a keypad's code opens or arms.
const KEYPADS: &str = r"(?:front[ \t]+|back[ \t]+|side[ \t]+|garage[ \t]+)?door(?:[ \t]+opener)?|gate|garage|lock[ \t]*box|key[ \t]*box|key[ \t]*safe|mailbox|keypad|alarm(?:[ \t]+panel)?|safe|locker|padlock|(?:bike[ \t]+)?lock|entry|access|security(?:[ \t]+system)?|intercom|buzzer|elevator|lift|storage(?:[ \t]+unit)?|shed|adt";

/// What a code is keyed into ("Punch in 4827 at the gate", "opens with 4827"): never an
/// entry form or a security tier.
const KEYED: &str = r"keypad|gate|(?:front[ \t]+|back[ \t]+|side[ \t]+|garage[ \t]+)?door|garage|lock[ \t]*box|key[ \t]*box|key[ \t]*safe|alarm(?:[ \t]+panel)?|intercom|buzzer|padlock|(?:bike[ \t]+)?lock|safe|shed";

/// What a code "for the …" opens ("the code for the garage is 4827").
const OPENS: &str = r"unlock[ \t]+(?:my|the)[ \t]+(?:phone|iphone|ipad|laptop)|(?:my|the)[ \t]+(?:phone|iphone|ipad)|(?:garage|gate|(?:front[ \t]+|back[ \t]+|side[ \t]+)?door|lock[ \t]*box|key[ \t]*box|alarm|safe|house|building|apartment|flat|shed|storage|locker|padlock|keypad|mailbox|intercom|elevator|airbnb|cabin|condo|unit|villa|cottage|chalet|room)(?:[ \t]+(?:room|unit|door|gate|box))?|get[ \t]+in(?:to[ \t]+(?:the|our|my|your)[ \t]+(?:[\w'’-]+[ \t]+){0,2}?[\w'’-]+)?";

/// A lock or keypad named as a label before its digits ("Hotel room safe:", "Shed padlock:",
/// "Combo:", "Keysafe:").
const LOCKS: &str = r"zahlenschloss|vorhängeschloss|fahrradschloss|(?:hotel[ \t]+(?:room[ \t]+)?|room[ \t]+|gun[ \t]+|wall[ \t]+|home[ \t]+)safe|padlock|(?:shed|gym|bike|cable|gate|locker)[ \t]+lock|lock[ \t]*box|key[ \t]*box|key[ \t]*safe|key[ \t]+lock[ \t]*box|keypad|intercom|buzzer";

/// A label that may name a lock or something else ("Safe:", "Combo:", "Combination:"): only
/// a run of digits or a dial's three two-digit numbers (`12-34-56`) after it, never a
/// drill, a chord or a lottery's numbers (`combo: 1-2-3-2`, `04-12-27-33`).
const MAYBE_LOCKS: &str = r"safe|combo|combination";

/// A dial lock's combination, or a run of digits.
const DIAL: &str = r"(\d{2}[ \t]*[-–/][ \t]*\d{2}[ \t]*[-–/][ \t]*\d{2}|\d{4,10})(?:[ \t]*[-–/][ \t]*\d)?\b";

/// The words between the name and the verb that say whose ("for the shop", "of the safe").
const WHICH: &str = r"(?:[ \t]+(?:for|of|to|on|at|für|von|der|de|del|para|du|do|da|della)[ \t]+(?:[\w'’.-]+[ \t]+){0,4}?[\w'’.-]*|[ \t]*[(\[][^()\[\]\n]{1,30}[)\]]|[ \t]+(?:no\.?|#|number)|[ \t]+(?:i|we)[ \t]+(?:set|chose|picked|use))";

/// The verb or sign before the digits ("is", "is now", "is:", `:`, `=`, "ist", "es", "est", "は").
const SAID: &str = r"(?:[ \t]*[:=：]|[ \t]+[-–—→]|[ \t]*\b(?:is|was|ist|lautet|es|est|era|é|è|är)(?:[ \t]+(?:now|still))?\b[ \t]*:?|['’]s[ \t]|[ \t]*は)[ \t]*";

/// The formats: the digits of a PIN or a keypad's code, of a card's CVV and of a lock's
/// combination.
pub(super) fn formats() -> Vec<Format> {
    let digits = r"[#*]?(\d{4,10})\b";
    let combination = r"(\d{1,2}(?:[ \t]*[-–/ ][ \t]*\d{1,2}){2,3}|\d{4,10})\b";
    let mut all = vec![
        // "PIN: 4827", "my PIN is 4827", "the alarm code for the shop is 4827", "Die PIN ist 4827".
        format(
            K::Pin,
            &format!(r"(?i)\b(?:{PIN}|(?:{KEYPADS})(?:[ \t]+#?\d{{1,4}})?[ \t]+(?:code|pin))\b{WHICH}?{SAID}{digits}"),
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
            &format!(r"(?im)^[ \t]*(?:(?:{PIN}|(?:{KEYPADS})[ \t]+code)[ \t]*:?|code[ \t]*:)[ \t]*\r?\n[ \t]*#?(\d{{4,10}})#?[ \t]*$"),
            1,
        )
        .form(Form::Said),
        // "PIN 4827", "PUK 83920471", "passcode 839201": beside the acronym written so, never a
        // year.
        format(
            K::Pin,
            &format!(r"\b(?:PIN|PUK2?|PIN[ \t-]?[Cc]ode|[Pp]in[ \t-]?[Cc]ode|[Pp]asscode|(?i:pin)[ \t]*(?:#|no\.|nr\.?))[ \t]*{digits}"),
            1,
        )
        .form(Form::Strict),
        // A field of a line: "user ana.silva, pin 8305"; a gym locker's dial: "Locker: 12-24-36".
        format(K::Pin, &format!(r"(?im)[,;][ \t]*pin[ \t]*[:=]?[ \t]*{digits}(?:[ \t]*$|[ \t]*[.,;])"), 1).form(Form::Said),
        format(
            K::Pin,
            r"(?im)(?:^|[,;(])[ \t]*(?:gym[ \t]+|school[ \t]+)?locker(?:[ \t]+#?\d{1,4})?[ \t]*[:=-][ \t]*(\d{2}[ \t]*[-–][ \t]*\d{2}[ \t]*[-–][ \t]*\d{2})[ \t]*$",
            1,
        )
        .form(Form::Said),
        // A lock's or keypad's label and its digits or combination: "Lockbox: 4827", "Key box
        // code 4827", "Keypad: 4827#", "Hotel room safe: 4827", "Shed padlock: 4827", "Combo:
        // 4827", "Safe: 12-34-56", "door code 4827", "Building access code 4827#".
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:{LOCKS})(?:[ \t]+(?:code|pin|combination|combo|number))?{SAID}[#*]?{combination}"
            ),
            1,
        )
        .form(Form::Said),
        format(K::Pin, &format!(r"(?im)(?:^|[,;(])[ \t]*(?:{MAYBE_LOCKS}){SAID}{DIAL}"), 1).form(Form::Said),
        // In prose: "The combination is 12-34-56", "the combo for the gym locker is 24-12-36",
        // "a Master combo 22-08-31".
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:combination|combo)\b(?:[ \t]+(?:for|to|of|on)[ \t]+(?:the[ \t]+|my[ \t]+)?(?:\p{{L}}[\w'’-]*[ \t]+){{0,2}}?\p{{L}}[\w'’-]*)?(?:{SAID}|[ \t]+){DIAL}"
            ),
            1,
        )
        .form(Form::Said),
        // A code changed, said after: "The door code at the new office changed, it's 2290 now".
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:{PIN}|(?:{KEYPADS})[ \t]+code)\b[^\n.]{{0,40}}?\b(?:changed|reset)\b[ \t]*[,;:—–-]?[ \t]*(?:it['’]?s|it[ \t]+is|now|to)[ \t]+(?:now[ \t]+)?{digits}"
            ),
            1,
        )
        .form(Form::Said),
        // "my pin 8812", "bank pin 8812", "voicemail pin 8812".
        format(
            K::Pin,
            &format!(r"(?i)\b(?:my|bank|card|atm|debit|credit|voicemail|sim|phone)[ \t]+pin[ \t]+{digits}"),
            1,
        )
        .form(Form::Said),
        format(
            K::Pin,
            &format!(r"(?i)\b(?:lock[ \t]*box|key[ \t]*box|key[ \t]*safe|keypad)(?:[ \t]*\([^)\n]{{1,20}}\))?(?:[ \t]+code)?[ \t]+{digits}"),
            1,
        )
        .form(Form::Said),
        format(
            K::Pin,
            &format!(r"(?i)\b(?:{KEYPADS}|key)(?:[ \t]+#?\d{{1,4}})?[ \t]+code[ \t]+{digits}"),
            1,
        )
        .form(Form::Said),
        // A luggage lock's three digits: "Suitcase lock: 482", "TSA lock code is 482".
        format(
            K::Pin,
            &format!(r"(?i)\b(?:suitcase|luggage|tsa|briefcase)[ \t]+lock(?:[ \t]+(?:code|combination|combo))?{SAID}(\d{{3,4}})\b"),
            1,
        )
        .form(Form::Said),
        // The code given apart on a line about what it opens: "the lockbox is by the door, code 4827",
        // "Pool gate: code 4827", "the key is in the lockbox (code: 4827)".
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:lock[ \t]*box|key[ \t]*box|key[ \t]*safe|keypad|gate|(?:front[ \t]+|back[ \t]+|side[ \t]+)?door|storage(?:[ \t]+unit)?|locker|shed|garage|airbnb|cabin)\b[^\n]{{0,50}}?(?:[,:(]|\bthe)[ \t]*code\b(?:[ \t]*[:=]|[ \t]+(?:is|was))?[ \t]*{digits}"
            ),
            1,
        )
        .form(Form::Said),
        // What it opens on a line, its code on the next (`door:` then `  code: 4827`).
        format(
            K::Pin,
            &format!(
                r#"(?im)^[ \t]*["']?(?:{OPENS})["']?[ \t]*:?[ \t]*\r?\n[ \t]*["']?code["']?[ \t]*[:=][ \t]*["']?{digits}"#
            ),
            1,
        )
        .form(Form::Said),
        // Keyed in: "Buzz 4827 at the front entrance", "disarm with 4827", "to disarm the
        // alarm, enter 4827".
        format(
            K::Pin,
            &format!(r"(?i)\b(?:buzz|(?:disarm|turn[ \t]+off[ \t]+the[ \t]+alarm)\b[^\n.]{{0,40}}?\b(?:with|using|enter|entering|code|type|press|punch[ \t]+in|key[ \t]+in))[ \t]+{digits}"),
            1,
        )
        .form(Form::Said),
        // Keyed in as a host says it: "Let yourself in, code 4827", "Use 4827 to get in",
        // "Punch in 4827 at the gate", "The padlock on the shed opens with 4827", "Alarm: 4827
        // to disarm".
        format(
            K::Pin,
            &format!(r"(?i)\blet[ \t]+(?:yourself|yourselves|them|us)[ \t]+in\b[^\n.]{{0,20}}?\b(?:code|with|using)[ \t]*:?[ \t]*{digits}"),
            1,
        )
        .form(Form::Said),
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:use|enter|type|punch(?:[ \t]+in)?|key[ \t]+in|tap[ \t]+in|press|dial)[ \t]+{digits}#?(?:[ \t]+then[ \t]+#)?[ \t]+(?:to[ \t]+(?:get[ \t]+in|disarm)(?:[ \t]*$|[ \t]*[.,;!)])|to[ \t]+(?:open|unlock)[ \t]+the[ \t]+(?:{KEYED})\b|(?:at|on|into)[ \t]+the[ \t]+(?:\w+[ \t]+)?(?:{KEYED})\b)"
            ),
            1,
        )
        .form(Form::Said),
        format(
            K::Pin,
            &format!(r"(?im)\b(?:{KEYED})\b[^\n.]{{0,30}}?\b(?:opens|unlocks)[ \t]+with[ \t]+(?:(?:the[ \t]+)?code[ \t]+)?{digits}(?:[ \t]*$|[ \t]*[.,;!)])"),
            1,
        )
        .form(Form::Said),
        format(
            K::Pin,
            &format!(r"(?i)\b(?:{KEYED})[ \t]*:[ \t]*{digits}[ \t]+to[ \t]+(?:disarm|get[ \t]+in)\b"),
            1,
        )
        .form(Form::Said),
        // What the code does, said after it: "4827 gets you in", "4827 will get you into the
        // building" (never a bus or flight "gets you in at 9pm").
        format(
            K::Pin,
            r"(?im)(?:^|[\s(,:])#?(\d{4,10})#?[ \t]+(?:gets|will[ \t]+get|lets|will[ \t]+let|opens)[ \t]+(?:you|u|guests|everyone|us|them)[ \t]+(?:in|into[ \t]+the[ \t]+(?:building|house|garage|flat|apartment|lobby|office))(?:[ \t]*$|[ \t]*[.,;!)])",
            1,
        )
        .form(Form::Said),
        // Said the other way round, or with the code first: "4827 is the gate code", "4827 is
        // the code for the garage", "Code 4827 for the front door", "the garage code (4827)",
        // "My ATM code is 4827".
        format(
            K::Pin,
            &format!(
                r"(?im)(?:^|[\s(])#?(\d{{4,10}})#?[ \t]+is[ \t]+(?:the|my|our|your)[ \t]+(?:(?:{KEYPADS})[ \t]+code|code[ \t]+(?:for|to|of)[ \t]+(?:the[ \t]+)?(?:{OPENS}))\b"
            ),
            1,
        )
        .form(Form::Said),
        format(
            K::Pin,
            &format!(r"(?i)\bcode[ \t]+#?(\d{{4,10}})#?[ \t]+(?:for|to)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?(?:{OPENS})\b"),
            1,
        )
        .form(Form::Said),
        format(K::Pin, &format!(r"(?i)\b(?:{KEYPADS})[ \t]+code[ \t]*\([ \t]*#?(\d{{4,10}})#?[ \t]*\)"), 1).form(Form::Said),
        format(K::Pin, &format!(r"(?i)\batm[ \t]+(?:code|pin){SAID}{digits}"), 1).form(Form::Said),
        // A key safe or a lockbox placed, then its digits: "Key safe by the back door: 4827",
        // "lockbox on the railing, 4827".
        format(
            K::Pin,
            &format!(r"(?im)\b(?:key[ \t]*safe|lock[ \t]*box|key[ \t]*box)\b[^\n:,]{{0,30}}[:,][ \t]*{digits}#?[ \t]*$"),
            1,
        )
        .form(Form::Said),
        // "the code for the garage is 4827".
        format(
            K::Pin,
            &format!(
                r"(?i)\bcode[ \t]+(?:for|to|of|at|on)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+|your[ \t]+)?(?:{OPENS})\b(?:[ \t]+#?\d{{1,4}})?(?:[ \t]+(?:of|at|in|on)[ \t]+(?:the|our|my|your|this)[ \t]+(?:[\w'’-]+[ \t]+){{0,2}}?(?:building|house|office|block|apartment|flat|complex|place|cabin|unit|garage))?(?:{SAID}|[ \t]+){digits}"
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
            r"(?i)\b(?:cvv2?|cvc2?|(?:card[ \t]+)?security[ \t]+code|(?:amex|card)[ \t]+cid)\b(?:[ \t]+on[ \t]+the[ \t]+back)?(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+|[ \t]+)(\d{3,4})\b",
            1,
        ),
        // "the locker combination is 12-34-56", "Combination lock: 12-34-56", "lock combo 4-18-30".
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:(?:(?:bike|gym|locker|safe|master)[ \t]+)?lock[ \t]+(?:combination|combo)|(?:locker|safe|padlock)(?:[ \t]+#?\d{{1,4}})?[ \t]+(?:combination|combo)|combination[ \t]+lock|combination[ \t]+(?:for|of)[ \t]+(?:the[ \t]+|my[ \t]+)?(?:lock|locker|safe|padlock))\b(?:{SAID}|[ \t]+){combination}"
            ),
            1,
        )
        .form(Form::Said),
        // What a keypad opens, its digits ending in the keypad's `#` or `*`: "Door: 4827#",
        // "Front door access: 4827#", "The back door is 4827#", "Gate *4827#" (never a time
        // said with "at": "alarm at 0630#").
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:{KEYED}|entry|access)\b(?:[ \t]+(?:access|entry|code|pin))?(?:[ \t]*:|[ \t]+is)?[ \t]*[#*]?(\d{{4,10}})[#*](?:[^\w]|$)"
            ),
            1,
        )
        .form(Form::Said),
        // A smart lock named by its maker, its digits ending the line or the sentence: "Yale
        // lock 4827", "Schlage keypad: 5521", "Yale code: 7749" (not "Yale lock 4827 reviews").
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:yale|schlage|kwikset|nuki|ultraloq|lockly|igloohome|eufy|master[ \t]*lock)(?:[ \t]+(?:smart[ \t]+)?(?:lock|keypad|deadbolt))?(?:[ \t]+(?:code|pin))?\b(?:{SAID}|[ \t]+)[#*]?(\d{{4,10}})[#*]?(?:[ \t]*$|[ \t]*[.,;!)])"
            ),
            1,
        )
        .form(Form::Said),
        // The word as a qualifier of what it is for: "Chase (PIN): 4827".
        format(K::Pin, &format!(r"(?i)[(\[](?:{PIN})[)\]][ \t]*[:=][ \t]*{digits}"), 1).form(Form::Said),
    ];
    all.extend(abroad());
    all
}

/// The words for a code in other languages, and for what it opens ("Código de la alarma:
/// 4827", "Der Code für die Haustür ist 4827", "Il codice del cancello è 4827", "Код от
/// домофона: 4827", "Kapı şifresi 4827", "ドアのコードは4827です").
const CODE_ABROAD: &str = r"code|código|codigo|clave|codice|kod|код|pin|пин|şifresi|combinación|combinaison|kombination|combinazione|combinação";
const OPENS_ABROAD: &str = r"alarme|alarma|allarme|alarmanlage|porte|portail|puerta|portal|portão|porta|portone|cancello|haustür|tür|garage|garaje|garagem|tresor|cassaforte|caja[ \t]+fuerte|coffre(?:-fort)?|cofre|cadenas|candado|lucchetto|cadeado|boîte[ \t]+à[ \t]+clés|schlüsselkasten|schlüsselbox|drzwi|domofonu|домофона|двери|сейфа|замка|cajero|carte|cartão|tarjeta|karte|карты|entrée|entrada|eingang|kapı|kapi";
/// The sign or verb before the digits in those languages.
const SAID_ABROAD: &str = r"(?:[ \t]*[:=：]|[ \t]+[-–—]|[ \t]+(?:es|est|ist|lautet|è|é|je|jest|это|är|er|is))[ \t]*";

/// PINs and keypad codes said in other languages.
fn abroad() -> Vec<Format> {
    let digits = r"#?(\d{4,10})";
    let combination = r"(\d{1,2}(?:[ \t]*[-–/ ][ \t]*\d{1,2}){2,3}|\d{4,10})\b";
    let of = r"(?:de|del|de[ \t]+la|du|des|d['’]|l['’]|für|die|der|den|des|do|da|della|dell['’]|dello|от|для|la|el|le|il|o|a)";
    vec![
        // The code, then what it opens: "Código de la alarma: 4827", "Le code du cadenas est 4827".
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:{CODE_ABROAD})\b(?:[ \t]+(?:{of})|[ \t]*(?:d['’]|l['’]|dell['’]))*[ \t]*(?:{OPENS_ABROAD})\b{SAID_ABROAD}{combination}"
            ),
            1,
        )
        .form(Form::Said),
        // What it opens, then the code: "Alarmanlage Code: 4827", "Код домофона 4827", "Kapı
        // şifresi 4827", "Boîte à clés : code 4827", "PIN-код карты: 4827".
        format(
            K::Pin,
            &format!(
                r"(?i)\b(?:{OPENS_ABROAD})\b(?:[ \t]*:)?[ \t-]*(?:{CODE_ABROAD})\b(?:[ \t]+(?:{OPENS_ABROAD}))?(?:{SAID_ABROAD}|[ \t]+){digits}"
            ),
            1,
        )
        .form(Form::Said),
        // One word: "Digicode : 4827B", "Garagencode: 4827", "Tresor-Code: 4827", "Пин-код: 4827",
        // "PIN-код карты 4827", "Pincode pinpas: 4827".
        format(
            K::Pin,
            &format!(
                r"(?i)(?:\b(?:digicode|türöffnercode|garagencode|tresor-?code|schlüsselkasten-?code|alarmcode|haustürcode|pincode(?:[ \t]+pinpas)?)\b|(?:pin|пин)-?код(?:[ \t]+(?:карты|от[ \t]+\w+))?)(?:{SAID_ABROAD}|[ \t]+){digits}"
            ),
            1,
        )
        .form(Form::Said),
        // A combination: "La combinación es 12-34-56", "Der Tresor hat die Kombination 12-34-56".
        format(
            K::Pin,
            &format!(r"(?i)\b(?:combinación|combinaison|kombination|combinazione|combinação)(?:{SAID_ABROAD}|[ \t]+){DIAL}"),
            1,
        )
        .form(Form::Said),
        // Written without spaces: "ドアのコードは4827です", "金庫の番号は4827", "银行卡PIN：4827",
        // "현관 비밀번호 4827".
        format(
            K::Pin,
            r"(?:(?:(?:金庫|キーボックス|ロッカー|ドア|玄関|門)の(?:番号|コード)|暗証番号|暗証コード|パスコード|密码|비밀번호|비번)[ \t]*(?:は|는|은|:|：|是)?|(?i:pin)[ \t]*(?:：|是))[ \t]*(\d{4,10})",
            1,
        )
        .form(Form::Said),
    ]
}
