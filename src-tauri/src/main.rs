//! The `haema-desktop` binary.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() -> std::process::ExitCode {
    match haema_desktop::run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("haema-desktop: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
