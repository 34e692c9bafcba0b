//! The MCP server's input: the tool parameters deserialised from any JSON, and whole
//! JSON-RPC lines spoken to the real server (`haema_tui::mcp::HaemaServer`) over an
//! in-memory pipe, as `haema mcp` hears them on standard input.

use std::time::Duration;

use haema_core::{Memory, Settings};
use haema_tui::mcp::HaemaServer;
use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::{SCRATCH_MCP, block_on};

/// The server's own parameter types (`mod params` is private to the server).
#[path = "../../src-tui/src/mcp/params.rs"]
#[allow(dead_code, reason = "only deserialised here")]
mod params;

/// The id of the request that ends each session; its answer shows the server still listens.
const LAST: &str = "haema-fuzz-last";
/// How long a session may take before it counts as hung.
const PATIENCE: Duration = Duration::from_secs(30);
/// Sessions a scratch store serves before it is made again.
const SESSIONS_PER_STORE: usize = 50;

/// Each tool's arguments, deserialised from the bytes as rmcp does (a JSON object).
pub fn mcp_params(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let _ = serde_json::from_value::<params::AddParams>(value.clone());
    let _ = serde_json::from_value::<params::SearchParams>(value.clone());
    let _ = serde_json::from_value::<params::LatestParams>(value.clone());
    let _ = serde_json::from_value::<params::SectionParams>(value.clone());
    let _ = serde_json::from_value::<params::RecallParams>(value.clone());
    let _ = serde_json::from_value::<params::ChangesetParams>(value.clone());
    let _ = serde_json::from_value::<params::ForgetParams>(value);
}

/// One MCP session: `initialize`, the bytes as lines, then a `ping` that must be answered;
/// no line may crash the server, end the session or leave it without an answer.
pub fn mcp_session(data: &[u8]) {
    let memory = scratch_memory();
    block_on(async move {
        let (client, server_end) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server_end);
        let server = tokio::spawn(async move {
            if let Ok(running) = HaemaServer::new(memory).serve((server_read, server_write)).await {
                let _ = running.waiting().await;
            }
        });
        let (client_read, mut client_write) = tokio::io::split(client);
        let mut input = Vec::new();
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}});
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let last = json!({"jsonrpc": "2.0", "id": LAST, "method": "ping"});
        for line in [init.to_string().as_bytes(), initialized.to_string().as_bytes(), data] {
            input.extend_from_slice(line);
            input.push(b'\n');
        }
        input.extend_from_slice(format!("{last}\n").as_bytes());
        // Written beside the reading, so that neither side waits on a full pipe.
        let writer = tokio::spawn(async move {
            let _ = client_write.write_all(&input).await;
            client_write
        });
        let mut lines = BufReader::new(client_read).lines();
        let answered = tokio::time::timeout(PATIENCE, async {
            while let Ok(Some(line)) = lines.next_line().await {
                let message: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("the server wrote a line that is not JSON ({e}): {line}"));
                if message["id"] == LAST {
                    return true;
                }
            }
            false
        })
        .await;
        match answered {
            Ok(true) => {}
            Ok(false) => panic!("the session ended before the last request was answered"),
            Err(_) => panic!("no answer to the last request within {PATIENCE:?}"),
        }
        // End of input: the server ends the session.
        let client_write = writer
            .await
            .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
        drop(client_write);
        drop(lines);
        match tokio::time::timeout(PATIENCE, server).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Ok(Err(e)) => panic!("the server task failed: {e}"),
            Err(_) => panic!("the session did not end within {PATIENCE:?} of the end of its input"),
        }
    });
}

/// This thread's store for sessions (lexical, no LLM), made again every few sessions.
fn scratch_memory() -> Memory {
    SCRATCH_MCP.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|(_, _, uses)| *uses >= SESSIONS_PER_STORE) {
            *slot = None;
            let dir = tempfile::tempdir().expect("a temporary folder");
            let memory =
                block_on(Memory::open_with(dir.path(), Settings::default(), None, None)).expect("a new store opens");
            *slot = Some((dir, memory, 0));
        }
        let (_, memory, uses) = slot.as_mut().expect("made above");
        *uses += 1;
        memory.clone()
    })
}
