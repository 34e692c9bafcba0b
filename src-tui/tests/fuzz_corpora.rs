//! The fuzz corpora on stable: every file of `fuzz/corpus/<target>/` (the seeds, and every
//! input a fuzzer ever crashed on) through the very check its fuzz target runs
//! (`fuzz/checks/`), so `cargo test` keeps them passing without nightly or cargo-fuzz.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../fuzz/checks/mod.rs"]
mod checks;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Panics anywhere in the process, including on the blocking pool where the engine turns a
/// panicked task into an error (a fuzzer aborts on those too).
static PANICS: AtomicUsize = AtomicUsize::new(0);

fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_file_passes_its_fuzz_check() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        default(info);
    }));
    let (mut failures, mut count) = (Vec::new(), 0);
    for (target, check) in checks::TARGETS {
        let files = corpus(target);
        assert!(!files.is_empty(), "fuzz/corpus/{target}/ holds seeds");
        for file in files {
            let data = std::fs::read(&file).unwrap();
            let before = PANICS.load(Ordering::SeqCst);
            let result = std::panic::catch_unwind(|| check(&data));
            if result.is_err() || PANICS.load(Ordering::SeqCst) != before {
                failures.push(format!("{target}: {}", file.display()));
            }
            count += 1;
        }
    }
    eprintln!("{count} corpus files of {} targets checked", checks::TARGETS.len());
    assert!(failures.is_empty(), "panicked on:\n{}", failures.join("\n"));
}
