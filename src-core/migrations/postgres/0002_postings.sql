-- The full-text index as postings: one row per term of each active memory with how often
-- it occurs, instead of a tsvector per memory. A search reads only the postings of its
-- terms (an index-only scan, the memory's length included) rather than unnesting every
-- matching memory's words, and
-- terms are folded (café = cafe) as SQLite's FTS5 folds them. The rows are filled by
-- haema right after this step (`terms::reindex_all`): terms are made in Rust, as a
-- query's are.

CREATE TABLE postings (
    term   TEXT    NOT NULL,
    rowid  BIGINT  NOT NULL REFERENCES memories (rowid),
    tf     INTEGER NOT NULL,   -- how often the term occurs in the memory
    len    INTEGER NOT NULL,   -- how many words the memory has (BM25's document length)
    PRIMARY KEY (term, rowid) INCLUDE (tf, len)
);
CREATE INDEX postings_rowid ON postings (rowid);

DROP INDEX memories_terms;
ALTER TABLE memories DROP COLUMN terms;
