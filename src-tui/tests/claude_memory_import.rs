//! `haema import` of Claude Code's memory folder: each list item and paragraph a memory
//! with `source = "claude-code"`, its file, section and type; the index's links left out;
//! secrets replaced and injections held as in every import; nothing added twice.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::Path;

use common::*;

const MEMORY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/claude-code/memory");

#[test]
fn claude_codes_memory_folder_is_imported_once_screened_with_its_sources() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let report = json_of(&haema(&store, &[], &["import", MEMORY, "--json"], None));
    assert_eq!(report["added"], 6, "{report}");
    assert_eq!(report["held"], 1, "the injection waits for review: {report}");
    let rows = json_of(&haema(&store, &[], &["latest", "--count", "20", "--json"], None));
    let texts = contents(&rows);
    assert!(
        texts.contains(&"Prefers short answers with code first.".to_owned()),
        "{texts:?}"
    );
    assert!(texts.iter().any(|t| t.contains("[secret: github token]")), "{texts:?}");
    assert!(
        !texts
            .iter()
            .any(|t| t.contains("ghp_") || t.contains("user_profile.md")),
        "{texts:?}"
    );
    let fish = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["content"] == "Uses fish, not bash.")
        .unwrap();
    assert_eq!(fish["source"], "claude-code", "{fish}");
    assert_eq!(fish["memory_type"], "user", "{fish}");
    assert_eq!(fish["metadata"]["file"], "user_profile.md", "{fish}");
    assert_eq!(fish["metadata"]["section"], "Preferences", "{fish}");

    // The index named instead of its folder is the same import: nothing is added twice.
    let index = Path::new(MEMORY).join("MEMORY.md");
    let again = json_of(&haema(
        &store,
        &[],
        &["import", index.to_str().unwrap(), "--json"],
        None,
    ));
    assert_eq!(again["added"], 0, "{again}");
}
