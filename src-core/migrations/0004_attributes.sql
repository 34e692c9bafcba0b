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
