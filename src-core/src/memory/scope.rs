//! Scopes: a store that keeps several users' memories apart (Promptise's per-user scope).
//!
//! A store whose settings say `scope = "per_user"` records that it does, and from then on
//! a [`Memory`] opened on it refuses every read and write ([`Error::UserRequired`]) until
//! it is given a user with [`Memory::for_user`]. A handle for a user sees and writes that
//! user's memories and changes only: the store boundary applies the user inside every
//! query (search, latest, recall, the related-memory lookup of `add`, history, review,
//! export), so no other user's memory is returned or sent to an LLM. The core profile is
//! the store's, shared by its users and edited by people: an add for a user never changes
//! it. [`Memory::purge_user`] removes everything of one user for good.

use std::sync::Arc;

use super::Memory;
use crate::config::StoreScope;
use crate::error::{Error, Result};
use crate::store::{MetaKey, Scope, Store};
use crate::types::{MemoryAttributes, PurgeReceipt};

/// Longest user id, in characters.
const MAX_USER_CHARS: usize = 256;

/// The handle a freshly opened store gives: the whole store, or none of it for a store that
/// keeps users apart (by its settings now, or because it once did). A store set to
/// `per_user` for the first time records it, so it never goes back by a settings change.
pub(crate) fn settle(store: &Store, scope: StoreScope) -> Result<Store> {
    let recorded = store.read(|r| r.meta(MetaKey::Scope))?;
    let per_user = recorded.as_deref() == Some(StoreScope::PerUser.as_str());
    if scope == StoreScope::PerUser && !per_user {
        store.write(|w| w.set_meta(MetaKey::Scope, StoreScope::PerUser.as_str()))?;
    }
    Ok(if per_user || scope == StoreScope::PerUser {
        store.with_scope(Scope::Refused)
    } else {
        store.with_scope(Scope::Whole)
    })
}

/// A user id as given, trimmed; an error that says what is wrong with it.
fn checked_user(user_id: &str) -> Result<String> {
    let user = user_id.trim();
    if user.is_empty() {
        return Err(Error::InvalidArgument(
            "the user id is empty: give the id of a user".into(),
        ));
    }
    if user.chars().count() > MAX_USER_CHARS || user.chars().any(char::is_control) {
        return Err(Error::InvalidArgument(format!(
            "the user id is not one line of at most {MAX_USER_CHARS} characters"
        )));
    }
    Ok(user.to_owned())
}

impl Memory {
    /// A handle on the same store that reads and writes only user `user_id`'s memories and
    /// changes (mem0's and Promptise's `user_id`). It is cheap: the connections, settings
    /// and providers are shared. In a store that keeps users apart (`scope = "per_user"`)
    /// this is the only way in; in any other store it narrows every read to the user and
    /// stamps every write with them.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?;
    /// use haema_core::{Error, Memory, Settings, StoreScope};
    /// let settings = Settings { scope: StoreScope::PerUser, ..Default::default() };
    /// let memory = Memory::open_with(dir.path(), settings, None, None).await?;
    /// assert!(memory.requires_user());
    /// assert!(matches!(memory.search("tea", 5).await, Err(Error::UserRequired)));
    /// let ann = memory.for_user("ann")?;
    /// ann.add("Ann drinks green tea.").await?;
    /// memory.for_user("bob")?.add("Bob drinks green tea too.").await?;
    /// assert_eq!(ann.search("green tea", 5).await?, ["Ann drinks green tea."]);
    /// assert_eq!(ann.user(), Some("ann"));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an empty or multi-line id, or when this handle already
    /// works for another user.
    pub fn for_user(&self, user_id: &str) -> Result<Self> {
        let user = checked_user(user_id)?;
        if let Scope::User(current) = self.inner.store.scope()
            && **current != *user
        {
            return Err(Error::InvalidArgument(format!(
                "this handle works for user `{current}`, so it cannot work for user `{user}`"
            )));
        }
        let store = self.inner.store.with_scope(Scope::User(Arc::from(user.as_str())));
        Ok(self.sibling(Arc::new(store), self.inner.settings.clone()))
    }

    /// This handle as `user` sees the store: a store that keeps users apart opened for
    /// them, another as it is (there `user` is an attribute and a filter, for the caller to
    /// apply).
    ///
    /// # Errors
    /// [`Error::UserRequired`] when the store keeps users apart and no user is given; the
    /// errors of [`Memory::for_user`].
    pub fn as_user(&self, user: Option<&str>) -> Result<Self> {
        match user.map(str::trim).filter(|u| !u.is_empty()) {
            Some(user) if self.requires_user() || self.user().is_some() => self.for_user(user),
            None if self.requires_user() => Err(Error::UserRequired),
            _ => Ok(self.clone()),
        }
    }

    /// The user this handle works for, if it was given one.
    pub fn user(&self) -> Option<&str> {
        match self.inner.store.scope() {
            Scope::User(user) => Some(user),
            Scope::Whole | Scope::Refused => None,
        }
    }

    /// True when the store keeps users apart and this handle has no user yet: every read
    /// and write fails with [`Error::UserRequired`] until [`Memory::for_user`].
    pub fn requires_user(&self) -> bool {
        *self.inner.store.scope() == Scope::Refused
    }

    /// Removes everything of user `user_id` for good: their memories in every status, the
    /// changes made for them (with their LLM exchanges), and their text wherever else the
    /// store recorded it; then scrubs the store's files so no old copy of the bytes stays
    /// (as [`Memory::forget`] does). Returns what was removed. Agent state and the shared
    /// core profile are not a user's and stay.
    ///
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let ann = memory.for_user("ann")?;
    /// ann.add("Ann's locker number is 4417.").await?;
    /// let receipt = memory.purge_user("ann").await?;
    /// assert_eq!(receipt.memories, 1);
    /// assert!(ann.get_latest(1, 10).await?.is_empty());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an empty id, or when this handle works for another
    /// user.
    pub async fn purge_user(&self, user_id: &str) -> Result<PurgeReceipt> {
        let user = self.for_user(user_id)?;
        let id = checked_user(user_id)?;
        user.blocking(move |inner| {
            let receipt = inner.store.write(|w| {
                let receipt = crate::store::forgetting::purge_user(w, &id)?;
                w.set_meta(MetaKey::ScrubPending, "1")?;
                Ok(receipt)
            })?;
            super::forget::finish_scrub(&inner.store)?;
            Ok(receipt)
        })
        .await
    }

    /// `attributes` as this handle writes them: with its user when it has one (an error
    /// when they name another user).
    pub(crate) fn scoped_attributes(&self, attributes: MemoryAttributes) -> Result<MemoryAttributes> {
        match (self.user(), attributes.user_id.as_deref()) {
            (Some(user), Some(other)) if user != other => Err(Error::InvalidArgument(format!(
                "`user_id` is `{other}` but this handle works for user `{user}`: leave `user_id` out or give the same user"
            ))),
            (Some(user), _) => Ok(MemoryAttributes {
                user_id: Some(user.to_owned()),
                ..attributes
            }),
            (None, _) => Ok(attributes),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::error::Error;
    use crate::memory::Memory;
    use crate::store::forgetting;

    /// A user's view refuses, at the store's own primitives, to forget or purge another
    /// user's rows, and what it refused stays whole (the write rolls back). The public
    /// `purge_user` refuses earlier (`for_user`), so only this reaches the primitives.
    #[tokio::test]
    async fn a_users_view_cannot_forget_or_purge_another_users_rows() {
        let dir = tempfile::tempdir().unwrap();
        let memory = Memory::open_with(dir.path(), Default::default(), None, None)
            .await
            .unwrap();
        let (ann, bob) = (memory.for_user("ann").unwrap(), memory.for_user("bob").unwrap());
        ann.add("Ann likes green tea.").await.unwrap();
        bob.add("Bob keeps bees on the roof.").await.unwrap();
        let before = bob.get_latest(1, 10).await.unwrap();
        assert!(!before.is_empty(), "the check can fail");
        let bobs_row = memory
            .inner
            .store
            .read(|r| Ok(r.memories().of_user("bob")?[0].0))
            .unwrap();

        let purge = ann.inner.store.write(|w| forgetting::purge_user(w, "bob"));
        assert!(matches!(purge, Err(Error::InvalidArgument(_))), "{purge:?}");
        let forget = ann.inner.store.write(|w| forgetting::forget_memory(w, bobs_row, 1));
        assert!(matches!(forget, Err(Error::InvalidState(_))), "{forget:?}");
        assert_eq!(bob.get_latest(1, 10).await.unwrap(), before);
        // Bob's own view forgets it.
        bob.inner
            .store
            .write(|w| forgetting::forget_memory(w, bobs_row, 1))
            .unwrap();
        assert!(bob.get_latest(1, 10).await.unwrap().is_empty());
    }
}
