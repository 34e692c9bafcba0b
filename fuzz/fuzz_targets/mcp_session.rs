//! Fuzz target `mcp_session`: see `checks::mcp_session` (fuzz/checks/), which the stable test
//! `src-tui/tests/fuzz_corpora.rs` also runs on every file of `fuzz/corpus/mcp_session/`.
#![no_main]

#[path = "../checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::mcp_session(data));
