-- haema store schema, version 6: agent state. A small key/value store per agent for things
-- like the current task (HatiData's get_agent_state / set_agent_state): not memories, never
-- searched, every change kept in its history. Append-only: never edit a shipped migration.

CREATE TABLE agent_state (
    agent_id      TEXT    NOT NULL,
    key           TEXT    NOT NULL,
    value         TEXT    NOT NULL,             -- JSON
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (agent_id, key)
) STRICT;

CREATE TABLE agent_state_history (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id TEXT    NOT NULL,
    key      TEXT    NOT NULL,
    value    TEXT,                              -- JSON; NULL: the key was deleted
    at_ms    INTEGER NOT NULL
) STRICT;

CREATE INDEX agent_state_history_key ON agent_state_history (agent_id, key, id);
