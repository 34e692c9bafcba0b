//! A login written as a user and its password: under a label that says so (`user/pass:
//! admin / …`, `ID/PW: …`, `Benutzer/Passwort: …`), after "login:" or an e-mail address
//! (`login: bob / …`, `netflix: bob@gmail.com / …`), and passed to code
//! (`auth=("admin", "…")`, `HTTPBasicAuth("admin", "…")`, `server.login(user, "…")`,
//! `new NetworkCredential("svc", "…")`, `CURLOPT_USERPWD, "admin:…"`,
//! `page.fill("#password", "…")`).

use super::{ANY_GROUP, Format, VALUE, format};
use crate::secrets::SecretKind as K;
use crate::secrets::values::Form;

/// A quoted string of code: the secret's group.
const QUOTED: &str = r#"(?:"([^"\n]{3,})"|'([^'\n]{3,})')"#;

/// Services people keep a login for, named before one ("Netflix: bob / …").
const SERVICES: &str = r"netflix|spotify|amazon|hulu|disney\+?|prime(?:[ \t]+video)?|hbo(?:[ \t]+max)?|youtube|gmail|google|outlook|hotmail|yahoo|icloud|apple[ \t]+id|facebook|instagram|twitter|tiktok|snapchat|linkedin|reddit|discord|slack|zoom|github|gitlab|bitbucket|dropbox|steam|xbox|playstation|psn|nintendo|paypal|venmo|ebay|etsy|uber|airbnb|wordpress|shopify|twitch|pinterest|skype|notion|trello|canva|adobe|figma|webmail|email|e-mail|bank|online[ \t]+banking";

/// The login formats.
pub(super) fn formats() -> Vec<Format> {
    let user = r#"[`'"]?[\w.@+\-]+[`'"]?"#;
    vec![
        // A label that names both: `user/pass: admin / …`, `Username & Password: …`.
        format(
            K::Password,
            &format!(
                r#"(?i)\b(?:user(?:name)?|usr|u|id|login|benutzer(?:name)?|e-?mail)[ \t]*(?:/|&|\band\b|\bund\b)[ \t]*(?:pass(?:word)?|pwd|pw|p|passwort|kennwort)[ \t]*[:=][ \t]*{user}[ \t]*[/:][ \t]*{VALUE}"#
            ),
            ANY_GROUP,
        ),
        // "login: bob / …", "netflix: bob@gmail.com / …": only a value that looks like a
        // password and ends its line ([`Form::Pair`]). Two patterns, each with a literal the
        // regex engine finds fast (the label's words, the address's `@`).
        format(
            K::Password,
            &format!(
                r#"(?i)\b(?:login(?:[ \t]+for[ \t]+(?:the[ \t]+)?(?:[\w-]+[ \t]+){{0,2}}[\w-]+)?|log-in|sign-in|(?:credentials|creds)(?:[ \t]+for[ \t]+(?:the[ \t]+)?(?:[\w-]+[ \t]+){{0,2}}[\w-]+)?|account|wi-?fi|wlan|router|admin|zugangsdaten|identifiants|credenciales|credenziali|acesso)(?:[ \t]*[:=]|[ \t]+[—–-]|[ \t]+is)[ \t]*(?:{user}[ \t]+/|[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+[ \t]*,)[ \t]+{VALUE}"#
            ),
            ANY_GROUP,
        )
        .form(Form::Pair),
        format(
            K::Password,
            &format!(r#"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+[ \t]+/[ \t]+{VALUE}"#),
            ANY_GROUP,
        )
        .form(Form::Pair),
        // A device's admin login: "NAS: admin / …", "Printer (office): admin / …".
        format(
            K::Password,
            &format!(
                r#"(?i)\b(?:nas|printer|router|camera|modem|switch|admin[ \t]+panel)\b[^\n:]{{0,24}}:[ \t]*(?:admin|root|administrator)[ \t]+/[ \t]+{VALUE}"#
            ),
            ANY_GROUP,
        )
        .form(Form::Pair),
        // A login given in a sentence: "Use admin / … to log in"; "log in with root / …" and
        // "sign in as ana / … on the portal" only with what looks like a password ("Log in
        // with Google / Apple" stays).
        format(
            K::Password,
            &format!(
                r#"(?i)\b(?:use|try)[ \t]+{user}[ \t]+/[ \t]+{VALUE}[ \t]+to[ \t]+(?:log|sign)[ \t-]?(?:in|on)\b"#
            ),
            ANY_GROUP,
        ),
        format(
            K::Password,
            &format!(
                r#"(?i)\b(?:log(?:ged)?|sign(?:ed)?)[ \t-]?(?:in|on)[ \t]+(?:with|as|using)[ \t]+{user}[ \t]+/[ \t]+{VALUE}"#
            ),
            ANY_GROUP,
        )
        .form(Form::Strict),
        // A service's login with a user that is no address: "Netflix: bob / …", only what
        // looks like a password by itself and ends its line ("Status: done / pending" and
        // "Netflix: Premium / 4K" stay).
        format(
            K::Password,
            &format!(r#"(?i)\b(?:{SERVICES})[ \t]*(?:\([^)\n]{{1,20}}\)[ \t]*)?:[ \t]*[\w.+\-]+[ \t]+/[ \t]+{VALUE}"#),
            ANY_GROUP,
        )
        .form(Form::Pair),
        // "(admin / …)" after an address, `creds = ana:…`, "login ana pass …".
        format(K::Password, r"\((?i:admin|root|administrator|user)[ \t]*/[ \t]*([^\s()]{4,64})\)", 1).form(Form::Strict),
        format(
            K::Password,
            &format!(r#"(?i)\b(?:creds|credentials|login)(?:[ \t]*[:=][ \t]*|[ \t]+)[\w.@+\-]+:{VALUE}"#),
            ANY_GROUP,
        )
        .form(Form::Strict),
        format(
            K::Password,
            &format!(r#"(?i)\b(?:login|user(?:name)?|e-?mail)[ \t]+[\w.@+\-]+[ \t]*,?[ \t]+(?:pass|password|pw|pwd)[ \t]*:?[ \t]+{VALUE}"#),
            ANY_GROUP,
        )
        .form(Form::Strict),
        // An address and its password joined by a colon: `ana@mail.com:Starlight99`.
        format(
            K::Password,
            &format!(r#"(?:^|[\s(])[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+:{VALUE}"#),
            ANY_GROUP,
        )
        .form(Form::Strict),
        // Basic auth in code: `auth=("admin", "…")`, `HTTPBasicAuth("admin", "…")`,
        // `.basic_auth("admin", Some("…"))`, `new NetworkCredential("svc", "…")`.
        format(
            K::Password,
            &format!(
                r#"(?:\b(?:auth|basic_auth|http_auth)[ \t]*=[ \t]*[(\[]|\b(?:HTTPBasicAuth|HTTPDigestAuth|BasicAuth|basic_auth|setBasicAuth|NetworkCredential|UsernamePasswordCredentials|PasswordAuthentication)[ \t]*\()[ \t]*["'][^"'\n]{{1,64}}["'][ \t]*,[ \t]*(?:Some\([ \t]*)?{QUOTED}"#
            ),
            ANY_GROUP,
        ),
        // A login call: `server.login(user, "…")`, `client.login("admin", "…")`, `signIn(…)`:
        // only what looks like a password.
        format(
            K::Password,
            &format!(
                r#"\b(?:login|log_in|logIn|signIn|sign_in|username_pw_set|simple_bind_s|simple_bind|bind_s)[ \t]*\([ \t]*(?:["'][^"'\n]{{1,64}}["']|[\w.]{{1,64}})[ \t]*,[ \t]*{QUOTED}[ \t]*[,)]"#
            ),
            ANY_GROUP,
        )
        .form(Form::Strict),
        // A database's connect call: `pymysql.connect("localhost", "root", "…", "shop")`,
        // `mysqli_connect(…)`, `new PDO($dsn, 'root', '…')`; Go's DSN `"root:…@tcp(…)/shop"`.
        format(
            K::Password,
            &format!(
                r#"(?i)\b(?:pymysql\.connect|mysqldb\.connect|mysql\.connector\.connect|mysqli_connect|mysqli|mysql_connect)[ \t]*\([ \t]*["'][^"'\n]*["'][ \t]*,[ \t]*["'][^"'\n]*["'][ \t]*,[ \t]*{QUOTED}"#
            ),
            ANY_GROUP,
        ),
        format(
            K::Password,
            &format!(r#"\bgetConnection[ \t]*\([^,\n]+,[ \t]*["'][^"'\n]*["'][ \t]*,[ \t]*{QUOTED}"#),
            ANY_GROUP,
        ),
        format(
            K::Password,
            &format!(r#"\bnew[ \t]+PDO[ \t]*\([^,\n]+,[ \t]*["'][^"'\n]*["'][ \t]*,[ \t]*{QUOTED}"#),
            ANY_GROUP,
        ),
        format(K::Password, r#""[\w.\-]+:([^@"\s]{3,})@(?:tcp|unix)\("#, 1),
        // `CURLOPT_USERPWD, "admin:…"` and a form's password field filled in by a test
        // (`page.fill("#password", "…")`, `.type("input[name=password]", "…")`).
        format(K::Password, r#"\bCURLOPT_USERPWD[ \t]*,[ \t]*"[^":\n]+:([^"\n]{3,})""#, 1),
        format(
            K::Password,
            &format!(r#"(?i)\b(?:fill|type)[ \t]*\([ \t]*["'][^"'\n]*pass[^"'\n]*["'][ \t]*,[ \t]*{QUOTED}"#),
            ANY_GROUP,
        ),
        // A test typing into the password field it found: `page.getByLabel('Password').fill('…')`,
        // `cy.get('input[name=password]').type('…')`, `find_element(By.ID, "password").send_keys("…")`.
        format(
            K::Password,
            &format!(
                r#"(?i)["'][^"'\n]*pass(?:word|wd)?[^"'\n]*["'][^\n]{{0,40}}?\.(?:fill|type|send_keys|sendKeys|setValue)[ \t]*\([ \t]*{QUOTED}"#
            ),
            ANY_GROUP,
        ),
    ]
}
