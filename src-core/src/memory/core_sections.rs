//! core.md: reading, person edits, locks, versions, recovery and external edits.

use crate::store::MetaKey;
use crate::store::Writer;
use std::collections::BTreeSet;
use std::sync::{Mutex, PoisonError};

use super::Memory;
use crate::error::Missing;
use crate::store::{self, Store};
use crate::types::core_md::{CoreSections, TEMPLATE};
use crate::types::{ChangesetId, CoreAuthor, CoreVersion, CoreVersionId, Section};
use crate::{Error, Result};

/// Records a new core version inside a write transaction and marks core.md as owing that
/// content; call [`finish_write`] after the commit.
pub(crate) fn record_version(
    tx: &dyn Writer,
    content: &str,
    author: CoreAuthor,
    changeset_id: Option<ChangesetId>,
) -> Result<CoreVersionId> {
    let id = tx.insert_core_version(content, author, changeset_id, store::now_ms())?;
    mark_pending(tx, id)?;
    Ok(id)
}

/// Marks core.md as owing the content of version `id` (inside a write transaction).
pub(crate) fn mark_pending(tx: &dyn Writer, id: CoreVersionId) -> Result<()> {
    tx.set_meta(MetaKey::CorePendingWrite, &id.to_string())
}

/// Core writes of this process, one at a time (threads of one program, the desktop's
/// commands or a Python program's, commit core versions at once).
static CORE_WRITES: Mutex<()> = Mutex::new(());

/// Writes core.md (atomically) and clears the pending mark. If this does not happen (a
/// crash), the next open finishes it. The file gets the newest version: another thread may
/// have committed one after `content`'s, and its write may have come first.
pub(crate) fn finish_write(store: &Store, content: &str) -> Result<()> {
    let _turn = CORE_WRITES.lock().unwrap_or_else(PoisonError::into_inner);
    let newest = store.read(|conn| conn.latest_core_version())?;
    let (text, id) = match &newest {
        Some(version) => (version.content.as_str(), Some(version.id)),
        None => (content, None),
    };
    store.write_core(text)?;
    store.write(|tx| {
        // A mark for a version newer than the one written stays, for its own write.
        let marked = tx.meta(MetaKey::CorePendingWrite)?;
        if id.is_none() || marked.is_none_or(|m| m.parse::<i64>().ok() <= id.map(i64::from)) {
            tx.delete_meta(MetaKey::CorePendingWrite)?;
        }
        Ok(())
    })
}

/// core.md as edited outside haema, with each secret typed or pasted into it replaced by
/// its marker, in the file too (the original is then in no file of the store), and what
/// was replaced.
fn screened_edit(store: &Store, text: String) -> Result<(String, crate::secrets::SecretTally)> {
    let (clean, tally) = crate::secrets::redact(&text);
    if tally.is_empty() {
        return Ok((text, tally));
    }
    store.write_core(&clean)?;
    Ok((clean, tally))
}

/// Brings core.md and the version history in line when a store is opened: finishes a
/// core write a crash interrupted, creates core.md from the template (or restores the
/// newest version if the file was deleted), and records an edit made outside as an
/// `external` version, its secrets replaced. Returns a note for the person when it
/// replaced some.
pub(crate) fn recover(store: &Store) -> Result<Option<String>> {
    if store
        .core_file()
        .is_some_and(|path| crate::store::files::is_folder(&path))
    {
        // A folder in its place: nothing to recover until it is moved; the open says so,
        // and reading core says so again.
        return Ok(None);
    }
    let pending = store.read(|conn| {
        let Some(id) = conn
            .meta(MetaKey::CorePendingWrite)?
            .and_then(|v| v.parse::<i64>().ok())
            .map(CoreVersionId::from)
        else {
            return Ok(None);
        };
        conn.core_version(id)
    })?;
    if let Some(version) = pending {
        return finish_write(store, &version.content).map(|()| None);
    }
    let latest = store.read(|c| c.latest_core_version())?;
    let (author, text) = match (store.core_text()?, latest) {
        (Some(text), None) => (CoreAuthor::Initial, text),
        (Some(text), Some(latest)) if text != latest.content => (CoreAuthor::External, text),
        (Some(_), Some(_)) => return Ok(None),
        (None, latest) => {
            let content = match latest {
                Some(version) => version.content,
                None => {
                    store.write(|tx| tx.insert_core_version(TEMPLATE, CoreAuthor::Initial, None, store::now_ms()))?;
                    TEMPLATE.to_owned()
                }
            };
            return store.write_core(&content).map(|()| None);
        }
    };
    let (text, tally) = screened_edit(store, text)?;
    store.write(|tx| tx.insert_core_version(&text, author, None, store::now_ms()).map(drop))?;
    Ok((!tally.is_empty()).then(|| {
        format!("core.md was edited outside haema with secrets in it: {tally} replaced by markers, in core.md too")
    }))
}

/// Records an outside edit of core.md (if any, its secrets replaced: the markers in
/// core.md say so) before the engine changes it.
pub(crate) fn sync_external(tx: &dyn Writer, store: &Store) -> Result<String> {
    let (text, _) = screened_edit(store, store.read_core()?)?;
    if tx.latest_core_version()?.is_none_or(|v| v.content != text) {
        tx.insert_core_version(&text, CoreAuthor::External, None, store::now_ms())?;
    }
    Ok(text)
}

impl Memory {
    /// The whole core.md, read from disk (edits made outside are visible).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// assert_eq!(memory.get_core().await?, haema_core::CORE_TEMPLATE); // a new store
    /// # Ok(()) }
    /// ```
    pub async fn get_core(&self) -> Result<String> {
        self.blocking(|inner| inner.store.read_core()).await
    }

    /// The four sections of core.md.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::Section;
    /// memory.set_core_section(Section::User, "Name: Ana. Prefers short answers.").await?;
    /// let core = memory.core_sections().await?;
    /// assert_eq!(core.get(Section::User), "Name: Ana. Prefers short answers.");
    /// assert!(memory.get_core().await?.contains("# USER\n\nName: Ana."));
    /// # Ok(()) }
    /// ```
    pub async fn core_sections(&self) -> Result<CoreSections> {
        CoreSections::parse(&self.get_core().await?)
    }

    /// Sections locked against LLM changes.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::Section;
    /// memory.set_section_lock(Section::Rule, true).await?; // the LLM may no longer change RULE
    /// assert!(memory.locked_sections().await?.contains(&Section::Rule));
    /// # Ok(()) }
    /// ```
    pub async fn locked_sections(&self) -> Result<BTreeSet<Section>> {
        self.blocking(|inner| inner.store.read(|c| c.core_locks())).await
    }

    /// Replaces one section's text as a person's edit (allowed on locked sections: locks
    /// only keep the LLM out). Secrets in it are replaced by markers ([`crate::secrets`]). Returns the new core version id. See the example on
    /// [`Memory::core_sections`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::Section;
    /// memory.set_core_section(Section::Rule, "- Never share the user's address.").await?;
    /// assert_eq!(memory.core_sections().await?.get(Section::Rule), "- Never share the user's address.");
    /// # Ok(()) }
    /// ```
    pub async fn set_core_section(&self, section: Section, text: &str) -> Result<CoreVersionId> {
        let (text, _) = crate::secrets::redact(text);
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

    /// Locks or unlocks a section (see the example on [`Memory::locked_sections`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::Section;
    /// memory.set_section_lock(Section::Soul, true).await?; // the LLM may no longer change it
    /// assert!(memory.locked_sections().await?.contains(&Section::Soul));
    /// # Ok(()) }
    /// ```
    pub async fn set_section_lock(&self, section: Section, locked: bool) -> Result<()> {
        self.blocking(move |inner| {
            inner
                .store
                .write(|tx| tx.set_core_lock(section, locked, store::now_ms()))
        })
        .await
    }

    /// Every version of core.md, newest first.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::{CoreAuthor, Section};
    /// let first = memory.core_versions().await?[0].id; // the template
    /// memory.set_core_section(Section::Soul, "A careful travel agent.").await?;
    /// assert_eq!(memory.core_versions().await?[0].author, CoreAuthor::User);
    /// memory.restore_core_version(first).await?; // back to the template, as a new version
    /// assert_eq!(memory.get_core().await?, haema_core::CORE_TEMPLATE);
    /// # Ok(()) }
    /// ```
    pub async fn core_versions(&self) -> Result<Vec<CoreVersion>> {
        self.blocking(|inner| inner.store.read(|c| c.core_versions())).await
    }

    /// Replaces the whole core.md with `markdown` (which must have the four sections) as a
    /// person's edit; secrets in it are replaced by markers ([`crate::secrets`]). Returns the new core version id.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// memory.replace_core("# SOUL\nA travel agent.\n\n# TOOLS\n\n# RULE\nNo night trains.\n\n# USER\n").await?;
    /// assert!(memory.replace_core("# NOTES\nanything").await.is_err()); // the four sections are required
    /// # Ok(()) }
    /// ```
    pub async fn replace_core(&self, markdown: &str) -> Result<CoreVersionId> {
        let (markdown, _) = crate::secrets::redact(markdown);
        let content = CoreSections::parse(&markdown)?.render();
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

    /// Makes an old version current again (as a new `user` version). See the example on
    /// [`Memory::core_versions`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::Section;
    /// let before = memory.core_versions().await?.last().ok_or("no version")?.id;
    /// memory.set_core_section(Section::User, "- Lives in Lyon.").await?;
    /// memory.restore_core_version(before).await?;
    /// assert!(!memory.get_core().await?.contains("Lyon"));
    /// # Ok(()) }
    /// ```
    pub async fn restore_core_version(&self, version_id: CoreVersionId) -> Result<CoreVersionId> {
        self.blocking(move |inner| {
            let (id, content) = inner.store.write(|tx| {
                sync_external(tx, &inner.store)?;
                let version = tx
                    .core_version(version_id)?
                    .ok_or(Error::NotFound(Missing::CoreVersion(version_id)))?;
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
