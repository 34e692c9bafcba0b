-- haema store schema, version 1. Append-only: never edit a migration that has shipped.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

CREATE TABLE changesets (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    kind           TEXT    NOT NULL CHECK (kind IN ('add', 'revert')),
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
    reverted_by_id INTEGER REFERENCES changesets (id)
) STRICT;

CREATE INDEX changesets_status ON changesets (status, id);

CREATE TABLE memories (
    rowid         INTEGER PRIMARY KEY,
    id            TEXT    NOT NULL UNIQUE,
    content       TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('active', 'pending', 'superseded', 'forgotten')),
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    changeset_id  INTEGER REFERENCES changesets (id),
    superseded_by INTEGER REFERENCES changesets (id)
) STRICT;

CREATE INDEX memories_latest ON memories (status, created_at_ms DESC, rowid DESC);
CREATE INDEX memories_changeset ON memories (changeset_id);

CREATE TABLE changeset_items (
    changeset_id INTEGER NOT NULL REFERENCES changesets (id),
    role         TEXT    NOT NULL CHECK (role IN ('related', 'proposed')),
    position     INTEGER NOT NULL,
    memory_id    TEXT,           -- related: the existing memory; proposed: the memory it is or becomes
    content      TEXT    NOT NULL,
    distance     REAL,           -- related: how far it was from the nearest new content
    kept         INTEGER NOT NULL DEFAULT 0, -- the memory existed before and is carried over unchanged
    PRIMARY KEY (changeset_id, role, position)
) STRICT;

CREATE INDEX changeset_items_memory ON changeset_items (memory_id);

-- Full text of active memories only (kept in step by the store module).
CREATE VIRTUAL TABLE memories_fts USING fts5 (
    content,
    content = 'memories',
    content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TABLE core_versions (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    content       TEXT    NOT NULL,
    author        TEXT    NOT NULL CHECK (author IN ('llm', 'user', 'external', 'initial')),
    changeset_id  INTEGER REFERENCES changesets (id),
    created_at_ms INTEGER NOT NULL
) STRICT;

CREATE TABLE core_locks (
    section      TEXT    PRIMARY KEY CHECK (section IN ('SOUL', 'TOOLS', 'RULE', 'USER')),
    locked_at_ms INTEGER NOT NULL
) STRICT;
