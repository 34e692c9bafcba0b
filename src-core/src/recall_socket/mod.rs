//! The warm path of a hook's recall: a process that holds a store open (`haema mcp`, the
//! TUI, the desktop app) answers recalls on a private Unix socket in the store's folder, so
//! that a hook, a new process for every prompt, neither opens the store nor loads the
//! embedding model. A hook that finds no one there does the work itself ([`RecallRequest::answer`]).
//!
//! The socket is `.recall.sock` in the store folder, made for its owner only (0600, in a
//! 0700 folder), and a connection from another user is refused. When the folder's path is
//! too long for a socket address, it is `haema-recall-<hash>.sock` in `$XDG_RUNTIME_DIR`,
//! and without that there is no warm path.
//!
//! One exchange per connection: a [`RecallRequest`] as one JSON line, a [`RecallReply`] as
//! one JSON line.

mod ask;
mod serve;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::Digest;

use crate::error::Result;
use crate::memory::Memory;
use crate::search::recall::RecallOptions;

pub use ask::ask;
pub use serve::{Serving, serve};

/// The socket's name in the store folder.
const SOCKET_NAME: &str = ".recall.sock";
/// The longest socket path the OS takes (`sun_path` less its closing NUL, on Linux).
const MAX_SOCKET_PATH: usize = 107;
/// The most a request or reply may take on the socket.
const MAX_MESSAGE_BYTES: u64 = 8 * 1024 * 1024;

/// A recall asked for a hook: the prompt, without its private parts (its secrets are
/// replaced by [`RecallRequest::answer`], in the process that holds the store).
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
        let mut options = RecallOptions::budget(self.budget_tokens);
        let memory = memory.as_user(self.user.as_deref())?;
        if memory.user().is_none() {
            options.filter.user_id.clone_from(&self.user);
        }
        // No secret of the prompt goes to the embedder (the search's words are not kept).
        let (query, _) = crate::secrets::redact(&self.query);
        let recall = memory.recall_with(&query, &options).await?;
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
    let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from)?;
    let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let hash = sha2::Sha256::digest(canonical.as_os_str().as_encoded_bytes());
    let short: String = hash.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let path = runtime.join(format!("haema-recall-{short}.sock"));
    (path.as_os_str().len() <= MAX_SOCKET_PATH).then_some(path)
}

#[cfg(test)]
mod tests;
