//! core.md: reading, person edits and locks (the write protocol is the store's:
//! [`crate::store::core_write`]).

use std::collections::BTreeSet;

use super::Memory;
use crate::error::Missing;
use crate::error::{Error, Result};
use crate::store::core_write::{finish_write, record_version, sync_external};
use crate::types::core_md::CoreSections;
use crate::types::{CoreAuthor, CoreVersion, CoreVersionId, Section};
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
        Ok(CoreSections::parse(&self.get_core().await?)?)
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
        self.blocking(|inner| inner.store.read(|c| c.core().locks())).await
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
                .write(|tx| tx.core_mut().set_lock(section, locked, crate::types::now_ms()))
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
        self.blocking(|inner| inner.store.read(|c| c.core().versions())).await
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
                    .core()
                    .version(version_id)?
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
