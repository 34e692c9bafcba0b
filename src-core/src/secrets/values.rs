//! Whether what a `password=` / `api_key=` / `"token":` pattern caught is a value that
//! could be a credential, or prose, a setting, a placeholder, a template, a path or code
//! (each found as a false positive on ordinary notes, configs and code an assistant keeps:
//! a redaction is permanent, so a wrong one destroys the user's text).

use super::SecretKind;

/// The names a `_pass` setting starts with (`DB_PASS=`, `smtp_pass:`): the text rule and
/// the JSON key rule share them.
pub(super) const PASS_NAMES: &[&str] = &[
    "db", "smtp", "ftp", "mail", "email", "mysql", "pg", "postgres", "redis", "root", "admin", "user", "app", "proxy",
    "ldap", "sql",
];

/// Words after `password is` / `password:` that are not a password but prose.
const NOT_A_PASSWORD: &[&str] = &[
    "the",
    "a",
    "an",
    "not",
    "too",
    "very",
    "still",
    "now",
    "being",
    "was",
    "is",
    "required",
    "needed",
    "wrong",
    "incorrect",
    "correct",
    "invalid",
    "expired",
    "changed",
    "reset",
    "set",
    "saved",
    "stored",
    "strong",
    "weak",
    "long",
    "short",
    "missing",
    "empty",
    "blank",
    "unknown",
    "secret",
    "hidden",
    "forgotten",
    "same",
    "different",
    "in",
    "on",
    "at",
    "for",
    "from",
    "with",
    "my",
    "your",
    "his",
    "her",
    "their",
    "our",
    "its",
    "this",
    "that",
    "manager",
    "protected",
    "none",
    "null",
    "redacted",
    "hunter",
    "<password>",
    "your_password",
    "xxx",
    "***",
    "[secret:",
    "about",
    "written",
    "must",
    "then",
    "click",
    "command",
    "going",
    "expiring",
    "valid",
    "shown",
    "sent",
    "printed",
    "displayed",
    "prompted",
    "asked",
    "given",
    "case",
    "also",
    "only",
    "never",
    "always",
    "usually",
    "should",
    "will",
    "can",
    "cannot",
    "has",
    "had",
    "and",
    "or",
    "but",
    "if",
    "when",
];

/// Values of settings, not secrets.
const NOT_A_VALUE: &[&str] = &[
    "true", "false", "yes", "no", "on", "off", "enabled", "disabled", "optional", "1", "0",
];

/// Words that make a key name an action on a password rather than the password itself
/// (`forgot_password`, `change_password`).
const ACTIONS: &[&str] = &[
    "forgot",
    "forget",
    "change",
    "reset",
    "update",
    "recover",
    "require",
    "required",
    "allow",
    "confirm_hint",
    "policy",
];

/// Whether `value`, caught by a pattern of `kind`, is no credential: prose, a setting, a
/// link, a path, a placeholder or template, or code (`next` is the character after it).
pub(super) fn is_placeholder(kind: SecretKind, value: &str, next: Option<char>) -> bool {
    let lower = value.to_lowercase();
    let bare = lower.trim_matches(|c: char| !c.is_alphanumeric());
    if bare.is_empty() || bare.chars().all(|c| c == 'x' || c == '*') || is_template(&lower) {
        return true;
    }
    if !matches!(kind, SecretKind::Password | SecretKind::ApiKey) {
        return false;
    }
    if is_code(value, next) || is_path_or_link(&lower) {
        return true;
    }
    match kind {
        // A setting's value is not a password: `require_password: false`.
        SecretKind::Password => NOT_A_PASSWORD.contains(&bare) || NOT_A_VALUE.contains(&bare),
        // An identifier, a sentence or a path is not a key: a key mixes letters and digits.
        _ => {
            let digits = value.chars().filter(char::is_ascii_digit).count();
            let letters = value.chars().filter(char::is_ascii_alphabetic).count();
            digits == 0 || letters == 0
        }
    }
}

/// `$VAR`, `${VAR}`, `<password>`, `{{ vault_password }}`, `{password}`, `%s`, `#{pass}`,
/// `<%= ENV[...] %>` and markers: a value written elsewhere.
fn is_template(lower: &str) -> bool {
    lower.starts_with("[secret")
        || lower.starts_with('$')
        || lower.starts_with('<')
        || lower.starts_with('{')
        || lower.starts_with("%s")
        || lower.starts_with("%(")
        || lower.starts_with("#{")
}

/// A link or a path: `https://…`, `/etc/ssl/x.key`, `~/.pgpass`, `./db_password.txt`,
/// `src/app2`.
fn is_path_or_link(lower: &str) -> bool {
    lower.contains("://")
        || lower.starts_with(['/', '~', '.'])
        || (lower.contains('/')
            && lower
                .split('/')
                .all(|part| !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || "_-.".contains(c))))
}

/// Code, not a value: a call or an index (`getpass()`, `os.environ["DB_PASSWORD"]`), or a
/// dotted name (`var.db_password`, `process.env.SESSION_SECRET_V2`, `settings.API_KEY`).
fn is_code(value: &str, next: Option<char>) -> bool {
    if matches!(next, Some('(' | '[')) || value.contains(['(', '[']) {
        return true;
    }
    let parts: Vec<&str> = value.trim_end_matches([';', ',']).split('.').collect();
    parts.len() > 1
        && parts.iter().all(|p| {
            p.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// The span of a shell default in `value` (`${DB_PASS:-Tr0ub4dor3}`): the secret written
/// as a fallback.
pub(super) fn shell_default(value: &str) -> Option<std::ops::Range<usize>> {
    let rest = value.strip_prefix("${")?;
    let at = rest.find(":-")? + 2 + 2;
    let end = value[at..].find('}').map_or(value.len(), |i| at + i);
    (end > at && !value[at..].starts_with("[secret")).then_some(at..end)
}

/// The kind of secret a JSON key names (`{"password": …}`, `{"API_TOKEN": …}`): a name
/// that ends in a word for a secret and is not an action on one (`forgot_password`).
/// `password_reset_url` or `api_key_id` name no secret.
pub(super) fn secret_named_by(key: &str) -> Option<SecretKind> {
    let lower = key.trim().to_ascii_lowercase();
    if ACTIONS.iter().any(|a| lower.contains(a)) {
        return None;
    }
    let ends = |words: &[&str]| words.iter().any(|w| lower.ends_with(w));
    if ends(&["password", "passwd", "passphrase", "pwd"])
        || PASS_NAMES
            .iter()
            .any(|p| lower.ends_with(&format!("{p}_pass")) || lower.ends_with(&format!("{p}pass")))
    {
        return Some(SecretKind::Password);
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
    .then_some(SecretKind::ApiKey)
}

/// Whether a text under a key that names a secret is one: a credential-like value, never a
/// phrase, a short word or a cursor (`"page-2"`, `"gpt-4o"`, `"expires in 30 days"`).
pub(super) fn is_named_secret(kind: SecretKind, value: &str) -> bool {
    let value = value.trim();
    if value.is_empty() || value.contains("[secret: ") || is_placeholder(kind, value, None) {
        return false;
    }
    match kind {
        // A password may be a passphrase of a few words; a sentence is not one.
        SecretKind::Password => {
            value.chars().count() >= 4
                && value.split_whitespace().count() <= 5
                && !value.contains(" > ")
                && !NOT_A_PASSWORD.contains(&value.to_lowercase().as_str())
        }
        // A key or token is one run of at least 12 characters.
        _ => value.chars().count() >= 12 && !value.contains(char::is_whitespace),
    }
}
