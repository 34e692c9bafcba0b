//! The arguments of `haema bench` and `haema eval`: measuring haema's speed and its search.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use haema_core::SearchMode;

use super::parse_mode;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Store sizes, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1000,10000,100000")]
    pub n: Vec<usize>,
    /// One JSON object a line instead of a table.
    #[arg(long)]
    pub json: bool,
    /// `synthetic`: instant 384-d bag-of-words vectors of synthetic facts; `local`: the
    /// local model's vectors of the LoCoMo turns, repeated with small edits up to n
    /// (search and vector recall only).
    #[arg(long, value_enum, default_value = "synthetic")]
    pub embedder: BenchEmbedder,
    /// LoCoMo folder (turns.jsonl, queries.jsonl) for --embedder local
    /// [default: ../shared/data/locomo-dev].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Keep the stores in this folder; a later run reuses a store of the same size.
    #[arg(long, value_name = "DIR")]
    pub work: Option<PathBuf>,
    /// Internal: open this store, search once and report (the "open" figure's new process).
    #[arg(long, value_name = "DIR", hide = true)]
    pub probe_open: Option<PathBuf>,
    /// Internal: the query of --probe-open.
    #[arg(long, hide = true)]
    pub probe_query: Option<String>,
    /// Keep each store in a new schema of this PostgreSQL database instead of a folder
    /// (dropped afterwards unless --work keeps them). The open is measured in a new
    /// process, which finds the password in PGPASSWORD or ~/.pgpass.
    #[arg(long, value_name = "URL")]
    pub postgres: Option<String>,
}

/// Where `haema bench` gets its vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchEmbedder {
    Synthetic,
    Local,
}

#[derive(Debug, Subcommand)]
pub enum EvalCommand {
    /// Recall@5, recall@10 and MRR per LoCoMo category (1-4) on turns.jsonl and queries.jsonl.
    Locomo(LocomoArgs),
}

#[derive(Debug, Args)]
pub struct LocomoArgs {
    /// Folder with turns.jsonl and queries.jsonl.
    #[arg(long, value_name = "DIR")]
    pub data: PathBuf,
    /// hybrid, vector or lexical.
    #[arg(long, default_value = "hybrid", value_parser = parse_mode)]
    pub mode: SearchMode,
    /// Hits asked of each search (at least 10 are asked for recall@10); MRR is over them.
    #[arg(short = 'k', default_value_t = 10)]
    pub k: usize,
    /// One JSON object per category, then the summary {"r5", "r10", "mrr", ...}.
    #[arg(long)]
    pub json: bool,
    /// Keep the stores in this folder instead of a temporary one; a later run with the
    /// same folder reuses them (turns already imported are not embedded again).
    #[arg(long, value_name = "DIR")]
    pub work: Option<PathBuf>,
    /// Keep each conversation's store in a new schema of this PostgreSQL database instead
    /// of a folder (the schemas are dropped afterwards unless --work keeps them).
    #[arg(long, value_name = "URL")]
    pub postgres: Option<String>,
}
