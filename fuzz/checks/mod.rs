//! What each fuzz target checks, shared by the targets (`fuzz/fuzz_targets/*.rs`, run with
//! `cargo +nightly fuzz run`) and by the stable test that feeds them every corpus file
//! (`src-tui/tests/fuzz_corpora.rs`). Each check takes the bytes a fuzzer made and must
//! never panic; the properties asserted here are what haema promises of its parsers.
//!
//! Targets that need a store keep one per thread in a temporary folder and start it over
//! every few dozen inputs, so that a long run does not slow down as the store grows.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a fuzz check stops loudly; not every target uses every check"
)]

mod mcp;
mod store;

use std::cell::RefCell;
use std::future::Future;

use haema_core::fuzzing::{StageAnswers, extract_object, stage_answers};
use haema_core::{CoreSections, Section};
use serde_json::Value;

pub use mcp::{mcp_params, mcp_session};
pub use store::{add_with_answer, import_export, import_items};

/// A target's check: the bytes a fuzzer made, never a panic.
pub type Check = fn(&[u8]);

/// Every target: its name (the folder of its corpus under `fuzz/corpus/`) and its check.
pub const TARGETS: &[(&str, Check)] = &[
    ("core_md", core_md),
    ("structured_answer", structured_answer),
    ("add_with_answer", add_with_answer),
    ("import_items", import_items),
    ("import_export", import_export),
    ("mcp_params", mcp_params),
    ("mcp_session", mcp_session),
];

thread_local! {
    static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    static SCRATCH: RefCell<std::collections::HashMap<&'static str, store::Scratch>> = RefCell::default();
    static SCRATCH_MCP: RefCell<Option<(tempfile::TempDir, haema_core::Memory, usize)>> = const { RefCell::new(None) };
}

/// Runs `future` to its end on this thread's runtime.
pub(crate) fn block_on<T>(future: impl Future<Output = T>) -> T {
    RUNTIME.with(|rt| rt.block_on(future))
}

/// core.md as people and models write it: `CoreSections::parse`, then what the engine does
/// with parsed sections (render, set a section).
pub fn core_md(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(sections) = CoreSections::parse(&text) else {
        return;
    };
    let rendered = sections.render();
    for section in Section::ALL {
        let mut edited = sections.clone();
        // A section's new text is whatever a person typed: here, the same bytes.
        if edited.set(section, &text).is_ok() {
            let _ = edited.render();
        }
        let body = sections.get(section);
        assert!(
            !body.starts_with('\n') && body.trim_end() == body,
            "{section}'s text is trimmed of blank lines: {body:?}"
        );
    }
    assert!(rendered.contains("# SOUL") && rendered.contains("# USER"));
}

/// A model's text as the providers read it (the JSON object in it), then the validation of
/// each stage's answer, as the pipeline calls them.
pub fn structured_answer(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Some(object) = extract_object(&text) {
        assert!(object.is_object(), "only an object is an answer");
        check_stages(&object);
    }
    // The validators see any JSON value a provider might hand on.
    if let Ok(value) = serde_json::from_slice::<Value>(data) {
        check_stages(&value);
    }
}

fn check_stages(answer: &Value) {
    let StageAnswers {
        pre_split,
        reconstruct,
        core_update,
    } = stage_answers(answer);
    if let Ok(items) = pre_split {
        assert_normalised(&items);
    }
    if let Ok((memories, _)) = reconstruct {
        assert!(!memories.is_empty(), "an accepted reconstruction holds memories");
        assert_normalised(&memories);
    }
    if let Ok((true, Some(markdown))) = core_update {
        let _ = CoreSections::parse(&markdown).map(|s| s.render());
    }
}

fn assert_normalised(items: &[String]) {
    let mut seen = std::collections::HashSet::new();
    for item in items {
        assert!(
            !item.is_empty() && item.trim() == item,
            "item {item:?} is trimmed and not empty"
        );
        assert!(seen.insert(item), "item {item:?} appears once");
    }
}
