//! Passwords in Markdown tables: a cell of a data row under a header column named for a
//! password or a token (`| Service | User | Password |`, then `| db | ana | Sunflower42 |`),
//! or the cell after one that names a password (`| DB_PASSWORD | Sunflower42 |`). Only what
//! looks like a password by itself: a header, a separator row, `bcrypt`, `Masked`, `8–64`,
//! `—` or "in 1Password" is no value.

use std::ops::Range;

use crate::secrets::values::{cell_holds_secret, name_parts};
use crate::secrets::{SecretFinding, SecretKind};

/// The header names of a column of passwords or tokens.
const SECRET_COLUMNS: &[(&str, SecretKind)] = &[
    ("password", SecretKind::Password),
    ("passwd", SecretKind::Password),
    ("pass", SecretKind::Password),
    ("pwd", SecretKind::Password),
    ("passphrase", SecretKind::Password),
    ("passwort", SecretKind::Password),
    ("kennwort", SecretKind::Password),
    ("contraseña", SecretKind::Password),
    ("senha", SecretKind::Password),
    ("wachtwoord", SecretKind::Password),
    ("пароль", SecretKind::Password),
    ("secret", SecretKind::ApiKey),
    ("token", SecretKind::ApiKey),
    // An authenticator's seed (a password manager's `login_totp` column).
    ("totp", SecretKind::ApiKey),
    ("otp", SecretKind::ApiKey),
];

/// The cells of a table row, each its range in the text (spaces and a pair of backticks
/// around it left out).
fn cells(text: &str, start: usize) -> Vec<Range<usize>> {
    let line = &text[start..];
    let Some(open) = line.find('|') else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut at = open + 1;
    while let Some(len) = line[at..].find('|') {
        let raw = &line[at..at + len];
        let lead = raw.len() - raw.trim_start().len();
        // A cell of spaces only is empty where it starts.
        let end = raw.trim_end().len();
        let mut cell = start + at + lead.min(end)..start + at + end;
        let inner = &text[cell.clone()];
        if inner.len() >= 2 && inner.starts_with('`') && inner.ends_with('`') {
            cell = cell.start + 1..cell.end - 1;
        }
        out.push(cell);
        at += len + 1;
    }
    out
}

/// What a header cell names: a column of passwords or tokens, or nothing.
pub(super) fn column_kind(name: &str) -> Option<SecretKind> {
    let name = name.trim_matches(|c: char| c == '*' || c == '`' || c == '_' || c.is_whitespace());
    let lower = name.to_lowercase();
    let parts = name_parts(&lower);
    let last = parts.last().map(String::as_str);
    SECRET_COLUMNS
        .iter()
        .find(|(word, _)| lower == *word || last == Some(*word))
        .map(|(_, kind)| *kind)
}

/// Whether a cell names a password (`DB_PASSWORD`, `password`, `**Password**`).
fn names_a_password(name: &str) -> bool {
    let name = name.trim_matches(|c: char| c == '*' || c == '`' || c.is_whitespace());
    let lower = name.to_lowercase();
    name.chars().all(|c| c.is_alphanumeric() || "_.-".contains(c))
        && ["password", "passwd", "pwd", "passphrase"]
            .iter()
            .any(|w| lower.ends_with(w))
}

/// Whether every cell of a row is a separator (`---`, `:--:`).
fn is_separator(text: &str, row: &[Range<usize>]) -> bool {
    !row.is_empty()
        && row.iter().all(|c| {
            let cell = text[c.clone()].trim();
            cell.contains('-') && cell.chars().all(|c| c == '-' || c == ':')
        })
}

/// The passwords and tokens in the Markdown tables of `text`.
pub(in crate::secrets) fn table_secrets(text: &str) -> Vec<SecretFinding> {
    let mut found = Vec::new();
    let mut rows: Vec<Vec<Range<usize>>> = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if body.trim_start().starts_with('|') && body.trim_end().ends_with('|') && body.trim().len() > 1 {
            rows.push(cells(&text[..start + body.len()], start));
        } else {
            scan(text, &rows, &mut found);
            rows.clear();
        }
        start += line.len();
    }
    scan(text, &rows, &mut found);
    found
}

/// One table's secrets: its data rows under a password column, and the cell after one
/// that names a password.
fn scan(text: &str, rows: &[Vec<Range<usize>>], found: &mut Vec<SecretFinding>) {
    let headed = rows.len() >= 2 && is_separator(text, &rows[1]);
    let columns: Vec<Option<SecretKind>> = if headed {
        rows[0].iter().map(|c| column_kind(&text[c.clone()])).collect()
    } else {
        Vec::new()
    };
    let data = if headed { &rows[2..] } else { rows };
    for row in data {
        if is_separator(text, row) {
            continue;
        }
        for (i, cell) in row.iter().enumerate() {
            let kind = columns
                .get(i)
                .copied()
                .flatten()
                .or_else(|| (i > 0 && names_a_password(&text[row[i - 1].clone()])).then_some(SecretKind::Password));
            if let Some(kind) = kind
                && cell_holds_secret(kind, &text[cell.clone()])
            {
                found.push(SecretFinding {
                    kind,
                    span: cell.clone(),
                });
            }
        }
    }
}
