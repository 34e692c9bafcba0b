//! core.md's write protocol: a core version is recorded in the write transaction that
//! makes it, with a mark that core.md owes it; the file is written after the commit and
//! the mark cleared. A crash between the two leaves the mark, and the next open finishes
//! the write ([`recover`]); an edit made outside haema is recorded as a version of its own,
//! its secrets replaced, before the engine changes core.md ([`sync_external`]).

use std::sync::{Mutex, PoisonError};

use super::{MetaKey, Store, Writer};
use crate::error::Result;
use crate::types::core_md::TEMPLATE;
use crate::types::{ChangesetId, CoreAuthor, CoreVersionId};

/// Records a new core version inside a write transaction and marks core.md as owing that
/// content; call [`finish_write`] after the commit.
pub(crate) fn record_version(
    tx: &dyn Writer,
    content: &str,
    author: CoreAuthor,
    changeset_id: Option<ChangesetId>,
) -> Result<CoreVersionId> {
    let id = tx
        .core_mut()
        .insert(content, author, changeset_id, crate::types::now_ms())?;
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
    let newest = store.read(|conn| conn.core().latest())?;
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
    if store.core_file().is_some_and(|path| super::files::is_folder(&path)) {
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
        conn.core().version(id)
    })?;
    if let Some(version) = pending {
        return finish_write(store, &version.content).map(|()| None);
    }
    let latest = store.read(|c| c.core().latest())?;
    let (author, text) = match (store.core_text()?, latest) {
        (Some(text), None) => (CoreAuthor::Initial, text),
        (Some(text), Some(latest)) if text != latest.content => (CoreAuthor::External, text),
        (Some(_), Some(_)) => return Ok(None),
        (None, latest) => {
            let content = match latest {
                Some(version) => version.content,
                None => {
                    store.write(|tx| {
                        tx.core_mut()
                            .insert(TEMPLATE, CoreAuthor::Initial, None, crate::types::now_ms())
                    })?;
                    TEMPLATE.to_owned()
                }
            };
            return store.write_core(&content).map(|()| None);
        }
    };
    let (text, tally) = screened_edit(store, text)?;
    store.write(|tx| {
        tx.core_mut()
            .insert(&text, author, None, crate::types::now_ms())
            .map(drop)
    })?;
    Ok((!tally.is_empty()).then(|| {
        format!("core.md was edited outside haema with secrets in it: {tally} replaced by markers, in core.md too")
    }))
}

/// Records an outside edit of core.md (if any, its secrets replaced: the markers in
/// core.md say so) before the engine changes it.
pub(crate) fn sync_external(tx: &dyn Writer, store: &Store) -> Result<String> {
    let (text, _) = screened_edit(store, store.read_core()?)?;
    if tx.core().latest()?.is_none_or(|v| v.content != text) {
        tx.core_mut()
            .insert(&text, CoreAuthor::External, None, crate::types::now_ms())?;
    }
    Ok(text)
}
