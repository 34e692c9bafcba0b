//! Passwords in comma- or tab-separated exports (a password manager's CSV, a sheet pasted
//! as TSV): a header line of short names with a column named for a password or a token
//! (`name,url,username,password`), then rows with as many fields; the fields of that
//! column that look like a password by themselves ([`cell_holds_secret`]) are secrets.

use std::ops::Range;

use super::tables::column_kind;
use crate::secrets::values::cell_holds_secret;
use crate::secrets::{SecretFinding, SecretKind};

/// The fields of a line split at `delimiter`, each its range in the text (a field in
/// double quotes may hold the delimiter; the quotes are left out).
fn fields(text: &str, line: Range<usize>, delimiter: char) -> Vec<Range<usize>> {
    let body = &text[line.clone()];
    let mut out = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (at, c) in body.char_indices() {
        match c {
            '"' => quoted = !quoted,
            c if c == delimiter && !quoted => {
                out.push(trimmed(body, start..at, line.start));
                start = at + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(trimmed(body, start..body.len(), line.start));
    out
}

/// `range` of `body` without the spaces and the pair of double quotes around it, moved by
/// `offset`.
fn trimmed(body: &str, range: Range<usize>, offset: usize) -> Range<usize> {
    let raw = &body[range.clone()];
    let lead = raw.len() - raw.trim_start().len();
    // A field of spaces only is empty where it starts.
    let mut cell = range.start + lead.min(raw.trim_end().len())..range.start + raw.trim_end().len();
    let inner = &body[cell.clone()];
    if inner.len() >= 2 && inner.starts_with('"') && inner.ends_with('"') {
        cell = cell.start + 1..cell.end - 1;
    }
    cell.start + offset..cell.end + offset
}

/// Whether a header field is a column name: short, letters, digits, spaces, `_`, `-`, `.`.
fn is_name(field: &str) -> bool {
    !field.is_empty() && field.chars().count() <= 30 && field.chars().all(|c| c.is_alphanumeric() || " _-.".contains(c))
}

/// The passwords and tokens in the comma- or tab-separated tables of `text`.
pub(in crate::secrets) fn delimited_secrets(text: &str) -> Vec<SecretFinding> {
    let mut lines = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        lines.push(start..start + body.len());
        start += line.len();
    }
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let header_line = &text[lines[i].clone()];
        let delimiter = if header_line.contains('\t') { '\t' } else { ',' };
        let header = fields(text, lines[i].clone(), delimiter);
        if header.len() < 2 || !header.iter().all(|f| is_name(&text[f.clone()])) {
            i += 1;
            continue;
        }
        let columns: Vec<Option<SecretKind>> = header.iter().map(|f| column_kind(&text[f.clone()])).collect();
        if columns.iter().all(Option::is_none) {
            i += 1;
            continue;
        }
        let mut row = i + 1;
        while let Some(line) = lines.get(row) {
            let values = fields(text, line.clone(), delimiter);
            if values.len() != header.len() {
                break;
            }
            for (value, kind) in values.iter().zip(&columns) {
                if let Some(kind) = *kind
                    && cell_holds_secret(kind, &text[value.clone()])
                {
                    found.push(SecretFinding {
                        kind,
                        span: value.clone(),
                    });
                }
            }
            row += 1;
        }
        i = row.max(i + 1);
    }
    found
}
