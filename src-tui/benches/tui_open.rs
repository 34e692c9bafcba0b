//! How fast the real `haema` TUI opens a large store, answers keys on it, and how much
//! memory it holds.
//!
//! `cargo bench -p haema-tui --bench tui_open` prints one JSON object. The store (100,000
//! memories, or `HAEMA_BENCH_MEMORIES`, in 1,000 changesets, 384-dimension vectors from an
//! embedder on 127.0.0.1) is built once under `target/bench-stores/` (`HAEMA_BENCH_STORE`
//! overrides). The binary runs in tmux; "first frame" is the time from starting it until
//! the screen shows the store's count and its newest memory. A keypress is timed from
//! `tmux send-keys` until the screen shows its answer: opening the newest memory's lineage
//! (a store read) and switching to History and back. tmux's own start-up (`echo`) and key
//! round trip (a key echoed by the terminal) are measured the same way and reported beside
//! them. Resident memory is read from `/proc/<pid>/status`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use haema_core::{ImportItem, Memory, Settings};
use haema_tests::FakeOpenAi;
use serde_json::json;

const RUNS: usize = 7;

/// Memories in the store: `HAEMA_BENCH_MEMORIES`, 100,000 by default.
fn memories() -> usize {
    std::env::var("HAEMA_BENCH_MEMORIES")
        .ok()
        .and_then(|v| v.replace(['_', ','], "").parse().ok())
        .unwrap_or(100_000)
}

/// Memories per changeset: the store always has 1,000 changesets (or one per memory).
fn per_changeset(memories: usize) -> usize {
    memories.div_ceil(1_000).max(1)
}

fn text(i: usize) -> String {
    const WHO: [&str; 6] = [
        "The user",
        "Ana",
        "The user's sister",
        "Mina",
        "The team lead",
        "The landlord",
    ];
    const WHAT: [&str; 8] = [
        "likes green tea",
        "runs on Sunday mornings",
        "is allergic to peanuts",
        "plays the cello",
        "prefers short answers",
        "works from Seoul",
        "reads science fiction",
        "keeps a practice journal",
    ];
    const WHEN: [&str; 5] = [
        "since 2019",
        "most weekends",
        "after work",
        "in winter",
        "when travelling",
    ];
    let h = i.wrapping_mul(2_654_435_761);
    format!(
        "Note {i}: {} {} {}.",
        WHO[h % WHO.len()],
        WHAT[(h >> 8) % WHAT.len()],
        WHEN[(h >> 16) % WHEN.len()]
    )
}

fn settings(base_url: &str) -> Settings {
    let mut s = Settings::default();
    s.embedder.provider = Some(haema_core::config::ProviderKind::Openai);
    s.embedder.base_url = Some(base_url.to_owned());
    s.embedder.model = Some("hash-bench".into());
    s.embedder.dims = Some(384);
    s
}

async fn build_store(dir: &Path, memories: usize) {
    if Memory::peek(dir).await.is_ok_and(|i| i.active == memories) {
        return;
    }
    let _ = std::fs::remove_dir_all(dir);
    eprintln!("building a {memories}-memory store in {} (once)...", dir.display());
    let fake = FakeOpenAi::start(384).await;
    let memory = Memory::open(dir, settings(&fake.base_url())).await.unwrap();
    let start_ms = 1_700_000_000_000i64;
    let per = per_changeset(memories);
    for chunk in 0..memories.div_ceil(per) {
        let items = (chunk * per..((chunk + 1) * per).min(memories))
            .map(|i| ImportItem {
                content: text(i),
                timestamp_ms: Some(start_ms + i64::try_from(i).unwrap() * 60_000),
                ..Default::default()
            })
            .collect();
        memory.import_items(items, "bench").await.unwrap();
    }
    assert_eq!(memory.info().await.unwrap().active, memories);
}

struct Tmux(String);

impl Tmux {
    fn start(command: &str) -> Self {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let this = Self(format!("haema-bench-{}-{n}", std::process::id()));
        let ok = this
            .cmd()
            .args(["new-session", "-d", "-s", "b", "-x", "120", "-y", "40", command])
            .status()
            .expect("tmux is needed (apt-get install tmux)")
            .success();
        assert!(ok);
        this
    }

    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.0, "-f", "/dev/null"]);
        c
    }

    fn screen(&self) -> String {
        let out = self.cmd().args(["capture-pane", "-p", "-t", "b"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn wait_for(&self, needles: &[&str]) {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if needles.iter().all(|n| screen.contains(n)) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "{needles:?} not shown:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    fn keys(&self, keys: &[&str]) {
        self.cmd().args(["send-keys", "-t", "b"]).args(keys).status().unwrap();
    }

    fn pid(&self) -> u32 {
        let out = self
            .cmd()
            .args(["display", "-p", "-t", "b", "#{pane_pid}"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").status();
    }
}

/// `VmRSS` and `VmHWM` of a process in MB.
fn rss_mb(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn command(store: &Path, embed_url: &str) -> String {
    format!(
        "exec env -i PATH=/usr/bin:/bin TERM=screen-256color HAEMA_EMBEDDER=openai HAEMA_EMBED_BASE_URL={embed_url} HAEMA_EMBED_MODEL=hash-bench HAEMA_EMBED_DIMS=384 {} --store {}",
        env!("CARGO_BIN_EXE_haema"),
        store.display()
    )
}

/// Milliseconds from sending `keys` until the screen shows `needle` (or, when `gone`, no
/// longer shows it).
fn key_ms(tmux: &Tmux, keys: &[&str], needle: &str, gone: bool) -> f64 {
    let start = Instant::now();
    tmux.keys(keys);
    loop {
        if tmux.screen().contains(needle) != gone {
            return start.elapsed().as_secs_f64() * 1000.0;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{needle:?} never changed after {keys:?}"
        );
    }
}

/// The timed keypresses, in the order [`open_once`] sends them.
const KEYS: [&str; 4] = [
    "enter: open lineage",
    "esc: close it",
    "5: History",
    "1: back to Latest",
];

/// What one start of the TUI measured.
struct Opened {
    first_frame_ms: f64,
    rss_mb: f64,
    /// Peak resident MB after paging and visiting every view (when browsing).
    peak_mb: f64,
    /// Key answers in ms: lineage open, lineage close, to History, back to Latest.
    keys_ms: Vec<f64>,
}

/// Starts `command` in tmux and waits for its first frame showing `needles`; with `keys`,
/// times keypresses on it; with `browse`, pages and visits every view.
fn open_once(command: &str, needles: &[&str], keys: bool, browse: bool) -> Opened {
    let start = Instant::now();
    let tmux = Tmux::start(command);
    tmux.wait_for(needles);
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let pid = tmux.pid();
    let (rss, _) = rss_mb(pid);
    let mut keys_ms = Vec::new();
    if keys {
        keys_ms.push(key_ms(&tmux, &["Enter"], "Lineage ·", false));
        keys_ms.push(key_ms(&tmux, &["Escape"], "Lineage ·", true));
        keys_ms.push(key_ms(&tmux, &["5"], "History ·", false));
        keys_ms.push(key_ms(&tmux, &["1"], "Latest ·", false));
    }
    let mut peak = 0.0;
    if browse {
        for _ in 0..5 {
            tmux.keys(&["G"]);
            std::thread::sleep(Duration::from_millis(300));
        }
        for (key, shown) in [
            ("5", "History ·"),
            ("4", "Review"),
            ("3", "core.md"),
            ("6", "Stores in"),
        ] {
            tmux.keys(&[key]);
            tmux.wait_for(&[shown]);
        }
        tmux.keys(&["2", "/"]);
        tmux.keys(&["-l", "green tea"]);
        tmux.keys(&["Enter"]);
        tmux.wait_for(&["Hits ·"]);
        tmux.keys(&["1"]);
        std::thread::sleep(Duration::from_millis(300));
        peak = rss_mb(pid).1;
    }
    tmux.keys(&["q"]);
    Opened {
        first_frame_ms: ms,
        rss_mb: rss,
        peak_mb: peak,
        keys_ms,
    }
}

/// The terminal's own key round trip: a key echoed by `cat`'s terminal, in ms.
fn echo_key_ms() -> f64 {
    let tmux = Tmux::start("cat");
    std::thread::sleep(Duration::from_millis(100));
    key_ms(&tmux, &["-l", "k"], "k", false)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let memories = memories();
    let store = std::env::var_os("HAEMA_BENCH_STORE").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../target/bench-stores/tui-{memories}")),
        PathBuf::from,
    );
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let built = Instant::now();
    runtime.block_on(build_store(&store, memories));
    let build_s = built.elapsed().as_secs_f64();
    // The embedder the search step of the browsing run calls.
    let fake = runtime.block_on(FakeOpenAi::start(384));
    let url = fake.base_url();
    let empty = tempfile::tempdir().unwrap();
    let newest = text(memories - 1);
    let count = format!("{} memories", haema_tui::tui::views::thousands(memories));

    let mut echo = Vec::new();
    let mut echo_keys = Vec::new();
    let (mut full, mut small, mut rss, mut peak) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut keys: Vec<Vec<f64>> = vec![Vec::new(); KEYS.len()];
    for run in 0..RUNS {
        echo.push(open_once("echo tmux-ready; sleep 5", &["tmux-ready"], false, false).first_frame_ms);
        echo_keys.push(echo_key_ms());
        let opened = open_once(&command(&store, &url), &[&count, &newest], true, run == 0);
        full.push(opened.first_frame_ms);
        rss.push(opened.rss_mb);
        for (times, ms) in keys.iter_mut().zip(&opened.keys_ms) {
            times.push(*ms);
        }
        if run == 0 {
            peak.push(opened.peak_mb);
        }
        small.push(
            open_once(
                &command(empty.path(), &url),
                &["0 memories", "No memories yet"],
                false,
                false,
            )
            .first_frame_ms,
        );
    }
    let db_mb = std::fs::metadata(store.join("memory.db")).map_or(0.0, |m| m.len() as f64 / 1e6);
    let report = json!({
        "store": {"memories": memories, "changesets": memories.div_ceil(per_changeset(memories)), "dims": 384, "db_mb": db_mb.round(), "build_s": build_s.round()},
        "runs": RUNS,
        "first_frame_ms": {"median": median(full.clone()), "runs": full},
        "keypress_ms": KEYS.iter().zip(&keys).map(|(name, times)| {
            (name.to_string(), json!({"median": median(times.clone()), "max": times.iter().copied().fold(0.0, f64::max), "runs": times}))
        }).collect::<serde_json::Map<_, _>>(),
        "tmux_key_echo_ms": {"median": median(echo_keys.clone()), "runs": echo_keys},
        "first_frame_ms_empty_store": {"median": median(small.clone()), "runs": small},
        "tmux_echo_ms": {"median": median(echo.clone()), "runs": echo},
        "rss_mb_at_first_frame": {"median": median(rss.clone()), "runs": rss},
        "peak_rss_mb_after_paging_and_every_view": peak[0],
        "targets": {"first_frame_ms": 200, "first_frame_ms_1m": 100, "keypress_ms_1m": 16, "rss_mb": 80}
    });
    println!("{}", serde_json::to_string_pretty(&report).unwrap());
}
