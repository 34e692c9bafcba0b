//! The window's TypeScript: every command's wrapper, every event and every type they carry,
//! generated from the Rust types by `tauri-specta` into `ui/src/bindings.ts`. A test fails
//! when the file is out of date; `HAEMA_WRITE_BINDINGS=1 cargo test -p haema-desktop
//! bindings` writes it again.

use std::path::{Path, PathBuf};

/// Where the generated file lives in the repository.
pub fn path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/bindings.ts")
}

/// The generated TypeScript, as it should be.
///
/// # Errors
/// The types cannot be expressed in TypeScript, or the temporary file fails.
pub fn typescript() -> Result<String, String> {
    let dir = tempfile_dir()?;
    let file = dir.join("bindings.ts");
    let exporter = specta_typescript::Typescript::default().header(HEADER);
    crate::specta_builder()
        .export(exporter, &file)
        .map_err(|e| format!("cannot generate the TypeScript bindings: {e}"))?;
    let text = std::fs::read_to_string(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(text)
}

const HEADER: &str = "// Generated from the Rust types by tauri-specta (src-tauri/src/bindings.rs); do not edit.\n// Regenerate: HAEMA_WRITE_BINDINGS=1 cargo test -p haema-desktop bindings";

fn tempfile_dir() -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!(
        "haema-bindings-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_ts_is_up_to_date() {
        let wanted = typescript().unwrap();
        let path = path();
        if std::env::var_os("HAEMA_WRITE_BINDINGS").is_some() {
            std::fs::write(&path, &wanted).unwrap();
            return;
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == wanted,
            "{} is out of date with the Rust types; run `HAEMA_WRITE_BINDINGS=1 cargo test -p haema-desktop bindings` and commit it",
            path.display()
        );
    }

    #[test]
    fn every_command_has_its_permission_and_its_wrapper() {
        let text = typescript().unwrap();
        for name in crate::command_names::COMMANDS {
            assert!(
                text.contains(&format!("invoke(\"{name}\"")) || text.contains(&format!("\"{name}\"")),
                "command {name} has a permission but no generated wrapper"
            );
        }
    }
}
