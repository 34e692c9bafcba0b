//! The configuration table and `toml` examples of the docs (`docs/configuration.md`, and the
//! `config.toml` of `docs/tui.md`) against the settings registry
//! (`haema_core::config::SETTINGS`) and the real loader, and the code against the registry:
//! no `HAEMA_*` variable is read that the registry does not declare.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use haema_core::Settings;
use haema_core::config::{SETTINGS, SettingFile, dotted_leaves};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A page of `docs/`.
fn page(name: &str) -> String {
    std::fs::read_to_string(repo().join("docs").join(name)).unwrap_or_else(|e| panic!("docs/{name}: {e}"))
}

/// The first ```toml block of a text.
fn first_toml_block(text: &str) -> String {
    let start = text.find("```toml\n").expect("a ```toml block") + "```toml\n".len();
    let end = start + text[start..].find("\n```").expect("the block ends");
    text[start..=end].to_owned()
}

/// A cell without its markdown backticks; `None` for `—`.
fn cell(text: &str) -> Option<String> {
    let text = text.trim().replace('`', "");
    (text != "—").then_some(text)
}

/// One row of the settings table: setting, file, variable, default, and the whole row.
struct Row {
    name: String,
    file: Option<String>,
    env: Option<String>,
    default: String,
    meaning: String,
}

fn table_rows() -> Vec<Row> {
    let text = page("configuration.md");
    let header = "| setting | file | variable | default | values and meaning |";
    let start = text.find(header).expect("the settings table in docs/configuration.md");
    text[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
            assert_eq!(cells.len(), 5, "five cells: {line}");
            Row {
                name: cell(cells[0]).expect("a setting name"),
                file: cell(cells[1]),
                env: cell(cells[2]),
                default: cell(cells[3]).expect("a default"),
                meaning: cells[4].to_owned(),
            }
        })
        .collect()
}

fn file_name(file: Option<SettingFile>) -> Option<String> {
    file.map(|f| {
        match f {
            SettingFile::Store => "haema.toml",
            SettingFile::User => "config.toml",
        }
        .to_owned()
    })
}

#[test]
fn the_docs_table_is_the_registry() {
    let rows = table_rows();
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    let declared: Vec<&str> = SETTINGS.iter().map(|s| s.name).collect();
    assert_eq!(
        names, declared,
        "the table's rows are the registry's settings, in its order"
    );
    for (row, spec) in rows.iter().zip(SETTINGS) {
        assert_eq!(row.file, file_name(spec.file), "{}: file", spec.name);
        assert_eq!(row.env.as_deref(), spec.env, "{}: variable", spec.name);
        assert_eq!(row.default, spec.default, "{}: default", spec.name);
        for value in spec.allowed {
            assert!(
                row.meaning.contains(&format!("`{value}`")),
                "{}: the table names the allowed value `{value}`",
                spec.name
            );
        }
    }
}

/// Every leaf of `shown` has the same value in `loaded`.
fn assert_gives(shown: &toml::Table, loaded: &Settings) {
    let loaded = toml::Table::try_from(loaded).unwrap();
    let got = dotted_leaves(&loaded);
    for (key, value) in dotted_leaves(shown) {
        let found = got.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
        assert_eq!(found, Some(value), "{key}: the loaded value is the one the docs show");
    }
}

#[test]
fn the_docs_haema_toml_loads_and_gives_its_values() {
    let example = first_toml_block(&page("configuration.md"));
    let store = tempfile::tempdir().unwrap();
    std::fs::write(Settings::file_path(store.path()), &example).unwrap();
    let settings = Settings::load_with_env(store.path(), |_| None).unwrap();
    let shown: toml::Table = example.parse().unwrap();
    assert_gives(&shown, &settings);
    let keys = dotted_leaves(&shown);
    for spec in SETTINGS.iter().filter(|s| s.file == Some(SettingFile::Store)) {
        assert!(
            keys.iter().any(|(k, _)| k == spec.name),
            "the haema.toml of docs/configuration.md shows `{}`",
            spec.name
        );
    }
}

#[test]
fn the_docs_config_toml_loads_and_gives_its_values() {
    let example = first_toml_block(&page("tui.md"));
    let (store, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let user = home.path().join("config.toml");
    std::fs::write(&user, &example).unwrap();
    let settings = Settings::load_with(store.path(), Some(&user), |_| None).unwrap();
    let mut shown: toml::Table = example.parse().unwrap();
    // `store` is the front ends' (which store), not a store's setting.
    let named = shown.remove("store").and_then(|v| v.as_str().map(str::to_owned));
    assert_gives(&shown, &settings);
    let chosen = haema_core::store_in_user_file(&user).unwrap();
    let expected = named.map(|n| haema_core::store_dir_for(Path::new(&n)).unwrap());
    assert_eq!(chosen, expected, "the `store` line of docs/tui.md names that store");
    assert!(settings.tui.keys.contains_key("approve"), "the user file was read");
    for spec in SETTINGS.iter().filter(|s| s.file == Some(SettingFile::User)) {
        assert!(
            example.contains(spec.name.rsplit('.').next().unwrap_or_default()),
            "{}",
            spec.name
        );
    }
}

/// `HAEMA_*` names in the Rust sources under a folder (not the `HAEMA_BENCH_*` of benches,
/// nor prefixes such as `HAEMA_EMBED_` in prose).
fn haema_variables(dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            haema_variables(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut rest = text.as_str();
            while let Some(at) = rest.find("HAEMA_") {
                let name: String = rest[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                rest = &rest[at + name.len()..];
                // Bench sizes and the developer's switch that rewrites the generated TypeScript
                // (docs/architecture.md) are not settings of the product.
                let developers = name.starts_with("HAEMA_BENCH_") || name == "HAEMA_WRITE_BINDINGS";
                if !name.ends_with('_') && !developers {
                    out.push((name, path.clone()));
                }
            }
        }
    }
}

#[test]
fn every_haema_variable_in_the_code_is_declared() {
    let mut found = Vec::new();
    for dir in ["src-core/src", "src-tui/src", "src-tauri/src"] {
        haema_variables(&repo().join(dir), &mut found);
    }
    assert!(
        found.iter().any(|(name, _)| name == "HAEMA_EMBED_DIMS"),
        "the scan finds names"
    );
    for (name, path) in found {
        assert!(
            SETTINGS.iter().any(|s| s.env == Some(name.as_str())),
            "{name} (in {}) is not declared in haema_core::config::SETTINGS",
            path.display()
        );
    }
}
