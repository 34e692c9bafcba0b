-- haema store schema, version 8: access statistics. How often each memory was returned by a
-- search or a recall, and when last. Reads never write: counts gather in the process and
-- are written in batches, so at worst a crash loses the latest few. A memory's row goes
-- with it. Append-only: never edit a shipped migration.

CREATE TABLE memory_access (
    memory_rowid INTEGER PRIMARY KEY REFERENCES memories (rowid) ON DELETE CASCADE,
    hits         INTEGER NOT NULL CHECK (hits >= 0),
    last_ms      INTEGER NOT NULL
) STRICT;
