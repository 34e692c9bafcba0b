//! Forgetting for real: a memory's rows, vectors and full-text entry, its text wherever the
//! store recorded it (changes, their LLM exchanges, core.md and its versions), and then
//! every old copy of those bytes (the backend's scrub). A receipt stays in history: counts
//! and ids, never the text.
//!
//! Forgetting a memory by id forgets the older memories it was built from too (their text
//! is the same fact in earlier words). A phrase forgets every memory that mentions it and
//! blanks the phrase everywhere else, core.md included. A person's forget is done at once;
//! an agent's waits for review unless the review policy is `auto`.

use std::collections::HashSet;

use super::Memory;
use super::redact::{BLANK, Needles, redact_changeset};
use crate::config::ReviewPolicy;
use crate::error::Missing;
use crate::error::{Error, Result};
use crate::store::{self, MetaKey, Reader, Store, Writer, core_write, forgetting};
use crate::text::Phrase;
use crate::text::phrase::MIN_PHRASE_WEIGHT;
use crate::types::{
    AgentStateKey, Changeset, ChangesetFilter, ChangesetId, ChangesetKind, ChangesetStatus, DecidedBy, ForgetPlan,
    ForgetReceipt, ForgetRecord, ForgetRequest, MemoryId, MemoryRecord, MemoryStatus, Outcome, RelatedItem,
};

impl Memory {
    /// What [`Memory::forget`] would remove, for a person to confirm first.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::ForgetRequest;
    /// memory.add(vec!["Ana's phone is 555-0100.".to_string(), "Ana likes jazz.".to_string()]).await?;
    /// let request = ForgetRequest { mentioning: Some("555-0100".into()), ..Default::default() };
    /// let plan = memory.forget_plan(request.clone()).await?;
    /// assert_eq!(plan.memories.len(), 1); // shown to a person, who confirms:
    /// let receipt = memory.forget(request).await?;
    /// assert_eq!(receipt.forget.and_then(|f| f.receipt).map(|r| r.memories), Some(1));
    /// assert_eq!(memory.get_latest(1, 10).await?, ["Ana likes jazz."]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an empty request; [`Error::NotFound`] for an unknown id.
    pub async fn forget_plan(&self, request: ForgetRequest) -> Result<ForgetPlan> {
        self.plan_forget(request, None).await
    }

    /// [`Memory::forget_plan`] of the request pending changeset `existing` carries (when
    /// given): that changeset is left out of the changes blanked, as its approval rewrites
    /// it as the receipt.
    pub(super) async fn plan_forget(
        &self,
        request: ForgetRequest,
        existing: Option<ChangesetId>,
    ) -> Result<ForgetPlan> {
        check(&request)?;
        let shared = self.user().is_none();
        self.blocking(move |inner| {
            inner.store.read(|r| {
                let targets = resolve(r, &request)?;
                let scope = Scope::of(&targets, request.phrase());
                let changesets = r
                    .changesets()
                    .list(ChangesetFilter::All, None)?
                    .into_iter()
                    .filter(|c| Some(c.id) != existing && scope.redact(c.clone()).is_some())
                    .count();
                // One user's forget leaves the shared core and agent state alone.
                let core_versions = if shared {
                    let copies = inner.store.core_file().map_or(0, |core| {
                        store::core_copy::count_changed(&core, &|text| scope.needles.redact_core(text))
                    });
                    r.core()
                        .versions()?
                        .iter()
                        .filter(|v| scope.needles.redact_core(&v.content).is_some())
                        .count()
                        + copies
                } else {
                    0
                };
                let (agent_state, agent_state_removed) = if shared {
                    (
                        forgetting::agent_state_mentioning(r, &|text| scope.needles.found_in(text))?,
                        removed_state(r, &scope.needles)?,
                    )
                } else {
                    (0, Vec::new())
                };
                Ok(ForgetPlan {
                    memories: targets.into_iter().map(|(_, m)| m).collect(),
                    changesets,
                    core_versions,
                    agent_state,
                    agent_state_removed,
                })
            })
        })
        .await
    }

    /// Forgets now, as a person's decision: returns the receipt (a committed `forget`
    /// changeset). Nothing that was forgotten can be brought back. The example on
    /// [`Memory::forget_plan`] shows what would go, then forgets it.
    ///
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::ForgetRequest;
    /// memory.add("The user's locker number is 4417.").await?;
    /// let request = ForgetRequest { mentioning: Some("4417".into()), ..Default::default() };
    /// let receipt = memory.forget(request).await?;
    /// assert_eq!(receipt.forget.and_then(|f| f.receipt).map(|r| r.memories), Some(1));
    /// assert!(memory.search("locker", 5).await?.is_empty());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an empty request; [`Error::NotFound`] for an unknown id.
    pub async fn forget(&self, request: ForgetRequest) -> Result<Changeset> {
        check(&request)?;
        self.run_forget(request, None, DecidedBy::User).await
    }

    /// An agent's request to forget: it waits for a person (a pending `forget` changeset,
    /// with the memories it would remove) unless the review policy is `auto`, which forgets
    /// at once. A request that would remove a pinned memory waits for a person whatever the
    /// policy: a pinned memory changes only with a person's approval.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> { let dir = tempfile::tempdir()?;
    /// # let settings = haema_core::Settings { review: haema_core::ReviewPolicy::Review, ..Default::default() };
    /// # let memory = haema_core::Memory::open_with(dir.path(), settings, None, None).await?;
    /// use haema_core::{ChangesetStatus, ForgetRequest};
    /// # let id = memory.add("Ana's phone is 555-0100.").await?.changeset.ok_or("none")?; memory.approve(id).await?;
    /// let request = ForgetRequest { mentioning: Some("555-0100".into()), ..Default::default() };
    /// let asked = memory.request_forget(request).await?; // waits for a person
    /// assert_eq!(asked.status, ChangesetStatus::Pending);
    /// memory.approve(asked.id).await?; // now it is gone
    /// assert!(memory.get_latest(1, 10).await?.is_empty());
    /// # Ok(()) }
    /// ```
    pub async fn request_forget(&self, request: ForgetRequest) -> Result<Changeset> {
        check(&request)?;
        if self.inner.settings.review == ReviewPolicy::Auto {
            let asked = request.clone();
            let pinned = self
                .blocking(move |inner| {
                    inner
                        .store
                        .read(|r| Ok(resolve(r, &asked)?.iter().any(|(_, m)| m.pinned)))
                })
                .await?;
            if !pinned {
                return self.run_forget(request, None, DecidedBy::Auto).await;
            }
        }
        // A waiting request records its phrase: a secret has no place in it.
        if let Some(found) = request
            .phrase()
            .and_then(|p| crate::secrets::find(p).into_iter().next())
        {
            return Err(Error::InvalidArgument(format!(
                "the phrase holds what looks like a secret ({}), and a forget request waits for a person with its phrase recorded, so it was not made: \
                 no write stores a secret (each is replaced by a marker such as `[secret: {}]`); to forget a memory stored with one, ask for it by memory id",
                found.kind, found.kind
            )));
        }
        let id = self
            .blocking(move |inner| {
                inner.store.write(|w| {
                    let targets = resolve(w, &request)?;
                    let now = crate::types::now_ms();
                    let related = targets
                        .iter()
                        .map(|(_, m)| RelatedItem {
                            memory_id: m.id.clone(),
                            content: m.content.clone(),
                            distance: None,
                            kept: false,
                        })
                        .collect();
                    let record = ForgetRecord {
                        mentioning: request.phrase().map(str::to_owned),
                        receipt: None,
                    };
                    w.changesets_mut().insert(&forget_changeset(None, now, related, record))
                })
            })
            .await?;
        self.changeset(id).await
    }

    /// Carries out a pending forget request (its approval).
    pub(super) async fn approve_forget(&self, changeset: Changeset) -> Result<Changeset> {
        let request = super::forget_review::forget_request_of(&changeset);
        self.run_forget(request, Some(changeset.id), DecidedBy::User).await
    }

    /// Forgets what `request` names in one transaction (recording the receipt on `existing`
    /// when it carries out a pending request), then rewrites core.md if its text changed and
    /// scrubs the store.
    async fn run_forget(
        &self,
        request: ForgetRequest,
        existing: Option<ChangesetId>,
        by: DecidedBy,
    ) -> Result<Changeset> {
        let (id, unfinished) = self
            .blocking(move |inner| {
                let (id, core) = inner
                    .store
                    .write(|w| forget_in(w, &inner.store, &request, existing, by))?;
                // Committed: from here on an error is no failure of the forget, which cannot
                // be taken back, but work the next open of the store finishes.
                let mut unfinished = Vec::new();

                if let Some(text) = core
                    && let Err(e) = core_write::finish_write(&inner.store, &text)
                {
                    unfinished.push(format!(
                        "core.md could not be rewritten yet ({}): it still shows the forgotten text until the store is next opened, which rewrites it",
                        cause(&e)
                    ));
                }
                if let Err(e) = finish_scrub(&inner.store) {
                    unfinished.push(format!(
                        "old copies of the forgotten text are still in the store's files ({}): the scrub finishes when the store is next opened with room to work",
                        cause(&e)
                    ));
                }
                Ok((id, unfinished))
            })
            .await?;
        let mut changeset = self.changeset(id).await?;
        if let Some(receipt) = changeset.forget.as_mut().and_then(|f| f.receipt.as_mut()) {
            receipt.unfinished = unfinished;
        }
        Ok(changeset)
    }
}

/// Why work after a forget's commit failed, in words that do not claim nothing changed.
pub(crate) fn cause(e: &Error) -> String {
    match e {
        Error::DiskFull => "the disk holding the store is full".into(),
        other => other.to_string(),
    }
}

/// Scrubs the store when a forget asked for it (also on open, after a crash between the
/// forget's commit and its scrub), then clears the mark. A scrub another process kept
/// from finishing leaves the mark for the next open.
pub(crate) fn finish_scrub(store: &Store) -> Result<()> {
    if store.read(|r| r.meta(MetaKey::ScrubPending))?.is_none() {
        return Ok(());
    }
    if store.scrub()? {
        store.write(|w| w.delete_meta(MetaKey::ScrubPending))?;
        store.scrub()?;
    }
    Ok(())
}

fn check(request: &ForgetRequest) -> Result<()> {
    if request.is_empty() {
        return Err(Error::InvalidArgument(
            "nothing to forget: give memory ids or a phrase".into(),
        ));
    }
    if let Some(phrase) = request.phrase()
        && Phrase::new(phrase).is_none_or(|p| p.weight() < MIN_PHRASE_WEIGHT)
    {
        return Err(Error::InvalidArgument(format!(
            "the phrase {phrase:?} is too short to forget by: it is found inside too many words to mean anything; give at least {MIN_PHRASE_WEIGHT} letters or digits (a whole word or name), or forget memories by id"
        )));
    }
    Ok(())
}

/// The agent state entries a forget removes whole, because their agent id or key holds the
/// phrase asked for (a name is never half blanked): each once, in the order they were first
/// written.
fn removed_state(r: &dyn Reader, needles: &Needles) -> Result<Vec<AgentStateKey>> {
    let mut removed: Vec<AgentStateKey> = Vec::new();
    for (agent_id, key, _, _) in r.agents().log()? {
        if (needles.names(&agent_id) || needles.names(&key))
            && !removed.iter().any(|e| e.agent_id == agent_id && e.key == key)
        {
            removed.push(AgentStateKey { agent_id, key });
        }
    }
    Ok(removed)
}

/// The memories a request names, oldest first: those asked for by id with the older
/// memories they were built from, and those mentioning the phrase. Forgotten ones are left
/// out.
fn resolve(r: &dyn Reader, request: &ForgetRequest) -> Result<Vec<(i64, MemoryRecord)>> {
    let mut queue = Vec::new();
    for id in &request.memory_ids {
        let found = r
            .memories()
            .by_id(id)?
            .ok_or_else(|| Error::NotFound(Missing::Memory(id.clone())))?;
        queue.push(found);
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while let Some((rowid, memory)) = queue.pop() {
        if memory.status == MemoryStatus::Forgotten || !seen.insert(rowid) {
            continue;
        }
        if let Some(made_by) = memory.changeset_id {
            queue.extend(
                r.memories()
                    .replaced_by(made_by)?
                    .into_iter()
                    .filter(|(_, m)| m.status == MemoryStatus::Superseded),
            );
        }
        out.push((rowid, memory));
    }
    if let Some(phrase) = request.phrase() {
        out.extend(
            forgetting::memories_mentioning(r, phrase)?
                .into_iter()
                .filter(|(rowid, _)| seen.insert(*rowid)),
        );
    }
    out.sort_by_key(|(rowid, _)| *rowid);
    Ok(out)
}

/// What a forget blanks: the forgotten memories' texts and ids, the changesets that made
/// them, and the phrase.
struct Scope {
    needles: Needles,
    ids: Vec<MemoryId>,
    made_by: HashSet<ChangesetId>,
}

impl Scope {
    fn of(targets: &[(i64, MemoryRecord)], phrase: Option<&str>) -> Self {
        Self {
            needles: Needles::new(targets.iter().map(|(_, m)| m.content.as_str()), phrase),
            ids: targets.iter().map(|(_, m)| m.id.clone()).collect(),
            made_by: targets.iter().filter_map(|(_, m)| m.changeset_id).collect(),
        }
    }

    /// `changeset` with the forgotten text blanked, when it held any.
    fn redact(&self, mut changeset: Changeset) -> Option<Changeset> {
        let made = self.made_by.contains(&changeset.id);
        redact_changeset(&mut changeset, &self.needles, &self.ids, made).then_some(changeset)
    }
}

/// The forget itself, inside one write: memories, recorded text, core versions, the
/// receipt and the scrub mark. Returns the receipt's id and core.md's new text when it
/// changed.
fn forget_in(
    w: &dyn Writer,
    store: &Store,
    request: &ForgetRequest,
    existing: Option<ChangesetId>,
    by: DecidedBy,
) -> Result<(ChangesetId, Option<String>)> {
    if let Some(id) = existing {
        let current = w.changesets().get(id)?.ok_or(Error::NotFound(Missing::Changeset(id)))?;
        if current.status != ChangesetStatus::Pending {
            return Err(Error::WrongStatus {
                changeset: id,
                status: current.status,
                action: crate::error::ReviewAction::Approve,
            });
        }
    }
    // An edit of core.md made outside is recorded first, so that it is blanked too.
    core_write::sync_external(w, store)?;
    let targets = resolve(w, request)?;
    let scope = Scope::of(&targets, request.phrase());
    let now = crate::types::now_ms();
    for (rowid, _) in &targets {
        forgetting::forget_memory(w, *rowid, now)?;
    }
    let mut changesets = 0;
    for changeset in w.changesets().list(ChangesetFilter::All, None)? {
        if Some(changeset.id) == existing {
            continue;
        }
        let Some(redacted) = scope.redact(changeset) else {
            continue;
        };
        w.changesets_mut().rewrite_text(&redacted)?;
        changesets += 1;
        if redacted.status == ChangesetStatus::Pending {
            // Its proposal lost text: approving it would commit the blanks.
            w.changesets_mut()
                .decide(redacted.id, ChangesetStatus::Stale, DecidedBy::Check, now)?;
            let mut warnings = redacted.warnings.clone();
            warnings.push("marked stale: some of its text was forgotten".into());
            w.changesets_mut().set_warnings(redacted.id, &warnings)?;
        }
    }
    let mut core_versions = 0;
    let mut core_text = None;
    let latest = w.core().latest()?.map(|v| v.id);
    // The core profile and agent state are shared by a store's users: one user's forget
    // leaves them to the people who edit them.
    let shared = !matches!(store.scope(), crate::store::Scope::User(_));
    for version in w.core().versions()?.into_iter().filter(|_| shared) {
        if let Some(text) = scope.needles.redact_core(&version.content) {
            w.core_mut().rewrite(version.id, &text)?;
            core_versions += 1;
            if Some(version.id) == latest {
                core_write::mark_pending(w, version.id)?;
                core_text = Some(text);
            }
        }
    }
    // The copies of core.md's earlier bytes that were not UTF-8 are core versions too (each
    // rewritten whole at once; an error here undoes the forget, which then changed nothing).
    if shared && let Some(core_file) = store.core_file() {
        core_versions += store::core_copy::rewrite(&core_file, &|text| scope.needles.redact_core(text))?;
    }
    // Agent state is no memory, but a text to forget may have been copied into it.
    let agent_state = if shared {
        forgetting::redact_agent_state(w, &|name| scope.needles.names(name), &|value| {
            scope.needles.redact_state_value(value)
        })?
    } else {
        0
    };
    let receipt = ForgetReceipt {
        memories: targets.len(),
        changesets,
        core_versions,
        agent_state,
        phrase: request.phrase().is_some(),
        unfinished: Vec::new(),
    };
    let related = targets
        .iter()
        .map(|(_, m)| RelatedItem {
            memory_id: m.id.clone(),
            content: BLANK.to_owned(),
            distance: None,
            kept: false,
        })
        .collect();
    let record = ForgetRecord {
        mentioning: None,
        receipt: Some(receipt),
    };
    let id = match existing {
        Some(id) => {
            let mut done = forget_changeset(None, now, related, record);
            done.id = id;
            w.changesets_mut().rewrite_text(&done)?;
            w.changesets_mut().decide(id, ChangesetStatus::Committed, by, now)?;
            id
        }
        None => w
            .changesets_mut()
            .insert(&forget_changeset(Some(by), now, related, record))?,
    };
    w.set_meta(MetaKey::ScrubPending, "1")?;
    Ok((id, core_text))
}

/// A `forget` changeset: pending (a request) or committed by `by`.
fn forget_changeset(by: Option<DecidedBy>, now: i64, related: Vec<RelatedItem>, record: ForgetRecord) -> Changeset {
    let base = match by {
        Some(by) => Changeset::decided(ChangesetKind::Forget, Outcome::Forget, by, now),
        None => Changeset::empty(ChangesetKind::Forget, ChangesetStatus::Pending, Outcome::Forget, now),
    };
    Changeset {
        related,
        forget: Some(record),
        ..base
    }
}
