//! Importing a list of items: every item screened as an add is (secrets, size, prompt
//! injection), the held ones in a pending changeset, the rest committed as one changeset.

use std::collections::HashSet;

use super::Memory;
use crate::config::ReviewPolicy;
use crate::error::Result;
use crate::secrets::{SecretPolicy, SecretTally};
use crate::store::MetaKey;
use crate::transfer::{ImportItem, ItemsReport};
use crate::types::{
    Changeset, ChangesetId, ChangesetKind, ChangesetStatus, MemoryId, MemoryStatus, Outcome, ProposedItem,
};

impl Memory {
    /// Adds the items as memories, as they are (no LLM), keeping their timestamps. Texts
    /// already in the store, and repeats within the file, are skipped.
    ///
    /// Every item goes through the screens an add goes through: secrets are replaced by
    /// markers ([`crate::secrets`]), and an item whose text reads like a prompt injection
    /// ([`crate::safety::detect`]) is held in a pending changeset for review under the
    /// `guarded` and `review` policies (under `auto` it is imported, with a warning), as is
    /// an item that held a secret under `secrets.policy = hold`. The rest is committed.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::parse_items;
    /// let items = parse_items(r#"[{"memory": "The user is vegetarian."}, {"memory": "The user lives in Lyon."}]"#)?;
    /// let report = memory.import_items(items.clone(), "mem0-export.json").await?;
    /// assert_eq!((report.added, report.skipped), (2, 0));
    /// let again = memory.import_items(items, "mem0-export.json").await?;
    /// assert_eq!((again.added, again.skipped), (0, 2)); // nothing is added twice
    /// # Ok(()) }
    /// ```
    pub async fn import_items(&self, items: Vec<ImportItem>, source: &str) -> Result<ItemsReport> {
        self.import_items_with_progress(items, source, |_, _| {}).await
    }

    /// [`Memory::import_items`], calling `progress(embedded, to_embed)` as vectors are made.
    pub async fn import_items_with_progress(
        &self,
        items: Vec<ImportItem>,
        source: &str,
        progress: impl FnMut(usize, usize) + Send,
    ) -> Result<ItemsReport> {
        let total = items.len();
        // An item too large fails the whole import before anything is written: nothing is
        // dropped unseen, and the file can be fixed and imported again.
        for (i, item) in items.iter().enumerate() {
            crate::limits::check_memory_size_of(&item.content, &format!("item {} of the import", i + 1))?;
        }
        let mut secrets = SecretTally::default();
        let screened: Vec<(ImportItem, bool)> = items
            .into_iter()
            .map(|mut item| {
                let mut mine = SecretTally::default();
                mine.string(&mut item.content);
                mine.attributes(&mut item.attributes);
                secrets.merge(&mine);
                (item, !mine.is_empty())
            })
            .collect();
        // Known to the store and repeated in the file: the same text about the same user, or
        // any copy for an item about no one (as an add relates, `pipeline::related`).
        let known: HashSet<(Option<String>, String)> = self
            .blocking(|inner| {
                inner.store.read(|conn| {
                    Ok(conn
                        .memories()
                        .all()?
                        .into_iter()
                        .filter(|m| m.status != MemoryStatus::Forgotten)
                        .map(|m| (m.attributes.user_id, m.content))
                        .collect())
                })
            })
            .await?;
        let known_texts: HashSet<String> = known.iter().map(|(_, text)| text.clone()).collect();
        let mut seen = HashSet::new();
        let handle_user = self.user().map(str::to_owned);
        let fresh: Vec<(ImportItem, bool)> = screened
            .into_iter()
            .filter(|(i, _)| {
                let user = i.attributes.user_id.clone().or_else(|| handle_user.clone());
                let known_for = |text: &String| match &user {
                    Some(_) => known.contains(&(user.clone(), text.clone())),
                    None => known_texts.contains(text),
                };
                let key = (user.clone(), i.content.clone());
                !i.content.is_empty() && !known_for(&i.content) && seen.insert(key)
            })
            .collect();
        let settings = self.settings();
        let (policy, secret_policy) = (settings.review, settings.secrets.policy);
        let mut hostile: Vec<String> = Vec::new();
        let (mut held, mut commit): (Vec<ImportItem>, Vec<ImportItem>) = (Vec::new(), Vec::new());
        let mut held_for_secrets = false;
        for (item, had_secret) in fresh {
            // Its text, and its source, ids and metadata, which are read beside it: the
            // warning names what was found in either.
            let screened_text = format!("{}\n{}", item.content, item.attributes.screened_text());
            let is_hostile = !crate::safety::detect(&screened_text).is_empty();
            let hold_hostile = is_hostile && policy != ReviewPolicy::Auto;
            let hold_secret = had_secret && secret_policy == SecretPolicy::Hold;
            if is_hostile {
                hostile.push(screened_text);
            }
            held_for_secrets |= hold_secret;
            if hold_hostile || hold_secret {
                held.push(item);
            } else {
                commit.push(item);
            }
        }
        let mut warnings = Vec::new();
        if !secrets.is_empty() {
            warnings.push(secret_policy.warning(&secrets, held_for_secrets));
        }
        if !hostile.is_empty() {
            let findings = crate::safety::screen(hostile.iter().map(String::as_str));
            warnings.push(crate::safety::warning(&findings, policy != ReviewPolicy::Auto));
        }
        let skipped = total - commit.len() - held.len();
        let held_count = held.len();
        let pending = if held.is_empty() {
            None
        } else {
            Some(self.hold_items(held, source, &warnings).await?)
        };
        if let Some(id) = pending {
            warnings.push(format!(
                "{held_count} imported items wait for review in changeset {id}: approve or reject them there"
            ));
        }
        let held = held_count;
        if commit.is_empty() {
            return Ok(ItemsReport {
                added: 0,
                skipped,
                changeset: None,
                held,
                pending,
                secrets,
                warnings,
            });
        }
        let added = commit.len();
        let vectors = self
            .document_vectors_with_progress(commit.iter().map(|i| i.content.clone()).collect(), progress)
            .await?;
        let source = source.to_owned();
        let kept_warnings = warnings.clone();
        let id = self
            .blocking(move |inner| {
                inner.store.write(|tx| {
                    let now = crate::types::now_ms();
                    let with_ids: Vec<(MemoryId, &ImportItem)> =
                        commit.iter().map(|i| (MemoryId::generate(), i)).collect();
                    let proposed = with_ids
                        .iter()
                        .map(|(id, i)| ProposedItem {
                            memory_id: Some(id.clone()),
                            content: i.content.clone(),
                            kept: false,
                            attributes: i.attributes.clone(),
                        })
                        .collect();
                    let inputs = commit.iter().map(|i| i.content.clone()).collect();
                    let mut changeset = Changeset::imported(source.clone(), inputs, proposed, now);
                    changeset.warnings = kept_warnings;
                    let changeset_id = tx.changesets_mut().insert(&changeset)?;
                    let has_vectors = tx.vectors().exist()?;
                    for (memory_id, item) in &with_ids {
                        let ts = match item.timestamp_ms {
                            Some(ts) => ts,
                            None => tx.next_timestamp()?,
                        };
                        let rowid = tx.memories_mut().insert(
                            memory_id,
                            &item.content,
                            MemoryStatus::Active,
                            ts,
                            changeset_id,
                            &item.attributes,
                        )?;
                        match (has_vectors, vectors.get(&item.content)) {
                            (true, Some(vector)) => tx.vectors_mut().insert(rowid, vector)?,
                            // The embedder is missing for now: the next open with it catches up.
                            (true, None) => tx.set_meta(MetaKey::VectorsBehind, "1")?,
                            (false, _) => {}
                        }
                        tx.text_index_mut().insert(rowid, &item.content)?;
                    }
                    Ok(changeset_id)
                })
            })
            .await?;
        Ok(ItemsReport {
            added,
            skipped,
            changeset: Some(id),
            held,
            pending,
            secrets,
            warnings,
        })
    }

    /// Stores imported items the screens held as one pending changeset (approving it
    /// commits them as they are; their memories get the approval's time).
    async fn hold_items(&self, held: Vec<ImportItem>, source: &str, warnings: &[String]) -> Result<ChangesetId> {
        let mut changeset = Changeset::empty(
            ChangesetKind::Add,
            ChangesetStatus::Pending,
            Outcome::Import,
            crate::types::now_ms(),
        );
        changeset.raw_input = Some(format!("{source} (held for review)"));
        changeset.inputs = held.iter().map(|i| i.content.clone()).collect();
        changeset.proposed = held
            .into_iter()
            .map(|i| ProposedItem {
                memory_id: Some(MemoryId::generate()),
                content: i.content,
                kept: false,
                attributes: i.attributes,
            })
            .collect();
        changeset.warnings = warnings.to_vec();
        self.blocking(move |inner| {
            inner.store.write(|tx| {
                let id = tx.changesets_mut().insert(&changeset)?;
                super::write::insert_pending_rows(tx, id, &changeset)?;
                Ok(id)
            })
        })
        .await
    }
}
