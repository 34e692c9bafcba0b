//! The engine's [`Reader`] and [`Writer`] over one SQLite connection (inside a transaction
//! for a writer), with the vector codes, the term statistics and the second connection of
//! a hybrid search.

mod agent_keys;
mod reads;
mod writes;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use rusqlite::Connection;

use super::fts_terms::TermStats;
use super::side::SideReader;
use super::vector_index::VectorIndex;
use crate::error::Result;
use crate::store::MetaKey;
use crate::store::backend::{
    AgentKeyReads, AgentKeyWrites, AgentStateReads, AgentStateWrites, ChangesetReads, ChangesetWrites, CoreReads,
    CoreWrites, MemoryReads, MemoryWrites, Reader, SearchReads, TextIndexWrites, VectorReads, VectorWrites,
    WholeStoreReads, Writer,
};

/// A locked connection and what searches on it share. The connection's lock is held for
/// the boundary's life; the vector codes are locked only inside a vector lookup (always after
/// the connection, so the order never inverts).
pub(super) struct Boundary<'a> {
    pub(super) conn: &'a Connection,
    pub(super) index: &'a Mutex<VectorIndex>,
    pub(super) term_stats: &'a Arc<Mutex<TermStats>>,
    pub(super) side: &'a OnceLock<Option<SideReader>>,
    pub(super) db_path: PathBuf,
}

impl Boundary<'_> {
    /// The second connection, opened by the first hybrid search; `None` when it cannot be
    /// (only speed depends on it: the search then runs on this connection).
    fn side(&self) -> Option<&SideReader> {
        self.side.get_or_init(|| SideReader::open(&self.db_path).ok()).as_ref()
    }
}

impl Reader for Boundary<'_> {
    fn meta(&self, key: MetaKey) -> Result<Option<String>> {
        super::meta(self.conn, key)
    }

    fn memories(&self) -> &dyn MemoryReads {
        self
    }

    fn search(&self) -> &dyn SearchReads {
        self
    }

    fn changesets(&self) -> &dyn ChangesetReads {
        self
    }

    fn core(&self) -> &dyn CoreReads {
        self
    }

    fn vectors(&self) -> &dyn VectorReads {
        self
    }

    fn agents(&self) -> &dyn AgentStateReads {
        self
    }

    fn agent_keys(&self) -> &dyn AgentKeyReads {
        self
    }

    fn whole(&self) -> Result<&dyn WholeStoreReads> {
        Ok(self)
    }
}

impl Writer for Boundary<'_> {
    fn set_meta(&self, key: MetaKey, value: &str) -> Result<()> {
        super::set_meta(self.conn, key, value)
    }

    fn delete_meta(&self, key: MetaKey) -> Result<()> {
        super::delete_meta(self.conn, key)
    }

    fn memories_mut(&self) -> &dyn MemoryWrites {
        self
    }

    fn text_index_mut(&self) -> &dyn TextIndexWrites {
        self
    }

    fn changesets_mut(&self) -> &dyn ChangesetWrites {
        self
    }

    fn core_mut(&self) -> &dyn CoreWrites {
        self
    }

    fn vectors_mut(&self) -> &dyn VectorWrites {
        self
    }

    fn agents_mut(&self) -> &dyn AgentStateWrites {
        self
    }

    fn agent_keys_mut(&self) -> &dyn AgentKeyWrites {
        self
    }
}
