-- The agent key that made a changeset: every changeset written through an agent key
-- (`haema mcp --http`) records the key's name, so a person can list, review and undo what
-- that agent did, also after the key is revoked. NULL for a person's own changes and for
-- agents on standard input.

ALTER TABLE changesets ADD COLUMN agent_key TEXT;
CREATE INDEX changesets_agent_key ON changesets (agent_key, id) WHERE agent_key IS NOT NULL;
