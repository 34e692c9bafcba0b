//! Passwords named (`DB_PASSWORD=`, `ansible_become_pass:`), said ("the password is …",
//! "Passwort: …", "パスワードは …"), in a URL, a YAML block, a Kubernetes env entry, an
//! XML or HTML attribute, a Terraform default, and written beside the
//! word ("password Sunflower42", "changed the password to …").

use super::wifi::WIFI_KEYS;
use super::{ANY_GROUP, Format, VALUE, format};
use crate::secrets::SecretKind as K;
use crate::secrets::values::{Form, LINKING_VERBS, PASS_NAMES, PASSWORD_WORDS_CJK, PASSWORD_WORDS_FOREIGN};

/// The words before the verb that say which password ("for the office", "I use for the
/// NAS", "du wifi").
const WHICH: &str = r"(?:for|of|to|on|at|with|i|we|you|they|he|she|that|which|du|de|des|di|für|von|van|voor|del|do|da|para|pour|per|для|от)";

/// A name given a value: `:`, `=`, PHP's `=>`, Go's `:=`, a default (`||`, `??`), or
/// compared with one in code (`==`, `===`, `!=`: `if password == "…"` holds the password
/// too).
const ASSIGN: &str = r"(?:=>|:=|\|\||\?\?|[!=]?==?|:)";

/// Secrets shared between two ends, said as a password is ("the VPN pre-shared key is …",
/// "RADIUS secret: …", "Vault unlock key: …").
const SHARED_SECRETS: &str =
    r"pre-?shared[ \t]+key|shared[ \t]+secret|radius[ \t]+secret|unlock[ \t]+key|master[ \t]+passphrase";

/// The named and said formats.
pub(super) fn formats() -> Vec<Format> {
    let word = format!(
        r"(?:\b(?:passwords?|passw|passwd|passphrase|pass[ \t]+phrase|passcode|security[ \t]+word|pasword|passowrd|passwrod|pssword|pswd|psswd|pword|pwd|pw|p/w|wi-?fi[ \t]+(?:pass|code)|{PASSWORD_WORDS_FOREIGN}|{WIFI_KEYS}|{SHARED_SECRETS})\b(?:[ \t]+(?:wi-?fi|wlan))?|{PASSWORD_WORDS_CJK})"
    );
    vec![
        // A password in a URL: `scheme://user:PASSWORD@host` keeps user and host (a password
        // holding `@` runs to the last one).
        format(
            K::Password,
            r"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s:/?#@]*:([^\s/]+)@[^\s@/]",
            1,
        ),
        // `password=…`, `passwd: …`, `pwd=…`, quoted (a quoted value is taken whole, spaces
        // and all), in JSON, YAML or prose: "my password is: …", "the password is now …",
        // "the wifi password for the office is …", "**Password:** …", "le mot de passe est
        // …", "Passwort: …", "密码是 …".
        format(
            K::Password,
            &format!(
                r#"(?i){word}(?:[ \t]+{WHICH}[ \t]+(?:[\w'’.@-]+[ \t]+){{0,4}}?[\w'’.@-]*)?(?:[ \t]+(?-i:[A-Z][\w.&-]+))?(?:[ \t]+everywhere)?(?:[ \t]*[(\[][^()\[\]\n]{{1,40}}[)\]])?(?:\*\*?|__?)?["']?(?:\*\*?|__?)?[ \t]*(?:{ASSIGN}|[：]|{LINKING_VERBS}|['’]s\b|c['’]est\b|(?-i:on)\b|[—–])(?:\*\*|__)?[ \t]*(?::[ \t]*)?(?:(?:now|still|currently|actually|just|literally|simply|always)[ \t]+)?{VALUE}"#
            ),
            ANY_GROUP,
        )
        .form(Form::Said),
        // The word as a qualifier of what it is for: "Netflix (password): …".
        format(
            K::Password,
            &format!(r#"(?i)\b[\w.-]{{2,}}[ \t]*[(\[](?:[\w.-]+[ \t]+){{0,2}}(?:password|passwort|pwd|pw|pass)[)\]][ \t]*[:=][ \t]*{VALUE}"#),
            ANY_GROUP,
        )
        .form(Form::Said),
        // A name ending so, assigned (`DB_PASSWORD=`, `PGPASSWORD=`, `"admin_password":`; the
        // word alone is the format above); never prose ("1Password is installed", "the reset_password page").
        format(
            K::Password,
            &format!(r#"(?i)\b[a-z0-9_.\-]+?(?:password|passwd|passphrase|pwd)["']?\]?[ \t]*{ASSIGN}[ \t]*{VALUE}"#),
            ANY_GROUP,
        ),
        // A `_pass` name of a login (`SMTP_PASS=`, `ansible_become_pass:`,
        // `RABBITMQ_DEFAULT_PASS=`): only what looks like a password (`login_pass: standard`).
        format(
            K::Password,
            &format!(
                r#"(?i)\b[a-z0-9_.\-]*?(?:{names})[_.\-]?pass["']?[ \t]*(?:=>|[:=])[ \t]*{VALUE}"#,
                names = PASS_NAMES.join("|")
            ),
            ANY_GROUP,
        )
        .form(Form::Strict),
        // `pass` alone or a `pw` name, assigned (`pass: …`, `PW=…`): only what looks like a
        // password, and never another pass (`Ski pass:`, `first_pass:`, `PASS: test_x`).
        format(
            K::Password,
            &format!(r#"(?i)\b(?:[a-z0-9]+[_.\-])*(?:pass|pw)["']?[ \t]*(?:=>|[:=])[ \t]*{VALUE}"#),
            ANY_GROUP,
        )
        .form(Form::Pass),
        // A default given in code when the setting is missing: `env('DB_PASSWORD', '…')`,
        // `os.getenv("DB_PASSWORD", "…")`, `os.environ.get("DB_PASS", "…")`; and a literal
        // compared with `equals` (`password.equals("…")`, `"…".equals(password)`).
        format(
            K::Password,
            r#"(?i)\b(?:env|getenv|environ\.get|get_env|fetch)[ \t]*\([ \t]*["'][^"'\n]*(?:pass|pwd)[^"'\n]*["'][ \t]*,[ \t]*(?:"([^"\n]{3,})"|'([^'\n]{3,})')[ \t]*\)"#,
            ANY_GROUP,
        ),
        format(
            K::Password,
            r#"(?i)\bpass(?:word|wd)?[ \t]*\.[ \t]*equals(?:IgnoreCase)?[ \t]*\([ \t]*(?:"([^"\n]{3,})"|'([^'\n]{3,})')"#,
            ANY_GROUP,
        ),
        format(
            K::Password,
            r#"(?:"([^"\n]{3,})"|'([^'\n]{3,})')[ \t]*\.[ \t]*equals(?:IgnoreCase)?[ \t]*\([ \t]*(?i:pass(?:word|wd)?)[ \t]*\)"#,
            ANY_GROUP,
        ),
        // A builder's method (`.password("…")`, `.withPassword("…")`, `.with_password('…')`): a
        // value without a space (a prompt's text has some).
        format(
            K::Password,
            r#"(?i)(?:\.|\bwith_?)pass(?:word|wd|phrase)?[ \t]*\([ \t]*(?:"([^"\s]{3,})"|'([^'\s]{3,})')[ \t]*\)"#,
            ANY_GROUP,
        ),
        // PHP's `define('DB_PASSWORD', '…')` and a setter's last argument (`user.setPassword("…")`,
        // `keyring.set_password("smtp", "ana", "…")`).
        format(
            K::Password,
            r#"(?i)\b(?:define[ \t]*\([ \t]*["'][a-z0-9_]*pass(?:word|wd)?["'][ \t]*,[ \t]*|set_?pass(?:word|wd)?[ \t]*\((?:[ \t]*(?:"[^"\n]*"|'[^'\n]*'|[\w.]+)[ \t]*,)*[ \t]*)(?:"([^"\n]{3,})"|'([^'\n]{3,})')[ \t]*\)"#,
            ANY_GROUP,
        ),
        // Go's `req.SetBasicAuth("admin", "…")`; a name/value pair in JSON (`{"name":
        // "DB_PASSWORD", "value": "…"}`, CloudFormation's `ParameterKey`/`ParameterValue`),
        // ARM's `"adminPassword": {"value": "…"}` and Windows' `<AdministratorPassword><Value>…`.
        format(K::Password, r#"\bSetBasicAuth\([ \t]*"[^"\n]*"[ \t]*,[ \t]*"([^"\n]{3,})"[ \t]*\)"#, 1),
        format(
            K::Password,
            r#"(?i)"(?:name|key|parameterkey)"[ \t]*:[ \t]*"[^"\n]*?(?:password|passwd|pwd|passphrase)[^"\n]*"[ \t]*,[ \t]*"(?:value|parametervalue)"[ \t]*:[ \t]*"([^"\n]{3,})""#,
            1,
        ),
        format(
            K::Password,
            r#"(?i)"[a-z0-9_]*password"[ \t]*:[ \t]*\{[ \t]*"value"[ \t]*:[ \t]*"([^"\n]{3,})""#,
            1,
        ),
        format(K::Password, r"(?i)<[a-z0-9_]*password>[ \t]*<value>([^<\n]{3,})</value>", 1),
        // A default in a placeholder: Spring's `${DB_PASSWORD:…}`, the shell's `${PW:=…}`;
        // Python's `os.environ.get("PW") or "…"`; Bicep's `param adminPassword string = '…'`.
        format(
            K::Password,
            r#"(?i)\$\{[a-z0-9_.\-]*(?:password|passwd|pwd|pass)[a-z0-9_.\-]*:=?([^}\s$]{3,})\}"#,
            1,
        ),
        format(
            K::Password,
            r#"(?i)\b(?:environ\.get|getenv|environ)\([ \t]*["'][^"'\n]*(?:pass|pwd|pw)[^"'\n]*["'][ \t]*\)[ \t]+or[ \t]+(?:"([^"\n]{3,})"|'([^'\n]{3,})')"#,
            ANY_GROUP,
        ),
        format(
            K::Password,
            r#"(?i)\bparam[ \t]+[a-z0-9_]*(?:password|passwd|pwd)[a-z0-9_]*[ \t]+string[ \t]*=[ \t]*'([^'\n]{3,})'"#,
            1,
        ),
        // Gradle's signing config: `storePassword "…"`, `keyPassword '…'`.
        format(K::Password, r#"\b(?:store|key)Password[ \t]+(?:"([^"\n]{3,})"|'([^'\n]{3,})')"#, ANY_GROUP),
        // A YAML block scalar: `password: >-` and the value on the next line.
        format(
            K::Password,
            r"(?i)\b[a-z0-9_.\-]*?(?:password|passwd|passphrase|pwd)[ \t]*:[ \t]*[|>][+-]?[ \t]*\r?\n[ \t]+([^\s]{3,})",
            1,
        ),
        // A Kubernetes env entry: `- name: POSTGRES_PASSWORD` then `value: …`.
        format(
            K::Password,
            &format!(
                r#"(?i)\bname:[ \t]*["']?[a-z0-9_.\-]*?(?:password|passwd|pwd)["']?[ \t]*\r?\n[ \t]*value:[ \t]*{VALUE}"#
            ),
            ANY_GROUP,
        ),
        // .NET settings and HTML inputs: `<add key="DbPassword" value="…"/>`,
        // `<input name="password" value="…">`.
        format(
            K::Password,
            r#"(?i)\b(?:key|name)=["'][^"'\n]*?(?:password|passwd|pwd|pass)["'][^>\n]*?\bvalue=(?:"([^"\n]{3,})"|'([^'\n]{3,})')"#,
            ANY_GROUP,
        ),
        // A Terraform variable's default: `variable "db_password" { default = "…" }`.
        format(
            K::Password,
            r#"(?i)\bvariable[ \t]+"[^"\n]*?(?:password|passwd|pwd)[^"\n]*"[ \t]*\{[^}]{0,300}?\bdefault[ \t]*=[ \t]*"([^"\n]{3,})""#,
            1,
        ),
    ]
}

/// The word with the value beside it, after every other format: "password Sunflower42",
/// "log in with password …", "Password - …", "my password's …", "changed the wifi
/// password to …", a bare `--password X`: only what looks like a password.
pub(super) fn beside_the_word() -> Vec<Format> {
    // The value written before the word: "hunter2 is my password", "Use Kp9mango! as the
    // password", "\"Sunflower42\" is the wifi password".
    let before = r#"(?:"([^"\n]{3,64})"|'([^'\n]{3,64})'|([^\s"'(]{3,64}))"#;
    let whose = r"(?:my|the|our|your|his|her|their)[ \t]+(?:[\w-]+[ \t]+){0,2}?(?:password|passwd|passphrase|pw)\b";
    // A change said in prose: "Reset my Spotify password, it's now …", "password changed —
    // now …" ("changed the password to …" is below).
    let pw = r"(?:password|passwd|passphrase|pass[ \t]+phrase|pw|pwd)";
    vec![
        format(
            K::Password,
            &format!(
                r"(?i)\b(?:changed|reset|updated)[ \t]+(?:my|the|our)[ \t]+(?:[\w-]+[ \t]+){{0,2}}?{pw}[ \t]*[,;]?[ \t]*(?:it['’]?s|it[ \t]+is)[ \t]+(?:now[ \t]+)?{VALUE}"
            ),
            ANY_GROUP,
        )
        .form(Form::Strict),
        format(
            K::Password,
            &format!(r"(?i)\b{pw}[ \t]+(?:was[ \t]+)?(?:changed|reset|updated)[ \t]*[,;:—–-]?[ \t]*(?:it['’]?s[ \t]+|it[ \t]+is[ \t]+)?now[ \t]+{VALUE}"),
            ANY_GROUP,
        )
        .form(Form::Strict),
        format(
            K::Password,
            &format!(r"(?im)(?:^|[\s(])(?:{before})[ \t]+(?:[—–-][ \t]+)?(?:is|was|that['’]s|that[ \t]+is)[ \t]+{whose}"),
            ANY_GROUP,
        )
        .form(Form::Strict),
        format(
            K::Password,
            &format!(r"(?i)\b(?:use|used|using|chose|choose|chosen|picked|pick|went[ \t]+with)[ \t]+(?:{before})[ \t]+as[ \t]+{whose}"),
            ANY_GROUP,
        )
        .form(Form::Strict),
        format(
            K::Password,
            &format!(
                r#"(?i)\b(?:password|passwd|passphrase|passcode)(?:['’]s[ \t]+been|[ \t]+(?:was|is|has[ \t]+been|got|been))?[ \t]+(?:reset|changed|set|updated)[ \t]+to(?:[ \t]*:)?[ \t]+{VALUE}"#
            ),
            ANY_GROUP,
        )
        .form(Form::Strict),
        // Said around the word: "my password has been … for years", "The password, by the way,
        // is …", "Updated my Netflix password — new one is …", "changed the wifi password
        // yesterday. It's now …", "password-protected with …", "Our Wi-Fi is HomeNet, code …".
        format(
            K::Password,
            &format!(
                r"(?i)\b(?:password|passwd|passphrase|pw)(?:[ \t]+has[ \t]+been|,[^,\n]{{1,30}},[ \t]+is|[ \t]*[—–-][ \t]*(?:the[ \t]+)?new[ \t]+one[ \t]+is|\b[^\n.]{{0,40}}\.[ \t]+it['’]s[ \t]+now|[- ]protected[ \t]+with)[ \t]+{VALUE}"
            ),
            ANY_GROUP,
        )
        .form(Form::Strict),
        format(
            K::Password,
            &format!(r"(?i)\bwi-?fi\b[^\n]{{0,40}}?,[ \t]*(?:code|key|password|pw)[ \t]*:?[ \t]+{VALUE}"),
            ANY_GROUP,
        )
        .form(Form::Strict),
        // What it will be: "The new password will be …", "the password should be … from now on".
        format(
            K::Password,
            &format!(r"(?i)\b(?:password|passwd|passphrase|pw)[ \t]+(?:will|should|would|must|shall)[ \t]+be[ \t]+{VALUE}"),
            ANY_GROUP,
        )
        .form(Form::Strict),
        // Set or chosen, said with "as" or "to": "I set the password as …", "Set my Netflix
        // password to … and …", "We made the router password … last week".
        format(
            K::Password,
            &format!(
                r"(?i)\b(?:set|made|make|chose|choose|picked|pick)[ \t]+(?:my|the|our|your|his|her|their)[ \t]+(?:[\w-]+[ \t]+){{0,2}}?{pw}[ \t]+(?:(?:as|to)[ \t]+)?{VALUE}"
            ),
            ANY_GROUP,
        )
        .form(Form::Strict),
        // Kept as it was: "The wifi password hasn't changed: …", "… has not changed, it's still
        // …", "My password remains …".
        format(
            K::Password,
            &format!(
                r"(?i)\b{pw}\b(?:[ \t]+(?:hasn['’]?t|has[ \t]+not|didn['’]?t|did[ \t]+not|never)[ \t]+(?:been[ \t]+)?chang(?:ed|e)|[ \t]+is[ \t]+unchanged|[ \t]+(?:stays|remains|stayed|remained)(?:[ \t]+the[ \t]+same)?)[ \t]*[:,;—–-]?[ \t]*(?:(?:it['’]?s|it[ \t]+is)[ \t]+)?(?:still[ \t]+)?{VALUE}"
            ),
            ANY_GROUP,
        )
        .form(Form::Strict),
        // The Wi-Fi's code or key: "The code for the wifi is …", "Key for the wifi: …".
        format(
            K::Password,
            &format!(r"(?i)\b(?:code|key)[ \t]+(?:for|to)[ \t]+(?:the[ \t]+|our[ \t]+|my[ \t]+)?(?:wi-?fi|wlan|wireless)\b(?:[ \t]*[:=]|[ \t]+is)[ \t]*{VALUE}"),
            ANY_GROUP,
        )
        .form(Form::Strict),
        // The value in brackets after the word, ending the sentence, with a symbol in it (not
        // a band or a version: "(5GHz)", "(iOS17)"): "Wi-Fi password (Azul2024!)".
        format(
            K::Password,
            r"(?im)\b(?:password|passwd|passphrase|pw)[ \t]+\(([^()\s]{0,60}[!@#$%^&*?~][^()\s]{0,60})\)(?:[ \t]*$|[ \t]*[.,;!?])",
            1,
        )
        .form(Form::Strict),
        // "pass" as a noun said with "is": "the pass for the router is …", "my netflix pass is
        // …"; ending the sentence, with a lower-case letter and a capital or a symbol in it,
        // never a price or a span (a boarding or ski pass's code is capitals and digits, its
        // price "€15/day", its hours "3pm-9pm").
        format(
            K::Password,
            r"(?i)\b(?:my|the|our|your)[ \t]+(?:[\w-]+[ \t]+){0,2}?pass[ \t]+(?:(?:for|on|to|of)[ \t]+(?:[\w.\-]+[ \t]+){0,3}?[\w.\-]+[ \t]+)?is[ \t]+((?-i:[^\s/€£$¥]*[a-z][^\s/€£$¥]*[A-Z!@#%^&*?~][^\s/€£$¥]*|[^\s/€£$¥]*[A-Z!@#%^&*?~][^\s/€£$¥]*[a-z][^\s/€£$¥]*))(?:[ \t]*$|[ \t]*[.,;!?)])",
            ANY_GROUP,
        )
        .form(Form::Strict),
        // "changed the wifi password to Sunflower42": only where the sentence ends (or says
        // when) after the value; "the password to Office365 account" names what it is for.
        format(
            K::Password,
            &format!(
                r#"(?im)\b(?:password|passwd|passphrase|passcode|pw|pwd)[ \t]+to[ \t]+{VALUE}(?:[ \t]*$|[ \t]*[.,;!?)]|[ \t]+(?:yesterday|today|tonight|now|again|earlier|recently|last|this|but|so|because|since)\b)"#
            ),
            ANY_GROUP,
        )
        .form(Form::Strict),
        format(
            K::Password,
            &format!(
                r#"(?i)\b(?:password|passwd|passphrase|passcode|pw|pwd|{PASSWORD_WORDS_FOREIGN})(?:['’]s)?(?:[ \t]*[(\[][^()\[\]\n]{{1,40}}[)\]])?[ \t]+(?:(?:[-–—→:]|->|=>)[ \t]+)?{VALUE}"#
            ),
            ANY_GROUP,
        )
        .form(Form::Strict),
    ]
}
