//! What the app remembers between runs, in `desktop.json` in its config folder: the
//! stores opened (newest first) and the window size. Never API keys.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Stores remembered for the "recent" list.
const RECENT: usize = 8;

/// The remembered preferences.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    /// Store folders opened, newest first.
    pub recent: Vec<PathBuf>,
    /// The window's inner size in logical pixels when it was last closed.
    pub window: Option<WindowSize>,
}

/// A window size in logical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WindowSize {
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl Prefs {
    /// Reads `file`; a missing or unreadable file gives the defaults (preferences are a
    /// convenience: a broken file must not stop the app).
    pub fn load(file: &Path) -> Self {
        std::fs::read_to_string(file)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    /// Writes `file` (through a temporary file, so a crash leaves the old one).
    pub fn save(&self, file: &Path) -> std::io::Result<()> {
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = file.with_extension("json.tmp");
        std::fs::write(&tmp, serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?)?;
        std::fs::rename(tmp, file)
    }

    /// Puts `dir` first in the recent list.
    pub fn opened(&mut self, dir: &Path) {
        self.recent.retain(|d| d != dir);
        self.recent.insert(0, dir.to_path_buf());
        self.recent.truncate(RECENT);
    }

    /// The window size to start with, if a sensible one was remembered.
    pub fn window_size(&self) -> Option<WindowSize> {
        self.window
            .filter(|w| w.width.is_finite() && w.height.is_finite() && w.width >= 480.0 && w.height >= 360.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_stores_are_newest_first_without_repeats() {
        let mut prefs = Prefs::default();
        for dir in ["/a", "/b", "/a"] {
            prefs.opened(Path::new(dir));
        }
        assert_eq!(prefs.recent, vec![PathBuf::from("/a"), PathBuf::from("/b")]);
        for i in 0..20 {
            prefs.opened(Path::new(&format!("/s{i}")));
        }
        assert_eq!(prefs.recent.len(), RECENT);
    }

    #[test]
    fn a_broken_file_gives_defaults_and_saving_round_trips() {
        let dir = std::env::temp_dir().join(format!("haema-prefs-{}", std::process::id()));
        let file = dir.join("desktop.json");
        std::fs::create_dir_all(&dir).ok();
        std::fs::write(&file, "{not json").ok();
        assert_eq!(Prefs::load(&file), Prefs::default());
        let prefs = Prefs {
            recent: vec![PathBuf::from("/x")],
            window: Some(WindowSize {
                width: 900.0,
                height: 600.0,
            }),
        };
        prefs.save(&file).ok();
        assert_eq!(Prefs::load(&file), prefs);
        assert_eq!(
            Prefs {
                window: Some(WindowSize {
                    width: 10.0,
                    height: f64::NAN
                }),
                ..Prefs::default()
            }
            .window_size(),
            None
        );
        std::fs::remove_dir_all(dir).ok();
    }
}
