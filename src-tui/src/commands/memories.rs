//! add, search, latest, recall, status.

use std::collections::BTreeMap;

use anyhow::Result;
use haema_core::{
    AddInput, AddStatus, LatestOptions, LatestStart, Memory, MemoryAttributes, MemoryFilter, RecallOptions,
    SearchOptions,
};
use serde_json::{Value, json};

use super::read_source;
use crate::UsageError;
use crate::cli::{AddArgs, AttributeArgs, FilterArgs, LatestArgs, RecallArgs, SearchArgs};
use crate::output::{self, one_line, print, utc};

pub async fn add(memory: &Memory, args: AddArgs) -> Result<()> {
    let input = match (args.text, args.items) {
        (_, Some(items)) if items == ["-"] => {
            AddInput::Items(read_source("-".as_ref())?.lines().map(str::to_owned).collect())
        }
        (_, Some(items)) => AddInput::Items(items),
        (Some(text), None) if text == "-" => AddInput::Text(read_source("-".as_ref())?),
        (Some(text), None) => AddInput::Text(text),
        (None, None) => {
            return Err(UsageError("give a TEXT, --items ITEM..., or - to read standard input".into()).into());
        }
    };
    let outcome = memory.add_with(input, attributes(args.attributes)?).await?;
    for warning in &outcome.warnings {
        eprintln!("haema: warning: {warning}");
    }
    let status = match outcome.status {
        AddStatus::Committed => "committed",
        AddStatus::Pending => "pending",
        AddStatus::Noop => "noop",
        AddStatus::Stale => "stale",
    };
    if args.json {
        return output::json(&json!({
            "changeset": outcome.changeset,
            "status": status,
            "memory_ids": outcome.memory_ids,
            "warnings": outcome.warnings,
        }));
    }
    let text = match (outcome.status, outcome.changeset) {
        (AddStatus::Noop, None) => "Nothing to add: the input is empty.\n".to_owned(),
        (AddStatus::Noop, Some(id)) => format!("Nothing changed: this is already known (changeset {id}).\n"),
        (AddStatus::Committed, Some(id)) => format!("Committed changeset {id}.\n"),
        (AddStatus::Pending, Some(id)) => format!("Changeset {id} waits for review: `haema review show {id}`.\n"),
        (AddStatus::Stale, Some(id)) => format!(
            "Changeset {id} is stale (other writers kept changing the same memories): `haema review rerun {id}`.\n"
        ),
        (_, None) => String::new(),
    };
    print(&text)
}

pub async fn search(memory: &Memory, args: SearchArgs) -> Result<()> {
    let options = SearchOptions {
        mode: args.mode,
        filter: filter(args.filter)?,
        min_score: args.min_score,
    };
    let results = memory.search_records(&args.query, args.n, &options).await?;
    if let Some(notice) = &results.notice {
        match memory.lexical_reason() {
            Some(haema_core::LexicalReason::NoEmbedder) => eprintln!(
                "haema: note: {notice}; configure an embedder (HAEMA_EMBEDDER, or [embedder] in haema.toml) and run `haema reembed` to search by meaning"
            ),
            // A missing model was told of when the store opened.
            Some(_) => {}
            None => eprintln!("haema: note: {notice}"),
        }
    }
    if args.json {
        let access = memory
            .access_stats(&results.hits.iter().map(|h| h.memory.id.clone()).collect::<Vec<_>>())
            .await?;
        let rows: Vec<Value> = results
            .hits
            .iter()
            .map(|h| {
                let mut row = serde_json::to_value(h).unwrap_or_default();
                add_access(&mut row, access.get(&h.memory.id));
                row
            })
            .collect();
        return output::json(&rows);
    }
    if results.hits.is_empty() {
        return print("No matching memories.\n");
    }
    let mut text = String::new();
    for (rank, hit) in results.hits.iter().enumerate() {
        let found_by = serde_json::to_value(hit.found_by)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        text.push_str(&format!(
            "{:>2}. {}\n    score {} · {found_by} · {} · {}\n",
            rank + 1,
            one_line(&hit.memory.content),
            output::score(hit.score),
            utc(hit.memory.timestamp_ms),
            hit.memory.id
        ));
        let attributes = output::attributes_line(&hit.memory.attributes);
        if !attributes.is_empty() {
            text.push_str(&format!("    {attributes}\n"));
        }
    }
    print(&text)
}

pub async fn latest(memory: &Memory, args: LatestArgs) -> Result<()> {
    let filter = filter(args.filter)?;
    let records = memory
        .latest_records(
            args.count,
            &LatestOptions {
                start: LatestStart::Begin(args.begin),
                filter,
            },
        )
        .await?;
    if args.json {
        // Each memory as the API gives it, plus `changeset` (the name earlier versions printed)
        // and how often it was returned (`access`).
        let access = memory
            .access_stats(&records.iter().map(|m| m.id.clone()).collect::<Vec<_>>())
            .await?;
        let rows: Vec<Value> = records
            .iter()
            .map(|m| {
                let mut row = serde_json::to_value(m).unwrap_or_default();
                row["changeset"] = json!(m.changeset_id);
                add_access(&mut row, access.get(&m.id));
                row
            })
            .collect();
        return output::json(&rows);
    }
    if records.is_empty() {
        return print("No memories here.\n");
    }
    let text: String = records
        .iter()
        .map(|m| {
            let attributes = output::attributes_line(&m.attributes);
            if attributes.is_empty() {
                format!("{}  {}\n", utc(m.timestamp_ms), one_line(&m.content))
            } else {
                format!("{}  {}  [{attributes}]\n", utc(m.timestamp_ms), one_line(&m.content))
            }
        })
        .collect();
    print(&text)
}

pub async fn recall(memory: &Memory, args: RecallArgs) -> Result<()> {
    let options = RecallOptions {
        budget: args.budget,
        filter: filter(args.filter)?,
        min_score: args.min_score,
        max_memories: args.max_memories,
        latest: args.latest,
        timeout: args.timeout_ms.map(haema_core::RecallOptions::timeout_ms),
    };
    let recall = memory.recall_with(&args.query, &options).await?;
    if let Some(notice) = &recall.notice {
        eprintln!("haema: note: {notice}");
    }
    if args.json {
        output::json(&recall)
    } else {
        print(&recall.text)
    }
}

pub async fn status(memory: &Memory, json_output: bool) -> Result<()> {
    let info = memory.info().await?;
    if json_output {
        return output::json(&info);
    }
    let policy = serde_json::to_value(info.review)?
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let embedder = match (&info.embedder_wanted, info.dims) {
        (Some(wanted), _) => format!("{wanted}, not here yet (lexical search until then)"),
        (None, 0) => "none (lexical search only)".to_owned(),
        (None, dims) => format!("{} ({dims} dims)", info.embedder),
    };
    let backlog = memory.embedding_backlog().await?;
    let vectors = match (&backlog.last_error, backlog.waiting) {
        (_, 0) => String::new(),
        (Some(error), waiting) => format!(
            "vectors   {waiting} memories wait for their search vectors (found by words meanwhile): the embedder failed ({error}); `haema embed-pending` tries again\n"
        ),
        (None, waiting) => format!(
            "vectors   {waiting} memories wait for their search vectors (found by words meanwhile; `haema embed-pending` makes them now)\n"
        ),
    };
    let search = match crate::session::lexical_line(memory) {
        Some(line) => format!("search    {}\n", line.strip_prefix("search is ").unwrap_or(&line)),
        None if info.dims > 0 && info.vectors_behind => "search    hybrid; some memories wait for their vectors (the embedder failed when they were added) and are found by words until it answers\n".to_owned(),
        None if info.dims > 0 => "search    hybrid: by meaning (vectors) and by words\n".to_owned(),
        None => String::new(),
    };
    let scope = match (&info.user, info.scope) {
        (Some(user), haema_core::StoreScope::PerUser) => {
            format!(
                "user      {} (this store keeps each user's memories apart)\n",
                output::printable(user)
            )
        }
        (Some(user), haema_core::StoreScope::Shared) => format!("user      {}\n", output::printable(user)),
        (None, _) => String::new(),
    };
    let captured = match info.captures_waiting {
        0 => String::new(),
        n => format!(
            "captured  {n} conversation(s) of agents wait for an LLM to split them into memories: nothing of them is stored until one is connected (`haema setup`); their words wait in the agents' own transcripts\n"
        ),
    };
    print(&format!(
        "store     {}\n{scope}memories  {}\npending   {} changeset(s) waiting for review\n{captured}embedder  {embedder}\n{search}{vectors}llm       {}\nreview    {policy}\n",
        output::printable(&info.location),
        info.active,
        info.pending_changesets,
        info.llm.as_deref().unwrap_or("none (memories are stored as given)"),
    ))
}

/// HatiData's `access_count` and `last_accessed` (ISO 8601 UTC, null when never) on a
/// memory's JSON row.
fn add_access(row: &mut Value, access: Option<&haema_core::AccessStats>) {
    let stats = access.copied().unwrap_or_default();
    row["access_count"] = json!(stats.access_count);
    row["last_accessed"] = json!(stats.last_accessed_ms.map(haema_core::iso_utc));
}

/// `haema embed-pending`: the vectors of memories stored without them, now, with a
/// progress bar.
pub async fn embed_pending(memory: &Memory, json_output: bool) -> Result<()> {
    let bar = output::progress("memories");
    let made = memory
        .catch_up_embeddings(|p| {
            bar.set_length(p.total as u64);
            bar.set_position(p.done as u64);
        })
        .await;
    bar.finish_and_clear();
    let made = made?;
    let waiting = memory.embedding_backlog().await?.waiting;
    if json_output {
        return output::json(&json!({"made": made, "waiting": waiting}));
    }
    print(&match (made, waiting) {
        (0, 0) => "Every memory has its search vector.\n".to_owned(),
        (made, 0) => format!("Made the search vectors of {made} memories; every memory has one now.\n"),
        (made, waiting) => {
            format!("Made the search vectors of {made} memories; {waiting} more were added meanwhile.\n")
        }
    })
}

/// What `haema` alone shows.
pub async fn overview(memory: &Memory) -> Result<()> {
    status(memory, false).await?;
    print("\nTry: haema add \"The user prefers short answers.\"  ·  haema search \"answers\"  ·  haema --help\n")
}

/// The attributes of `haema add`, checked: a clear error for metadata that is not JSON or
/// an entry without `=`.
pub(crate) fn attributes(args: AttributeArgs) -> Result<MemoryAttributes, UsageError> {
    let mut metadata: BTreeMap<String, Value> = match &args.metadata {
        None => BTreeMap::new(),
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => map.into_iter().collect(),
            Ok(other) => {
                return Err(UsageError(format!(
                    "--metadata must be a JSON object such as '{{\"project\": \"apollo\"}}', not {other}"
                )));
            }
            Err(e) => {
                return Err(UsageError(format!(
                    "--metadata is not JSON ({e}): give an object such as '{{\"project\": \"apollo\"}}'"
                )));
            }
        },
    };
    meta_entries(&args.meta, "--meta", &mut metadata)?;
    Ok(MemoryAttributes {
        memory_type: args.memory_type,
        importance: args.importance,
        source: args.source,
        agent_id: args.agent_id,
        session_id: args.session_id,
        user_id: args.user_id,
        metadata,
    })
}

/// `KEY=VALUE` entries as metadata: VALUE read as JSON when it is JSON, else as text.
fn meta_entries(entries: &[String], flag: &str, into: &mut BTreeMap<String, Value>) -> Result<(), UsageError> {
    for entry in entries {
        let Some((key, value)) = entry.split_once('=') else {
            return Err(UsageError(format!(
                "{flag} {entry:?} has no `=`: write KEY=VALUE, e.g. {flag} project=apollo"
            )));
        };
        let value = serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_owned()));
        into.insert(key.trim().to_owned(), value);
    }
    Ok(())
}

/// The filter of `search`, `latest` and `recall`, with times read as dates or spans ago.
pub(crate) fn filter(args: FilterArgs) -> Result<MemoryFilter, UsageError> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    let when = |flag: &str, text: &Option<String>| -> Result<Option<i64>, UsageError> {
        text.as_deref()
            .map(|t| haema_core::parse_when(t, now).map_err(|e| UsageError(format!("{flag}: {e}"))))
            .transpose()
    };
    let mut metadata = BTreeMap::new();
    meta_entries(&args.meta, "--meta", &mut metadata)?;
    Ok(MemoryFilter {
        memory_type: args.memory_type,
        min_importance: args.min_importance,
        source: args.source,
        agent_id: args.agent_id,
        session_id: args.session_id,
        user_id: args.user_id,
        metadata,
        since_ms: when("--since", &args.since)?,
        until_ms: when("--until", &args.until)?,
    })
}
