-- haema store schema, version 4: memory attributes. A memory may carry a type, an
-- importance in [0, 1], a source, the agent and session that wrote it, the user it is
-- about and free JSON metadata (NULL: not set). A changeset keeps the attributes its add
-- was given (to build it again) and each proposed memory the attributes it gets (merged
-- with those of the memories it replaces). Append-only: never edit a shipped migration.

ALTER TABLE memories ADD COLUMN memory_type TEXT;
ALTER TABLE memories ADD COLUMN importance REAL CHECK (importance BETWEEN 0 AND 1);
ALTER TABLE memories ADD COLUMN source TEXT;
ALTER TABLE memories ADD COLUMN agent_id TEXT;
ALTER TABLE memories ADD COLUMN session_id TEXT;
ALTER TABLE memories ADD COLUMN user_id TEXT;
ALTER TABLE memories ADD COLUMN metadata TEXT; -- JSON object

ALTER TABLE changesets ADD COLUMN attributes TEXT;      -- JSON: what the add was given
ALTER TABLE changeset_items ADD COLUMN attributes TEXT; -- JSON: what a proposed memory gets

-- Filters on who wrote a memory, for whom and of what type find their rows without a scan
-- (partial: memories without the attribute cost nothing).
CREATE INDEX memories_user ON memories (user_id, created_at_ms) WHERE user_id IS NOT NULL;
CREATE INDEX memories_agent ON memories (agent_id, created_at_ms) WHERE agent_id IS NOT NULL;
CREATE INDEX memories_session ON memories (session_id, created_at_ms) WHERE session_id IS NOT NULL;
CREATE INDEX memories_type ON memories (memory_type, created_at_ms) WHERE memory_type IS NOT NULL;
