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
    "tbd",
    "tba",
    "unchanged",
    "n/a",
    "password",
    "passwords",
];

/// Values of settings, not secrets.
const NOT_A_VALUE: &[&str] = &[
    "true", "false", "yes", "no", "on", "off", "enabled", "disabled", "optional", "1", "0",
];

/// Words that make a name an action on a password, a label or a setting rather than the
/// password itself (`forgot_password`, `change_password`, `password_placeholder`).
const ACTIONS: &[&str] = &[
    "forgot",
    "forget",
    "change",
    "reset",
    "update",
    "recover",
    "require",
    "allow",
    "confirm",
    "policy",
    "placeholder",
    "label",
    "hint",
    "prompt",
    "title",
    "text",
    "message",
    "msg",
    "field",
];

/// The word for a password in a label ("Forgot your password?", "Mot de passe").
const PASSWORD_WORDS: &[&str] = &[
    "password",
    "passwort",
    "passe",
    "contraseña",
    "senha",
    "wachtwoord",
    "parola",
];

/// Code roots a dotted value starts with (`settings.API_KEY`, `process.env.X`).
const CODE_ROOTS: &[&str] = &[
    "settings",
    "config",
    "conf",
    "cfg",
    "env",
    "process",
    "os",
    "self",
    "this",
    "var",
    "data",
    "local",
    "module",
    "random_password",
    "aws",
    "app",
    "ctx",
    "request",
    "req",
    "params",
    "args",
    "options",
    "opts",
    "secrets",
    "vault",
    "props",
    "window",
    "system",
    "sys",
    "keyring",
];

/// Where a pattern found a value: the match's text before it (the name and `=`, `:` or
/// `is`), the character just before it (a quote when it was quoted) and the rest of its
/// line after it.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Around<'a> {
    pub prefix: &'a str,
    pub before: Option<char>,
    pub after: &'a str,
}

/// Whether `value`, caught by a pattern of `kind`, is no credential: prose, a setting, a
/// label, a link, a path, a placeholder or template, or code.
pub(super) fn is_placeholder(kind: SecretKind, value: &str, around: &Around<'_>) -> bool {
    let lower = value.to_lowercase();
    let bare = lower.trim_matches(|c: char| !c.is_alphanumeric());
    if bare.is_empty() || bare.chars().all(|c| c == 'x' || c == '*') || is_template(value) {
        return true;
    }
    if !matches!(kind, SecretKind::Password | SecretKind::ApiKey) {
        return false;
    }
    // A quoted value is a literal: whatever it holds is the value.
    let quoted = matches!(around.before, Some('"' | '\''));
    if (!quoted && is_code(value, around.after.chars().next())) || is_path_or_link(value) {
        return true;
    }
    match kind {
        SecretKind::Password => {
            let prefix = around.prefix.to_lowercase();
            NOT_A_PASSWORD.contains(&bare)
                || NOT_A_VALUE.contains(&bare)
                || is_label(&lower)
                || names_an_action(&prefix)
                || is_prose(value, &prefix, around)
        }
        // An identifier, a sentence or a path is not a key: a key mixes letters and digits.
        _ => {
            let digits = value.chars().filter(char::is_ascii_digit).count();
            let letters = value.chars().filter(char::is_ascii_alphabetic).count();
            digits == 0 || letters == 0
        }
    }
}

/// A label that names the password ("Forgot your password?", "New password",
/// "Password"): a phrase holding the word, or the word alone. `Password123` is a value.
fn is_label(lower: &str) -> bool {
    let word = lower.trim_matches(|c: char| !c.is_alphanumeric());
    PASSWORD_WORDS.contains(&word)
        || (lower.contains(char::is_whitespace) && PASSWORD_WORDS.iter().any(|w| lower.contains(w)))
}

/// Whether the name a value is given to (the last name in `prefix`: `forgot_password`,
/// `confirmPassword`) is an action on a password or a label, by its parts
/// (`EXCHANGE_PASSWORD` is no `change`).
fn names_an_action(prefix: &str) -> bool {
    let name = prefix
        .split(|c: char| !(c.is_alphanumeric() || "_-.".contains(c)))
        .rfind(|part| part.contains("pass") || part.contains("pwd"))
        .unwrap_or("");
    name.split(['_', '-', '.']).any(|part| ACTIONS.contains(&part))
}

/// A word of a sentence after "password is" or "password:", not a value. After a colon:
/// a bare word of letters followed by more words ("Password: ask Bob in IT"). After `is`:
/// a lower-case word followed by more words ("is hashed with bcrypt") or hyphenated ("is
/// case-sensitive."). A word alone at the end of a `password: …` line is a value (a YAML
/// setting), as is "my password is Sunflower and…"; a command line's or an assignment's
/// value (`-p`, `=`) is never prose.
fn is_prose(value: &str, prefix: &str, around: &Around<'_>) -> bool {
    if matches!(around.before, Some('"' | '\'')) {
        return false;
    }
    let word = value.trim_end_matches(['.', ',', ';', '!', '?', ':']);
    let letters = !word.is_empty() && word.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'');
    if !letters {
        return false;
    }
    let more_words = around.after.trim_start().starts_with(char::is_alphabetic);
    let head = prefix.trim_end();
    if head.ends_with(':') {
        more_words
    } else if head.ends_with(" is") || head == "is" {
        !word.chars().any(char::is_uppercase) && (more_words || word.contains('-'))
    } else {
        false
    }
}

/// `$VAR`, `${VAR}`, `<password>`, `{{ vault_password }}`, `{password}`, `%s`, `#{pass}`,
/// `<%= ENV[...] %>` and markers: a value written elsewhere. (`$uperman1987` is a value.)
fn is_template(value: &str) -> bool {
    let lower = value.to_lowercase();
    let variable = value.strip_prefix('$').is_some_and(|v| {
        v.starts_with('{')
            || (v.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && (v.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
                    || v.chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')))
    });
    variable
        || value.starts_with("$(")
        || value.starts_with('`')
        || lower.starts_with("[secret")
        || lower.starts_with('<')
        || lower.starts_with('{')
        || lower.starts_with("%s")
        || lower.starts_with("%(")
        || lower.starts_with("#{")
}

/// A link or a path: `https://…`, `/etc/ssl/x.key`, `~/.pgpass`, `./db_password.txt`,
/// `src/app2` (lower-case segments: `Xk9/mQ2pLr8vT` is a value).
fn is_path_or_link(value: &str) -> bool {
    value.contains("://")
        || value.starts_with('/')
        || ["~/", "./", "../"].iter().any(|p| value.starts_with(p))
        || (value.contains('/')
            && value.split('/').all(|part| {
                !part.is_empty()
                    && part
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_-.".contains(c))
            }))
}

/// Code, not a value: a call or an index (`getpass()`, `os.environ[`, followed by `(` or
/// `[`), or a dotted name from code (`settings.OPENAI_API_KEY`, `process.env.X`,
/// `var.db_password`). `john.doe99` or `Welcome.Home1` are values.
fn is_code(value: &str, next: Option<char>) -> bool {
    if matches!(next, Some('(' | '[')) || value.ends_with(['(', '[']) {
        return true;
    }
    let ident = |p: &str| {
        p.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    // `name(…)` whole, or `name(` / `name[` opening a string or closing at once
    // (`input("Password: ")`, `os.environ["DB_PASSWORD"]`, `getpass()`).
    for open in ['(', '['] {
        if let Some((name, rest)) = value.split_once(open)
            && name.split('.').all(ident)
            && (rest.ends_with([')', ']']) || rest.is_empty() || rest.starts_with(['"', '\'', ')', ']']))
        {
            return true;
        }
    }
    let parts: Vec<&str> = value.trim_end_matches([';', ',']).split('.').collect();
    parts.len() > 1
        && parts.iter().all(|p| ident(p))
        && (CODE_ROOTS.contains(&parts[0])
            || parts[1..]
                .iter()
                .any(|p| p.contains('_') && p.chars().all(|c| !c.is_ascii_lowercase())))
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
/// phrase, a label, a short word, a template, a path or a cursor (`"page-2"`, `"gpt-4o"`,
/// `"expires in 30 days"`). It is never code: a JSON value is data.
pub(super) fn is_named_secret(kind: SecretKind, value: &str) -> bool {
    let value = value.trim();
    let lower = value.to_lowercase();
    if value.is_empty() || value.contains("[secret: ") || is_template(value) || is_path_or_link(value) {
        return false;
    }
    match kind {
        // A password may be a passphrase of a few words; a sentence or a label is not one.
        SecretKind::Password => {
            value.chars().count() >= 4
                && value.split_whitespace().count() <= 5
                && !value.contains(" > ")
                && !NOT_A_PASSWORD.contains(&lower.as_str())
                && !NOT_A_VALUE.contains(&lower.as_str())
                && !is_label(&lower)
        }
        // A key or token is one run of at least 12 characters.
        _ => value.chars().count() >= 12 && !value.contains(char::is_whitespace),
    }
}
