//! `haema`: the command-line front end of the haema memory (see the `haema_tui` library
//! for the module map).

use std::process::ExitCode;

use clap::Parser;
use haema_tui::{UsageError, cli, commands};

/// mimalloc: the local embedder allocates large short-lived buffers in several threads;
/// with it, embedding runs about a fifth faster than with the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn exit_code(error: &anyhow::Error) -> u8 {
    let usage = error.chain().any(|cause| {
        cause.downcast_ref::<UsageError>().is_some()
            || cause
                .downcast_ref::<haema_core::Error>()
                .is_some_and(haema_core::Error::is_usage)
    });
    if usage { 2 } else { 1 }
}

/// What to do next, in the command line's words.
fn hint(error: &anyhow::Error) -> String {
    error
        .chain()
        .find_map(|cause| cause.downcast_ref::<haema_core::Error>())
        .and_then(haema_tui::remedy::cli)
        .map(|next| format!("; {next}"))
        .unwrap_or_default()
}

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // The error quotes the argument it refused: a control character in it (an escape
            // sequence that would retitle the terminal) is shown as `�`, without colours.
            haema_tui::output::to_stderr(&e.render().to_string());
            return ExitCode::from(2);
        }
        Err(e) => {
            // Help and version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            haema_tui::output::to_stderr(&format!("haema: cannot start the async runtime: {e}\n"));
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(commands::run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of standard output went away (`| head`): nothing is wrong.
        Err(error) if closed_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            // Written without a panic when standard error is closed or its reader gone.
            haema_tui::output::to_stderr(&format!("haema: {}{}\n", message(&error), hint(&error)));
            ExitCode::from(exit_code(&error))
        }
    }
}

/// The error and its causes, each said once: a cause that its error's own message already
/// ends with (`cannot read core.md: Is a directory` over `Is a directory`) is not repeated.
fn message(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain().map(ToString::to_string) {
        if text.ends_with(&cause) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&cause);
    }
    text
}

/// Whether `error` comes from writing to a pipe whose reader closed it.
fn closed_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
