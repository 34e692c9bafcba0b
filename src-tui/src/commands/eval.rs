//! `haema eval locomo`: recall@5, recall@10 and MRR of the search on a LoCoMo split, each
//! conversation in its own temporary store (see `haema_core::eval`).

use std::io::{IsTerminal, Write};

use anyhow::Result;
use haema_core::eval::{self, Dataset, EvalOptions, EvalReport, Progress};
use haema_core::{SearchMode, Settings};
use serde_json::json;

use crate::UsageError;
use crate::cli::{EvalCommand, LocomoArgs};
use crate::output;

pub async fn run(command: EvalCommand) -> Result<()> {
    match command {
        EvalCommand::Locomo(args) => locomo(args).await,
    }
}

async fn locomo(args: LocomoArgs) -> Result<()> {
    if args.k == 0 {
        return Err(UsageError("-k must be at least 1".into()).into());
    }
    let data = Dataset::read(&args.data).map_err(|e| UsageError(e.to_string()))?;
    let (temp, work) = super::work_folder("haema-eval-", args.work.as_deref())?;
    // The settings a new store would get: defaults and the HAEMA_* environment (the
    // temporary folder has no haema.toml).
    let settings = Settings::load(temp.path())?;
    let embedder = match args.mode {
        SearchMode::Lexical => None,
        SearchMode::Hybrid | SearchMode::Vector => Some(super::model::build_embedder(&settings).await?.ok_or_else(|| {
            UsageError(format!(
                "--mode {} needs an embedder, and none is configured; set HAEMA_EMBEDDER (for example HAEMA_EMBEDDER=local) or use --mode lexical",
                args.mode.as_str()
            ))
        })?),
    };
    // With --postgres each conversation's folder is a link to a schema of its own.
    let kind = if embedder.is_some() { "vectors" } else { "lexical-only" };
    let links: Vec<std::path::PathBuf> = match &args.postgres {
        Some(url) => (0..data.conversations.len())
            .map(|index| {
                let dir = work.join(kind).join(format!("conversation-{index}"));
                let separator = if url.contains('?') { '&' } else { '?' };
                let schema = format!("haema_eval_{}_{index}", kind.replace('-', "_"));
                haema_core::link_postgres_store(&dir, &format!("{url}{separator}schema={schema}"))?;
                Ok(dir)
            })
            .collect::<Result<_>>()?,
        None => Vec::new(),
    };
    let mut line = ProgressLine::new();
    let report = eval::run_locomo(
        &data,
        &settings,
        embedder,
        &work,
        EvalOptions {
            mode: args.mode,
            k: args.k,
        },
        |p| line.show(&p),
    )
    .await;
    if args.work.is_none() {
        for dir in &links {
            haema_core::drop_postgres_store(dir)?;
        }
    }
    let report = report?;
    line.finish(&report);
    if args.json {
        print_json(&report)
    } else {
        output::print(&table(&report))
    }
}

/// One JSON object per line: a category each, then the summary over categories 1–4.
fn print_json(report: &EvalReport) -> Result<()> {
    let mut text = String::new();
    for category in &report.categories {
        text.push_str(&serde_json::to_string(category)?);
        text.push('\n');
    }
    let overall = &report.overall;
    let summary = json!({
        "r5": overall.r5,
        "r10": overall.r10,
        "mrr": overall.mrr,
        "queries": overall.queries,
        "unscored": report.unscored,
        "mode": report.mode,
        "k": report.k,
        "conversations": report.conversations,
        "memories": report.memories,
        "search_ms_median": report.search_ms_median,
        "notice": report.notice,
    });
    text.push_str(&serde_json::to_string(&summary)?);
    text.push('\n');
    output::print(&text)
}

/// A table for people.
fn table(report: &EvalReport) -> String {
    let mut out = format!(
        "LoCoMo retrieval, {} search, {} conversations, {} memories (recall = share of questions with an evidence turn in the top k)\n\n",
        report.mode.as_str(),
        report.conversations,
        report.memories
    );
    out.push_str(&format!(
        "{:<16} {:>7} {:>7} {:>7} {:>7}\n",
        "category", "queries", "R@5", "R@10", "MRR"
    ));
    let row = |label: String, s: &eval::Scores| {
        format!(
            "{label:<16} {:>7} {:>7.1} {:>7.1} {:>7.3}\n",
            s.queries, s.r5, s.r10, s.mrr
        )
    };
    for c in &report.categories {
        out.push_str(&row(format!("{} {}", c.category, c.name), &c.scores));
    }
    out.push_str(&row("all (1-4)".into(), &report.overall));
    if report.unscored > 0 {
        out.push_str(&format!(
            "\n{} questions without evidence turns were not scored.\n",
            report.unscored
        ));
    }
    out
}

/// The progress line on standard error: rewritten in place on a terminal, one line per
/// conversation otherwise.
struct ProgressLine {
    terminal: bool,
    last: Option<(usize, &'static str)>,
}

impl ProgressLine {
    fn new() -> Self {
        Self {
            terminal: std::io::stderr().is_terminal(),
            last: None,
        }
    }

    fn show(&mut self, progress: &Progress) {
        let (conversation, index, of, done, total, what) = match progress {
            Progress::Importing {
                conversation,
                index,
                of,
                done,
                total,
            } => (conversation, index, of, done, total, "embedding turns"),
            Progress::Searching {
                conversation,
                index,
                of,
                done,
                total,
            } => (conversation, index, of, done, total, "searching questions"),
        };
        let text = format!("eval: {conversation} ({}/{of}) {what} {done}/{total}", index + 1);
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r\x1b[2K{text}");
            let _ = err.flush();
        } else if self.last != Some((*index, what)) {
            let _ = writeln!(err, "{text}");
        }
        self.last = Some((*index, what));
    }

    fn finish(&mut self, report: &EvalReport) {
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r\x1b[2K");
        }
        let _ = writeln!(
            err,
            "eval: {} questions in {} conversations; median search {:.1} ms",
            report.overall.queries, report.conversations, report.search_ms_median
        );
        if let Some(notice) = &report.notice {
            let _ = writeln!(err, "eval: note: {notice}");
        }
    }
}
