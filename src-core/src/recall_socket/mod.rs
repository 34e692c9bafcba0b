//! The warm path of a hook's recall: a process that holds a store open (`haema mcp`, the
//! TUI, the desktop app) answers recalls on a private Unix socket in the store's folder, so
//! that a hook, a new process for every prompt, neither opens the store nor loads the
//! embedding model. A hook that finds no one there does the work itself ([`RecallRequest::answer`]).
//!
//! The socket is `.recall.sock` in the store folder, made for its owner only (0600), and
//! only in a folder that is its user's and that no one else may write to. Both sides check
//! the other is the same user: the server answers no other user's connection, and a hook
//! tells its prompt to no other user's socket (nor gives its answer to the agent). When the
//! folder's path is too long for a socket address, it is `haema-recall-<hash>.sock` in
//! `$XDG_RUNTIME_DIR` (when that folder is the user's alone), and without that there is no
//! warm path.
//!
//! One exchange per connection: a [`RecallRequest`] as one JSON line, a [`RecallReply`] as
//! one JSON line.

mod ask;
mod serve;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::Digest;

use crate::error::{Error, Result};
use crate::limits::RECALL_BUDGET;
use crate::memory::Memory;
use crate::search::recall::RecallOptions;
use crate::types::policy::StoreScope;

pub use ask::ask;
pub use serve::{Serving, serve};

/// The socket's name in the store folder.
const SOCKET_NAME: &str = ".recall.sock";
/// The longest socket path the OS takes (`sun_path` less its closing NUL).
#[cfg(target_os = "linux")]
const MAX_SOCKET_PATH: usize = 107;
#[cfg(not(target_os = "linux"))]
const MAX_SOCKET_PATH: usize = 103;
/// The most a request or reply may take on the socket.
const MAX_MESSAGE_BYTES: u64 = 8 * 1024 * 1024;

/// A recall asked for a hook: the prompt, without its private parts (its secrets are
/// replaced by the search, in the process that holds the store, before any embedder).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecallRequest {
    /// What to recall for.
    pub query: String,
    /// The estimated tokens the block may take.
    pub budget_tokens: usize,
    /// The user whose memories are read: in a `per_user` store the one whose store it is,
    /// in another a filter.
    pub user: Option<String>,
}

/// What the process holding the store answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum RecallReply {
    /// The block (`None` when memory holds nothing to give).
    Recall {
        /// The recall block.
        text: Option<String>,
        /// The answering process.
        pid: u32,
    },
    /// It could not answer; why, in a sentence.
    Refused {
        /// Why.
        reason: String,
    },
}

impl RecallRequest {
    /// The recall block on `memory` as the request's user sees it: a `per_user` store
    /// opened for them (it needs one), another filtered to them when one is given; `None`
    /// when memory holds nothing to give. The one rule for a hook's recall, warm or cold.
    ///
    /// # Errors
    /// The errors of [`Memory::as_user`] (a `per_user` store asked without a user, or
    /// `memory` open for another) and of [`Memory::recall_with`].
    pub async fn answer(&self, memory: &Memory) -> Result<Option<String>> {
        let budget = self.budget_tokens.clamp(*RECALL_BUDGET.start(), *RECALL_BUDGET.end());
        let mut options = RecallOptions::budget(budget);
        let unnamed = self.user.as_deref().is_none_or(|u| u.trim().is_empty());
        if unnamed && memory.user().is_some() && memory.settings().scope == StoreScope::PerUser {
            // A process open for one person answers no one who did not say who they are.
            return Err(Error::UserRequired);
        }
        let memory = memory.as_user(self.user.as_deref())?;
        if memory.user().is_none() {
            options.filter.user_id.clone_from(&self.user);
        }
        // The search replaces the prompt's secrets before its embedder sees them.
        let recall = memory.recall_with(&self.query, &options).await?;
        Ok(gives_something(&recall).then_some(recall.text))
    }
}

/// True when the block holds a memory, or a core profile with something written in it: an
/// empty store's block (the bare section headings) is not worth a prompt's tokens.
fn gives_something(recall: &crate::search::recall::Recall) -> bool {
    recall.items.iter().any(|item| match item.reason {
        crate::search::recall::RecallReason::Core => crate::types::core_md::CoreSections::parse(&item.content)
            .map_or(true, |core| core.iter().any(|(_, text)| !text.trim().is_empty())),
        _ => true,
    })
}

/// Where the recall socket of the store in `dir` is; `None` when no path fits (see the
/// module's notes).
pub fn socket_path(dir: &Path) -> Option<PathBuf> {
    let beside = dir.join(SOCKET_NAME);
    if beside.as_os_str().len() <= MAX_SOCKET_PATH {
        return Some(beside);
    }
    // Only a runtime folder that is this user's alone (as the XDG spec has it): in a shared
    // one another user could be listening at the name first.
    let runtime = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|dir| is_private_folder(dir))?;
    let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let hash = sha2::Sha256::digest(canonical.as_os_str().as_encoded_bytes());
    let short: String = hash.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let path = runtime.join(format!("haema-recall-{short}.sock"));
    (path.as_os_str().len() <= MAX_SOCKET_PATH).then_some(path)
}

/// This process's effective user id.
#[cfg(unix)]
fn own_uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Whether `dir` is this user's folder that no one else may write to: where a socket may
/// be made and trusted.
fn is_private_folder(dir: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(dir).is_ok_and(|m| m.is_dir() && m.uid() == own_uid() && m.mode() & 0o022 == 0)
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        false
    }
}

#[cfg(test)]
mod tests;
