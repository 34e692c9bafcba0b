-- haema store schema, version 7: scopes. A store may keep several users' memories apart
-- (`scope = "per_user"`): each changeset belongs to the user its add was for, read from the
-- attributes it records, so that a user's history and review list are found by index.
-- Append-only: never edit a shipped migration.

ALTER TABLE changesets ADD COLUMN user_id TEXT GENERATED ALWAYS AS (json_extract(attributes, '$.user_id')) VIRTUAL;
CREATE INDEX changesets_user ON changesets (user_id, id) WHERE user_id IS NOT NULL;
