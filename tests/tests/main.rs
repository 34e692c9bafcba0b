//! Cross-crate tests (HTTP providers and the Hub on loopback, the local embedder, LoCoMo):
//! one test binary, a module per concern.

mod connection_check;
mod doc_links;
mod docs_settings;
mod gemini_http;
mod hub_download;
mod hub_shared_cache;
mod local_embedder;
mod locomo_dev;
mod openai_http;
