//! Processes killed (SIGKILL: no destructor, no flush) at random moments while they add,
//! approve, revert, edit core and forget, one after another on one store. After each kill
//! the next command opens the store (finishing what was interrupted) and the store must be
//! whole: SQLite's integrity check passes, every changeset is applied fully or not at all,
//! core.md is the newest committed core version, no memory is lost or duplicated, and what
//! a command reported done is there.
//!
//! `HAEMA_CRASH_RUNS` (default 30) sets the number of commands; `HAEMA_CRASH_SEED` replays
//! a run (the seed is printed first).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use crate::store_checks;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use haema_tests::FakeOpenAi;
use serde_json::Value;

/// A small deterministic generator (SplitMix64), so that a seed replays a run exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn env_number(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    Some(
        value
            .parse()
            .unwrap_or_else(|_| panic!("{name}={value} is not a number")),
    )
}

/// The word that marks every text of run `run`, so a forget can name it.
fn tag(run: usize) -> String {
    format!("zq{run}k")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Op {
    Add,
    AddForReview,
    Approve,
    Revert,
    CoreSet,
    Forget,
}

/// What the commands that finished said they did.
#[derive(Default)]
struct Log {
    /// Texts an add reported stored (committed or waiting for review), with its changeset.
    added: HashMap<String, i64>,
    /// Runs whose tag a forget was started on (finished or killed).
    forget_started: Vec<String>,
    /// Tags a forget reported forgotten.
    forgotten: Vec<String>,
    /// Changesets an approve reported committed, and a revert reported reverted.
    approved: Vec<i64>,
    reverted: Vec<i64>,
}

/// The command for `op` in run `run`: arguments, standard input, review policy.
fn command(op: Op, run: usize, rng: &mut Rng, store: &Path, log: &Log) -> (Vec<String>, String, &'static str) {
    let snap = store_checks::snapshot(store);
    let ids = |rng: &mut Rng, status: &str, kind: &str| -> Option<i64> {
        let mut found: Vec<i64> = snap
            .changes
            .values()
            .filter(|c| c.status == status && c.kind == kind && c.reverted_by.is_none())
            .map(|c| c.id)
            .collect();
        found.sort_unstable();
        (!found.is_empty()).then(|| found[usize::try_from(rng.below(found.len() as u64)).unwrap()])
    };
    let tagged = |n: u64| {
        let mut args = vec!["add".to_owned(), "--json".to_owned(), "--items".to_owned()];
        args.extend((0..n).map(|i| format!("Run {run} fact {i}: the {} note about item {i}", tag(run))));
        args
    };
    let count = 1 + rng.below(40);
    match op {
        Op::Add => (tagged(count), String::new(), "guarded"),
        Op::AddForReview => (tagged(count), String::new(), "review"),
        Op::Approve => match ids(rng, "pending", "add") {
            Some(id) => (
                vec!["review".into(), "approve".into(), id.to_string(), "--yes".into()],
                String::new(),
                "guarded",
            ),
            None => (tagged(count), String::new(), "review"),
        },
        Op::Revert => match ids(rng, "committed", "add") {
            Some(id) => (
                vec!["revert".into(), id.to_string(), "--json".into()],
                String::new(),
                "guarded",
            ),
            None => (tagged(count), String::new(), "guarded"),
        },
        Op::CoreSet => {
            let section = ["SOUL", "TOOLS", "RULE", "USER"][usize::try_from(rng.below(4)).unwrap()];
            let text = format!("- Run {run} note: the {} rule\n- kept in {section}\n", tag(run));
            (
                vec!["core".into(), "set".into(), section.into(), "--file".into(), "-".into()],
                text,
                "guarded",
            )
        }
        Op::Forget => {
            let earlier: Vec<&String> = log.added.keys().collect();
            let phrase = match earlier.is_empty() {
                true => tag(run),
                false => {
                    let text = earlier[usize::try_from(rng.below(earlier.len() as u64)).unwrap()];
                    text.split_whitespace()
                        .find(|w| w.starts_with("zq"))
                        .unwrap()
                        .to_owned()
                }
            };
            (
                vec!["forget".into(), "--mentioning".into(), phrase, "--yes".into()],
                String::new(),
                "guarded",
            )
        }
    }
}

fn pick(rng: &mut Rng) -> Op {
    match rng.below(100) {
        0..25 => Op::Add,
        25..45 => Op::AddForReview,
        45..62 => Op::Approve,
        62..75 => Op::Revert,
        75..90 => Op::CoreSet,
        _ => Op::Forget,
    }
}

/// Every file in `dir` that holds `needle`, letter case ignored.
fn files_containing(dir: &Path, needle: &str) -> Vec<String> {
    let needle = needle.to_lowercase().into_bytes();
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_file())
        .filter(|e| {
            let bytes = std::fs::read(e.path()).unwrap().to_ascii_lowercase();
            bytes.windows(needle.len()).any(|w| w == needle.as_slice())
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn processes_killed_at_random_moments_leave_a_whole_store() {
    let runs = usize::try_from(env_number("HAEMA_CRASH_RUNS").unwrap_or(30)).unwrap();
    let seed = env_number("HAEMA_CRASH_SEED").unwrap_or_else(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap();
        u64::try_from(now.as_nanos() % u128::from(u64::MAX)).unwrap()
    });
    eprintln!("crash test: {runs} runs, seed {seed} (replay: HAEMA_CRASH_SEED={seed} HAEMA_CRASH_RUNS={runs})");
    let mut rng = Rng(seed);
    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let base_env = openai_env(&fake.base_url());
    let with_policy = |policy: &str| {
        let mut env = base_env.clone();
        env.push(("HAEMA_REVIEW", policy.to_owned()));
        env
    };
    ok(&haema(&store, &refs(&with_policy("guarded")), &["status"], None));

    let started = Instant::now();
    let mut log = Log::default();
    let mut tally: BTreeMap<(Op, &str), usize> = BTreeMap::new();
    for run in 0..runs {
        let op = pick(&mut rng);
        let (args, stdin, policy) = command(op, run, &mut rng, &store, &log);
        // Most commands here take 30-300 ms; a spread up to 400 ms kills some at their
        // start, many in their middle and lets the rest finish.
        let delay = Duration::from_millis(rng.below(400));
        let env = with_policy(policy);
        let mut child = Command::new(env!("CARGO_BIN_EXE_haema"))
            .env_clear()
            .env("HF_HUB_OFFLINE", "1")
            .envs(refs(&env))
            .arg("--store")
            .arg(&store)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut input = child.stdin.take().unwrap();
            let _ = input.write_all(stdin.as_bytes());
        }
        let deadline = Instant::now() + delay;
        while Instant::now() < deadline && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let finished = child.try_wait().unwrap().is_some();
        if !finished {
            child.kill().unwrap();
        }
        let output = child.wait_with_output().unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        );
        let what = format!(
            "run {run} (seed {seed}): {op:?} `haema {}` after {delay:?}",
            args.join(" ")
        );
        let outcome = match (finished, output.status.success()) {
            (false, _) => "killed",
            (true, true) => "done",
            (true, false) => "refused",
        };
        *tally.entry((op, outcome)).or_default() += 1;
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert!(
            !stderr.to_lowercase().contains("database is locked"),
            "{what}: {stderr}"
        );
        if args[0] == "forget" {
            log.forget_started.push(args[2].clone());
        }
        if finished && output.status.success() {
            record(&mut log, &args, &stdout);
        }

        // The next command opens the store and finishes what the kill interrupted.
        let after = haema(&store, &refs(&with_policy("guarded")), &["status", "--json"], None);
        assert!(
            after.status.success(),
            "{what}: the next command fails: {}",
            stderr_of(&after)
        );
        let snap = std::panic::catch_unwind(|| store_checks::assert_whole(&store))
            .unwrap_or_else(|e| panic!("{what} ({outcome}): {}", panic_text(&e)));
        check_log(&snap, &log, &store, &what);
    }
    eprintln!(
        "crash test: {runs} runs in {:.1} s, seed {seed}; by command and outcome: {tally:?}",
        started.elapsed().as_secs_f64()
    );
    let killed: usize = tally.iter().filter(|((_, o), _)| *o == "killed").map(|(_, n)| n).sum();
    assert!(killed > 0 || runs < 5, "some commands were killed");
}

fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn panic_text(e: &Box<dyn std::any::Any + Send>) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

/// Notes what a command that finished reported.
fn record(log: &mut Log, args: &[String], stdout: &str) {
    match args[0].as_str() {
        "add" => {
            let out: Value = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("add --json ({e}): {stdout}"));
            if let Some(id) = out["changeset"].as_i64() {
                for text in &args[3..] {
                    log.added.insert(text.clone(), id);
                }
            }
        }
        "forget" => log.forgotten.push(args[2].clone()),
        "review" => log.approved.push(args[2].parse().unwrap()),
        "revert" => log.reverted.push(args[1].parse().unwrap()),
        _ => {}
    }
}

/// What the finished commands reported is in the store, exactly once.
fn check_log(snap: &store_checks::Snapshot, log: &Log, store: &Path, what: &str) {
    for (text, changeset) in &log.added {
        let count = snap.count_of(text);
        let forget_named = log.forget_started.iter().any(|t| text.contains(t.as_str()));
        let rejected = snap.changes.get(changeset).is_some_and(|c| c.status == "rejected");
        assert!(
            count == 1 || (count == 0 && (forget_named || rejected)),
            "{what}: {text:?} (changeset {changeset}) is stored {count} times"
        );
    }
    let mut contents: HashMap<&str, usize> = HashMap::new();
    for m in snap.memories.iter().filter(|m| !m.content.is_empty()) {
        *contents.entry(m.content.as_str()).or_default() += 1;
    }
    let repeated: Vec<_> = contents.iter().filter(|(_, n)| **n > 1).collect();
    assert!(repeated.is_empty(), "{what}: memories stored twice: {repeated:?}");
    for phrase in &log.forgotten {
        assert_eq!(
            files_containing(store, phrase),
            Vec::<String>::new(),
            "{what}: {phrase} forgotten"
        );
    }
    for id in &log.approved {
        let status = snap.changes.get(id).map(|c| c.status.as_str());
        assert!(
            matches!(status, Some("committed" | "reverted")),
            "{what}: approved {id} is {status:?}"
        );
    }
    for id in &log.reverted {
        let status = snap.changes.get(id).map(|c| c.status.as_str());
        assert_eq!(status, Some("reverted"), "{what}: reverted {id}");
    }
}
