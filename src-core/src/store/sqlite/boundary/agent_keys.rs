//! Agent keys, read and written.

use super::Boundary;
use crate::error::Result;
use crate::store::backend::{AgentKeyReads, AgentKeyWrites};
use crate::store::sqlite::agent_keys;
use crate::types::AgentKey;

impl AgentKeyReads for Boundary<'_> {
    fn by_name(&self, name: &str) -> Result<Option<AgentKey>> {
        agent_keys::by_name(self.conn, name)
    }

    fn by_sha256(&self, sha256: &str) -> Result<Option<AgentKey>> {
        agent_keys::by_sha256(self.conn, sha256)
    }

    fn all(&self) -> Result<Vec<AgentKey>> {
        agent_keys::all(self.conn)
    }
}

impl AgentKeyWrites for Boundary<'_> {
    fn insert(&self, key: &AgentKey, sha256: &str) -> Result<()> {
        agent_keys::insert(self.conn, key, sha256)
    }

    fn set_sha256(&self, name: &str, sha256: &str) -> Result<bool> {
        agent_keys::set_sha256(self.conn, name, sha256)
    }

    fn revoke(&self, name: &str, ts: i64) -> Result<bool> {
        agent_keys::revoke(self.conn, name, ts)
    }

    fn touch(&self, name: &str, ts: i64) -> Result<()> {
        agent_keys::touch(self.conn, name, ts)
    }
}
