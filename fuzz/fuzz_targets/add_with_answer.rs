//! Fuzz target `add_with_answer`: see `checks::add_with_answer` (fuzz/checks/), which the stable test
//! `src-tui/tests/fuzz_corpora.rs` also runs on every file of `fuzz/corpus/add_with_answer/`.
#![no_main]

#[path = "../checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::add_with_answer(data));
