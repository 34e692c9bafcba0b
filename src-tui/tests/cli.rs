//! The real `haema` binary: the CLI contract scripts rely on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use serde_json::json;

#[test]
fn add_latest_search_json_contract_without_providers() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path();
    let added = json_of(&haema(
        store,
        &[],
        &["add", "--items", "Ana likes green tea", "Ana lives in Busan", "--json"],
        None,
    ));
    assert_eq!(added["status"], "committed");
    assert!(added["changeset"].as_i64().unwrap() > 0);
    assert_eq!(
        added["memory_ids"].as_array().unwrap().len(),
        2,
        "add tells its new ids"
    );
    let from_stdin = json_of(&haema(
        store,
        &[],
        &["add", "-", "--json"],
        Some("Ana's cat is called Miso\n"),
    ));
    assert_eq!(from_stdin["status"], "committed");
    let empty = json_of(&haema(store, &[], &["add", "   ", "--json"], None));
    assert_eq!(
        empty,
        json!({"changeset": null, "status": "noop", "memory_ids": [], "warnings": []})
    );

    let latest = json_of(&haema(store, &[], &["latest", "--json"], None));
    let rows = latest.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["content"], "Ana's cat is called Miso");
    assert!(rows[0]["id"].is_string() && rows[0]["timestamp_ms"].is_i64());
    let page = json_of(&haema(
        store,
        &[],
        &["latest", "--begin", "2", "--count", "1", "--json"],
        None,
    ));
    assert_eq!(page[0]["content"], rows[1]["content"]);
    assert_eq!(
        json_of(&haema(store, &[], &["latest", "--count", "0", "--json"], None)),
        json!([])
    );

    let hits = json_of(&haema(store, &[], &["search", "cat Miso", "-n", "2", "--json"], None));
    assert_eq!(hits[0]["content"], "Ana's cat is called Miso");
    assert!(hits[0]["id"].is_string() && hits[0]["score"].is_f64());
    assert_eq!(hits[0]["found_by"], "lexical");
    let lexical = haema(store, &[], &["search", "tea", "--mode", "vector", "--json"], None);
    assert!(
        stderr(&lexical).contains("lexical"),
        "a store without an embedder says so"
    );
    assert_eq!(
        json_of(&haema(store, &[], &["search", "tea", "-n", "0", "--json"], None)),
        json!([])
    );
}

#[test]
fn exit_codes_and_one_sentence_errors() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path();
    let begin = haema(store, &[], &["latest", "--begin", "0"], None);
    assert_eq!(begin.status.code(), Some(2));
    assert!(stderr(&begin).contains("begin must be >= 1"));
    let missing = haema(store, &[], &["review", "approve", "42"], None);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("no changeset with id 42"),
        "{}",
        stderr(&missing)
    );
    assert_eq!(
        haema(store, &[], &["core", "lock", "NOPE"], None).status.code(),
        Some(2)
    );
    assert_eq!(
        haema(store, &[], &["search", "x", "--mode", "fuzzy"], None)
            .status
            .code(),
        Some(2)
    );
    assert_eq!(haema(store, &[], &["frobnicate"], None).status.code(), Some(2));
    let id = json_of(&haema(store, &[], &["add", "--items", "one", "--json"], None))["changeset"]
        .as_i64()
        .unwrap()
        .to_string();
    let twice = haema(store, &[], &["review", "approve", &id], None);
    assert_eq!(twice.status.code(), Some(1));
    assert!(
        stderr(&twice).contains("committed and cannot be approved"),
        "{}",
        stderr(&twice)
    );
    let bad_env = haema(store, &[("HAEMA_REVIEW", "sometimes")], &["status"], None);
    assert_eq!(bad_env.status.code(), Some(1));
    assert!(
        stderr(&bad_env).contains("HAEMA_REVIEW") && stderr(&bad_env).contains("auto, review, guarded"),
        "{}",
        stderr(&bad_env)
    );
    for out in [&begin, &missing, &twice, &bad_env] {
        assert!(out.stdout.is_empty(), "errors go to stderr only");
    }
}

#[test]
fn keys_in_the_settings_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("haema.toml"),
        "[llm]\nprovider = \"openai\"\napi_key = \"sk-secret\"\n",
    )
    .unwrap();
    let out = haema(dir.path(), &[], &["status"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("the system keyring"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("sk-secret"), "the key is never printed");
}

#[test]
fn core_sections_set_lock_and_history() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path();
    ok(&haema(
        store,
        &[],
        &["core", "set", "user", "--file", "-"],
        Some("- Name: Ana\n- Prefers short answers.\n"),
    ));
    let sections = json_of(&haema(store, &[], &["core", "sections", "--json"], None));
    assert_eq!(
        sections,
        json!({"SOUL": "", "TOOLS": "", "RULE": "", "USER": "- Name: Ana\n- Prefers short answers."})
    );
    assert!(ok(&haema(store, &[], &["core", "show"], None)).contains("# USER\n\n- Name: Ana"));
    ok(&haema(store, &[], &["core", "lock", "USER"], None));
    assert!(ok(&haema(store, &[], &["core", "sections"], None)).contains("# USER  (locked)"));
    ok(&haema(store, &[], &["core", "unlock", "USER"], None));
    let broken = haema(
        store,
        &[],
        &["core", "set", "SOUL", "--file", "-"],
        Some("# RULE\nsneaky"),
    );
    assert_eq!(broken.status.code(), Some(1));
    assert!(stderr(&broken).contains("not allowed"), "{}", stderr(&broken));
    let history = json_of(&haema(store, &[], &["core", "history", "--json"], None));
    assert_eq!(history.as_array().unwrap().len(), 2);
    let first = history[1]["id"].as_i64().unwrap().to_string();
    ok(&haema(store, &[], &["core", "restore", &first], None));
    assert_eq!(
        json_of(&haema(store, &[], &["core", "sections", "--json"], None))["USER"],
        ""
    );
    let no_file = haema(
        store,
        &[],
        &["core", "set", "USER", "--file", "/nonexistent/file.md"],
        None,
    );
    assert_eq!(no_file.status.code(), Some(2));
}

#[test]
fn config_shows_sources_and_masks_keys() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("haema.toml"), "review = \"review\"\n").unwrap();
    let env = [
        ("HAEMA_LLM", "openai"),
        ("HAEMA_LLM_BASE_URL", "http://127.0.0.1:1/v1"),
        ("HAEMA_LLM_API_KEY", "sk-secret-value-9876"),
    ];
    let report = json_of(&haema(dir.path(), &env, &["config", "--json"], None));
    let find = |key: &str| setting_line(&report, key);
    assert_eq!(
        (find("review")["value"].as_str(), find("review")["source"].as_str()),
        (Some("review"), Some("file"))
    );
    assert_eq!(find("llm.provider")["source"], "env");
    assert_eq!(find("llm.api_key")["value"], "sk-…9876");
    assert_eq!(find("merge.top_k")["source"], "default");
    assert!(!report.to_string().contains("secret-value"));
}

#[test]
fn config_lists_every_setting_with_help_and_reads_the_users_file() {
    let (dir, config) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::create_dir_all(config.path().join("haema")).unwrap();
    std::fs::write(config.path().join("haema/config.toml"), "[tui]\nmouse = false\n").unwrap();
    let env = [("XDG_CONFIG_HOME", config.path().to_str().unwrap())];
    let report = json_of(&haema(dir.path(), &env, &["config", "--json"], None));
    assert_eq!(
        report["user_file"].as_str().map(std::path::PathBuf::from),
        Some(config.path().join("haema/config.toml"))
    );
    let settings = report["settings"].as_array().unwrap();
    let mouse = settings.iter().find(|l| l["key"] == "tui.mouse").unwrap();
    assert_eq!(
        (mouse["value"].as_str(), mouse["source"].as_str()),
        (Some("false"), Some("user_file"))
    );
    assert!(
        settings
            .iter()
            .all(|l| !l["help"].as_str().unwrap_or_default().is_empty())
    );
    assert!(
        settings
            .iter()
            .any(|l| l["env"] == "HF_HUB_OFFLINE" && l["value"] == "1")
    );
    let text = ok(&haema(dir.path(), &env, &["config"], None));
    assert!(
        text.contains("user file") && text.contains("seconds one HTTP attempt"),
        "{text}"
    );
}

#[test]
fn export_and_import_round_trip_through_files() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    ok(&haema(
        a.path(),
        &[],
        &["add", "--items", "Ana likes green tea", "Backups run at 02:00"],
        None,
    ));
    ok(&haema(
        a.path(),
        &[],
        &["core", "set", "USER", "--file", "-"],
        Some("- Name: Ana"),
    ));
    let file = a.path().join("export.jsonl");
    ok(&haema(a.path(), &[], &["export", "-o", file.to_str().unwrap()], None));
    let report = json_of(&haema(
        b.path(),
        &[],
        &["import", file.to_str().unwrap(), "--json"],
        None,
    ));
    assert_eq!(
        (report["memories"].as_u64(), report["changesets"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(
        ok(&haema(b.path(), &[], &["export"], None)),
        std::fs::read_to_string(&file).unwrap(),
        "identical export"
    );
    let twice = ok(&haema(b.path(), &[], &["import", file.to_str().unwrap()], None));
    assert!(twice.contains("Nothing to import"), "{twice}");
    let markdown = ok(&haema(b.path(), &[], &["export", "--format", "markdown"], None));
    assert!(
        markdown.contains("- Name: Ana") && markdown.contains("Backups run at 02:00"),
        "{markdown}"
    );
    let missing = haema(b.path(), &[], &["import", "/no/such/export.jsonl"], None);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn jsonl_and_mem0_files_import_once() {
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("memories.jsonl");
    std::fs::write(
        &jsonl,
        "{\"content\": \"Ana moved to Busan\", \"timestamp\": \"2024-03-01T09:00:00Z\"}\n\"Ana learns Korean\"\n",
    )
    .unwrap();
    let report = json_of(&haema(
        dir.path(),
        &[],
        &["import", jsonl.to_str().unwrap(), "--json"],
        None,
    ));
    assert_eq!(
        (report["added"].as_u64(), report["skipped"].as_u64()),
        (Some(2), Some(0))
    );
    let mem0 = dir.path().join("mem0.json");
    std::fs::write(&mem0, r#"{"results": [{"id": "m1", "memory": "Ana learns Korean", "created_at": "2024-05-01T10:00:00-07:00"}, {"id": "m2", "memory": "Ana keeps bees", "created_at": "2024-06-01T10:00:00-07:00"}]}"#).unwrap();
    let report = json_of(&haema(
        dir.path(),
        &[],
        &["import", mem0.to_str().unwrap(), "--json"],
        None,
    ));
    assert_eq!(
        (report["added"].as_u64(), report["skipped"].as_u64()),
        (Some(1), Some(1))
    );
    let again = ok(&haema(dir.path(), &[], &["import", mem0.to_str().unwrap()], None));
    assert!(again.contains("Imported 0 memories; 2 skipped"), "{again}");
    let latest = contents(&json_of(&haema(dir.path(), &[], &["latest", "--json"], None)));
    assert_eq!(
        latest,
        vec!["Ana learns Korean", "Ana keeps bees", "Ana moved to Busan"]
    );
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"content\": \"fine\"}\nnot json\n").unwrap();
    let out = haema(dir.path(), &[], &["import", bad.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("line 2"), "{}", stderr(&out));
}

#[test]
fn history_prints_a_line_per_changeset_without_loading_its_items() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let jsonl = dir.path().join("many.jsonl");
    let lines: String = (0..40).map(|i| format!("\"imported fact {i}\"\n")).collect();
    std::fs::write(&jsonl, lines).unwrap();
    ok(&haema(&store, &[], &["import", jsonl.to_str().unwrap()], None));
    for i in 0..2 {
        ok(&haema(
            &store,
            &[],
            &["add", "--items", &format!("later fact {i}")],
            None,
        ));
    }

    let text = ok(&haema(&store, &[], &["history"], None));
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert!(
        rows[0].starts_with("    3  ") && rows[0].ends_with("  −0 +1  later fact 1"),
        "{text}"
    );
    assert!(
        rows[0].contains("  add    committed by auto "),
        "the columns line up: {text}"
    );
    assert!(
        rows[2].ends_with("−0 +40  imported fact 0 · imported fact 1 · imported fact 2 · (+37 more)"),
        "a 40-memory import is one short line: {text}"
    );
    assert!(!text.contains("imported fact 3"), "{text}");

    // A page, the hint to the next one, and that page.
    let first = ok(&haema(&store, &[], &["history", "--limit", "2"], None));
    assert_eq!(first.lines().filter(|l| l.starts_with("    ")).count(), 2, "{first}");
    assert!(
        first.ends_with("\nOlder ones: `haema history --before 2`; one in full: `haema history ID`.\n"),
        "{first}"
    );
    let next = ok(&haema(&store, &[], &["history", "--before", "2"], None));
    assert_eq!(next, format!("{}\n", rows[2]));
    let all = ok(&haema(&store, &[], &["history", "-n", "3"], None));
    assert_eq!(all, text, "no hint when nothing older is left");
    assert_eq!(
        ok(&haema(&store, &[], &["history", "--before", "1"], None)),
        "No changesets older than 1.\n"
    );
    let zero = haema(&store, &[], &["history", "--limit", "0"], None);
    assert_eq!(zero.status.code(), Some(2), "{}", stderr(&zero));

    // Scripts get the summary's counts, and the first inputs only.
    let listed = json_of(&haema(&store, &[], &["history", "--json"], None));
    let oldest = &listed.as_array().unwrap()[2];
    assert_eq!(listed.as_array().unwrap().len(), 3);
    assert_eq!(
        (&oldest["id"], &oldest["kind"], &oldest["status"], &oldest["decided_by"]),
        (&json!(1), &json!("add"), &json!("committed"), &json!("import"))
    );
    assert_eq!(
        (
            &oldest["input_count"],
            &oldest["added"],
            &oldest["removed"],
            &oldest["warning_count"]
        ),
        (&json!(40), &json!(40), &json!(0), &json!(0))
    );
    assert_eq!(
        oldest["first_inputs"],
        json!(["imported fact 0", "imported fact 1", "imported fact 2"])
    );
    assert!(
        oldest.get("proposed").is_none() && oldest.get("inputs").is_none(),
        "{oldest}"
    );
    let paged = json_of(&haema(
        &store,
        &[],
        &["history", "--json", "-n", "1", "--before", "3"],
        None,
    ));
    assert_eq!(paged, json!([listed[1]]));

    // One changeset in full, as `review show` has it.
    let one = json_of(&haema(&store, &[], &["history", "1", "--json"], None));
    assert_eq!(one["inputs"].as_array().unwrap().len(), 40);
    assert_eq!(one["proposed"].as_array().unwrap().len(), 40);
    assert_eq!(
        ok(&haema(&store, &[], &["history", "1"], None)),
        ok(&haema(&store, &[], &["review", "show", "1"], None))
    );
    let missing = haema(&store, &[], &["history", "99"], None);
    assert_eq!(missing.status.code(), Some(2), "{}", stderr(&missing));
    let both = haema(&store, &[], &["history", "1", "--limit", "2"], None);
    assert_eq!(both.status.code(), Some(2));
    assert_eq!(
        ok(&haema(&dir.path().join("empty"), &[], &["history"], None)),
        "No changesets yet.\n"
    );
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn a_haema_python_store_folder_imports_once() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("haema-store");
    copy_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/haema-store"),
        &source,
    );
    let store = dir.path().join("store");
    let first = ok(&haema(&store, &[], &["import", source.to_str().unwrap()], None));
    assert!(
        first.contains("Imported 6 memories from the HAEMA store as changeset 1; 0 already here."),
        "{first}"
    );
    assert!(first.contains("1 of them were only in Chroma"), "{first}");
    assert!(first.contains("3 memories HAEMA had replaced"), "{first}");
    assert!(first.contains("core.md imported"), "{first}");
    let again = json_of(&haema(
        &store,
        &[],
        &["import", source.to_str().unwrap(), "--json"],
        None,
    ));
    assert_eq!((again["added"].as_u64(), again["skipped"].as_u64()), (Some(0), Some(6)));
    assert_eq!(again["core"], "same");
    let shown = ok(&haema(&store, &[], &["core", "show"], None));
    assert!(shown.contains("- Drinks black coffee in the morning."), "{shown}");
    let latest = contents(&json_of(&haema(&store, &[], &["latest", "--json"], None)));
    assert_eq!(latest[0], "The user reads science fiction on the subway.");

    let not_haema = dir.path().join("photos");
    std::fs::create_dir_all(&not_haema).unwrap();
    let out = haema(&store, &[], &["import", not_haema.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a HAEMA store"), "{}", stderr(&out));
}

#[test]
fn demo_makes_a_store_from_the_sample_once_and_resets_only_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let demo = dir.path().join("demo");
    let out = haema(&demo, &[], &["demo"], None);
    let status = ok(&out);
    assert!(stderr(&out).contains("demo store created"), "{}", stderr(&out));
    assert!(status.contains("pending   2 changeset(s)"), "{status}");
    let pending = json_of(&haema(&demo, &[], &["review", "list", "--json"], None));
    assert!(pending[0]["proposed"].as_array().is_some_and(|p| !p.is_empty()));
    let memories = json_of(&haema(&demo, &[], &["status", "--json"], None))["active"]
        .as_u64()
        .unwrap();
    assert!(memories >= 15, "{memories}");
    let shown = ok(&haema(&demo, &[], &["core", "show"], None));
    assert!(shown.contains("Mina"), "{shown}");

    let again = haema(&demo, &[], &["demo"], None);
    assert!(
        !stderr(&again).contains("created"),
        "the second run opens the same store"
    );
    let reset = haema(&demo, &[], &["demo", "--reset"], None);
    assert!(stderr(&reset).contains("demo store created"), "{}", stderr(&reset));

    let other = dir.path().join("mine");
    ok(&haema(&other, &[], &["add", "--items", "mine"], None));
    for args in [&["demo"][..], &["demo", "--reset"][..]] {
        let out = haema(&other, &[], args, None);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stderr(&out).contains("not"), "{}", stderr(&out));
    }
    assert_eq!(
        contents(&json_of(&haema(&other, &[], &["latest", "--json"], None))),
        vec!["mine"]
    );
}
