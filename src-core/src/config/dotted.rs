//! Dotted setting names (`llm.model`) and the TOML tables they address: looking a setting
//! up, listing what a file sets, and naming where a setting is set for messages.

use super::registry::SettingSpec;

/// The value at a dotted key (`llm.model`) of a TOML table.
pub(crate) fn lookup<'t>(table: &'t toml::Table, dotted: &str) -> Option<&'t toml::Value> {
    let (tables, leaf) = dotted.rsplit_once('.').unwrap_or(("", dotted));
    let mut at = table;
    for part in tables.split('.').filter(|p| !p.is_empty()) {
        at = at.get(part)?.as_table()?;
    }
    at.get(leaf)
}

/// What a settings table (a parsed `haema.toml` or `config.toml`, or [`Settings`](super::Settings) written
/// as TOML) sets: the dotted name and value of each of its leaves, in the table's order.
/// The walk stops at a declared setting, so one whose value is a table (`tui.keys`) is one
/// leaf however many entries it holds. Keys no setting declares are listed too: this reads,
/// it does not check.
pub fn dotted_leaves(table: &toml::Table) -> Vec<(String, &toml::Value)> {
    fn walk<'t>(table: &'t toml::Table, prefix: &str, out: &mut Vec<(String, &'t toml::Value)>) {
        for (key, value) in table {
            let dotted = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            match value {
                toml::Value::Table(inner) if SettingSpec::named(&dotted).is_none() => walk(inner, &dotted, out),
                _ => out.push((dotted, value)),
            }
        }
    }
    let mut out = Vec::new();
    walk(table, "", &mut out);
    out
}

/// A dotted key as a file spells it: `[embedder] dims`, or `review`.
pub(crate) fn as_written(dotted: &str) -> String {
    match dotted.rsplit_once('.') {
        Some((table, key)) => format!("[{table}] {key}"),
        None => dotted.to_owned(),
    }
}

/// The environment variable of a declared setting (empty when it has none).
pub(crate) fn env_of(name: &str) -> &'static str {
    SettingSpec::named(name).and_then(|s| s.env).unwrap_or_default()
}

/// Where a declared setting is set, for messages: `HAEMA_EMBED_DIMS / [embedder] dims`.
pub(crate) fn origin(name: &str) -> String {
    let Some(spec) = SettingSpec::named(name) else {
        return name.to_owned();
    };
    let places: Vec<String> = spec
        .env
        .map(str::to_owned)
        .into_iter()
        .chain(spec.file_key().map(as_written))
        .collect();
    places.join(" / ")
}
