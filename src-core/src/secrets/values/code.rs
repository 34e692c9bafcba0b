//! Values that are written elsewhere: code (calls, indexes, dotted names, types, variables
//! named for a password), templates and variables, YAML tags, paths and links.

use super::words::{CODE_ROOTS, PASSWORD_PARTS, TYPE_NAMES};

/// `$VAR`, `${VAR}`, `<password>`, `{{ vault_password }}`, `{password}`, `%s`, `#{pass}`,
/// `<%= ENV[...] %>`, `$(command)`, `(see the vault)`, a YAML tag (`!vault |`, `!Ref
/// DBPassword`), a password's hash (`$2b$12$…`, `$argon2id$…`) and markers: a value
/// written elsewhere or kept as a hash. (`$uperman1987` is a value.)
pub(super) fn is_template(value: &str, after: &str) -> bool {
    let lower = value.to_lowercase();
    let variable = value.strip_prefix('$').is_some_and(|v| {
        v.starts_with('{')
            || (v.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && (v.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
                    || v.chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')))
    });
    let hash = crate::secrets::public::HASH_PREFIXES
        .iter()
        .any(|p| value.starts_with(p));
    variable
        || hash
        || value.starts_with("$(")
        || value.starts_with('`')
        || is_yaml_tag(value, after)
        || lower.starts_with("[secret")
        || lower.starts_with(['<', '{', '(', '['])
        || lower.starts_with("%s")
        || lower.starts_with("%(")
        || lower.starts_with("#{")
}

/// Whether a value stands inside a template (`{{ … }}`, `${ … }`) that its line opens
/// before it and closes after it: `!Sub '{{resolve:secretsmanager:MySecret:…}}'`. A
/// variable's default is a literal, no template (`${DB_PASSWORD:…}`, `${PW:-…}`, `${PW:=…}`).
pub(super) fn in_template(line: &str, after: &str) -> bool {
    let open = ["{{", "${"].iter().filter_map(|o| line.rfind(o)).max();
    open.is_some_and(|at| {
        let inside = &line[at..];
        let name = inside.strip_prefix("${").map(|rest| rest.trim_end_matches(['-', '=']));
        let default = name.is_some_and(|n| {
            n.strip_suffix(':')
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || "_.-".contains(c)))
        });
        !inside.contains('}') && !default
    }) && after.contains('}')
}

/// A YAML tag: `!vault |`, `!Ref DBPassword`, `!Sub '…'`, `!secret db_password`: the tag
/// names where the value comes from (a tag alone at the end of the line is a value).
fn is_yaml_tag(value: &str, after: &str) -> bool {
    let Some(tag) = value.strip_prefix('!').map(|t| t.trim_start_matches('!')) else {
        return false;
    };
    let name = tag.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '-' | '.'));
    name && (!after.trim().is_empty()
        || ["vault", "secret", "env", "ref", "sub"].contains(&tag.to_lowercase().as_str()))
}

/// A link or a path: `https://…`, `/etc/ssl/x.key`, `~/.pgpass`, `./db_password.txt`,
/// `src/app2` (lower-case segments: `Xk9/mQ2pLr8vT` is a value), or an AWS resource's
/// name (`arn:aws:secretsmanager:…`: where a secret is kept).
pub(super) fn is_path_or_link(value: &str) -> bool {
    value.contains("://")
        || value.starts_with("arn:aws:")
        || value.starts_with("arn:aws-")
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

fn ident(p: &str) -> bool {
    p.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The lower-case words of an identifier: `dbPassword` → `db`, `password`;
/// `REDIS_PASSWORD` → `redis`, `password`; `password_hash` → `password`, `hash`.
pub(in crate::secrets) fn name_parts(name: &str) -> Vec<String> {
    let mut parts = Vec::new();
    for piece in name.split(|c: char| !c.is_alphanumeric()) {
        let mut word = String::new();
        let mut prev_lower = false;
        for c in piece.chars() {
            if c.is_uppercase() && prev_lower && !word.is_empty() {
                parts.push(std::mem::take(&mut word));
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            word.extend(c.to_lowercase());
        }
        if !word.is_empty() {
            parts.push(word);
        }
    }
    parts
}

/// A variable named for a password (`db_password`, `dbPassword`, `REDIS_PASSWORD`,
/// `passwordHash`, `passphrase`): snake case, camel case starting lower-case, or a word
/// for a password alone. `Password123` and `MyPassword2024` are values.
fn names_a_password(value: &str) -> bool {
    if !ident(value) {
        return false;
    }
    let parts = name_parts(value);
    let named = parts.iter().any(|p| PASSWORD_PARTS.contains(&p.as_str()));
    let snake = value.contains('_');
    let camel = value.starts_with(|c: char| c.is_ascii_lowercase()) && value.chars().any(|c| c.is_ascii_uppercase());
    named && (snake || camel || parts.len() == 1 && value.chars().all(|c| c.is_ascii_lowercase()))
}

/// A type a field is declared with: `string`, `&str`, `Option<String>`, `Secret<String>`.
fn is_type(value: &str) -> bool {
    let lower = value.to_lowercase();
    if TYPE_NAMES.contains(&lower.as_str()) {
        return true;
    }
    value
        .split_once('<')
        .is_some_and(|(name, rest)| ident(name.trim_start_matches('&')) && rest.ends_with('>'))
}

/// Code, not a value: a call or an index (`getpass()`, `os.environ[`, `$_POST['x']`), a
/// type (`string`, `Option<String>`), a variable named for a password (`db_password`), or
/// a dotted name from code (`settings.OPENAI_API_KEY`, `user.password`, `e.target.value`,
/// `PropTypes.string`). `john.doe99` or `Welcome.Home1` are values.
pub(super) fn is_code(value: &str, next: Option<char>) -> bool {
    if matches!(next, Some('(' | '[')) || value.ends_with(['(', '[']) || is_type(value) || names_a_password(value) {
        return true;
    }
    // `name(…)` whole, or `name(` / `name[` opening a string or closing at once
    // (`input("Password: ")`, `os.environ["DB_PASSWORD"]`, `getpass()`, `$_POST['x']`).
    for open in ['(', '['] {
        if let Some((name, rest)) = value.split_once(open)
            && name
                .trim_start_matches('$')
                .split(['.', ':'])
                .all(|p| p.is_empty() || ident(p))
            && !name.trim_start_matches('$').is_empty()
            && (rest.ends_with([')', ']'])
                || rest.is_empty()
                || rest.starts_with(['"', '\'', ')', ']'])
                || next == Some(','))
        {
            return true;
        }
    }
    if value.starts_with('$') && value.contains("->") {
        return true;
    }
    let parts: Vec<&str> = value.trim_end_matches([';', ',']).split('.').collect();
    if parts.len() < 2 || !parts.iter().all(|p| ident(p)) {
        return false;
    }
    let last = parts[parts.len() - 1].to_lowercase();
    let wordy = |p: &&str| {
        p.contains('_')
            || (p.starts_with(|c: char| c.is_ascii_lowercase()) && p.chars().any(|c| c.is_ascii_uppercase()))
    };
    CODE_ROOTS.contains(&parts[0])
        || parts[1..]
            .iter()
            .any(|p| p.contains('_') && p.chars().all(|c| !c.is_ascii_lowercase()))
        || (!value.chars().any(|c| c.is_ascii_digit())
            && (parts.len() >= 3
                || PASSWORD_PARTS.contains(&last.as_str())
                || TYPE_NAMES.contains(&last.as_str())
                || ["value", "text", "input", "result", "secret", "key", "token"].contains(&last.as_str())
                || parts.iter().any(wordy)))
}

/// An identifier of code given as a key (`openai_api_key`, `clientSecretFromEnv`): snake
/// case of words in one case, or camel case of words of three letters or more, without a
/// digit (`secret_jBxQmKcYzWnLp…` is a token).
pub(super) fn is_identifier(value: &str) -> bool {
    if !ident(value) || value.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    if value.contains('_') {
        return value
            .split('_')
            .all(|p| !p.chars().any(|c| c.is_ascii_lowercase()) || !p.chars().any(|c| c.is_ascii_uppercase()));
    }
    let parts = name_parts(value);
    value.starts_with(|c: char| c.is_ascii_lowercase())
        && (2..=6).contains(&parts.len())
        && parts.iter().all(|p| p.len() >= 3)
}

/// Whether a value is a table's column in an SQL statement (`WHERE u.password = p.hash`).
pub(super) fn is_sql_column(value: &str, line: &str) -> bool {
    let lower = line.to_lowercase();
    let sql = lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| ["where", "select", "join", "and", "set", "on"].contains(&w));
    let parts: Vec<&str> = value.split('.').collect();
    sql && parts.len() == 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
}
