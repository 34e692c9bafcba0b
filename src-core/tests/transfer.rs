//! Export and import: a lossless round trip through JSONL, and Markdown for people.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use haema_core::{Error, Memory, Record, ReviewPolicy, Section};
use serde_json::json;

/// A store with history: merges, a revert, a core change, a lock, pending and rejected changesets.
async fn rich_store() -> Fixture {
    let f = fixture(ReviewPolicy::Auto).await;
    f.memory
        .add(items(&["user likes green tea", "the server runs Debian"]))
        .await
        .unwrap();
    f.llm.push(
        "reconstruct",
        json!({"memories": ["user likes green tea with honey"], "coverage": "complete"}),
    );
    let md = "# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n- Likes tea.\n";
    f.llm
        .push("core_update", json!({"should_update": true, "core_markdown": md}));
    f.memory.add(items(&["user likes green tea with honey"])).await.unwrap();
    let id = f
        .memory
        .add(items(&["a fact to undo"]))
        .await
        .unwrap()
        .changeset
        .unwrap();
    f.memory.revert(id).await.unwrap();
    f.memory.set_core_section(Section::Rule, "- Be brief.").await.unwrap();
    f.memory.set_section_lock(Section::Rule, true).await.unwrap();
    let review = reopen(&f, ReviewPolicy::Review).await;
    let pending = review
        .add(items(&["a proposal waiting"]))
        .await
        .unwrap()
        .changeset
        .unwrap();
    let rejected = review
        .add(items(&["a proposal declined"]))
        .await
        .unwrap()
        .changeset
        .unwrap();
    review.reject(rejected).await.unwrap();
    let _ = pending;
    // Agent state with a history: a value changed, a key deleted.
    f.memory
        .set_agent_state("planner", "task", json!("ship v1"))
        .await
        .unwrap();
    f.memory
        .set_agent_state("planner", "task", json!({"step": 2, "of": 5}))
        .await
        .unwrap();
    f.memory.set_agent_state("default", "cursor", json!(42)).await.unwrap();
    f.memory.delete_agent_state("default", "cursor").await.unwrap();
    f
}

async fn export(memory: &Memory) -> Vec<Record> {
    let mut out = Vec::new();
    memory.export_jsonl(&mut out).await.unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test]
async fn an_export_imported_into_a_new_store_exports_the_same() {
    let f = rich_store().await;
    let mut file = Vec::new();
    f.memory.export_jsonl(&mut file).await.unwrap();
    let original = export(&f.memory).await;
    assert!(matches!(&original[0], Record::Header { format, .. } if format == "haema-export"));

    let target = tempfile::tempdir().unwrap();
    let copy = Memory::open_with(
        target.path(),
        settings(ReviewPolicy::Auto),
        None,
        Some(f.embedder.clone()),
    )
    .await
    .unwrap();
    let report = copy.import_jsonl(file.as_slice()).await.unwrap();
    assert_eq!(
        report.memories,
        original.iter().filter(|r| matches!(r, Record::Memory(_))).count()
    );
    assert!(report.changesets >= 5 && report.core_versions >= 3, "{report:?}");
    // Agent state travels too, with its history (the export is the whole store).
    assert_eq!(report.agent_state_changes, 4, "{report:?}");
    assert_eq!(
        copy.get_agent_state("planner", "task").await.unwrap().map(|s| s.value),
        Some(json!({"step": 2, "of": 5}))
    );
    assert!(copy.get_agent_state("default", "cursor").await.unwrap().is_none());
    assert_eq!(
        copy.agent_state_history("planner", "task").await.unwrap(),
        f.memory.agent_state_history("planner", "task").await.unwrap()
    );
    assert_eq!(export(&copy).await[1..], original[1..], "every record is identical");
    assert_eq!(copy.get_core().await.unwrap(), f.memory.get_core().await.unwrap());
    assert_eq!(
        copy.get_latest(1, 10).await.unwrap(),
        f.memory.get_latest(1, 10).await.unwrap()
    );
    assert_eq!(
        copy.search("green tea honey", 1).await.unwrap(),
        vec!["user likes green tea with honey"]
    );
    assert_eq!(copy.pending().await.unwrap().len(), 1);
    assert!(copy.locked_sections().await.unwrap().contains(&Section::Rule));
    // The history still works: the pending changeset can be approved in the copy.
    let pending = copy.pending().await.unwrap()[0].id;
    copy.approve(pending).await.unwrap();
    assert!(
        copy.get_latest(1, 10)
            .await
            .unwrap()
            .contains(&"a proposal waiting".to_owned())
    );
    // New memories sort after the imported ones.
    let newest = copy.get_latest_records(1, 1).await.unwrap()[0].timestamp_ms;
    assert!(
        original
            .iter()
            .all(|r| !matches!(r, Record::Memory(m) if m.timestamp_ms > newest))
    );
}

#[tokio::test]
async fn importing_twice_adds_nothing_and_other_stores_are_refused() {
    let f = rich_store().await;
    let mut file = Vec::new();
    f.memory.export_jsonl(&mut file).await.unwrap();
    let again = f.memory.import_jsonl(file.as_slice()).await.unwrap();
    assert_eq!((again.memories, again.changesets), (0, 0));
    assert!(again.already_present > 0);

    let other = fixture(ReviewPolicy::Auto).await;
    other.memory.add(items(&["something else"])).await.unwrap();
    let err = other.memory.import_jsonl(file.as_slice()).await.unwrap_err();
    assert!(
        matches!(err, Error::InvalidArgument(_)) && err.to_string().contains("empty store"),
        "{err}"
    );
    assert_eq!(
        other.memory.get_latest(1, 10).await.unwrap(),
        vec!["something else"],
        "nothing changed"
    );
    let core_only = fixture(ReviewPolicy::Auto).await;
    core_only
        .memory
        .set_core_section(Section::User, "- Mine")
        .await
        .unwrap();
    assert!(
        core_only.memory.import_jsonl(file.as_slice()).await.is_err(),
        "an edited core counts as content"
    );
    assert_eq!(
        core_only.memory.core_sections().await.unwrap().get(Section::User),
        "- Mine"
    );
}

#[tokio::test]
async fn files_that_are_not_exports_are_named_and_change_nothing() {
    let f = fixture(ReviewPolicy::Auto).await;
    let err = f
        .memory
        .import_jsonl("{\"content\": \"x\"}\n".as_bytes())
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 1"), "{err}");
    let header = r#"{"type":"header","format":"haema-export","version":1,"embedder":"none"}"#;
    let err = f
        .memory
        .import_jsonl(format!("{header}\n{{\"type\":\"memory\",\"id\":5}}\n").as_bytes())
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 2"), "{err}");
    let err = f
        .memory
        .import_jsonl(r#"{"type":"memory"}"#.as_bytes())
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 1") || err.contains("header"), "{err}");
    assert!(f.memory.get_latest(1, 10).await.unwrap().is_empty());
}

#[tokio::test]
async fn markdown_export_is_for_people() {
    let f = rich_store().await;
    let mut out = Vec::new();
    f.memory.export_markdown(&mut out).await.unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("## Core") && text.contains("### USER") && text.contains("- Likes tea."),
        "{text}"
    );
    assert!(text.contains("user likes green tea with honey"));
    assert!(
        !text.contains("a fact to undo"),
        "superseded memories are not listed as memories"
    );
    assert!(
        text.contains("## History") && text.contains("revert committed"),
        "{text}"
    );
    // A page printed to a terminal as often as saved: no control character reaches it.
    f.memory
        .add(common::items(&["esc \u{1b}]0;PWNED\u{7} title", "cr abc\rXYZ"]))
        .await
        .unwrap();
    f.memory
        .set_core_section(haema_core::Section::Tools, "- \u{1b}[2J \u{202e}txt.exe")
        .await
        .unwrap();
    let mut out = Vec::new();
    f.memory.export_markdown(&mut out).await.unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(!text.contains(['\u{1b}', '\u{7}', '\r', '\u{202e}']), "{text:?}");
    assert!(
        text.contains("esc \u{FFFD}]0;PWNED\u{FFFD} title") && text.contains("cr abc\u{FFFD}XYZ"),
        "{text}"
    );
}

#[tokio::test]
async fn plain_items_keep_their_timestamps_and_a_second_import_adds_nothing() {
    let f = fixture(ReviewPolicy::Review).await;
    f.memory.add(items(&["already known"])).await.unwrap();
    let text = "{\"content\": \"learned in 2023\", \"timestamp_ms\": 1690000000000}\n\"no timestamp\"\n\"already known\"\n\"no timestamp\"\n";
    let parsed = haema_core::parse_items(text).unwrap();
    let report = f.memory.import_items(parsed.clone(), "test file").await.unwrap();
    assert_eq!(
        (report.added, report.skipped),
        (2, 2),
        "pending texts count as known; repeats are skipped"
    );
    let records = f.memory.get_latest_records(1, 10).await.unwrap();
    let old = records.iter().find(|m| m.content == "learned in 2023").unwrap();
    assert_eq!(old.timestamp_ms, 1_690_000_000_000);
    assert_eq!(records[0].content, "no timestamp", "an item without a time is newest");
    let changeset = f.memory.changeset(report.changeset.unwrap()).await.unwrap();
    assert_eq!(
        (changeset.outcome, changeset.decided_by.map(|d| d.as_str())),
        (haema_core::Outcome::Import, Some("import"))
    );
    assert_eq!(
        f.memory.search("learned in 2023", 1).await.unwrap(),
        vec!["learned in 2023"],
        "vectors and full text are there"
    );
    let again = f.memory.import_items(parsed, "test file").await.unwrap();
    assert_eq!((again.added, again.changeset), (0, None));
}

#[tokio::test]
async fn large_imports_embed_in_requests_of_bounded_size() {
    let f = fixture(ReviewPolicy::Auto).await;
    let many: Vec<haema_core::ImportItem> = (0..250)
        .map(|i| haema_core::ImportItem {
            content: format!("imported fact {i}"),
            timestamp_ms: None,
            ..Default::default()
        })
        .collect();
    let mut steps = Vec::new();
    let report = f
        .memory
        .import_items_with_progress(many, "big file", |done, total| steps.push((done, total)))
        .await
        .unwrap();
    assert_eq!(steps, vec![(96, 250), (192, 250), (250, 250)]);
    assert_eq!(report.added, 250);
    let sizes: Vec<usize> = f
        .embedder
        .calls()
        .iter()
        .filter(|(kind, _)| kind == "document")
        .map(|(_, n)| *n)
        .collect();
    assert_eq!(sizes, vec![96, 96, 58]);
}
