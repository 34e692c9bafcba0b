//! The words the value judgement reads: what begins prose after "password is" (in each
//! language the screen reads), what a setting says instead of a value, the names of
//! password settings, actions and labels, and the roots and types of code.

/// The names a `_pass` setting starts with (`DB_PASS=`, `smtp_pass:`,
/// `ansible_become_pass:`): the text rule and the JSON key rule share them. Any other
/// `_pass` name (`first_pass`, `boarding_pass`) gives a value only when it looks like a
/// password.
#[rustfmt::skip]
pub(in crate::secrets) const PASS_NAMES: &[&str] = &[
    "db", "smtp", "ftp", "mail", "email", "mysql", "pg", "postgres", "redis", "root", "admin", "user", "app",
    "proxy", "ldap", "sql", "wifi", "become", "ssh", "sudo", "keystore", "truststore", "jks", "auth", "default",
    "vault", "mongo", "bind", "login", "master", "rabbitmq", "smb", "vnc", "ssl", "tls", "router",
];

/// The words for a password in a text, besides the English ones (the screen reads "le mot
/// de passe est …", "Passwort: …", "パスワードは …"): a regex alternation. Words of
/// scripts without spaces are matched without word boundaries ([`PASSWORD_WORDS_CJK`]).
pub(in crate::secrets) const PASSWORD_WORDS_FOREIGN: &str = "mot[ \\t]+de[ \\t]+passe|passwort|kennwort|contraseña|senha|wachtwoord|пароль|parola[ \\t]+d['’]ordine|lösenordet|lösenord|hasło|haslo|adgangskoden|adgangskode|passordet|passord|clave|salasana|parola|şifre|şifresi|heslo|jelszó|geslo|lozinka|mdp|contra|mật[ \\t]+khẩu|kata[ \\t]+sandi|كلمة[ \\t]+(?:المرور|السر)|סיסמה|סיסמא";

/// The word for a password in scripts written without spaces.
pub(in crate::secrets) const PASSWORD_WORDS_CJK: &str = "パスワード|密码|密碼|口令|비밀번호|비번|암호|पासवर्ड|รหัสผ่าน";

/// The verbs and particles that say what a password is: "is", "was", "est", "ist", "es",
/// "é", "是", "は" (a regex alternation; the last ones need no word boundary).
pub(in crate::secrets) const LINKING_VERBS: &str =
    r"\b(?:is|was|est|était|ist|war|lautet|heißt|heisst|es|era|é|är|er|jest|je|è|este)\b|是|为|は|는|은|이";

/// Words that are no value after a password's name (`password: prompt`, `db_password:
/// see the vault`): function words, judgements, states, where a password is kept, and the
/// same in the other languages the screen reads. They only ever keep a value: in prose a
/// value is a password by its shape alone ([`super::shape`]).
#[rustfmt::skip]
pub(super) const NOT_A_PASSWORD: &[&str] = &[
    // Function words.
    "the", "a", "an", "not", "too", "very", "still", "now", "being", "was", "is", "be", "been", "in", "on", "at",
    "for", "from", "with", "my", "your", "his", "her", "their", "our", "its", "this", "that", "these", "those",
    "and", "or", "but", "if", "when", "then", "also", "only", "never", "always", "usually", "should", "will", "can",
    "cannot", "must", "may", "might", "has", "had", "have", "about", "going", "case", "just", "so", "as", "by",
    "to", "of", "what", "which", "whatever", "whichever", "literally", "probably", "definitely", "basically",
    "really", "quite", "pretty", "something", "anything", "nothing", "one", "same", "different", "like", "via",
    "see", "ask", "use", "please", "enter", "type", "check", "click", "command", "no", "yes", "none", "null", "n/a",
    "na", "n.a", "min", "max", "minimum", "maximum", "least", "most", "more", "less", "here", "there", "below",
    "above",
    // Judgements and states.
    "required", "needed", "mandatory", "optional", "wrong", "incorrect", "invalid", "valid", "expired", "expiring",
    "changed", "reset", "set", "unset", "saved", "stored", "kept", "hashed", "encrypted", "salted", "hidden",
    "shown", "sent", "printed", "displayed", "prompted", "asked", "given", "written", "shared", "managed",
    "rotated", "generated", "random", "strong", "weak", "long", "short", "simple", "complex", "easy", "hard",
    "secure", "insecure", "unique", "temporary", "new", "old", "missing", "empty", "blank", "unknown", "secret",
    "private", "forgotten", "protected", "unchanged", "case-sensitive", "sensitive", "mandatory", "obvious", "fine",
    "ok", "okay", "good", "bad", "great", "terrible", "right", "false", "true", "default", "pending", "todo", "tbd",
    "tba", "auto", "automatic", "prompt", "env", "environment", "keychain", "stdin", "file", "sso", "oauth", "ldap",
    "saml", "disabled", "enabled", "off", "unused", "unnecessary", "irrelevant", "useless", "identical", "similar",
    // SQL's words after `PASSWORD` or `IDENTIFIED BY` (`PASSWORD EXPIRE`, `BY VALUES '…'`).
    "expire", "values", "externally", "globally", "replace",
    // Where it is kept, and placeholders.
    "manager", "vault", "bitwarden", "1password", "keepass", "keepassxc", "lastpass", "dashlane", "redacted",
    "hunter", "<password>", "your_password", "xxx", "***", "[secret:", "password", "passwords", "changeme",
    "changeit", "example", "admin", "placeholder", "dummy", "sample", "pass", "passwd", "pwd", "pw",
    // Well-known defaults of development servers (`postgres://postgres:postgres@…`, Laravel's `forge`).
    "postgres", "root", "guest", "forge", "foobared", "mysql",
    // French, German, Spanish, Portuguese, Italian, Dutch.
    "le", "la", "les", "un", "une", "pas", "trop", "requis", "obligatoire", "incorrect", "expiré", "faux", "oublié",
    "changé", "dans", "secret", "der", "die", "das", "ein", "eine", "nicht", "zu", "falsch", "richtig",
    "abgelaufen", "geheim", "erforderlich", "unbekannt", "geändert", "gespeichert", "im", "el", "los", "las", "muy",
    "demasiado", "obligatoria", "obligatorio", "incorrecta", "incorrecto", "secreta", "secreto", "en", "o", "os",
    "as", "um", "uma", "não", "muito", "obrigatória", "obrigatório", "inválida", "errada", "segreta", "segreto",
    "obbligatoria", "sbagliata", "het", "een", "niet", "te", "verplicht", "onjuist", "geheim",
];

/// Words that hold a sentence together, never a passphrase's word (`stored in the vault`,
/// `use something long`): what [`NOT_A_PASSWORD`] does not already say.
#[rustfmt::skip]
pub(super) const SENTENCE_WORDS: &[&str] = &[
    "i", "we", "you", "he", "she", "it", "they", "me", "us", "them", "am", "are", "were", "do", "does", "did",
    "don't", "isn't", "there's", "it's", "would", "could", "into", "onto", "than", "because", "where", "who",
    "how", "why", "all", "any", "some", "each", "every", "words", "word", "phrase", "characters", "letters",
    "digits", "written", "paper", "card", "safe", "drawer", "wallet", "backup", "offline", "printed", "stored",
    "somewhere", "hardware", "ledger", "trezor",
];

/// The first word of a quoted place a password is written or kept (`"on the fridge"`,
/// `"in Bitwarden"`, `"taped under the desk"`).
#[rustfmt::skip]
pub(super) const LOCATION_WORDS: &[&str] = &[
    "on", "in", "under", "underneath", "behind", "inside", "beside", "near", "next", "at", "above", "below",
    "taped", "written", "stored", "saved", "kept", "stuck", "pinned", "see",
];

/// The second part of a hyphened word that says what the first is or was made into
/// (`SHA256-hashed`, `utf8-encoded`, `ipv6-only`, `2fa-enabled`).
#[rustfmt::skip]
pub(super) const DESCRIBING: &[&str] = &[
    "hashed", "encoded", "encrypted", "based", "only", "compatible", "ready", "safe", "enabled", "protected",
    "signed", "style", "like", "free", "aware", "capable", "compliant", "length", "long", "authenticated",
];

/// Words on a line that show an example rather than a secret ("Dummy password: …").
pub(super) const EXAMPLE_WORDS: &[&str] = &["dummy", "sample", "example", "fake", "tutorial", "xkcd", "classic"];

/// Words in brackets after the word that describe the password, not what it is for
/// ("Password (PBKDF2 iterations): 600000", "Password (max age in seconds): …").
#[rustfmt::skip]
pub(super) const DESCRIBES: &[&str] = &[
    "iterations", "iteration", "rounds", "cost", "age", "length", "lengths", "maximum", "minimum", "last",
    "changed", "expiry", "expires", "expiration", "seconds", "days", "hours", "characters", "chars", "digits",
    "policy", "rules", "rule", "hash", "hashed", "hashing", "salt", "format", "algorithm", "strength", "entropy",
    "bits", "count", "attempts", "retries", "timeout", "history", "reuse", "sha-256", "sha-512", "sha-1",
];

/// The words after a value that make it the name of a password manager's entry, followed
/// by "in", "from" or "on" (`Home-WiFi-5G entry in Bitwarden`).
pub(super) const ENTRY_WORDS: &[&str] = &["entry", "item", "record", "login", "note", "card", "vault", "folder"];

/// Values of settings, not secrets.
pub(super) const NOT_A_VALUE: &[&str] = &[
    "true", "false", "yes", "no", "on", "off", "enabled", "disabled", "optional", "1", "0",
];

/// Words that make a name an action on a password rather than the password itself
/// (`forgot_password`, `change_password`), wherever they stand in the name.
pub(super) const ACTIONS: &[&str] = &[
    "forgot", "forget", "change", "reset", "update", "recover", "require", "allow", "confirm", "policy",
];

/// Words that make a name a label or a setting of a password when they follow the word
/// (`password_placeholder`, `password_hint`; `message_broker_password` is a password).
#[rustfmt::skip]
pub(super) const LABELS: &[&str] = &[
    "placeholder", "label", "hint", "prompt", "title", "text", "message", "msg", "field", "policy", "length", "min",
    "max", "reset", "change", "url", "link", "path", "file", "id", "hash", "expiry", "expires", "required",
];

/// The word for a password in a label ("Forgot your password?", "Mot de passe",
/// "Пароль", "パスワード", "Palavra-passe"), in each language the screen reads.
#[rustfmt::skip]
pub(super) const PASSWORD_WORDS: &[&str] = &[
    "password", "passwort", "kennwort", "passe", "contraseña", "senha", "wachtwoord", "parola", "пароль", "hasło",
    "lösenord", "salasana", "adgangskode", "passord", "jelszó", "heslo", "şifre", "パスワード", "密码", "密碼",
    "비밀번호", "पासवर्ड",
];

/// Technologies, algorithms and password managers a password is hashed with, moved to or
/// kept in (`password → Argon2id`, "from password to OAuth2"): names, not passwords.
#[rustfmt::skip]
pub(super) const TECH_NAMES: &[&str] = &[
    "oauth", "oauth2", "oauth2.0", "sha1", "sha-1", "sha2", "sha-2", "sha256", "sha-256", "sha384", "sha512",
    "sha-512", "sha3", "sha-3", "md5", "argon2", "argon2i", "argon2d", "argon2id", "bcrypt", "scrypt", "pbkdf2",
    "aes128", "aes-128", "aes256", "aes-256", "hs256", "rs256", "es256", "ed25519", "x509", "x.509", "fido2",
    "u2f", "2fa", "mfa", "sso", "ldap", "ldaps", "saml", "saml2", "totp", "hotp", "oidc", "ntlm", "ntlmv2",
    "kerberos5", "webauthn", "1password", "utf-8", "utf8", "base64", "rot13", "pkcs12", "pkcs#12", "pkcs8",
    "rsa2048", "rsa4096", "hmac-sha256", "hmac-sha512", "hmac", "yubikey5", "wep", "wpa", "wpa2", "wpa3",
    "wpa-psk", "wpa2-psk", "wpa3-sae", "wpa2-personal", "wpa3-personal", "wpa2-enterprise",
];

/// The word before "key" that makes a hex value after it public or no credential ("GPG key
/// …", "cache key …", "commit hash key"): a key's name says it.
#[rustfmt::skip]
pub(super) const NOT_A_SECRET_KEY: &[&str] = &[
    "gpg", "pgp", "public", "ssh", "host", "cache", "sort", "partition", "primary", "foreign", "row", "index",
    "lookup", "dedup", "idempotency", "commit", "object", "file", "hash", "product", "trace", "span", "correlation",
    "redis", "s3", "shard", "routing", "message", "entity", "md5", "sha1", "sha256", "surrogate", "torrent",
    "duplicate", "deduplication", "archive", "repo", "repository", "maintainer", "release", "openpgp", "blob",
    "entry", "composite", "unique", "natural", "bucket", "kms", "cmk", "device", "project", "memcached", "kafka",
    "dynamodb", "continuation", "cursor", "page", "next",
    // A preposition or an article before "key" names no vendor ("miss for key …", "by key …").
    "for", "by", "under", "with", "to", "of", "on", "in", "at", "the", "a", "an", "this", "that", "each", "per",
];

/// The parts of a token's name that make it a cursor, not a credential
/// (`next_page_token`, `pageToken`, `resumeToken`, `continuationToken`).
pub(super) const CURSOR_PARTS: &[&str] = &[
    "page",
    "next",
    "prev",
    "resume",
    "continuation",
    "cursor",
    "sync",
    "cancel",
    "pagination",
    "idempotency",
];

/// Keywords of code that come before a call (`let password = try Keychain…`).
pub(super) const CODE_KEYWORDS: &[&str] = &["try", "await", "new", "yield", "typeof", "unsafe", "move", "async"];

/// Words after a command's flag that say it is the flag being talked about
/// (`sqlcmd -P option is deprecated`).
pub(super) const FLAG_WORDS: &[&str] = &["option", "flag", "argument", "value", "parameter", "switch"];

/// The parts of an identifier that name a password (`db_password`, `passwordHash`,
/// `user_pass`): such an identifier is a variable, not a value.
pub(super) const PASSWORD_PARTS: &[&str] = &["password", "passwd", "passphrase", "pwd", "pass", "pw", "passcode"];

/// Code roots a dotted value starts with (`settings.API_KEY`, `process.env.X`).
#[rustfmt::skip]
pub(super) const CODE_ROOTS: &[&str] = &[
    "settings", "config", "conf", "cfg", "env", "process", "os", "self", "this", "var", "data", "local", "module",
    "random_password", "aws", "app", "ctx", "request", "req", "params", "args", "options", "opts", "secrets",
    "vault", "props", "window", "system", "sys", "keyring",
];

/// The names of types a field is declared with (`password: string`, `pub password:
/// String`, `password: str`): a declaration, not a value.
#[rustfmt::skip]
pub(super) const TYPE_NAMES: &[&str] = &[
    "string", "str", "&str", "int", "integer", "bool", "boolean", "any", "number", "bytes", "char", "text",
    "object", "unknown", "secretstring", "securestring", "charfield", "varchar", "undefined", "usize", "isize",
    "float", "double", "long", "short", "byte", "vec", "option", "optional", "void", "null", "nil", "array",
];

/// Words of a placeholder in a key or a password (`your-api-key-here`, `CHANGEME`).
#[rustfmt::skip]
pub(super) const PLACEHOLDER_PARTS: &[&str] = &[
    "your", "here", "example", "changeme", "changeit", "placeholder", "dummy", "sample", "replace", "insert",
    "redacted", "todo", "tbd", "xxx", "fake", "testpass", "testpassword", "testpwd",
];
