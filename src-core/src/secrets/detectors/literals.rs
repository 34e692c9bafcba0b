//! Passwords written as literals in code: under a quoted name that says so
//! (`System.setProperty("db.password", "…")`, `config.get('db.password', '…')`,
//! `$config['db']['password'] = '…'`, `getenv('DB_PASSWORD') ?: '…'`, `'pass' => '…'`,
//! `<entry key="db.password">…</entry>`), in a constant (`const PASSWORD: &str = "…"`),
//! hashed (`Hash::make('…')`, `bcrypt.hashpw(b"…")`), or given to a call that takes one
//! (`create_user(…, "…")`, `smtp.PlainAuth("", user, "…", host)`, `btoa('admin:…')`,
//! `client.auth("ana", "…")`, a test typing into the password field).

use super::{ANY_GROUP, Format, format};
use crate::secrets::SecretKind as K;
use crate::secrets::values::Form;

/// A quoted string of code: the secret's group.
const QUOTED: &str = r#"(?:"([^"\n]{3,})"|'([^'\n]{3,})')"#;

/// The literal formats: only what looks like a password by itself ([`Form::Strict`]).
pub(super) fn formats() -> Vec<Format> {
    let strict = |pattern: &str| format(K::Password, pattern, ANY_GROUP).form(Form::Strict);
    vec![
        // A quoted name, then the literal it is given or defaults to.
        strict(&format!(
            r#"(?i)["'][\w.\-]*(?:password|passwd|pwd|pass|passphrase|pass_phrase|secret)["'][ \t]*\]?[ \t]*(?:,|=>|:|=|\)[ \t]*(?:\?:|\|\||\?\?|or\b))[ \t]*{QUOTED}"#
        )),
        strict(r#"(?i)\bkey=["'][^"'\n]*(?:password|passwd|pwd)["'][ \t]*>([^<\n]{3,})<"#),
        strict(&format!(
            r#"(?i)\b(?:const|static|let|var|final|val|define)[ \t]+(?:mut[ \t]+)?[A-Za-z_]*(?:PASSWORD|PASSWD|PASS|PWD|SECRET)\b[^=\n]{{0,24}}=[ \t]*b?{QUOTED}"#
        )),
        strict(&format!(
            r#"\b(?:Hash::make|bcrypt\.hash(?:Sync)?|bcrypt\.hashpw|hashpw|password_hash|generate_password_hash|make_password|hashlib\.\w+|argon2\.hash|crypt)[ \t]*\([ \t]*b?{QUOTED}"#
        )),
        strict(&format!(
            r#"\bcreate_(?:super)?user[ \t]*\([^)\n]*?,[ \t]*(?:password[ \t]*=[ \t]*)?{QUOTED}[ \t]*\)"#
        )),
        strict(&format!(
            r#"\bPlainAuth[ \t]*\([ \t]*"[^"\n]*"[ \t]*,[ \t]*[^,\n]+,[ \t]*{QUOTED}"#
        )),
        strict(r#"\bbtoa[ \t]*\([ \t]*["'][^"':\n]+:([^"'\n]{3,})["']"#),
        strict(&format!(
            r#"\.(?:auth|bind)[ \t]*\([ \t]*["'][^"'\n]{{1,64}}["'][ \t]*,[ \t]*{QUOTED}"#
        )),
        // A test typing into the password field it found (`userEvent.type(getByLabelText(/password/i), '…')`,
        // `fireEvent.change(passwordInput, { target: { value: '…' } })`).
        strict(&format!(
            r#"(?i)\b(?:fill|type)[ \t]*\([^,\n]*pass[^,\n]*,[ \t]*{QUOTED}"#
        )),
        strict(&format!(
            r#"(?i)\bfireEvent\.(?:change|input)[ \t]*\([ \t]*\w*pass\w*[^\n]*?\bvalue[ \t]*:[ \t]*{QUOTED}"#
        )),
    ]
}
