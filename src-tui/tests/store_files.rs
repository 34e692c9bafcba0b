//! The store's files through the real binary: yours alone (0700 folder, 0600 files, tightened
//! on open with a note), exports written privately and never into the store, and a store
//! whose database went missing or empty refused instead of silently started afresh.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::path::Path;

use common::*;

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn latest(store: &Path) -> Vec<String> {
    contents(&json_of(&haema(store, &[], &["latest", "--json"], None)))
}

#[cfg(unix)]
#[test]
fn a_store_is_its_owners_alone_and_an_old_one_is_tightened_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    ok(&haema(
        &store,
        &[],
        &["add", "--items", "The user's address is 12 Elm Street"],
        None,
    ));
    assert_eq!(mode(&store), 0o700);
    for entry in std::fs::read_dir(&store).unwrap().flatten() {
        assert_eq!(mode(&entry.path()), 0o600, "{}", entry.path().display());
    }

    // A store made by an earlier haema, or copied with loose modes.
    set_mode(&store, 0o755);
    for entry in std::fs::read_dir(&store).unwrap().flatten() {
        set_mode(&entry.path(), 0o644);
    }
    let out = haema(&store, &[], &["latest"], None);
    assert!(out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("now yours alone (700)") && err.contains("memory.db"),
        "{err}"
    );
    assert_eq!(mode(&store), 0o700);
    for entry in std::fs::read_dir(&store).unwrap().flatten() {
        assert_eq!(mode(&entry.path()), 0o600, "{}", entry.path().display());
    }
    let again = haema(&store, &[], &["latest"], None);
    assert!(!stderr(&again).contains("yours alone"), "said once: {}", stderr(&again));
}

#[test]
fn an_export_is_private_and_never_written_into_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    ok(&haema(
        &store,
        &[],
        &["add", "--items", "The user plays the cello"],
        None,
    ));
    let inside = [
        store.join("memory.db"),
        store.join("core.md"),
        dir.path().join("s/../s/memory.db"),
        store.join("memory.db-wal"),
        store.join("haema.toml"),
    ];
    for target in &inside {
        let out = haema(&store, &[], &["export", "-o", target.to_str().unwrap()], None);
        assert!(!out.status.success(), "{}", target.display());
        assert!(stderr(&out).contains("a file of the store"), "{}", stderr(&out));
    }
    #[cfg(unix)]
    {
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(store.join("memory.db"), &link).unwrap();
        let out = haema(&store, &[], &["export", "-o", link.to_str().unwrap()], None);
        assert!(stderr(&out).contains("a file of the store"), "{}", stderr(&out));
    }
    assert_eq!(latest(&store), vec!["The user plays the cello"], "the store is whole");
    // A new file beside the store's own is fine (written whole, then renamed).
    ok(&haema(
        &store,
        &[],
        &["export", "-o", store.join("backup.jsonl").to_str().unwrap()],
        None,
    ));

    let export = dir.path().join("export.jsonl");
    ok(&haema(&store, &[], &["export", "-o", export.to_str().unwrap()], None));
    assert!(std::fs::read_to_string(&export).unwrap().contains("cello"));
    #[cfg(unix)]
    assert_eq!(mode(&export), 0o600);
    // A failed export leaves nothing behind.
    let nowhere = dir.path().join("no/such/folder/export.jsonl");
    assert!(
        !haema(&store, &[], &["export", "-o", nowhere.to_str().unwrap()], None)
            .status
            .success()
    );
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(
        names.iter().all(|n| !n.to_string_lossy().contains("haema-export")),
        "{names:?}"
    );
}

#[test]
fn a_missing_or_empty_database_beside_a_used_store_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    ok(&haema(
        &store,
        &[],
        &["add", "--items", "The user runs on Sundays"],
        None,
    ));
    let core = std::fs::read_to_string(store.join("core.md")).unwrap();

    std::fs::write(store.join("memory.db"), b"").unwrap();
    let _ = std::fs::remove_file(store.join("memory.db-wal"));
    let _ = std::fs::remove_file(store.join("memory.db-shm"));
    let out = haema(&store, &[], &["latest"], None);
    assert!(!out.status.success(), "an empty database is not a new store");
    assert!(
        stderr(&out).contains("is empty (0 bytes)") && stderr(&out).contains("backup"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::metadata(store.join("memory.db")).unwrap().len(),
        0,
        "nothing was written"
    );

    std::fs::remove_file(store.join("memory.db")).unwrap();
    let out = haema(&store, &[], &["add", "--items", "x"], None);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("is missing"), "{}", stderr(&out));
    assert!(!store.join("memory.db").exists());
    assert_eq!(std::fs::read_to_string(store.join("core.md")).unwrap(), core);

    // A new folder with only settings in it is a new store.
    let fresh = dir.path().join("fresh");
    std::fs::create_dir(&fresh).unwrap();
    std::fs::write(fresh.join("haema.toml"), "review = \"auto\"\n").unwrap();
    ok(&haema(&fresh, &[], &["add", "--items", "A first memory"], None));
    assert_eq!(latest(&fresh), vec!["A first memory"]);
}

#[test]
fn a_core_md_that_is_not_utf8_blocks_nothing_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    ok(&haema(&store, &[], &["add", "--items", "The user likes tea"], None));
    let mut bytes = std::fs::read(store.join("core.md")).unwrap();
    bytes.extend_from_slice(b"\n- Caf\xe9 on Fridays\n");
    std::fs::write(store.join("core.md"), &bytes).unwrap();

    let out = haema(&store, &[], &["core", "show"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Caf\u{FFFD} on Fridays"));
    assert!(stderr(&out).contains("not valid UTF-8"), "{}", stderr(&out));
    assert_eq!(latest(&store), vec!["The user likes tea"]);
    let copies: Vec<_> = std::fs::read_dir(&store)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("core.md.invalid-"))
        .collect();
    assert_eq!(copies.len(), 1, "one copy of the exact bytes");
    assert_eq!(std::fs::read(copies[0].path()).unwrap(), bytes);

    ok(&haema(
        &store,
        &[],
        &["core", "set", "USER", "--file", "-"],
        Some("- Café on Fridays\n"),
    ));
    let fixed = std::fs::read_to_string(store.join("core.md")).unwrap();
    assert!(fixed.contains("- Café on Fridays"), "{fixed}");
    assert!(!stderr(&haema(&store, &[], &["core", "show"], None)).contains("UTF-8"));
}

#[test]
fn the_copy_of_core_md_bad_bytes_holds_no_secret_and_a_forget_blanks_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    ok(&haema(&store, &[], &["status"], None));
    std::fs::write(
        store.join("core.md"),
        b"# SOUL\n\n# TOOLS\n\n- aws AKIAIOSFODNN7EXAMPLE\n\n# RULE\n\n# USER\n\n- Raven Blackwood lives at 9 Oak Lane \xff\n",
    )
    .unwrap();
    ok(&haema(&store, &[], &["core", "show"], None));
    let copy = std::fs::read_dir(&store)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("core.md.invalid-"))
        .expect("a copy of the bad bytes")
        .path();
    let kept = std::fs::read(&copy).unwrap();
    assert!(
        !String::from_utf8_lossy(&kept).contains("AKIAIOSFODNN7EXAMPLE"),
        "the copy holds the key"
    );
    assert!(kept.ends_with(b"Oak Lane \xff\n"), "the bad byte is kept where it was");

    let plan = haema(&store, &[], &["forget", "--mentioning", "Raven Blackwood"], None);
    // The plan counts the copy among the core.md versions blanked (the one recorded, and the copy).
    assert!(stderr(&plan).contains("2 core.md versions"), "{}", stderr(&plan));
    ok(&haema(
        &store,
        &[],
        &["forget", "--mentioning", "Raven Blackwood", "--yes"],
        None,
    ));
    let everywhere: Vec<_> = std::fs::read_dir(&store)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_file() && String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).contains("Raven"))
        .map(|e| e.file_name())
        .collect();
    assert!(everywhere.is_empty(), "still in {everywhere:?}");
}

#[cfg(unix)]
#[test]
fn a_reader_that_goes_away_is_no_error() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    let lines: Vec<String> = (0..3000)
        .map(|i| format!("{{\"content\": \"memory {i} about tea, trains and the long winter evenings\"}}"))
        .collect();
    let file = dir.path().join("many.jsonl");
    std::fs::write(&file, lines.join("\n")).unwrap();
    ok(&haema(&store, &[], &["import", file.to_str().unwrap()], None));
    for args in [
        vec!["export"],
        vec!["export", "--format", "markdown"],
        vec!["latest", "--json", "--count", "3000"],
        vec!["history"],
        vec!["search", "tea", "-n", "500", "--json"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_haema"))
            .env_clear()
            .env("HF_HUB_OFFLINE", "1")
            .arg("--store")
            .arg(&store)
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 10];
        child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
        drop(child.stdout.take());
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        let status = child.wait().unwrap();
        assert!(status.success(), "{args:?}: {status:?} {err}");
        assert!(!err.contains("error") && !err.contains("panicked"), "{args:?}: {err}");
    }
}
