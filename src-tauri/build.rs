//! Generates the permission files of this app's own commands (allow-<command>), which
//! capabilities/default.json grants to the main window and nothing else.

fn main() {
    let attributes = tauri_build::Attributes::new()
        .app_manifest(tauri_build::AppManifest::new().commands(haema_desktop_commands::COMMANDS));
    if let Err(e) = tauri_build::try_build(attributes) {
        eprintln!("tauri build step failed: {e}");
        std::process::exit(1);
    }
}

mod haema_desktop_commands {
    include!("src/command_names.rs");
}
