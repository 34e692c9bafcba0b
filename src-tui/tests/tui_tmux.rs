//! The real `haema` TUI in tmux (send-keys, capture-pane), with the LLM and embedder on
//! 127.0.0.1: add → review → approve → search, then quit with the terminal restored.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::*;
use haema_tests::FakeOpenAi;
use serde_json::json;

/// A tmux server of its own, killed on drop.
pub(crate) struct Tmux {
    socket: String,
}

impl Tmux {
    pub(crate) fn start(command: &str, width: u16, height: u16) -> Self {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let socket = format!("haema-test-{}-{n}", std::process::id());
        let this = Self { socket };
        let status = this
            .cmd()
            .args([
                "new-session",
                "-d",
                "-s",
                "t",
                "-x",
                &width.to_string(),
                "-y",
                &height.to_string(),
            ])
            .arg(command)
            .status()
            .expect("tmux is needed for this test (apt-get install tmux)");
        assert!(status.success());
        this
    }

    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket, "-f", "/dev/null"]);
        c
    }

    pub(crate) fn keys(&self, keys: &[&str]) {
        assert!(
            self.cmd()
                .args(["send-keys", "-t", "t"])
                .args(keys)
                .status()
                .unwrap()
                .success()
        );
    }

    pub(crate) fn text(&self, text: &str) {
        assert!(
            self.cmd()
                .args(["send-keys", "-t", "t", "-l", text])
                .status()
                .unwrap()
                .success()
        );
    }

    pub(crate) fn screen(&self) -> String {
        let out = self.cmd().args(["capture-pane", "-p", "-t", "t"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until haema has quit and tmux's session is gone.
    pub(crate) async fn wait_quit(&self) {
        let start = Instant::now();
        while self.cmd().args(["has-session", "-t", "t"]).status().unwrap().success() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "haema did not quit:\n{}",
                self.screen()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Esc, then a pause: a key sent right after it would arrive as alt-key.
    pub(crate) async fn escape(&self) {
        self.keys(&["Escape"]);
        tokio::time::sleep(Duration::from_millis(300)).await;
    }

    pub(crate) async fn wait_for(&self, needle: &str) -> String {
        self.wait_until(|screen| screen.contains(needle), &format!("`{needle}` did not appear"))
            .await
    }

    /// Waits until `needle` is off the screen (a count that goes down, a note that goes).
    pub(crate) async fn wait_gone(&self, needle: &str) -> String {
        self.wait_until(|screen| !screen.contains(needle), &format!("`{needle}` did not go"))
            .await
    }

    async fn wait_until(&self, done: impl Fn(&str) -> bool, failure: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(
                // Generous: CI runs this beside background builds on two cores.
                start.elapsed() < Duration::from_secs(60),
                "{failure}; the screen is:\n{screen}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").status();
    }
}

pub(crate) fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn add_review_approve_search_in_tmux() {
    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("agent");
    let mut env = openai_env(&fake.base_url());
    env.push(("HAEMA_REVIEW", "auto".into()));
    ok(&haema(
        &store,
        &refs(&env),
        &["add", "--items", "Ana likes green tea."],
        None,
    ));

    env.pop();
    env.push(("HAEMA_REVIEW", "review".into()));
    let exports: Vec<String> = env.iter().map(|(k, v)| format!("{k}={}", shell_quote(v))).collect();
    let command = format!(
        "env -i PATH=/usr/bin:/bin HF_HUB_OFFLINE=1 TERM=screen-256color {} {} --store {}",
        exports.join(" "),
        shell_quote(env!("CARGO_BIN_EXE_haema")),
        shell_quote(&store.display().to_string())
    );
    let tmux = Tmux::start(&command, 100, 30);
    tmux.wait_for("Ana likes green tea.").await;
    tmux.wait_for("1 memories").await;

    // One short sentence: it goes to reconstruction without a split call.
    fake.answer(
        "reconstruct",
        json!({"memories": ["Ana likes black tea now."], "coverage": "complete"}),
    );
    tmux.keys(&["a"]);
    tmux.wait_for("Add a memory").await;
    tmux.text("I drink black tea now, not green tea");
    tmux.keys(&["Enter"]);
    tmux.wait_for("waits for review").await;
    tmux.wait_for("Review (1)").await;

    tmux.keys(&["4"]);
    let review = tmux.wait_for("+ Ana likes black tea now.").await;
    assert!(review.contains("- Ana likes green tea."), "{review}");
    tmux.keys(&["y"]);
    tmux.wait_for("approved changeset").await;

    // History lists summaries; enter reads the changeset whole.
    tmux.keys(&["5"]);
    tmux.wait_for("committed by user").await;
    tmux.keys(&["Enter"]);
    let details = tmux.wait_for("Proposed memories").await;
    assert!(details.contains("+ Ana likes black tea now."), "{details}");
    tmux.keys(&["Escape"]);

    tmux.keys(&["/"]);
    tmux.text("black tea");
    tmux.keys(&["Enter"]);
    let found = tmux.wait_for("Hits · 1").await;
    assert!(found.contains("Ana likes black tea now."), "{found}");

    // Esc leaves the query (where q is a letter like any other), then q quits.
    tmux.escape().await;
    tmux.keys(&["q"]);
    tmux.wait_quit().await;
    let latest = contents(&json_of(&haema(&store, &refs(&env), &["latest", "--json"], None)));
    assert_eq!(latest, vec!["Ana likes black tea now."]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_key_bindings_are_explained_before_the_screen_opens() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("agent");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(store.join("haema.toml"), "[tui.keys]\naprove = \"y\"\n").unwrap();
    let command = format!(
        "env -i PATH=/usr/bin:/bin HF_HUB_OFFLINE=1 TERM=screen-256color {} --store {}; echo EXIT=$?; sleep 30",
        shell_quote(env!("CARGO_BIN_EXE_haema")),
        shell_quote(&store.display().to_string())
    );
    let tmux = Tmux::start(&command, 100, 30);
    let screen = tmux.wait_for("EXIT=").await;
    assert!(screen.contains("EXIT=2"), "{screen}");
    assert!(screen.contains("unknown action `aprove`"), "{screen}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_writers_show_live_and_editor_edits_are_saved() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("agent");
    ok(&haema(&store, &[], &["add", "--items", "First memory."], None));
    let editor = dir.path().join("editor.sh");
    std::fs::write(&editor, "#!/bin/sh\necho '- written in the editor' >> \"$1\"\n").unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&editor)
        .status()
        .unwrap();
    let command = format!(
        "env -i PATH=/usr/bin:/bin HF_HUB_OFFLINE=1 TERM=xterm-256color EDITOR={} {} --store {}",
        shell_quote(&editor.display().to_string()),
        shell_quote(env!("CARGO_BIN_EXE_haema")),
        shell_quote(&store.display().to_string())
    );
    let tmux = Tmux::start(&command, 80, 24);
    tmux.wait_for("First memory.").await;

    // Another process adds a memory: it appears without a key press.
    ok(&haema(
        &store,
        &[],
        &["add", "--items", "Second memory, from another process."],
        None,
    ));
    tmux.wait_for("Second memory, from another process.").await;

    // core.md edited outside: the Core view follows.
    tmux.keys(&["3"]);
    tmux.wait_for("SOUL is empty").await;
    let core = std::fs::read_to_string(store.join("core.md")).unwrap();
    std::fs::write(
        store.join("core.md"),
        core.replace("# SOUL\n", "# SOUL\nYou are patient.\n"),
    )
    .unwrap();
    tmux.wait_for("You are patient.").await;

    // $EDITOR on USER: the screen comes back and the section is saved.
    tmux.keys(&["G", "E"]);
    tmux.wait_for("saved USER").await;
    tmux.wait_for("- written in the editor").await;

    // Forget the newest memory from Latest: it asks, then it is gone for good.
    tmux.keys(&["1"]);
    tmux.wait_for("Second memory, from another process.").await;
    tmux.keys(&["g", "F"]);
    tmux.wait_for("This cannot be undone").await;
    tmux.keys(&["y"]);
    tmux.wait_for("forgot 1 memories for good").await;
    tmux.keys(&["q"]);
    let left = ok(&haema(&store, &[], &["latest", "--json"], None));
    assert!(!left.contains("Second memory"), "{left}");
    assert!(left.contains("First memory."), "{left}");
    let shown = ok(&haema(&store, &[], &["core", "show"], None));
    assert!(
        shown.contains("You are patient.") && shown.contains("- written in the editor"),
        "{shown}"
    );
}

/// Two machines on one PostgreSQL store: the TUI on one shows, without a key press, what
/// the other adds and the profile line it sets (LISTEN/NOTIFY), and approves a change
/// the other proposed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_machines_writes_show_live_on_a_postgres_store() {
    let Ok(url) = std::env::var("HAEMA_TEST_PG_URL") else {
        eprintln!("skipped: no PostgreSQL test server (HAEMA_TEST_PG_URL; .ci/run starts one)");
        return;
    };
    let homes = tempfile::tempdir().unwrap();
    let (home_a, home_b) = (homes.path().join("a"), homes.path().join("b"));
    let schema = format!(
        "tui_{}_{}",
        std::process::id(),
        std::time::UNIX_EPOCH.elapsed().unwrap().as_millis()
    );
    let store = std::path::PathBuf::from(format!("{url}?schema={schema}"));
    let b = [("HOME", home_b.display().to_string())];
    ok(&haema(
        &store,
        &refs(&b),
        &["add", "--items", "Written on machine B first."],
        None,
    ));
    let command = format!(
        "env -i PATH=/usr/bin:/bin HF_HUB_OFFLINE=1 TERM=xterm-256color HOME={} HAEMA_REVIEW=review {} --store {}",
        shell_quote(&home_a.display().to_string()),
        shell_quote(env!("CARGO_BIN_EXE_haema")),
        shell_quote(&store.display().to_string())
    );
    let tmux = Tmux::start(&command, 100, 30);
    tmux.wait_for("Written on machine B first.").await;
    ok(&haema(
        &store,
        &refs(&b),
        &["add", "--items", "Then B learned this."],
        None,
    ));
    tmux.wait_for("Then B learned this.").await;
    // A change B's agent proposes waits for review on A's screen.
    let mut review = b.to_vec();
    review.push(("HAEMA_REVIEW", "review".into()));
    ok(&haema(
        &store,
        &refs(&review),
        &["add", "--items", "Proposed from B."],
        None,
    ));
    tmux.wait_for("Review (1)").await;
    tmux.keys(&["4"]);
    tmux.wait_for("+ Proposed from B.").await;
    tmux.keys(&["y"]);
    tmux.wait_for("approved changeset").await;
    // core.md is in the database: B's profile edit shows in A's Core view.
    tmux.keys(&["3"]);
    tmux.wait_for("SOUL is empty").await;
    ok(&haema(
        &store,
        &refs(&b),
        &["core", "set", "SOUL", "--file", "-"],
        Some("You are patient."),
    ));
    tmux.wait_for("You are patient.").await;
    tmux.keys(&["q"]);
    let latest = contents(&json_of(&haema(&store, &refs(&b), &["latest", "--json"], None)));
    assert!(latest.contains(&"Proposed from B.".to_owned()), "{latest:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_opens_the_sample_in_the_tui_offline() {
    let dir = tempfile::tempdir().unwrap();
    let command = format!(
        "env -i PATH=/usr/bin:/bin HF_HUB_OFFLINE=1 TERM=screen-256color XDG_DATA_HOME={} {} demo",
        shell_quote(&dir.path().display().to_string()),
        shell_quote(env!("CARGO_BIN_EXE_haema")),
    );
    let tmux = Tmux::start(&command, 100, 30);
    tmux.wait_for("Review (2)").await;
    tmux.wait_for("demo · 15 memories").await;
    tmux.keys(&["4"]);
    let review = tmux.wait_for("+ Mina's teacher, Mr. Lee, moved the lessons to").await;
    assert!(
        review.contains("- Mina's teacher, Mr. Lee, gives lessons on"),
        "{review}"
    );
    tmux.keys(&["3"]);
    tmux.wait_for("calm, practical assistant").await;
    tmux.keys(&["q"]);
    assert!(dir.path().join("haema/demo/.haema-demo").is_file());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_fetches_the_model_in_the_background_then_searches_by_meaning() {
    let Some(model) = haema_tests::minilm_dir() else { return };
    let hub = haema_tests::FakeHub::serve_dir(&model).await;
    hub.delay_body("model.safetensors", Duration::from_millis(1500));
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("agent");
    let home = dir.path().join("hf");
    let home_str = home.display().to_string();
    // Added offline: by words only, for now.
    ok(&haema(
        &store,
        &[("HF_HUB_OFFLINE", "1"), ("HF_HOME", &home_str)],
        &["add", "--items", "I am allergic to peanuts"],
        None,
    ));
    let command = format!(
        "env -i PATH=/usr/bin:/bin TERM=screen-256color HF_ENDPOINT={} HF_HOME={} {} --store {}",
        shell_quote(hub.url()),
        shell_quote(&home_str),
        shell_quote(env!("CARGO_BIN_EXE_haema")),
        shell_quote(&store.display().to_string())
    );
    let tmux = Tmux::start(&command, 100, 30);
    tmux.wait_for("I am allergic to peanuts").await;
    tmux.wait_for("downloading the embedding model").await;
    tmux.wait_for("search finds memories by meaning").await;
    tmux.keys(&["/"]);
    tmux.text("food allergy");
    tmux.keys(&["Enter"]);
    let found = tmux.wait_for("Hits · 1").await;
    assert!(found.contains("I am allergic to peanuts"), "{found}");
    tmux.escape().await;
    tmux.keys(&["q"]);
}

/// The keystrokes that lost memories, typed as a person types them, at 80×24 without
/// colour on the demo store: a word typed on the results, Enter on a question, q with a
/// draft open, a rejection (z brings it back), y pressed twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_keystroke_loses_a_memory_in_tmux() {
    let dir = tempfile::tempdir().unwrap();
    let command = format!(
        "env -i PATH=/usr/bin:/bin HF_HUB_OFFLINE=1 NO_COLOR=1 TERM=screen-256color XDG_DATA_HOME={} {} demo",
        shell_quote(&dir.path().display().to_string()),
        shell_quote(env!("CARGO_BIN_EXE_haema")),
    );
    let tmux = Tmux::start(&command, 80, 24);
    tmux.wait_for("Review (2)").await;
    let store = dir.path().join("haema/demo");
    let count = || {
        contents(&json_of(&haema(
            &store,
            &[],
            &["latest", "--json", "--count", "100"],
            None,
        )))
        .len()
    };
    let before = count();

    // Search takes typing at once: "food allergy" goes to the query, not to commands.
    tmux.keys(&["2"]);
    tmux.text("peanut");
    tmux.wait_for("Hits · ").await;
    // On the results, "Fish" then Enter: F asks, i is no, Enter answers nothing.
    tmux.keys(&["Tab"]);
    tmux.wait_for("keys act on the selected one").await;
    tmux.text("Fish");
    tmux.keys(&["Enter"]);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(!tmux.screen().contains("forgot"), "{}", tmux.screen());
    assert_eq!(count(), before, "a typed word forgot a memory");
    for _ in 0..3 {
        tmux.escape().await;
    }

    // A draft, then q: it asks, and Enter keeps the draft.
    tmux.keys(&["1", "a"]);
    tmux.wait_for("Add a memory").await;
    tmux.text("The user wants figs");
    tmux.escape().await;
    tmux.keys(&["q"]);
    tmux.wait_for("Your draft").await;
    tmux.keys(&["Enter"]);
    tmux.keys(&["a"]);
    tmux.wait_for("The user wants figs").await;
    tmux.escape().await;

    // Reject, then z brings the change back to Review.
    tmux.keys(&["4"]);
    tmux.wait_for("+ Mina's teacher").await;
    tmux.keys(&["n"]);
    tmux.wait_for("Review (1)").await;
    tmux.keys(&["z"]);
    tmux.wait_for("waits in Review again").await;
    tmux.wait_for("Review (2)").await;
    // y twice: one approval, no false failure.
    tmux.keys(&["y", "y"]);
    tmux.wait_for("Review (1)").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!tmux.screen().contains("failed"), "{}", tmux.screen());

    tmux.keys(&["q"]);
    tmux.wait_for("Your draft").await;
    tmux.keys(&["y"]);
    tmux.wait_quit().await;
}
