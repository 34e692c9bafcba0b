//! `haema bench --n 1000 --json` runs whole in CI, so the command cannot rot: every figure
//! the performance table of docs/performance.md shows is printed, and the fast vector search agrees with
//! an exact scan on a store this small.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use serde_json::{Value, json};

#[test]
fn bench_prints_every_figure_as_json_lines() {
    let work = tempfile::tempdir().unwrap();
    let work_dir = work.path().to_str().unwrap();
    let output = haema(
        work.path(),
        &[],
        &["bench", "--n", "1000", "--json", "--work", work_dir],
        None,
    );
    let text = ok(&output);
    let rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let find = |op: &str, key: &str, value: &str| {
        rows.iter()
            .find(|r| r["op"] == op && (key.is_empty() || r[key] == value))
            .unwrap_or_else(|| panic!("no {op} {key}={value} row in:\n{text}"))
            .clone()
    };
    for mode in ["hybrid", "vector", "lexical"] {
        for queries in ["stored", "words"] {
            let row = rows
                .iter()
                .find(|r| r["op"] == "search" && r["mode"] == mode && r["queries"] == queries)
                .unwrap_or_else(|| panic!("no {mode}/{queries} search row in:\n{text}"));
            assert_eq!(row["n"], 1000);
            assert!(row["p50_ms"].as_f64().unwrap() > 0.0);
            assert!(row["p95_ms"].as_f64().unwrap() >= row["p50_ms"].as_f64().unwrap());
        }
    }
    for input in ["items_1", "items_10", "text"] {
        find("add", "input", input);
    }
    for page in ["newest", "deep"] {
        find("latest", "page", page);
    }
    find("recall", "", "");
    find("open", "", "");
    assert!(find("disk", "", "")["bytes_per_memory"].as_f64().unwrap() > 500.0);
    assert!(find("peak_rss", "", "")["mb"].as_f64().unwrap() > 1.0);
    let recall = find("vector_recall", "", "")["recall_at_10"].as_f64().unwrap();
    assert!(recall >= 0.98, "recall@10 {recall}");
    // Through the server: searches, then eight agents at once that lose nothing.
    let served = find("server_search", "via", "http");
    assert!(served["p50_ms"].as_f64().unwrap() > 0.0, "{served}");
    let agents = find("server_agents", "", "");
    assert_eq!(agents["agents"], 8, "{agents}");
    assert_eq!(agents["adds"], 96, "every add answered: {agents}");
    assert_eq!(agents["searches"], 96, "{agents}");
    assert_eq!((&agents["errors"], &agents["lost"]), (&json!(0), &json!(0)), "{agents}");
    // Claude Code's hook as it runs it: warm through this process's recall socket (the
    // cold figure needs the real model), and a 500-turn capture that returns at once.
    let warm = find("hook_recall", "path", "warm");
    assert!(warm["p50_ms"].as_f64().unwrap() > 0.0, "{warm}");
    assert_eq!(warm["samples"], 20, "{warm}");
    assert!(find("hook_recall", "path", "cold")["skipped"].is_string());
    let capture = find("hook_capture", "", "");
    assert_eq!(capture["n"], 500, "{capture}");
    assert!(
        capture["background_p50_ms"].as_f64().unwrap() >= capture["p50_ms"].as_f64().unwrap(),
        "{capture}"
    );
    let calls = find("llm_calls_per_add", "", "")["value"].as_f64().unwrap();
    assert!(calls > 0.0 && calls <= 1.3, "{calls} LLM calls per add");
    // A second run with the same --work reuses the store.
    let again = haema(
        work.path(),
        &[],
        &["bench", "--n", "1000", "--json", "--work", work_dir],
        None,
    );
    assert!(ok(&again).contains(r#""reused":true"#));
}

#[test]
fn bench_refuses_a_zero_size() {
    let work = tempfile::tempdir().unwrap();
    let output = haema(work.path(), &[], &["bench", "--n", "0"], None);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("--n"), "{}", stderr(&output));
}
