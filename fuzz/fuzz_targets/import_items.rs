//! Fuzz target `import_items`: see `checks::import_items` (fuzz/checks/), which the stable test
//! `src-tui/tests/fuzz_corpora.rs` also runs on every file of `fuzz/corpus/import_items/`.
#![no_main]

#[path = "../checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::import_items(data));
