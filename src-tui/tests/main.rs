//! The `haema` binary's integration tests (CLI, MCP, TUI in tmux, crashes, faults): one test
//! binary, a module per concern, so the test build links haema-core and its dependencies once.

mod common;
mod store_checks;

mod agent_key_cli;
mod attributes_cli;
mod bench_cli;
mod claude_memory_import;
mod cli;
mod cli_first_use;
mod cli_providers;
mod concurrent_writers;
mod crash_kill;
mod edits_cli;
mod eval_cli;
mod faults;
mod forget_cli;
mod full_disk;
mod fuzz_corpora;
mod hooks_claude_code;
mod hooks_warm_recall;
mod keys_never_leak;
mod llm_deadline;
mod mcp_http;
mod mcp_http_servers;
mod mcp_postgres;
mod mcp_stdio;
mod mcp_surfaces;
mod pg_cli;
mod scopes_cli;
mod setup_cli;
mod state_cli;
mod store_choice;
mod store_files;
mod surface_defaults;
mod surfaces_cli;
mod tui_journeys;
mod tui_tmux;
mod write_screens_cli;
