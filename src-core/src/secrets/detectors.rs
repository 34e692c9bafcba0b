//! The well-known credential formats, each a pattern and the part of a match that is the
//! secret (the whole match, or one group: a connection string keeps its user and host).

use std::sync::LazyLock;

use regex::Regex;

use super::SecretKind;

/// The value of a `password`/`name=` pattern: quoted whole (spaces and all), or one word.
const VALUE: &str = r#"(?:"([^"\n]{3,200})"|'([^'\n]{3,200})'|["']?([^\s"',;]{3,}))"#;

/// The group of a format that holds the secret when it has several (the quoted and the
/// bare value): the first that took part in the match.
pub(super) const ANY_GROUP: usize = usize::MAX;

/// One format: the pattern, and the group that holds the secret (0: the whole match).
pub(super) struct Format {
    pub kind: SecretKind,
    pub pattern: Regex,
    pub group: usize,
}

fn format(kind: SecretKind, pattern: &str, group: usize) -> Format {
    Format {
        kind,
        // The patterns are constants, checked by the tests.
        pattern: Regex::new(pattern).unwrap_or_else(|e| unreachable!("secret pattern {pattern}: {e}")),
        group,
    }
}

/// Every format, the most specific first: a span taken by one is not looked at again.
pub(super) static FORMATS: LazyLock<Vec<Format>> = LazyLock::new(|| {
    use SecretKind as K;
    vec![
        // A PEM private key, to its END line; when it is cut (no END line), its base64 lines
        // up to the first blank line or other character (a heading, a bracket): what follows
        // a cut key is never swallowed.
        format(
            K::PrivateKey,
            r"-----BEGIN[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----|(?:[ \t]*\r?\n?[ \t]*[A-Za-z0-9+/=]+)*)",
            0,
        ),
        // A JSON-encoded service-account file names its key's id.
        format(K::PrivateKey, r#""private_key_id"\s*:\s*"([0-9a-fA-F]{16,})""#, 1),
        format(
            K::AwsAccessKey,
            r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
            0,
        ),
        format(
            K::AwsSecretKey,
            r#"(?i)\baws_?(?:secret_?(?:access_?)?key|secret)\b["']?\s*[:=]\s*["']?([A-Za-z0-9/+]{40})\b"#,
            1,
        ),
        format(K::GoogleApiKey, r"\bAIza[0-9A-Za-z_\-]{35}", 0),
        format(
            K::GithubToken,
            r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})",
            0,
        ),
        format(K::GitlabToken, r"\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_\-]{20,}", 0),
        format(
            K::SlackWebhook,
            r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/]{20,}",
            0,
        ),
        format(K::SlackToken, r"\bxox[abposr]-[A-Za-z0-9-]{10,}", 0),
        format(
            K::DiscordWebhook,
            r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{20,}",
            0,
        ),
        format(
            K::DiscordToken,
            r"\b[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}\b",
            0,
        ),
        format(K::TelegramToken, r"\b\d{8,10}:AA[A-Za-z0-9_\-]{32,33}\b", 0),
        format(K::AnthropicKey, r"\bsk-ant-[A-Za-z0-9_\-]{20,}", 0),
        format(K::StripeKey, r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}", 0),
        format(
            K::OpenaiKey,
            r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,}",
            0,
        ),
        format(
            K::Jwt,
            r"\beyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{10,}",
            0,
        ),
        format(
            K::AzureKey,
            r"(?i)\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)=([A-Za-z0-9+/=%]{20,})",
            1,
        ),
        // A password in a URL: `scheme://user:PASSWORD@host` keeps user and host.
        format(
            K::Password,
            r"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s:/?#@]*:([^\s@/]+)@[^\s@/]",
            1,
        ),
        // `password=…`, `passwd: …`, `pwd=…`, quoted (a quoted value is taken whole, spaces
        // and all), in JSON, YAML or prose: "my password is: …", "the password is now …",
        // "the wifi password for the office is …".
        format(
            K::Password,
            &format!(
                r#"(?i)\b(?:password|passwd|passphrase|pwd)\b(?:\s+(?:for|of|to|on|at)\s+(?:[\w'’.-]+\s+){{0,4}}?)?["']?\s*(?:[:=]|\bis\b)\s*(?::\s*)?(?:(?:now|still|currently|actually)\s+)?{VALUE}"#
            ),
            ANY_GROUP,
        ),
        // A name ending so, assigned (`DB_PASSWORD=`, `PGPASSWORD=`, `"admin_password":`,
        // `SMTP_PASS=`); never prose ("1Password is installed", "the reset_password page").
        format(
            K::Password,
            &format!(
                r#"(?i)\b[a-z0-9_.\-]*?(?:password|passwd|passphrase|pwd|(?:db|smtp|ftp|mail|email|mysql|pg|postgres|redis|root|admin|user|app|proxy|ldap|sql)_?pass)["']?\s*[:=]\s*{VALUE}"#
            ),
            ANY_GROUP,
        ),
        // `api_key=…` and its kin, also as the end of a name (`SERVICE_API_KEY=`).
        format(
            K::ApiKey,
            r#"(?i)\b[a-z0-9_]*?(?:api[_\-]?key|apikey|access[_\-]?token|auth[_\-]?token|client[_\-]?secret|secret[_\-]?key|bearer)\b["']?\s*[:=]?\s*["']?([A-Za-z0-9_\-+/.=]{16,})"#,
            1,
        ),
        // A name ending in `secret` or `token`, assigned (`SESSION_SECRET=…`, `API_TOKEN: …`),
        // or "the webhook secret is …": the value of `openssl rand -hex 32` is hex, which the
        // random-token screen leaves alone.
        format(
            K::ApiKey,
            r#"(?i)\b[a-z0-9_.\-]*?(?:secret|token)(?:["']?\s*[:=]\s*["']?|\s+is\s+)([A-Za-z0-9_\-+/.=]{16,})"#,
            1,
        ),
    ]
});

/// Words after `password is` / `password:` that are not a password but prose.
pub(super) const NOT_A_PASSWORD: &[&str] = &[
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
];

/// Values of settings, not secrets.
const NOT_A_VALUE: &[&str] = &[
    "true", "false", "yes", "no", "on", "off", "enabled", "disabled", "optional", "1", "0",
];

/// The kind of secret a JSON key names, when a string value under it is one whatever it
/// looks like (`{"password": "hunter2horse"}`, `{"API_TOKEN": "…"}`): a name that ends in a
/// word for a secret. `password_reset_url` or `api_key_id` name no secret.
pub(super) fn secret_named_by(key: &str) -> Option<SecretKind> {
    let lower = key.trim().to_ascii_lowercase();
    let ends = |words: &[&str]| words.iter().any(|w| lower.ends_with(w));
    if ends(&["password", "passwd", "passphrase", "pwd"])
        || ["db", "smtp", "ftp", "mail", "mysql", "pg", "redis", "root", "admin"]
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

/// Whether what a `password`/`api key` pattern caught is prose, a placeholder or already a
/// marker rather than a value.
pub(super) fn is_placeholder(kind: SecretKind, value: &str) -> bool {
    let lower = value.to_lowercase();
    let bare = lower.trim_matches(|c: char| !c.is_alphanumeric());
    if lower.starts_with("[secret") || lower.starts_with('$') || lower.starts_with("${") || lower.starts_with('<') {
        return true;
    }
    if bare.is_empty() || bare.chars().all(|c| c == 'x' || c == '*') {
        return true;
    }
    match kind {
        // A setting's value, a link or a path is not a password: `require_password: false`,
        // `reset_password: https://…`, `OLDPWD=/home/ana`.
        SecretKind::Password => {
            NOT_A_PASSWORD.contains(&bare)
                || NOT_A_VALUE.contains(&bare)
                || lower.contains("://")
                || lower.starts_with(['/', '~', '.'])
        }
        SecretKind::ApiKey => {
            // An identifier, a sentence or a path is not a key: a key mixes letters and digits.
            let digits = value.chars().filter(char::is_ascii_digit).count();
            let letters = value.chars().filter(char::is_ascii_alphabetic).count();
            digits == 0 || letters == 0
        }
        _ => false,
    }
}
