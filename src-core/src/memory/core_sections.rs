//! core.md: reading, person edits, locks, versions, recovery and external edits.

use crate::store::MetaKey;
use std::collections::BTreeSet;

use super::Memory;
use crate::error::Missing;
use crate::store::files;
use crate::store::{self, Store, Tx, core_versions};
use crate::types::core_md::{CoreSections, TEMPLATE};
use crate::types::{ChangesetId, CoreAuthor, CoreVersion, CoreVersionId, Section};
use crate::{Error, Result};

/// Records a new core version inside a write transaction and marks core.md as owing that
/// content; call [`finish_write`] after the commit.
pub(crate) fn record_version(
    tx: &Tx<'_>,
    content: &str,
    author: CoreAuthor,
    changeset_id: Option<ChangesetId>,
) -> Result<CoreVersionId> {
    let id = core_versions::insert(tx, content, author, changeset_id, store::now_ms())?;
    mark_pending(tx, id)?;
    Ok(id)
}

/// Marks core.md as owing the content of version `id` (inside a write transaction).
pub(crate) fn mark_pending(tx: &Tx<'_>, id: CoreVersionId) -> Result<()> {
    store::set_meta(tx, MetaKey::CorePendingWrite, &id.to_string())
}

/// Writes core.md (atomically) and clears the pending mark. If this does not happen (a
/// crash), the next open finishes it.
pub(crate) fn finish_write(store: &Store, content: &str) -> Result<()> {
    files::write_atomically(&store.core_path(), content)?;
    store.write(|tx| store::delete_meta(tx, MetaKey::CorePendingWrite))
}

/// Brings core.md and the version history in line when a store is opened: finishes a
/// core write a crash interrupted, creates core.md from the template (or restores the
/// newest version if the file was deleted), and records an edit made outside as an
/// `external` version.
pub(crate) fn recover(store: &Store) -> Result<()> {
    let path = store.core_path();
    let pending = store.read(|conn| {
        let Some(id) = store::meta(conn, MetaKey::CorePendingWrite)?
            .and_then(|v| v.parse::<i64>().ok())
            .map(CoreVersionId::from)
        else {
            return Ok(None);
        };
        core_versions::get(conn, id)
    })?;
    if let Some(version) = pending {
        return finish_write(store, &version.content);
    }
    let latest = store.read(core_versions::latest)?;
    match (std::fs::read_to_string(&path), latest) {
        (Ok(text), None) => {
            store.write(|tx| core_versions::insert(tx, &text, CoreAuthor::Initial, None, store::now_ms()).map(drop))
        }
        (Ok(text), Some(latest)) if text != latest.content => {
            store.write(|tx| core_versions::insert(tx, &text, CoreAuthor::External, None, store::now_ms()).map(drop))
        }
        (Ok(_), Some(_)) => Ok(()),
        (Err(e), latest) if e.kind() == std::io::ErrorKind::NotFound => {
            let content = match latest {
                Some(version) => version.content,
                None => {
                    store
                        .write(|tx| core_versions::insert(tx, TEMPLATE, CoreAuthor::Initial, None, store::now_ms()))?;
                    TEMPLATE.to_owned()
                }
            };
            files::write_atomically(&path, &content)
        }
        (Err(e), _) => Err(Error::io("read", &path, e)),
    }
}

/// Records an outside edit of core.md (if any) before the engine changes it.
pub(crate) fn sync_external(tx: &Tx<'_>, store: &Store) -> Result<String> {
    let text = files::read(&store.core_path())?;
    if core_versions::latest(tx)?.is_none_or(|v| v.content != text) {
        core_versions::insert(tx, &text, CoreAuthor::External, None, store::now_ms())?;
    }
    Ok(text)
}

impl Memory {
    /// The whole core.md, read from disk (edits made outside are visible).
    pub async fn get_core(&self) -> Result<String> {
        self.blocking(|inner| files::read(&inner.store.core_path())).await
    }

    /// The four sections of core.md.
    pub async fn core_sections(&self) -> Result<CoreSections> {
        CoreSections::parse(&self.get_core().await?)
    }

    /// Sections locked against LLM changes.
    pub async fn locked_sections(&self) -> Result<BTreeSet<Section>> {
        self.blocking(|inner| inner.store.read(core_versions::locks)).await
    }

    /// Replaces one section's text as a person's edit (allowed on locked sections: locks
    /// only keep the LLM out). Returns the new core version id.
    pub async fn set_core_section(&self, section: Section, text: &str) -> Result<CoreVersionId> {
        let text = text.to_owned();
        self.blocking(move |inner| {
            let (id, content) = inner.store.write(|tx| {
                let current = sync_external(tx, &inner.store)?;
                let mut sections = CoreSections::parse(&current)?;
                sections.set(section, &text)?;
                let content = sections.render();
                Ok((record_version(tx, &content, CoreAuthor::User, None)?, content))
            })?;
            finish_write(&inner.store, &content)?;
            Ok(id)
        })
        .await
    }

    /// Locks or unlocks a section.
    pub async fn set_section_lock(&self, section: Section, locked: bool) -> Result<()> {
        self.blocking(move |inner| {
            inner
                .store
                .write(|tx| core_versions::set_lock(tx, section, locked, store::now_ms()))
        })
        .await
    }

    /// Every version of core.md, newest first.
    pub async fn core_versions(&self) -> Result<Vec<CoreVersion>> {
        self.blocking(|inner| inner.store.read(core_versions::list)).await
    }

    /// Replaces the whole core.md with `markdown` (which must have the four sections) as a
    /// person's edit. Returns the new core version id.
    pub async fn replace_core(&self, markdown: &str) -> Result<CoreVersionId> {
        let content = CoreSections::parse(markdown)?.render();
        self.blocking(move |inner| {
            let id = inner.store.write(|tx| {
                sync_external(tx, &inner.store)?;
                record_version(tx, &content, CoreAuthor::User, None)
            })?;
            finish_write(&inner.store, &content)?;
            Ok(id)
        })
        .await
    }

    /// Makes an old version current again (as a new `user` version).
    pub async fn restore_core_version(&self, version_id: CoreVersionId) -> Result<CoreVersionId> {
        self.blocking(move |inner| {
            let (id, content) = inner.store.write(|tx| {
                sync_external(tx, &inner.store)?;
                let version =
                    core_versions::get(tx, version_id)?.ok_or(Error::NotFound(Missing::CoreVersion(version_id)))?;
                Ok((
                    record_version(tx, &version.content, CoreAuthor::User, None)?,
                    version.content,
                ))
            })?;
            finish_write(&inner.store, &content)?;
            Ok(id)
        })
        .await
    }
}
