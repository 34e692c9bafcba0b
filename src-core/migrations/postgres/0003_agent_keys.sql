-- Agent keys: a bearer key per agent that reaches the store over the network (`haema mcp
-- --http`), with what it may do: read, propose (every write waits for a person) or write
-- (the store's review policy). Only the key's SHA-256 is kept, so the key works from every
-- machine of the shared store and is in no file. A revoked key stays listed, so a person
-- can see what the agent did.

CREATE TABLE agent_keys (
    name          TEXT    PRIMARY KEY,
    key_sha256    TEXT    NOT NULL UNIQUE,
    access        TEXT    NOT NULL CHECK (access IN ('read', 'propose', 'write')),
    user_id       TEXT,
    created_at_ms BIGINT  NOT NULL,
    expires_at_ms BIGINT,
    last_used_ms  BIGINT,
    revoked_at_ms BIGINT
);
