//! Core: the four sections, person edits (in place or in `$EDITOR`), locks, versions with
//! diffs, restore.

use std::collections::BTreeSet;

use haema_core::{CoreSections, CoreVersion, CoreVersionId, Section};

use super::{Ctx, Cursor, EditTarget, Effect, Overlay, PAGE_STEP, Pane, Reply};
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

impl Pane for CoreState {
    fn load(&mut self) -> Vec<Effect> {
        self.reload()
    }

    fn act(&mut self, action: Action, _ctx: &Ctx<'_>) -> Reply {
        match self.mode {
            CoreMode::Sections => self.sections_action(action),
            CoreMode::Versions => self.versions_action(action),
        }
    }
}

impl CoreState {
    fn sections_action(&mut self, action: Action) -> Reply {
        if self.cursor.act(action, Section::ALL.len(), 1) {
            return Reply::none();
        }
        let section = self.section();
        let Some(sections) = &self.sections else {
            return Reply::none();
        };
        let text = sections.get(section).to_owned();
        match action {
            Action::EditSection | Action::Open => Reply::overlay(Overlay::editor(EditTarget::Section(section), &text)),
            Action::EditExternal => vec![Effect::EditExternal { section, text }].into(),
            Action::ToggleLock => vec![Effect::SetLock {
                section,
                locked: !self.locked.contains(&section),
            }]
            .into(),
            Action::Versions => {
                self.mode = CoreMode::Versions;
                vec![Effect::LoadCoreVersions].into()
            }
            _ => Reply::none(),
        }
    }

    fn versions_action(&mut self, action: Action) -> Reply {
        if self.version_cursor.act(action, self.versions.len(), PAGE_STEP) {
            return Reply::none();
        }
        match action {
            Action::Back | Action::Versions => {
                self.mode = CoreMode::Sections;
                Reply::none()
            }
            Action::MarkVersion => {
                let selected = self.selected_version().map(|v| v.id);
                self.mark = if self.mark == selected { None } else { selected };
                Reply::none()
            }
            Action::Restore => match self.selected_version() {
                Some(v) => Reply::overlay(Overlay::confirm(
                    format!(
                        "Restore core.md to version {} ({})? It becomes a new version; nothing is lost.",
                        v.id, v.author
                    ),
                    "restore it",
                    vec![Effect::RestoreCoreVersion(v.id)],
                )),
                None => Reply::none(),
            },
            _ => Reply::none(),
        }
    }
}
