//! haema-core's integration tests: one test binary, a module per concern (each was a
//! binary of its own; one binary links haema-core once instead of once per file).

mod common;

mod access_stats;
mod agent_changes;
mod agent_keys;
mod agent_state;
mod attributes;
mod changeset_summaries;
mod core_relevant;
mod edits;
mod embed_later;
mod embedder_outage;
mod filters;
mod forget;
mod forget_edges;
mod forget_review;
mod haema_contract;
mod hostile_corpus;
mod import_haema;
mod injection_rates;
mod insight;
mod keyring_secret_service;
mod llm_cost;
mod migrate_secrets;
mod postgres;
mod postgres_migrations;
mod postgres_tls;
mod reembed;
mod restore_screens;
mod review_flow;
mod scopes;
mod scores;
mod secrets;
mod shared_users;
mod store_files;
mod transfer;
mod write_screens;
