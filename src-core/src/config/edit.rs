//! Writing one setting into a store's `haema.toml`, keeping the rest of the file (comments,
//! order, other settings) as it was: what `haema config set` and the desktop's settings do.

use std::path::Path;

use toml_edit::{DocumentMut, Item, Table, value};

use super::registry::as_written;
use super::{ReadBy, SettingFile, SettingSpec, Settings};
use crate::error::{Error, Result};

impl Settings {
    /// Writes `name = value` into the store's `haema.toml` (`None` removes the line, so
    /// the default applies again), after checking the value as the loader would read it.
    /// The file is replaced whole and at once, so a failure leaves it as it was.
    ///
    /// API keys are refused: they go to the OS keyring ([`crate::keys`]).
    ///
    /// ```
    /// use haema_core::{ReviewPolicy, Settings};
    /// let store = tempfile::tempdir()?;
    /// std::fs::write(Settings::file_path(store.path()), "# mine\nreview = \"auto\"\n")?;
    /// Settings::write_setting(store.path(), "review", Some("review"))?;
    /// Settings::write_setting(store.path(), "merge.distance_cutoff", Some("0.3"))?;
    /// Settings::write_setting(store.path(), "llm.model", Some("llama3.1:8b"))?;
    /// let text = std::fs::read_to_string(Settings::file_path(store.path()))?;
    /// assert!(text.starts_with("# mine\nreview = \"review\"\n"));
    /// let settings = Settings::load_with_env(store.path(), |_| None)?;
    /// assert_eq!(settings.review, ReviewPolicy::Review);
    /// assert_eq!(settings.merge.distance_cutoff, 0.3);
    /// assert!(Settings::write_setting(store.path(), "merge.top_k", Some("many")).is_err());
    /// assert!(Settings::write_setting(store.path(), "llm.api_key", Some("sk-x")).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an unknown setting, one no store file holds, or a
    /// value that is not valid; [`Error::Io`] when the file cannot be read or written.
    pub fn write_setting(store: &Path, name: &str, new: Option<&str>) -> Result<()> {
        Self::write_settings(store, &[(name, new)])
    }

    /// [`Settings::write_setting`] for several settings at once: all of them are written,
    /// in one replacement of the file, or none.
    ///
    /// # Errors
    /// As [`Settings::write_setting`], for the first setting that cannot be written.
    pub fn write_settings(store: &Path, changes: &[(&str, Option<&str>)]) -> Result<()> {
        let path = Self::file_path(store);
        let text = super::read_optional(&path)?.unwrap_or_default();
        let mut doc: DocumentMut = text
            .parse()
            .map_err(|e| Error::Config(format!("{}: {e}", path.display())))?;
        for (name, new) in changes {
            doc = with_change(doc, writable(name)?, *new)?;
        }
        crate::store::files::write_atomically(&path, &doc.to_string())
    }
}

/// `doc` with one setting set to `new` (or removed), checked as the loader reads it.
fn with_change(doc: DocumentMut, spec: &SettingSpec, new: Option<&str>) -> Result<DocumentMut> {
    let Some(raw) = new else {
        let mut doc = doc;
        remove(&mut doc, spec.name);
        return Ok(doc);
    };
    if let Some(set) = spec.set {
        set(&mut Settings::default(), raw)
            .map_err(|e| Error::InvalidArgument(format!("{} = {raw:?} is not valid: {e}", spec.name)))?;
    }
    candidates(raw.trim())
        .into_iter()
        .map(|item| {
            let mut doc = doc.clone();
            insert(&mut doc, spec.name, item);
            doc
        })
        .find(|doc| Settings::from_toml(&doc.to_string()).is_ok_and(|s| s.validate().is_ok()))
        .ok_or_else(|| {
            let allowed = if spec.allowed.is_empty() {
                String::new()
            } else {
                format!("; use one of {}", spec.allowed.join(", "))
            };
            Error::InvalidArgument(format!("{} = {raw:?} is not valid{allowed}", spec.name))
        })
}

/// The declaration of a setting a store's file may hold.
fn writable(name: &str) -> Result<&'static SettingSpec> {
    let spec = SettingSpec::named(name.trim()).ok_or_else(|| Error::UnknownSetting(name.trim().to_owned()))?;
    match (spec.file, spec.read_by) {
        (Some(SettingFile::Store), ReadBy::Settings) => Ok(spec),
        (Some(SettingFile::User), _) => Err(Error::InvalidArgument(format!(
            "{} belongs in your own config.toml, not in a store's settings",
            as_written(spec.name)
        ))),
        _ if spec.name.ends_with("api_key") => Err(Error::InvalidArgument(format!(
            "{} is never written to a file: keys are kept in the system keyring or read from {}",
            spec.name,
            spec.env.unwrap_or_default()
        ))),
        _ => Err(Error::InvalidArgument(format!(
            "{} cannot be written in a store's settings; it is set by {}",
            spec.name,
            spec.env.unwrap_or("the command line")
        ))),
    }
}

/// The TOML values `raw` may be meant as, most specific first: a true/false, a whole
/// number, a number, then text. The first the settings accept is written.
fn candidates(raw: &str) -> Vec<Item> {
    let mut items = Vec::new();
    if let Ok(b) = raw.parse::<bool>() {
        items.push(value(b));
    }
    if let Ok(i) = raw.parse::<i64>() {
        items.push(value(i));
    }
    if let Ok(f) = raw
        .parse::<f64>()
        .map_err(|_| ())
        .and_then(|f| if f.is_finite() { Ok(f) } else { Err(()) })
    {
        items.push(value(f));
    }
    items.push(value(raw));
    items
}

/// Sets the dotted `name` to `item`, making the tables on the way.
fn insert(doc: &mut DocumentMut, name: &str, item: Item) {
    let mut parts: Vec<&str> = name.split('.').collect();
    let Some(leaf) = parts.pop() else { return };
    let mut table: &mut Table = doc.as_table_mut();
    for part in parts {
        if !table.get(part).is_some_and(Item::is_table) {
            table.insert(part, Item::Table(Table::new()));
        }
        let Some(next) = table.get_mut(part).and_then(Item::as_table_mut) else {
            return;
        };
        table = next;
    }
    match table.get_mut(leaf) {
        // Replacing the value in place keeps the key, the comment above it and the one after.
        Some(existing) => {
            let decor = existing.as_value().map(|v| v.decor().clone());
            *existing = item;
            if let (Some(decor), Some(v)) = (decor, existing.as_value_mut()) {
                *v.decor_mut() = decor;
            }
        }
        None => {
            table.insert(leaf, item);
        }
    }
}

/// Removes the dotted `name`, and a table it leaves empty.
fn remove(doc: &mut DocumentMut, name: &str) {
    match name.split_once('.') {
        None => {
            doc.remove(name);
        }
        Some((section, leaf)) => {
            let now_empty = doc.get_mut(section).and_then(Item::as_table_like_mut).is_some_and(|t| {
                t.remove(leaf);
                t.is_empty()
            });
            if now_empty {
                doc.remove(section);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store_with(text: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(Settings::file_path(dir.path()), text).unwrap();
        dir
    }

    fn file(dir: &tempfile::TempDir) -> String {
        std::fs::read_to_string(Settings::file_path(dir.path())).unwrap()
    }

    #[test]
    fn a_setting_lands_in_its_table_and_the_rest_stays() {
        let dir = store_with("# my settings\n[llm]\n# which model\nmodel = \"a\"\n\n[merge]\ntop_k = 5\n");
        Settings::write_setting(dir.path(), "llm.provider", Some("openai")).unwrap();
        Settings::write_setting(dir.path(), "llm.base_url", Some("http://127.0.0.1:11434/v1")).unwrap();
        Settings::write_setting(dir.path(), "embedder.on_add", Some("later")).unwrap();
        let text = file(&dir);
        assert!(text.contains("# which model\nmodel = \"a\""), "{text}");
        assert!(text.contains("top_k = 5"), "{text}");
        let s = Settings::load_with_env(dir.path(), |_| None).unwrap();
        assert_eq!(s.llm.base_url.as_deref(), Some("http://127.0.0.1:11434/v1"));
        assert_eq!(s.embedder.on_add, super::super::EmbedOnAdd::Later);
    }

    #[test]
    fn text_that_looks_like_a_number_stays_text_where_text_is_meant() {
        let dir = store_with("");
        Settings::write_setting(dir.path(), "llm.model", Some("4")).unwrap();
        Settings::write_setting(dir.path(), "merge.top_k", Some("4")).unwrap();
        Settings::write_setting(dir.path(), "merge.distance_cutoff", Some("1")).unwrap();
        let s = Settings::load_with_env(dir.path(), |_| None).unwrap();
        assert_eq!((s.llm.model.as_deref(), s.merge.top_k), (Some("4"), 4));
        assert!((s.merge.distance_cutoff - 1.0).abs() < 1e-6);
    }

    #[test]
    fn removing_a_setting_brings_the_default_back_and_drops_an_empty_table() {
        let dir = store_with("review = \"auto\"\n[llm]\nmodel = \"x\"\n");
        Settings::write_setting(dir.path(), "llm.model", None).unwrap();
        Settings::write_setting(dir.path(), "review", None).unwrap();
        assert_eq!(file(&dir).trim(), "");
        assert_eq!(
            Settings::load_with_env(dir.path(), |_| None).unwrap(),
            Settings::default()
        );
    }

    #[test]
    fn what_cannot_be_written_is_refused_and_the_file_is_untouched() {
        let dir = store_with("review = \"auto\"\n");
        for (name, value) in [
            ("review", "sometimes"),
            ("merge.top_k", "0"),
            ("merge.top_k", "-3"),
            ("merge.distance_cutoff", "NaN"),
            ("llm.api_key", "sk-abc"),
            ("embedder.api_key", "sk-abc"),
            ("tui.mouse", "false"),
            ("store", "/tmp/x"),
            ("no.such", "1"),
        ] {
            let e = Settings::write_setting(dir.path(), name, Some(value)).unwrap_err();
            assert!(
                e.is_usage() && e.kind() == crate::error::ErrorKind::InvalidArgument,
                "{name}: {e}"
            );
            assert!(!e.to_string().contains("sk-abc"), "{e}");
        }
        assert_eq!(file(&dir), "review = \"auto\"\n");
        let broken = store_with("review = \n");
        assert!(Settings::write_setting(broken.path(), "review", Some("auto")).is_err());
        assert_eq!(file(&broken), "review = \n");
    }

    #[test]
    fn several_settings_land_together_or_not_at_all() {
        let dir = store_with("review = \"auto\"\n");
        let bad = [("llm.provider", Some("openai")), ("merge.top_k", Some("none"))];
        assert!(Settings::write_settings(dir.path(), &bad).is_err());
        assert_eq!(file(&dir), "review = \"auto\"\n");
        let good = [
            ("llm.provider", Some("openai")),
            ("llm.model", Some("llama3.1")),
            ("review", None),
        ];
        Settings::write_settings(dir.path(), &good).unwrap();
        assert_eq!(file(&dir), "[llm]\nprovider = \"openai\"\nmodel = \"llama3.1\"\n");
    }

    #[test]
    fn a_store_without_a_file_gets_one() {
        let dir = tempfile::tempdir().unwrap();
        Settings::write_setting(dir.path(), "review", Some("review")).unwrap();
        assert_eq!(file(&dir), "review = \"review\"\n");
    }
}
