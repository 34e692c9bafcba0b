//! The engine's [`Reader`] and [`Writer`] over one PostgreSQL connection, inside the
//! transaction [`super::PgStore`] began.

mod agent_keys;
mod reads;
mod writes;

use super::client::Conn;
use crate::error::Result;
use crate::store::MetaKey;
use crate::store::backend::{
    AgentKeyReads, AgentKeyWrites, AgentStateReads, AgentStateWrites, ChangesetReads, ChangesetWrites, CoreReads,
    CoreWrites, MemoryReads, MemoryWrites, Reader, SearchReads, TextIndexWrites, VectorReads, VectorWrites,
    WholeStoreReads, Writer,
};

/// A connection inside a transaction.
pub(super) struct Boundary<'a> {
    conn: &'a Conn,
}

impl<'a> Boundary<'a> {
    pub(super) fn new(conn: &'a Conn) -> Self {
        Self { conn }
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
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            &[&key.as_str(), &value],
        )?;
        Ok(())
    }

    fn delete_meta(&self, key: MetaKey) -> Result<()> {
        self.conn.execute("DELETE FROM meta WHERE key = $1", &[&key.as_str()])?;
        Ok(())
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
