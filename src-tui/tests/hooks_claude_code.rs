//! `haema hook claude-code` driven by recorded hook events and a transcript shaped like
//! Claude Code's (prompts, tool calls and results, thinking, a `<private>` block, haema's
//! own recall block, a pasted token): recall within the budget, capture once, nothing
//! private, injected or secret sent or stored; `haema hooks install` on settings that
//! hold other hooks; a hung embedder held to the deadline.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::*;
use haema_tests::{FakeOpenAi, Reply, ScriptedServer};
use serde_json::{Value, json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/claude-code");

/// A copy of the recorded transcript, and the recorded event `name` pointing at it.
struct Session {
    _dir: tempfile::TempDir,
    transcript: PathBuf,
    log: PathBuf,
}

impl Session {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let transcript = dir.path().join("7f3c2a10.jsonl");
        std::fs::copy(Path::new(FIXTURES).join("transcript.jsonl"), &transcript).unwrap();
        let log = dir.path().join("hooks.log");
        Self {
            _dir: dir,
            transcript,
            log,
        }
    }

    fn event(&self, name: &str) -> String {
        let text = std::fs::read_to_string(Path::new(FIXTURES).join(name)).unwrap();
        text.replace("TRANSCRIPT", &self.transcript.display().to_string())
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

fn store_with(settings: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(store.join("haema.toml"), settings).unwrap();
    (dir, store)
}

/// The fake LLM and embedder's variables, and the hook log.
fn llm_env(llm: &FakeOpenAi, log: &Path) -> Vec<(&'static str, String)> {
    let mut env = openai_env(&llm.base_url());
    env.push(("HAEMA_HOOK_LOG", log.display().to_string()));
    env
}

/// Runs `haema hook claude-code --foreground` on the recorded event `name`: a capture,
/// done before it returns.
fn capture_now(store: &Path, env: &[(&str, &str)], session: &Session, name: &str) -> String {
    ok(&haema(
        store,
        env,
        &["hook", "claude-code", "--foreground"],
        Some(&session.event(name)),
    ))
}

/// The texts the LLM was asked to split into facts.
fn split_inputs(llm: &FakeOpenAi) -> Vec<String> {
    llm.server()
        .received()
        .iter()
        .filter(|r| {
            r.body
                .pointer("/response_format/json_schema/name")
                .and_then(Value::as_str)
                == Some("pre_split")
        })
        .filter_map(|r| {
            r.body
                .pointer("/messages/1/content")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recorded_session_is_captured_once_reviewed_and_recalled_on_the_next_prompt() {
    let llm = FakeOpenAi::start(64).await;
    let (_dir, store) = store_with("review = \"review\"\n");
    let session = Session::new();
    let env = llm_env(&llm, &session.log);
    let env = refs(&env);
    llm.answer(
        "pre_split",
        json!({"contents": ["The user moved to Lisbon in March.", "The user bikes to work.", "The office move is on Thursday 4 December."]}),
    );

    // Stop, in the foreground: the new words of three prompts become one changeset.
    let out = haema(
        &store,
        &env,
        &["hook", "claude-code", "--foreground"],
        Some(&session.event("stop.json")),
    );
    assert_eq!(ok(&out), "", "a capture answers Claude Code nothing");
    let sent = split_inputs(&llm);
    assert_eq!(sent.len(), 1, "{sent:?}");
    let said = &sent[0];
    for kept in [
        "moved to Lisbon in March",
        "bike to work",
        "our team is 12 people",
        "Thursday 4 December",
        "40 desks",
    ] {
        assert!(said.contains(kept), "{kept:?} missing from {said}");
    }
    for left_out in [
        "Dana",                 // the private block
        "ghp_Zq8m",             // the pasted token
        "prefers tea",          // haema's own recall block, in the prompt and the reminder
        "Facts remembered",     //
        "Secret room code",     // a tool's result
        "The user wants help",  // thinking
        "git push",             // a tool call
        "Caveat",               // Claude Code's own note
        "Office move planning", // the summary
    ] {
        assert!(!said.contains(left_out), "{left_out:?} was sent: {said}");
    }
    assert!(said.contains("[secret: github token]"), "{said}");
    let pending = json_of(&haema(&store, &env, &["review", "list", "--json"], None));
    assert_eq!(pending.as_array().unwrap().len(), 1, "{pending}");
    assert!(
        session.log().contains("new turns captured: change"),
        "{}",
        session.log()
    );

    // Again, and at the session's end: nothing new, nothing twice.
    for event in ["stop.json", "session_end.json"] {
        ok(&haema(
            &store,
            &env,
            &["hook", "claude-code", "--foreground"],
            Some(&session.event(event)),
        ));
    }
    assert_eq!(split_inputs(&llm).len(), 1);
    assert!(session.log().contains("nothing new in"), "{}", session.log());

    // A person approves it; the next prompt's recall carries it, within the budget.
    let id = pending[0]["id"].to_string();
    ok(&haema(&store, &env, &["review", "approve", id.trim_matches('"')], None));
    let started = Instant::now();
    let out = haema(
        &store,
        &env,
        &["hook", "claude-code"],
        Some(&session.event("user_prompt_submit.json")),
    );
    let answer: Value = serde_json::from_str(&ok(&out)).unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "UserPromptSubmit");
    let context = answer["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(context.starts_with(haema_core::RECALL_HEADER), "{context}");
    assert!(
        context.contains("Lisbon") && context.contains("4 December"),
        "{context}"
    );
    assert!(haema_core::estimate_tokens(context) <= 300, "{context}");
    let stored = String::from_utf8_lossy(&std::fs::read(store.join("memory.db")).unwrap()).into_owned();
    assert!(!stored.contains("ghp_Zq8m") && !stored.contains("Dana"));

    // A turn more: only it is read.
    let mut transcript = std::fs::read_to_string(&session.transcript).unwrap();
    let turn = json!({"type": "user", "sessionId": "7f3c2a10", "message": {"role": "user", "content": "I switched from tea to matcha."}});
    transcript.push_str(&format!("{turn}\n"));
    std::fs::write(&session.transcript, transcript).unwrap();
    capture_now(&store, &env, &session, "stop.json");
    let sent = split_inputs(&llm);
    assert_eq!(sent.len(), 2);
    assert!(sent[1].contains("matcha") && !sent[1].contains("Lisbon"), "{}", sent[1]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_an_llm_nothing_is_stored_the_words_wait_and_are_read_once_one_is_connected() {
    let llm = FakeOpenAi::start(64).await;
    let (_dir, store) = store_with("review = \"auto\"\n");
    let session = Session::new();
    let log = session.log.display().to_string();
    let alone = [("HAEMA_HOOK_LOG", log.as_str())];
    capture_now(&store, &alone, &session, "stop.json");
    assert!(session.log().contains("wait for an LLM"), "{}", session.log());
    let status = ok(&haema(&store, &alone, &["status"], None));
    assert!(status.contains("captured  1 conversation(s)"), "{status}");
    let info = json_of(&haema(&store, &alone, &["status", "--json"], None));
    assert_eq!(
        (info["active"].as_u64(), info["captures_waiting"].as_u64()),
        (Some(0), Some(1)),
        "{info}"
    );
    let files = std::fs::read(store.join("memory.db")).unwrap();
    assert!(
        !String::from_utf8_lossy(&files).contains("Lisbon"),
        "nothing of the words is stored"
    );

    // With an LLM, another session's Stop reads the waiting one first, then its own.
    let other = session
        .event("stop.json")
        .replace("7f3c2a10-5b1e-4c8e-9d2a-3e4f5a6b7c8d", "second-session");
    let env = llm_env(&llm, &session.log);
    let env = refs(&env);
    ok(&haema(
        &store,
        &env,
        &["hook", "claude-code", "--foreground"],
        Some(&other),
    ));
    assert_eq!(
        split_inputs(&llm).len(),
        2,
        "the waiting session once, then the new one"
    );
    assert!(
        session
            .log()
            .contains("1 earlier sessions that waited for an LLM captured"),
        "{}",
        session.log()
    );
    let info = json_of(&haema(&store, &env, &["status", "--json"], None));
    assert_eq!(info["captures_waiting"], 0, "{info}");
    assert!(info["active"].as_u64().unwrap() >= 1, "{info}");
    capture_now(&store, &env, &session, "stop.json");
    assert_eq!(split_inputs(&llm).len(), 2, "nothing twice");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_the_llm_fails_nothing_is_stored_as_said_and_the_next_capture_reads_it_again() {
    let failing = ScriptedServer::start().await;
    for _ in 0..40 {
        failing.push(Reply::status(500, r#"{"error":{"message":"overloaded"}}"#));
    }
    let (_dir, store) = store_with("review = \"auto\"\n[llm]\nmax_retries = 0\n");
    let session = Session::new();
    let log = session.log.display().to_string();
    let base = format!("{}/v1", failing.url());
    let env = [
        ("HAEMA_LLM", "openai"),
        ("HAEMA_LLM_BASE_URL", base.as_str()),
        ("HAEMA_LLM_MODEL", "gpt-test"),
        ("HAEMA_HOOK_LOG", log.as_str()),
    ];
    capture_now(&store, &env, &session, "stop.json");
    assert!(session.log().contains("nothing captured"), "{}", session.log());
    let latest = json_of(&haema(&store, &env, &["latest", "--json"], None));
    assert_eq!(latest.as_array().unwrap().len(), 0, "{latest}");

    let llm = FakeOpenAi::start(64).await;
    let env = llm_env(&llm, &session.log);
    let env = refs(&env);
    capture_now(&store, &env, &session, "stop.json");
    let sent = split_inputs(&llm);
    assert_eq!(sent.len(), 1);
    assert!(
        sent[0].contains("moved to Lisbon"),
        "the words are read again: {}",
        sent[0]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capture_returns_at_once_and_finishes_in_the_background() {
    let llm = FakeOpenAi::start(64).await;
    let (_dir, store) = store_with(""); // the default policy, guarded
    let session = Session::new();
    let env = llm_env(&llm, &session.log);
    let env = refs(&env);
    let started = Instant::now();
    ok(&haema(
        &store,
        &env,
        &["hook", "claude-code"],
        Some(&session.event("stop.json")),
    ));
    let returned = started.elapsed();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !session.log().contains("new turns captured") && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        session.log().contains("capture started in the background"),
        "{}",
        session.log()
    );
    assert!(session.log().contains("new turns captured"), "{}", session.log());
    assert!(returned < Duration::from_secs(5), "the hook took {returned:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hook_with_a_hung_embedder_answers_nothing_within_its_deadline() {
    let hung = ScriptedServer::start().await;
    for _ in 0..10 {
        hung.push(Reply::json(&json!({})).delayed(Duration::from_secs(60)));
    }
    let (_dir, store) = store_with("[recall]\ntimeout_ms = 0\n[hooks]\ntimeout_ms = 800\n");
    let session = Session::new();
    let base = format!("{}/v1", hung.url());
    let log = session.log.display().to_string();
    let env = [
        ("HAEMA_EMBEDDER", "openai"),
        ("HAEMA_EMBED_BASE_URL", base.as_str()),
        ("HAEMA_EMBED_MODEL", "hash-test"),
        ("HAEMA_EMBED_DIMS", "64"),
        ("HAEMA_HOOK_LOG", log.as_str()),
    ];
    let started = Instant::now();
    let out = haema(
        &store,
        &env,
        &["hook", "claude-code"],
        Some(&session.event("user_prompt_submit.json")),
    );
    let took = started.elapsed();
    assert_eq!(ok(&out), "", "past the deadline the hook answers nothing");
    assert!(took < Duration::from_secs(5), "the hook took {took:?}");
    assert!(
        session.log().contains("past hooks.timeout_ms (800 ms)"),
        "{}",
        session.log()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_that_keeps_users_apart_captures_and_recalls_for_the_hooks_user_alone() {
    let llm = FakeOpenAi::start(64).await;
    let (_dir, store) = store_with("scope = \"per_user\"\nreview = \"auto\"\n");
    let session = Session::new();
    let env = llm_env(&llm, &session.log);
    let env = refs(&env);
    let stop = session.event("stop.json");
    ok(&haema(
        &store,
        &env,
        &["hook", "claude-code", "--foreground"],
        Some(&stop),
    ));
    assert!(
        session.log().contains("install the hooks with --user ID"),
        "{}",
        session.log()
    );
    ok(&haema(
        &store,
        &env,
        &["--user", "ann", "hook", "claude-code", "--foreground"],
        Some(&stop),
    ));
    let prompt = session.event("user_prompt_submit.json");
    let ann = ok(&haema(
        &store,
        &env,
        &["--user", "ann", "hook", "claude-code"],
        Some(&prompt),
    ));
    assert!(ann.contains("Lisbon"), "{ann}");
    let bob = ok(&haema(
        &store,
        &env,
        &["--user", "bob", "hook", "claude-code"],
        Some(&prompt),
    ));
    assert!(!bob.contains("Lisbon"), "{bob}");
}

#[test]
fn bad_input_is_logged_and_never_blocks_the_prompt() {
    let (_dir, store) = store_with("");
    let session = Session::new();
    let log = session.log.display().to_string();
    let env = [("HAEMA_HOOK_LOG", log.as_str())];
    for input in [
        "",
        "not json",
        "[1, 2]",
        r#"{"hook_event_name": "Notification", "session_id": "x"}"#,
    ] {
        let out = haema(&store, &env, &["hook", "claude-code"], Some(input));
        assert_eq!(ok(&out), "", "{input:?}");
    }
    let missing = r#"{"hook_event_name": "Stop", "session_id": "x"}"#;
    assert_eq!(
        ok(&haema(
            &store,
            &env,
            &["hook", "claude-code", "--foreground"],
            Some(missing)
        )),
        ""
    );
    let log = session.log();
    assert!(log.contains("not Claude Code's hook JSON"), "{log}");
    assert!(log.contains("not an event haema answers"), "{log}");
    assert!(log.contains("no transcript_path"), "{log}");
}

#[test]
fn install_merges_beside_other_hooks_twice_changes_nothing_and_uninstall_takes_only_haemas() {
    let home = tempfile::tempdir().unwrap();
    let project = home.path().join("project");
    let settings = project.join(".claude").join("settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let theirs = json!({
        "permissions": {"allow": ["Bash(npm test)"]},
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}
    });
    std::fs::write(&settings, serde_json::to_string_pretty(&theirs).unwrap()).unwrap();
    let (_dir, store) = store_with("");
    let home_var = home.path().display().to_string();
    let env = [("HOME", home_var.as_str())];
    let project_arg = project.display().to_string();
    let install = ["hooks", "install", "claude-code", "--project", project_arg.as_str()];

    let said = ok(&haema(&store, &env, &install, None));
    assert!(said.contains("haema's hooks are in"), "{said}");
    let once: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let again = ok(&haema(&store, &env, &install, None));
    assert!(again.contains("nothing changed"), "{again}");
    let twice: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(once, twice);
    assert_eq!(once["permissions"], theirs["permissions"]);
    assert_eq!(once["hooks"]["Stop"].as_array().unwrap().len(), 2);
    let command = once["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert!(
        command.contains("--store") && command.ends_with(" hook claude-code"),
        "{command}"
    );

    let user_scope = [install.as_slice(), &["--scope", "user"]].concat();
    ok(&haema(&store, &env, &user_scope, None));
    assert!(home.path().join(".claude/settings.json").exists());
    let status = ok(&haema(
        &store,
        &env,
        &["hooks", "status", "--project", project_arg.as_str()],
        None,
    ));
    assert!(
        status.contains("project") && status.contains("haema hooks on SessionStart"),
        "{status}"
    );
    assert!(
        status.contains("local") && status.contains("no haema hooks"),
        "{status}"
    );

    let uninstall = [install.as_slice(), &["--uninstall"]].concat();
    let said = ok(&haema(&store, &env, &uninstall, None));
    assert!(said.contains("Removed haema's 5 hooks"), "{said}");
    let after: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(after, theirs);

    // A settings file that is a link (dotfiles) is written where it points, and keeps its
    // permissions.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let real = home.path().join("dotfiles-settings.json");
        std::fs::write(&real, r#"{"env": {"API": "x"}}"#).unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
        let local = project.join(".claude").join("settings.local.json");
        std::os::unix::fs::symlink(&real, &local).unwrap();
        ok(&haema(
            &store,
            &env,
            &[install.as_slice(), &["--scope", "local"]].concat(),
            None,
        ));
        assert!(std::fs::symlink_metadata(&local).unwrap().file_type().is_symlink());
        let written: Value = serde_json::from_str(&std::fs::read_to_string(&real).unwrap()).unwrap();
        assert_eq!(written["env"]["API"], "x");
        assert!(written["hooks"]["Stop"].is_array(), "{written}");
        assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);
    }

    std::fs::write(&settings, "{ not json").unwrap();
    let out = haema(&store, &env, &install, None);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("not valid JSON"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{ not json");
}
