//! `haema bench`'s figures through `haema mcp --http`: the server runs in this process on
//! 127.0.0.1 with the store and providers the other figures use (its model loaded once), and
//! a client in the same run talks to it over HTTP as an agent does: a key, a session,
//! JSON-RPC requests with answers on an event stream. Searches one after another, then
//! eight agents adding and searching at once, with every add they were told was stored
//! checked afterwards.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use haema_core::{AgentAccess, ChangesetStatus, Memory};
use serde_json::json;

use super::measure::{self, Row, time_each};
use super::workload::Source;
use crate::mcp::{HttpClient, HttpOptions, HttpServer};

/// Searches for the one-client figure (the first is a warm-up).
const QUERIES: usize = 101;
/// Agents at once, and what each does: an add and a search per round.
const AGENTS: usize = 8;
const ROUNDS: usize = 12;

/// The server's figures for a store of `n` memories in `dir`.
pub async fn run(source: &Source, dir: &Path, n: usize) -> Result<Vec<Row>> {
    let memory = source.open(dir).await?;
    let options = HttpOptions {
        addr: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        trusted_network: false,
        allowed_origins: Vec::new(),
        tls: None,
        max_sessions: AGENTS + 2,
        max_sessions_per_key: 1,
        // The bench measures haema, not the limit on each key.
        requests_per_minute: u32::MAX,
    };
    let server = HttpServer::bind(memory.clone(), &options).await?;
    let url = format!("http://{}/mcp", server.local_addr());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    // Revoked keys stay listed, so a reused store needs names never used before.
    let prefix = format!(
        "bench-{}-{n}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis())
    );
    let mut names = Vec::new();
    let result = async {
        let mut rows = Vec::new();
        let key = new_key(&memory, &format!("{prefix}-search"), &mut names).await?;
        let client = HttpClient::open(&url, &key, "haema-bench").await?;
        let queries = source.stored_queries(n, QUERIES);
        let samples = time_each(&queries, |query| {
            let client = &client;
            async move {
                client
                    .call_ok("search_memory", json!({"query": query, "limit": 10}))
                    .await
            }
        })
        .await?;
        rows.push(
            Row::new("server_search", n)
                .with("mode", "hybrid")
                .with("via", "http")
                .timings(&samples),
        );
        let mut keys = Vec::new();
        for agent in 0..AGENTS {
            keys.push(new_key(&memory, &format!("{prefix}-agent-{agent}"), &mut names).await?);
        }
        rows.push(agents_at_once(&memory, &url, keys, source, n, &prefix).await?);
        anyhow::Ok(rows)
    }
    .await;
    let _ = stop.send(());
    serving.await.context("the bench's server")??;
    for name in &names {
        memory.revoke_agent_key(name).await?;
    }
    result
}

async fn new_key(memory: &Memory, name: &str, names: &mut Vec<String>) -> Result<String> {
    let made = memory.create_agent_key(name, AgentAccess::Write, None, None).await?;
    names.push(name.to_owned());
    Ok(made.key)
}

/// What one agent saw: its timings, the changesets it was told were stored, its errors.
#[derive(Default)]
struct AgentRun {
    adds_ms: Vec<f64>,
    searches_ms: Vec<f64>,
    stored: Vec<(i64, String)>,
    errors: Vec<String>,
}

/// Eight agents, each with its own key and session, adding and searching at once.
async fn agents_at_once(
    memory: &Memory,
    url: &str,
    keys: Vec<String>,
    source: &Source,
    n: usize,
    run: &str,
) -> Result<Row> {
    let queries = Arc::new(source.stored_queries(n, ROUNDS));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (agent, key) in keys.into_iter().enumerate() {
        let (url, queries, tag) = (url.to_owned(), Arc::clone(&queries), run.to_owned());
        tasks.push(tokio::spawn(async move {
            let mut run = AgentRun::default();
            let client = match HttpClient::open(&url, &key, "haema-bench").await {
                Ok(client) => client,
                Err(e) => {
                    run.errors.push(e.to_string());
                    return run;
                }
            };
            for round in 0..ROUNDS {
                // New words each run, so that a store kept with --work takes every add.
                let text = format!("Bench agent {agent} noted item {round} of its list during run {tag}.");
                let at = Instant::now();
                match client.call_ok("add_memory", json!({"items": [text]})).await {
                    Ok(answer) => {
                        run.adds_ms.push(at.elapsed().as_secs_f64() * 1000.0);
                        match (answer["changeset"].as_i64(), answer["status"].as_str()) {
                            (Some(id), Some(status)) => run.stored.push((id, status.to_owned())),
                            _ => run
                                .errors
                                .push(format!("an add answered without its changeset: {answer}")),
                        }
                    }
                    Err(e) => run.errors.push(e.to_string()),
                }
                let at = Instant::now();
                match client
                    .call("search_memory", json!({"query": queries[round], "limit": 10}))
                    .await
                {
                    Ok(_) => run.searches_ms.push(at.elapsed().as_secs_f64() * 1000.0),
                    Err(e) => run.errors.push(e.to_string()),
                }
            }
            run
        }));
    }
    let mut all = AgentRun::default();
    for task in tasks {
        let run = task.await.context("a bench agent")?;
        all.adds_ms.extend(run.adds_ms);
        all.searches_ms.extend(run.searches_ms);
        all.stored.extend(run.stored);
        all.errors.extend(run.errors);
    }
    let seconds = started.elapsed().as_secs_f64();
    // Every add an agent was told was stored (or waits for review) is there so.
    let mut lost = 0;
    let mut first_lost = None;
    for (id, said) in &all.stored {
        let status = memory
            .changeset(haema_core::ChangesetId::from(*id))
            .await
            .map(|c| c.status);
        let kept = match &status {
            // "noop": the text was there already, in a committed change.
            Ok(ChangesetStatus::Committed) => said == "committed" || said == "noop",
            Ok(ChangesetStatus::Pending) => said == "pending",
            Ok(ChangesetStatus::Stale) => said == "stale",
            _ => false,
        };
        if !kept {
            lost += 1;
            first_lost.get_or_insert_with(|| format!("changeset {id}: answered {said}, found {status:?}"));
        }
    }
    let locked = all.errors.iter().filter(|e| e.contains("locked")).count();
    let (add_p50, add_p95) = measure::percentiles(&all.adds_ms);
    let (search_p50, search_p95) = measure::percentiles(&all.searches_ms);
    let mut row = Row::new("server_agents", n)
        .with("agents", AGENTS)
        .with("adds", all.adds_ms.len())
        .with("searches", all.searches_ms.len())
        .with("add_p50_ms", measure::round(add_p50))
        .with("add_p95_ms", measure::round(add_p95))
        .with("search_p50_ms", measure::round(search_p50))
        .with("search_p95_ms", measure::round(search_p95))
        .with("errors", all.errors.len())
        .with("locked", locked)
        .with("lost", lost)
        .with("seconds", measure::round(seconds));
    if let Some(first) = all.errors.first() {
        row = row.with("first_error", first.clone());
    }
    if let Some(first) = first_lost {
        row = row.with("first_lost", first);
    }
    Ok(row)
}
