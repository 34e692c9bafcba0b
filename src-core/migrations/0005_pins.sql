-- haema store schema, version 5: pinned memories. A pinned memory is never replaced or
-- rewritten without a person's review: a change that would set it aside waits for review
-- whatever the review policy, and what replaces it (after review) is pinned too.
-- Append-only: never edit a shipped migration.

ALTER TABLE memories ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1));
