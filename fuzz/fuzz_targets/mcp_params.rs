//! Fuzz target `mcp_params`: see `checks::mcp_params` (fuzz/checks/), which the stable test
//! `src-tui/tests/fuzz_corpora.rs` also runs on every file of `fuzz/corpus/mcp_params/`.
#![no_main]

#[path = "../checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::mcp_params(data));
