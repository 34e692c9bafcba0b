//! Fuzz target `structured_answer`: see `checks::structured_answer` (fuzz/checks/), which the stable test
//! `src-tui/tests/fuzz_corpora.rs` also runs on every file of `fuzz/corpus/structured_answer/`.
#![no_main]

#[path = "../checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::structured_answer(data));
