//! Core: the four sections, person edits (in place or in `$EDITOR`), locks, versions with
//! diffs, restore.

use std::collections::BTreeSet;

use haema_core::{CoreSections, CoreVersion, CoreVersionId, Section};

use super::{App, Cursor, EditTarget, Effect, Overlay, PAGE_STEP};
use crate::tui::action::Action;

/// What the Core view shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CoreMode {
    /// The sections.
    #[default]
    Sections,
    /// The version history with a diff.
    Versions,
}

/// The Core view.
#[derive(Debug, Default)]
pub struct CoreState {
    /// Sections as last read.
    pub sections: Option<CoreSections>,
    /// Locked sections.
    pub locked: BTreeSet<Section>,
    /// Selected section.
    pub cursor: Cursor,
    /// Sections or versions.
    pub mode: CoreMode,
    /// Versions, newest first.
    pub versions: Vec<CoreVersion>,
    /// Selected version.
    pub version_cursor: Cursor,
    /// Version marked to compare with the selected one.
    pub mark: Option<CoreVersionId>,
}

impl CoreState {
    /// The selected section.
    pub fn section(&self) -> Section {
        Section::ALL[self.cursor.selected.min(Section::ALL.len() - 1)]
    }

    /// Reloads core (and the versions when they are shown).
    pub fn reload(&self) -> Vec<Effect> {
        let mut effects = vec![Effect::LoadCore];
        if self.mode == CoreMode::Versions {
            effects.push(Effect::LoadCoreVersions);
        }
        effects
    }

    /// Takes core.md.
    pub fn receive(&mut self, sections: CoreSections, locked: BTreeSet<Section>) {
        self.sections = Some(sections);
        self.locked = locked;
    }

    /// Takes the versions, keeping the selection on the same version.
    pub fn receive_versions(&mut self, versions: Vec<CoreVersion>) {
        let keep = self.selected_version().map(|v| v.id);
        self.versions = versions;
        if let Some(pos) = keep.and_then(|id| self.versions.iter().position(|v| v.id == id)) {
            self.version_cursor.selected = pos;
        }
        self.version_cursor.clamp(self.versions.len());
        if self.mark.is_some_and(|m| !self.versions.iter().any(|v| v.id == m)) {
            self.mark = None;
        }
    }

    /// The selected version.
    pub fn selected_version(&self) -> Option<&CoreVersion> {
        self.versions.get(self.version_cursor.selected)
    }

    /// The two versions the diff compares: the marked one (or the one before the
    /// selection) and the selected one.
    pub fn compared(&self) -> Option<(Option<&CoreVersion>, &CoreVersion)> {
        let new = self.selected_version()?;
        let old = match self.mark {
            Some(m) => self.versions.iter().find(|v| v.id == m),
            None => self.versions.get(self.version_cursor.selected + 1),
        };
        Some((old, new))
    }
}

impl App {
    pub(super) fn core_action(&mut self, action: Action) -> Vec<Effect> {
        match self.core.mode {
            CoreMode::Sections => self.core_sections_action(action),
            CoreMode::Versions => self.core_versions_action(action),
        }
    }

    fn core_sections_action(&mut self, action: Action) -> Vec<Effect> {
        if Self::move_cursor(&mut self.core.cursor, action, Section::ALL.len(), 1) {
            return Vec::new();
        }
        let section = self.core.section();
        let Some(sections) = &self.core.sections else {
            return Vec::new();
        };
        let text = sections.get(section).to_owned();
        match action {
            Action::EditSection | Action::Open => {
                self.overlay = Some(Overlay::editor(EditTarget::Section(section), &text));
                Vec::new()
            }
            Action::EditExternal => vec![Effect::EditExternal { section, text }],
            Action::ToggleLock => vec![Effect::SetLock {
                section,
                locked: !self.core.locked.contains(&section),
            }],
            Action::Versions => {
                self.core.mode = CoreMode::Versions;
                vec![Effect::LoadCoreVersions]
            }
            _ => Vec::new(),
        }
    }

    fn core_versions_action(&mut self, action: Action) -> Vec<Effect> {
        let len = self.core.versions.len();
        if Self::move_cursor(&mut self.core.version_cursor, action, len, PAGE_STEP) {
            return Vec::new();
        }
        match action {
            Action::Back | Action::Versions => {
                self.core.mode = CoreMode::Sections;
                Vec::new()
            }
            Action::MarkVersion => {
                let selected = self.core.selected_version().map(|v| v.id);
                self.core.mark = if self.core.mark == selected { None } else { selected };
                Vec::new()
            }
            Action::Restore => {
                if let Some(v) = self.core.selected_version() {
                    self.overlay = Some(Overlay::Confirm {
                        question: format!(
                            "Restore core.md to version {} ({})? It becomes a new version; nothing is lost. (y/n)",
                            v.id, v.author
                        ),
                        effects: vec![Effect::RestoreCoreVersion(v.id)],
                    });
                }
                Vec::new()
            }
            _ => Vec::new(),
        }
    }
}
