//! The well-known credential formats, each a pattern and the part of a match that is the
//! secret (the whole match, or one group: a connection string keeps its user and host).

use std::sync::LazyLock;

use regex::Regex;

use super::SecretKind;

/// The value of a `password`/`name=` pattern: quoted whole (spaces and all), or one word.
/// A bare value runs to the next space: a `,`, `;` or quote inside it (a generated
/// password) is part of it; one followed by a space ends it.
const VALUE: &str = r#"(?:"([^"\n]{3,200})"|'([^'\n]{3,200})'|["']?([^\s"',;]{3,}(?:[,;'"][^\s"',;]+)*))"#;

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
        // A password in a URL: `scheme://user:PASSWORD@host` keeps user and host (a password
        // holding `@` runs to the last one).
        format(
            K::Password,
            r"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s:/?#@]*:([^\s/]+)@[^\s@/]",
            1,
        ),
        // `password=…`, `passwd: …`, `pwd=…`, quoted (a quoted value is taken whole, spaces
        // and all), in JSON, YAML or prose: "my password is: …", "the password is now …",
        // "the wifi password for the office is …".
        format(
            K::Password,
            &format!(
                r#"(?i)\b(?:password|passwd|passphrase|pwd)\b(?:[ \t]+(?:for|of|to|on|at)[ \t]+(?:[\w'’.-]+[ \t]+){{0,4}}?)?["']?[ \t]*(?:[:=]|\bis\b)[ \t]*(?::[ \t]*)?(?:(?:now|still|currently|actually)[ \t]+)?{VALUE}"#
            ),
            ANY_GROUP,
        ),
        // A name ending so, assigned (`DB_PASSWORD=`, `PGPASSWORD=`, `"admin_password":`,
        // `SMTP_PASS=`); never prose ("1Password is installed", "the reset_password page").
        format(
            K::Password,
            &format!(
                r#"(?i)\b[a-z0-9_.\-]*?(?:password|passwd|passphrase|pwd|(?:{names})_?pass)["']?[ \t]*[:=][ \t]*{VALUE}"#,
                names = super::values::PASS_NAMES.join("|")
            ),
            ANY_GROUP,
        ),
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
        format(
            K::ApiKey,
            r#"(?i)\bname:[ \t]*["']?[a-z0-9_.\-]*?(?:secret|token|api_?key)["']?[ \t]*\r?\n[ \t]*value:[ \t]*["']?([A-Za-z0-9_\-+/.=]{12,})"#,
            1,
        ),
        // Command lines: `--password 'X'` (a bare `--password` makes psql and mysql ask),
        // `curl -u ana:X`, `mysql -u root -pX`, `sshpass -p X`, `docker login -p X`,
        // `redis-cli -a X`.
        format(
            K::Password,
            r#"(?:^|\s)--password[ \t]+(?:'([^'\n]{3,})'|"([^"\n]{3,})")"#,
            ANY_GROUP,
        ),
        format(
            K::Password,
            r#"\b(?:curl|wget|http|https)\b[^\n|;&]*?\s(?:-u|--user)[ \t=]+["']?[^\s:'"]*[A-Za-z][^\s:'"]*:([^\s'"]{3,})"#,
            1,
        ),
        format(
            K::Password,
            r#"\b(?:mysql|mysqldump|mariadb)(?:[ \t]+(?:-[uhPDS][ \t]*[^\s\-]\S*|--[a-z\-]+(?:=\S+)?|-[A-Za-z]))*[ \t]+-p(?:'([^'\n]{3,})'|"([^"\n]{3,})"|([^\s'"\-][^\s'"]{2,}))"#,
            ANY_GROUP,
        ),
        format(
            K::Password,
            &format!(r#"\b(?:sshpass|docker[ \t]+login\b[^\n|;&]*?)[ \t]+-p[ \t]+{VALUE}"#),
            ANY_GROUP,
        ),
        format(
            K::Password,
            &format!(r#"\bredis-cli\b[^\n|;&]*?[ \t]-a[ \t]+{VALUE}"#),
            ANY_GROUP,
        ),
        // Maven's `<password>…</password>` and `.netrc`'s `machine … login … password …`.
        format(K::Password, r"<password>([^<\s]{3,})</password>", 1),
        format(
            K::Password,
            r"\bmachine[ \t]+\S+[ \t]+login[ \t]+\S+[ \t]+password[ \t]+(\S{3,})",
            1,
        ),
        // HTTP authorization: `Authorization: token …`, `Basic …`, `Bearer …`.
        format(
            K::ApiKey,
            r#"(?i)\bauthorization["']?[ \t]*[:=][ \t]*["']?(?:token|basic|bearer)[ \t]+([A-Za-z0-9_\-+/.=]{12,})"#,
            1,
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
            r#"(?i)\b[a-z0-9_.\-]*?(?:secret|token|secret_key_base)(?:["']?[ \t]*[:=][ \t]*["']?|[ \t]+is[ \t]+)([A-Za-z0-9_\-+/.=]{16,})"#,
            1,
        ),
    ]
});
