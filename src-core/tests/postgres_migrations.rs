//! A PostgreSQL store made by an older haema is brought up to date when it opens: a store
//! at schema version 1 (its words in a tsvector per memory, accents kept) gets the postings
//! index made again from its memories, folded as SQLite folds them, with exact counts.
//!
//! Needs the server `.ci/run` starts (`HAEMA_TEST_PG_URL`, `HAEMA_TEST_PG_BIN`); without it
//! the test says it is skipped.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::path::Path;

use common::*;
use haema_core::{Memory, ReviewPolicy, SearchMode};

/// Runs SQL through psql at `url`; its output.
fn sql(url: &str, text: &str) -> String {
    let bin = std::env::var("HAEMA_TEST_PG_BIN").expect("HAEMA_TEST_PG_BIN");
    let out = std::process::Command::new(Path::new(&bin).join("psql"))
        .args(["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", url, "-c", text])
        .output()
        .unwrap();
    assert!(out.status.success(), "{text}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

#[tokio::test]
async fn a_version_1_store_gets_its_word_index_made_again_folded() {
    let Ok(url) = std::env::var("HAEMA_TEST_PG_URL") else {
        eprintln!("skipped: no PostgreSQL test server (HAEMA_TEST_PG_URL; .ci/run starts one)");
        return;
    };
    let schema = format!("old_{}", std::process::id());
    let init = include_str!("../migrations/postgres/0001_init.sql");
    let insert = |id: &str, content: &str, status: &str| {
        format!(
            "INSERT INTO memories (id, content, status, created_at_ms, updated_at_ms, terms, term_count)
             VALUES ('{id}', '{content}', '{status}', 1, 1, to_tsvector('simple', '{content}'), 3);"
        )
    };
    sql(
        &url,
        &format!(
            "CREATE SCHEMA {schema}; SET search_path TO {schema}, public; {init}
             CREATE TABLE haema_schema (version INTEGER NOT NULL); INSERT INTO haema_schema VALUES (1);
             {} {} {}",
            insert("m1", "Le café du coin", "active"),
            insert("m2", "Cafes close early on Sundays", "active"),
            insert("m3", "An old café note", "superseded"),
        ),
    );

    let dir = tempfile::tempdir().unwrap();
    haema_core::link_postgres_store(dir.path(), &format!("{url}?schema={schema}")).unwrap();
    let memory = Memory::open_with(dir.path(), settings(ReviewPolicy::Auto), None, None)
        .await
        .unwrap();
    assert_eq!(
        sql(&url, &format!("SELECT version FROM {schema}.haema_schema")),
        "4",
        "migrated to the newest version"
    );
    let found = |hits: haema_core::SearchResults| {
        let mut found: Vec<String> = hits.hits.into_iter().map(|h| h.memory.content).collect();
        found.sort();
        found
    };
    let want = ["Cafes close early on Sundays", "Le café du coin"];
    for query in ["cafe", "CAFÉ", "cafés"] {
        let hits = memory.search_records(query, 5, SearchMode::Lexical).await.unwrap();
        assert_eq!(found(hits), want, "{query}: both active memories, accents or not");
    }
    // Exact statistics: two active memories, the superseded one left out of the index.
    assert_eq!(
        sql(&url, &format!("SELECT memories, words FROM {schema}.term_totals")),
        "2|9"
    );
    assert_eq!(
        sql(
            &url,
            &format!("SELECT memories FROM {schema}.term_counts WHERE term = 'cafe'")
        ),
        "2"
    );
    // The index goes on being kept by writes.
    memory.add(items(&["A crème brûlée at the café"])).await.unwrap();
    let hits = memory
        .search_records("creme brulee", 5, SearchMode::Lexical)
        .await
        .unwrap();
    assert_eq!(found(hits), ["A crème brûlée at the café"]);
    assert_eq!(
        sql(
            &url,
            &format!("SELECT memories FROM {schema}.term_counts WHERE term = 'cafe'")
        ),
        "3"
    );
}
