//! `haema eval locomo` on a one-conversation slice the test writes: the output's shape,
//! and clear errors for bad data and a missing embedder.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use serde_json::{Value, json};

fn turn(id: &str, date: &str, speaker: &str, text: &str) -> String {
    json!({"conv": "conv-1", "dia_id": id, "session_date": date, "speaker": speaker, "text": text, "image_caption": null})
        .to_string()
}

fn query(question: &str, category: u8, evidence: &[&str]) -> String {
    json!({"conv": "conv-1", "question": question, "category": category, "evidence": evidence}).to_string()
}

/// A small conversation: two sessions, a question of each category.
fn write_slice(dir: &std::path::Path) {
    let may = "1:56 pm on 8 May, 2023";
    let june = "10:00 am on 20 June, 2023";
    let turns = [
        turn("D1:1", may, "Ana", "I adopted a grey cat called Miso yesterday."),
        turn("D1:2", may, "Bo", "Lovely! I started learning the violin."),
        turn("D1:3", may, "Ana", "I work as a nurse at the city hospital."),
        turn("D2:1", june, "Bo", "I played my first violin concert last night."),
        turn("D2:2", june, "Ana", "Miso knocked over my coffee this morning."),
        turn("D2:3", june, "Ana", "We are moving to Busan next spring."),
    ];
    let queries = [
        query(
            "What instrument is Bo learning and where did he play?",
            1,
            &["D1:2", "D2:1"],
        ),
        query("When did Ana adopt her cat?", 2, &["D1:1"]),
        query("Would Ana like a job in health care?", 3, &["D1:3"]),
        query("Where is Ana moving?", 4, &["D2:3"]),
        query("What is Bo's dog called?", 5, &[]),
        query("Who has no evidence?", 4, &[]),
    ];
    std::fs::write(dir.join("turns.jsonl"), turns.join("\n") + "\n").unwrap();
    std::fs::write(dir.join("queries.jsonl"), queries.join("\n") + "\n").unwrap();
}

#[test]
fn json_output_has_one_object_per_category_then_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    write_slice(dir.path());
    let data = dir.path().to_str().unwrap();
    let out = haema(
        dir.path(),
        &[],
        &["eval", "locomo", "--data", data, "--mode", "lexical", "--json"],
        None,
    );
    let text = ok(&out);
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 5, "{text}");
    for (i, line) in lines[..4].iter().enumerate() {
        assert_eq!(line["category"], i + 1);
        assert!(line["name"].is_string());
        assert_eq!(line["queries"], 1);
        for key in ["r5", "r10", "mrr"] {
            assert!(line[key].is_f64(), "{key} in {line}");
        }
    }
    let summary = &lines[4];
    assert_eq!(summary["queries"], 4);
    assert_eq!(summary["unscored"], 1);
    assert_eq!(summary["mode"], "lexical");
    assert_eq!(summary["memories"], 6);
    let r10 = summary["r10"].as_f64().unwrap();
    // Six memories: every question finds its evidence in the top 10.
    assert!((r10 - 100.0).abs() < 1e-9, "{summary}");
    assert!(summary["r5"].as_f64().unwrap() <= r10);
    let mrr = summary["mrr"].as_f64().unwrap();
    assert!(mrr > 0.0 && mrr <= 1.0);
    assert!(stderr(&out).contains("eval: conv-1 (1/1)"), "{}", stderr(&out));
}

#[test]
fn the_table_lists_the_categories() {
    let dir = tempfile::tempdir().unwrap();
    write_slice(dir.path());
    let data = dir.path().to_str().unwrap();
    let text = ok(&haema(
        dir.path(),
        &[],
        &["eval", "locomo", "--data", data, "--mode", "lexical"],
        None,
    ));
    for label in [
        "1 multi-hop",
        "2 temporal",
        "3 open-domain",
        "4 single-hop",
        "all (1-4)",
        "R@10",
        "MRR",
    ] {
        assert!(text.contains(label), "{label} in {text}");
    }
}

#[test]
fn bad_data_names_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    write_slice(dir.path());
    let path = dir.path().join("queries.jsonl");
    let mut queries = std::fs::read_to_string(&path).unwrap();
    queries.push_str("{\"conv\": \"conv-1\", \"question\": 3\n");
    std::fs::write(&path, queries).unwrap();
    let data = dir.path().to_str().unwrap();
    let out = haema(
        dir.path(),
        &[],
        &["eval", "locomo", "--data", data, "--mode", "lexical"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("queries.jsonl, line 7"), "{err}");

    let missing = dir.path().join("nothing-here");
    let out = haema(
        dir.path(),
        &[],
        &["eval", "locomo", "--data", missing.to_str().unwrap()],
        None,
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("turns.jsonl"), "{}", stderr(&out));
}

#[test]
fn vector_modes_without_an_embedder_say_what_to_set() {
    let dir = tempfile::tempdir().unwrap();
    write_slice(dir.path());
    let data = dir.path().to_str().unwrap();
    let out = haema(
        dir.path(),
        &[("HAEMA_EMBEDDER", "none")],
        &["eval", "locomo", "--data", data, "--mode", "hybrid"],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("HAEMA_EMBEDDER"), "{}", stderr(&out));
}
