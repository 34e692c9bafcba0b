-- haema store schema, version 3: forgetting. A changeset may be a `forget` (the request
-- while it waits for review, then the receipt: which memories and how much text went,
-- never the text), recorded in the new `forget` column as JSON. SQLite cannot change a
-- CHECK constraint in place, so `changesets` is rebuilt (the migration runs with foreign
-- keys off and checks them before it commits). Append-only: never edit a shipped migration.

CREATE TABLE changesets_next (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    kind           TEXT    NOT NULL CHECK (kind IN ('add', 'revert', 'forget')),
    status         TEXT    NOT NULL CHECK (status IN ('pending', 'committed', 'rejected', 'reverted', 'stale')),
    outcome        TEXT    NOT NULL,
    created_at_ms  INTEGER NOT NULL,
    decided_at_ms  INTEGER,
    decided_by     TEXT,
    raw_input      TEXT,
    inputs         TEXT    NOT NULL,            -- JSON array of the normalised contents
    core_before    TEXT,                        -- NULL when the changeset leaves core alone
    core_after     TEXT,
    llm            TEXT,
    embedder       TEXT,
    llm_log        TEXT    NOT NULL DEFAULT '[]', -- JSON: every stage call, raw answer or error
    warnings       TEXT    NOT NULL DEFAULT '[]', -- JSON array of sentences
    reverts_id     INTEGER REFERENCES changesets (id),
    reverted_by_id INTEGER REFERENCES changesets (id),
    forget         TEXT                         -- JSON, for kind 'forget' only
) STRICT;

INSERT INTO changesets_next (id, kind, status, outcome, created_at_ms, decided_at_ms, decided_by, raw_input,
        inputs, core_before, core_after, llm, embedder, llm_log, warnings, reverts_id, reverted_by_id)
    SELECT id, kind, status, outcome, created_at_ms, decided_at_ms, decided_by, raw_input,
        inputs, core_before, core_after, llm, embedder, llm_log, warnings, reverts_id, reverted_by_id
    FROM changesets;

DROP TABLE changesets;
ALTER TABLE changesets_next RENAME TO changesets;
CREATE INDEX changesets_status ON changesets (status, id);
