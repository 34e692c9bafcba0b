//! One MCP session on standard input and output, and what happens to the writes in flight
//! when the client goes away.

use haema_core::Memory;
use rmcp::ServiceExt;

use super::{HaemaServer, lines};

/// Serves the store on standard input and output until the client goes away.
pub async fn serve(memory: Memory) -> anyhow::Result<()> {
    let server = HaemaServer::new(memory);
    server.upgrade_in_background();
    let _recalls = server.serve_recalls();
    let in_flight = server.in_flight.clone();
    let guarded = lines::guard(tokio::io::stdin(), tokio::io::stdout());
    let service = server
        .serve((guarded.input, guarded.output))
        .await
        .map_err(|e| anyhow::anyhow!("the MCP session could not start: {e}"))?;
    service.waiting().await?;
    // A write the client left behind (it closed its input mid-call) finishes first.
    in_flight.close();
    if in_flight.any_running() {
        eprintln!("haema: the client closed the connection during a write: finishing it before exiting");
    }
    let unanswered = in_flight.finish().await;
    // The last answers reach standard output before the process ends.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), guarded.writer).await;
    for write in &unanswered {
        let outcome = if write.failed { "NOT stored" } else { "finished" };
        eprintln!(
            "haema: {} {outcome} after the client had gone (it never got the answer): {}",
            write.tool, write.said
        );
    }
    let failed = unanswered.iter().filter(|w| w.failed).count();
    if failed > 0 {
        anyhow::bail!("{failed} write(s) the client asked for before it left were not stored (see above)");
    }
    Ok(())
}
