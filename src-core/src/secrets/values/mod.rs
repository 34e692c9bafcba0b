//! Whether what a `password=` / `api_key=` / `"token":` pattern caught is a value that
//! could be a credential, or prose, a setting, a placeholder, a template, a path or code
//! (each found as a false positive on ordinary notes, configs and code an assistant keeps:
//! a redaction is permanent, so a wrong one destroys the user's text).

mod code;
mod named;
mod pins;
mod plain_word;
mod prose;
mod shape;
mod words;

use super::SecretKind;
pub(super) use code::name_parts;
pub(super) use named::{is_named_secret, secret_named_by};
use prose::Said;
pub(super) use prose::tail;
use shape::looks_strong;
pub(super) use shape::{before_cjk, is_password_hash};
use words::{
    ACTIONS, CODE_KEYWORDS, CURSOR_PARTS, FLAG_WORDS, LABELS, NOT_A_PASSWORD, NOT_A_SECRET_KEY, NOT_A_VALUE,
    PASSWORD_WORDS, PLACEHOLDER_PARTS,
};
pub(super) use words::{LINKING_VERBS, PASS_NAMES, PASSWORD_WORDS_CJK, PASSWORD_WORDS_FOREIGN};

/// How a pattern found its value, which says what the value must be.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    /// A name given a value (`password=`, `api_key:`, a flag, a file's field), or the word
    /// said with `is` or `:` ("the password is …"): prose is no value there.
    #[default]
    Named,
    /// The word with `:`, `=` or a verb ("the password is …", "Password: …", "密码是…"):
    /// in prose only what looks like a password ([`shape::is_password_shaped`]), as a config's
    /// key (`password: …`) a named value.
    Said,
    /// Beside the word with nothing between ("password Sunflower42", "changed the
    /// password to …", a `_pass` name): only what looks like a password by itself
    /// ([`looks_strong`]).
    Strict,
    /// A bare `pass` or a `pw` name (`pass: …`, `PW=…`, `e2e pass: …`): as [`Form::Strict`],
    /// and never a pass of another kind (`Ski pass:`, `first_pass:`) or a test's result
    /// (`PASS: test_auth_2fa`).
    Pass,
    /// A command's flag (`sqlcmd -P …`, `-storepass …`): quoted, a named value; bare, only
    /// what looks like a password, never the flag talked about (`-P option is …`).
    Flag,
    /// Docker's or npm's `auth`: the base64 of `user:password`.
    Auth,
    /// A `.pgpass` line: a password when the line is one ([`shape::is_pgpass_line`]).
    Pgpass,
    /// Plain words after "passphrase:" or "seed phrase is": a passphrase when no word
    /// is one a sentence is made of ([`shape::is_word_passphrase`]).
    Phrase,
    /// The password of a login written as a pair (`login: bob / …`): what looks like a
    /// password by itself and ends its line, never a terminal, a time or a number
    /// (`login: alice / tty2`, `login: carol / 2024-05-01T09:15Z ok`).
    Pair,
}

/// Where a pattern found a value: the match's text before it (the name and `=`, `:` or
/// `is`), the character just before it (a quote when it was quoted), the rest of its line
/// after it, its line before it, and how it was found.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Around<'a> {
    pub prefix: &'a str,
    pub before: Option<char>,
    pub after: &'a str,
    pub line: &'a str,
    /// Up to three lines before the value's line (an address's city and state above its PIN).
    pub above: &'a str,
    pub form: Form,
}

/// Whether `value`, caught by a pattern of `kind`, is no credential: prose, a setting, a
/// label, a link, a path, a placeholder or template, or code.
pub(super) fn is_placeholder(kind: SecretKind, value: &str, around: &Around<'_>) -> bool {
    // Markdown's emphasis around a word is not the word ("the password is **never** sent").
    let value = if kind == SecretKind::Password {
        shape::without_emphasis(value)
    } else {
        value
    };
    let lower = value.to_lowercase();
    let bare = lower.trim_matches(|c: char| !c.is_alphanumeric());
    // A vendor's prefix followed by X's is a placeholder (`AKIAXXXXXXXXXXXXXXXX`, `sk-xxxx…`).
    let masked_tail = value.chars().skip(4).collect::<String>();
    if bare.is_empty()
        || bare.chars().all(|c| c == 'x' || c == '*')
        || masked_tail.chars().count() >= 8 && masked_tail.chars().all(|c| matches!(c, 'x' | 'X' | '*'))
        || crate::secrets::public::is_publishable(value)
        || code::is_template(value, around.after)
        || code::in_template(around.line, around.after)
    {
        return true;
    }
    if kind == SecretKind::Pin {
        return pins::is_no_pin(value, around);
    }
    // Recovery codes: six characters or more and three digits, or letters in four groups
    // (`Backup key 2024 rotated` is a year).
    // A 2FA seed in base32 has a digit (2 to 7): words of four letters are a sentence
    // ("2FA: send code when user logs in"), one long word a name ("googleauthenticator").
    if kind == SecretKind::OtpSeed {
        return !value.chars().any(|c| ('2'..='7').contains(&c));
    }
    if kind == SecretKind::RecoveryCode {
        // A key's id or fingerprint is no key ("Recovery key ID: 5A3F0C21").
        let named = around.prefix.to_lowercase();
        if named
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| ["id", "identifier", "fingerprint", "hash"].contains(&w))
        {
            return true;
        }
        let alnum = value.chars().filter(char::is_ascii_alphanumeric).count();
        let digits = value.chars().filter(char::is_ascii_digit).count();
        return !(alnum >= 6 && (digits >= 3 || value.matches('-').count() >= 3));
    }
    if !matches!(kind, SecretKind::Password | SecretKind::ApiKey) {
        return false;
    }
    // A quoted value is a literal: whatever it holds is the value. In backticks, a
    // command with arguments is command substitution (`` `cat /run/secrets/pw` ``).
    let quoted = matches!(around.before, Some('"' | '\''));
    if around.before == Some('`') && value.contains(char::is_whitespace) {
        return true;
    }
    // A command's next flag is no value (`gh secret set DB_PASSWORD --body …`), and a quote
    // that closes the string the name was in opens none (`expect "password:"; send "…"`:
    // an even count of `"` before the value's).
    if !quoted && value.starts_with("--")
        || around.before == Some('"') && around.line.matches('"').count().is_multiple_of(2)
    {
        return true;
    }
    // A bracket that opens text in a script without spaces is the text's (`Sunflower42（不要…`).
    let next = around
        .after
        .chars()
        .next()
        .filter(|_| !around.after.chars().nth(1).is_some_and(shape::is_cjk));
    if (!quoted && code::is_code(value, next)) || code::is_path_or_link(value) || is_placeholder_words(&lower) {
        return true;
    }
    match kind {
        SecretKind::Password => is_no_password(value, &lower, bare, quoted, around),
        // A key mixes letters and digits; under a compound name assigned (`JWT_SECRET=`,
        // `client_secret:`) a long value of letters is one too, not an identifier of code.
        _ => {
            let digits = value.chars().any(|c| c.is_ascii_digit());
            let letters = value.chars().any(|c| c.is_alphabetic());
            let head = around.prefix.trim_end().trim_end_matches(['"', '\'', '`']).trim_end();
            let name = head
                .trim_end_matches([':', '=', '>'])
                .trim_end()
                .trim_end_matches(['"', '\'']);
            let parts = name_parts(
                name.rsplit(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                    .next()
                    .unwrap_or(""),
            );
            if parts.iter().any(|p| CURSOR_PARTS.contains(&p.as_str())) {
                return true;
            }
            // An OpenPGP fingerprint (40 hex digits in capitals) under "signing key", "archive
            // key": published; hex secrets are written in lower case.
            if value.len() == 40 && value.chars().all(|c| c.is_ascii_digit() || matches!(c, 'A'..='F')) {
                return true;
            }
            // An Ethereum address under a `token` name is the token's contract, public.
            if value.len() == 42 && value.starts_with("0x") && value[2..].chars().all(|c| c.is_ascii_hexdigit()) {
                return true;
            }
            // "GPG key A035…", "cache key 5d41…": said by a word that makes it no credential.
            let mut said = around.prefix.split_whitespace().map(str::to_lowercase);
            if let (Some(first), Some(second)) = (said.next(), said.next())
                && NOT_A_SECRET_KEY.contains(&first.as_str())
                && ["key", "api", "secret", "token"].iter().any(|k| second.starts_with(k))
            {
                return true;
            }
            let compound = parts.len() > 1;
            let assigned = head.ends_with([':', '=']) && compound;
            // Without a digit, one unbroken run of 20 letters or more (`mysupersecretjwtsigningkey`);
            // words joined by hyphens or dots name something (`my-release-postgresql`).
            let unbroken = value.chars().all(char::is_alphanumeric) && value.chars().count() >= 20;
            !letters || NOT_A_VALUE.contains(&bare) || !(digits || assigned && unbroken && !code::is_identifier(value))
        }
    }
}

/// Whether a value a password pattern caught is no password (see [`is_placeholder`]).
fn is_no_password(value: &str, lower: &str, bare: &str, quoted: bool, around: &Around<'_>) -> bool {
    // A label of several words (`new_password: Nouveau mot de passe`) is read whole.
    let words = around.after.chars().all(|c| c.is_alphabetic() || " -'’".contains(c));
    let whole = format!("{lower}{}", around.after.to_lowercase());
    // A plain word said in a sentence is read alone ("the wifi password is bluebird and the
    // router password is different").
    let sentence = around.form == Form::Said && plain_word::is_plain_word_password(value, around);
    if NOT_A_VALUE.contains(&bare) || is_label(lower) || !quoted && words && !sentence && is_label(whole.trim_end()) {
        return true;
    }
    if !quoted && CODE_KEYWORDS.contains(&bare) && !around.after.trim().is_empty() {
        return true;
    }
    // Validation rules (`'password' => 'required|string|min:8|confirmed'`), a column in SQL,
    // an example ("Dummy password: …").
    if shape::is_validation_rules(value)
        || !quoted && code::is_sql_column(value, around.line)
        || prose::shows_an_example(around, value)
    {
        return true;
    }
    // Compared in code, only a literal is a password (`if password == user_input:` is not);
    // a hash is what a login keeps, never the password (`pbkdf2_sha256$…`, a hex digest);
    // `$PWD` is the working directory.
    let head = around.prefix.trim_end();
    if !quoted && (head.ends_with("==") || head.ends_with("!=")) || shape::is_password_hash(value, around.line) {
        return true;
    }
    if prose::is_working_directory(around.prefix, around.line) {
        return true;
    }
    // A qualifier that describes the password, not what it is for: "Password (PBKDF2
    // iterations): 600000", "Password (SHA-256): …"; a Wi-Fi key's words go on about the
    // network ("Wi-Fi key: 5GHz band only").
    if prose::qualifier_describes(around.prefix)
        || prose::names_wifi_key(around.prefix) && !prose::ends_line(around.after) && !sentence
    {
        return true;
    }
    // A reference to where it is kept ("Password: Home-WiFi-5G entry in Bitwarden") and,
    // quoted, where it is written ("on the fridge").
    if prose::names_an_entry(around.after) || quoted && shape::is_location(lower) {
        return true;
    }
    // Beside the word, a number of six digits or more that ends its line is one ("password
    // 83920174"; not "password: 600000 iterations"); a trailing `!` after a label's colon is
    // the password's ("Password: letmein!").
    let label = around.prefix.trim_end().ends_with([':', '=']);
    let digits = |least| {
        shape::is_digit_password(value, least) && prose::ends_line(around.after) && !pins::is_no_pin(value, around)
    };
    let shaped = || {
        shape::looks_strong(value)
            || shape::is_app_password(value)
            || label && shape::looks_strong_as_written(value)
            || shape::app_password_tail(value, around.after) > 0
            || digits(6)
    };
    match around.form {
        Form::Pair => {
            // Another address is no password (`ana@acme.com / leo@acme.com`).
            return !shape::looks_strong(value)
                || !prose::ends_line(around.after)
                || shape::is_session_or_time(value)
                || value.contains('@');
        }
        Form::Auth => return !shape::is_basic_auth(value),
        Form::Phrase => return !shape::is_word_passphrase(value),
        Form::Pgpass if !shape::is_pgpass_line(around.prefix) => return !shaped(),
        // A plain word after `pass:` in a login ("user: pi, pass: strawberry").
        Form::Pass => return !is_a_pass(around) || !(shaped() || plain_word::in_a_login(value, around)),
        Form::Flag if !quoted => {
            let next = around.after.split_whitespace().next().unwrap_or("").to_lowercase();
            return FLAG_WORDS.contains(&next.as_str()) || !shaped();
        }
        _ => {}
    }
    // Beside the word, after a name that is an action (`UPDATE_PASSWORD=`), after `pwd`
    // (the command) or a `--password` that psql or mysql reads as a prompt: only what
    // looks like a password.
    let prefix = around.prefix.to_lowercase();
    if around.form == Form::Strict || names_an_action(around.prefix) || prefix.trim_start().starts_with("pwd") {
        // Set or said with a verb, a plain word ending the sentence is one too ("I set the
        // password to volcano", "changed it, it's now walrus").
        let plain = around.form == Form::Strict && plain_word::set_or_said(value, around);
        return !(shaped() || plain) || is_prompt_flag(around.line);
    }
    // In prose, only what looks like a password, or a plain word that ends the sentence and
    // is none said about a password ("the password is pineapple", not "… is funny").
    if around.form == Form::Said && !quoted && prose::said_as(around) == Said::Prose {
        return !(shape::is_password_shaped(value)
            || label && shape::looks_strong_as_written(value)
            || shape::app_password_tail(value, around.after) > 0
            || prose::names_wifi_key(around.prefix) && shape::is_digit_groups(value)
            || digits(4)
            || plain_word::is_plain_word_password(value, around));
    }
    // "The Password Is Courage": a title, not a sentence.
    let title = around.form == Form::Said && around.prefix.trim_end().ends_with(" Is");
    let key_prose = around.form == Form::Said
        && !quoted
        && !around.prefix.trim_end().ends_with('=')
        && prose::goes_on_with_words(value, around);
    title || NOT_A_PASSWORD.contains(&bare) || key_prose
}

/// The name a value is written after (`wifi_password` of `wifi_password: `, `DbPassword` of
/// `"DbPassword"=`): the last run of letters, digits, `_`, `.` and `-` before the `:` or
/// `=` and the quotes around it.
pub(super) fn assigned_name(prefix: &str) -> &str {
    prefix
        .trim_end()
        .trim_end_matches(['"', '\'', '`'])
        .trim_end()
        .trim_end_matches([':', '='])
        .trim_end()
        .trim_end_matches(['"', '\''])
        .rsplit(|c: char| !(c.is_alphanumeric() || "_.-".contains(c)))
        .next()
        .unwrap_or("")
}

/// Whether a `pass` or `pw` name names a password: a `pw` name, or `pass` alone (not a
/// compound such as `first_pass` or `e-pass`), not after a word that says which pass
/// (`Ski pass:`, `e2e pass:`; a field before it is no such word) unless it names a login
/// (`wifi pass:`), and not `PASS:` (a test's result) unless the line names a user or a
/// login.
fn is_a_pass(around: &Around<'_>) -> bool {
    let head = around.prefix.trim_end().trim_end_matches(['"', '\'']).trim_end();
    let name = assigned_name(around.prefix);
    let lower = name.to_lowercase();
    if lower.ends_with("pw") {
        return true;
    }
    if lower != "pass" {
        return false;
    }
    let before = around
        .line
        .len()
        .checked_sub(around.prefix.len())
        .and_then(|at| around.line.get(..at))
        .unwrap_or("")
        .trim_end();
    if before.ends_with(char::is_alphanumeric) && !before.contains([':', '=', '/']) {
        let word = before
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("")
            .to_lowercase();
        if !PASS_NAMES.contains(&word.as_str()) {
            return false;
        }
    }
    let line = format!("{}{}", around.line, around.after).to_lowercase();
    name != "PASS" || !head.ends_with(':') || line.contains("user") || line.contains("login")
}

/// Whether the line holds a command whose bare `--password` asks for it (psql, pg_dump,
/// mysql): what follows is its next argument, not a password.
fn is_prompt_flag(line: &str) -> bool {
    let lower = line.to_lowercase();
    lower.trim_end().ends_with("--password")
        && [
            "psql",
            "pg_dump",
            "pg_restore",
            "pg_dumpall",
            "createdb",
            "dropdb",
            "mysql",
            "mariadb",
        ]
        .iter()
        .any(|c| lower.split_whitespace().any(|w| w.rsplit('/').next() == Some(c)))
}

/// A placeholder made of words: `your-password-here`, `CHANGEME`, `<your_api_key>`.
fn is_placeholder_words(lower: &str) -> bool {
    let joined: String = lower.chars().filter(|c| c.is_alphanumeric()).collect();
    ["changeme", "changeit"].contains(&joined.as_str())
        || lower
            .split(|c: char| !c.is_alphanumeric())
            .any(|part| PLACEHOLDER_PARTS.contains(&part) || part.len() >= 3 && part.chars().all(|c| c == 'x'))
}

/// A label that names the password ("Forgot your password?", "New password",
/// "Password", "Mot de passe", "Пароль", "Palavra-passe"): a phrase holding the word
/// and no digit, or the word alone.
/// `Password123` and "Password 123!" are values; so is "passenger seat 42".
pub(super) fn is_label(lower: &str) -> bool {
    let word = lower.trim_matches(|c: char| !c.is_alphanumeric());
    PASSWORD_WORDS.contains(&word)
        || (!lower.chars().any(|c| c.is_ascii_digit())
            && lower
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| PASSWORD_WORDS.contains(&w)))
}

/// Whether a name (`forgot_password`, `confirmPassword`, `ADMIN_RESET_PASSWORD`) is an
/// action on a password, a label or a setting rather than the password, by its parts:
/// an action anywhere (`change_password`), a label after the word (`password_hint`).
/// `EXCHANGE_PASSWORD` is no change and `message_broker_password` no message.
pub(super) fn is_action_name(name: &str) -> bool {
    let parts = name_parts(name);
    let word = parts
        .iter()
        .position(|p| p.contains("pass") || p.contains("pwd"))
        .unwrap_or(parts.len());
    parts.iter().any(|p| ACTIONS.contains(&p.as_str()))
        || parts.iter().skip(word + 1).any(|p| LABELS.contains(&p.as_str()))
}

/// Whether the name a value is given to (the last name in `prefix`) is an action.
fn names_an_action(prefix: &str) -> bool {
    let name = prefix
        .split(|c: char| !(c.is_alphanumeric() || "_-.".contains(c)))
        .rfind(|part| {
            let lower = part.to_lowercase();
            lower.contains("pass") || lower.contains("pwd")
        })
        .unwrap_or("");
    is_action_name(name)
}

/// The span of a shell default in `value` (`${DB_PASS:-Tr0ub4dor3}`): the secret written
/// as a fallback.
pub(super) fn shell_default(value: &str) -> Option<std::ops::Range<usize>> {
    let rest = value.strip_prefix("${")?;
    let at = rest.find(":-")? + 2 + 2;
    let end = value[at..].find('}').map_or(value.len(), |i| at + i);
    (end > at && !value[at..].starts_with("[secret")).then_some(at..end)
}

/// How much of the end of a bare value is the text around it: a `)`, `]` or `}` it does
/// not open (`password=db_password)`, `{ password: x}`), and a sentence's full stop
/// after a value said in prose. Returns the value's length kept, in bytes.
pub(super) fn kept_len(value: &str, form: Form) -> usize {
    let mut kept = value;
    loop {
        let before = kept.len();
        for (open, close) in [('(', ')'), ('[', ']'), ('{', '}')] {
            if kept.ends_with(close) && kept.matches(open).count() < kept.matches(close).count() {
                kept = &kept[..kept.len() - 1];
            }
        }
        if form != Form::Named && kept.ends_with(['.', ',', ';', ':']) {
            kept = &kept[..kept.len() - 1];
        }
        // The closing quote of the string the value is written in (`putenv("DB_PASSWORD=…")`).
        for quote in ['"', '\''] {
            if kept.ends_with(quote) && kept.matches(quote).count() % 2 == 1 {
                kept = &kept[..kept.len() - 1];
            }
        }
        if kept.len() == before {
            return kept.len();
        }
    }
}

/// Whether a Markdown table's cell under a password or token column holds one: what
/// looks like a password by itself (`Sunflower42`, not `bcrypt`, `Argon2id`, `8–64`, `—`),
/// or a key of 16 characters or more with letters and digits.
pub(super) fn cell_holds_secret(kind: SecretKind, cell: &str) -> bool {
    let lower = cell.to_lowercase();
    if cell.is_empty()
        || cell.contains("[secret")
        || code::is_template(cell, "")
        || code::is_path_or_link(cell)
        || is_placeholder_words(&lower)
        || is_label(&lower)
    {
        return false;
    }
    match kind {
        SecretKind::Password => shape::is_password_shaped(cell),
        _ => {
            cell.chars().count() >= 16
                && cell.chars().any(|c| c.is_ascii_digit())
                && cell.chars().any(char::is_alphabetic)
                && !cell.contains(char::is_whitespace)
        }
    }
}

/// How many bytes of a bare value come before the next field of a connection string or
/// a query (`Sunflower42;Encrypt=true`, `Sunflower42&user=ana`, `Sunflower42,host=db`).
pub(super) fn before_next_field(value: &str) -> usize {
    for (i, c) in value.char_indices() {
        if matches!(c, ';' | '&' | ',') {
            let rest = &value[i + 1..];
            let name = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ' '))
                .map(|n| &rest[..n]);
            if name.is_some_and(|n| !n.trim().is_empty()) && rest[name.map_or(0, str::len)..].starts_with('=') {
                return i;
            }
        }
    }
    value.len()
}
