-- haema store schema, version 2: how many active memories each span of time holds, so a
-- page of `latest` deep in the store is found without walking every newer memory.
-- Append-only: never edit a migration that has shipped.

-- Level L counts the active memories whose created_at_ms >> L is `bucket`: spans of 2^L ms,
-- each level 256 times finer than the one above (2^40 ms is about 35 years, 2^8 ms 256 ms).
CREATE TABLE latest_counts (
    level  INTEGER NOT NULL,
    bucket INTEGER NOT NULL,
    active INTEGER NOT NULL,
    PRIMARY KEY (level, bucket)
) STRICT, WITHOUT ROWID;

INSERT INTO latest_counts (level, bucket, active)
    SELECT level, created_at_ms >> level, count(*)
    FROM memories, (SELECT 40 AS level UNION ALL SELECT 32 UNION ALL SELECT 24 UNION ALL SELECT 16 UNION ALL SELECT 8)
    WHERE status = 'active'
    GROUP BY level, created_at_ms >> level;

CREATE TRIGGER latest_counts_insert AFTER INSERT ON memories WHEN NEW.status = 'active' BEGIN
    INSERT INTO latest_counts (level, bucket, active) VALUES
        (40, NEW.created_at_ms >> 40, 1),
        (32, NEW.created_at_ms >> 32, 1),
        (24, NEW.created_at_ms >> 24, 1),
        (16, NEW.created_at_ms >> 16, 1),
        (8, NEW.created_at_ms >> 8, 1)
        ON CONFLICT (level, bucket) DO UPDATE SET active = active + 1;
END;

CREATE TRIGGER latest_counts_delete AFTER DELETE ON memories WHEN OLD.status = 'active' BEGIN
    INSERT INTO latest_counts (level, bucket, active) VALUES
        (40, OLD.created_at_ms >> 40, -1),
        (32, OLD.created_at_ms >> 32, -1),
        (24, OLD.created_at_ms >> 24, -1),
        (16, OLD.created_at_ms >> 16, -1),
        (8, OLD.created_at_ms >> 8, -1)
        ON CONFLICT (level, bucket) DO UPDATE SET active = active - 1;
END;

CREATE TRIGGER latest_counts_update AFTER UPDATE OF status, created_at_ms ON memories
    WHEN (OLD.status = 'active' OR NEW.status = 'active')
     AND NOT (OLD.status = NEW.status AND OLD.created_at_ms = NEW.created_at_ms) BEGIN
    INSERT INTO latest_counts (level, bucket, active)
        SELECT level, OLD.created_at_ms >> level, -1
        FROM (SELECT 40 AS level UNION ALL SELECT 32 UNION ALL SELECT 24 UNION ALL SELECT 16 UNION ALL SELECT 8)
        WHERE OLD.status = 'active'
        ON CONFLICT (level, bucket) DO UPDATE SET active = active - 1;
    INSERT INTO latest_counts (level, bucket, active)
        SELECT level, NEW.created_at_ms >> level, 1
        FROM (SELECT 40 AS level UNION ALL SELECT 32 UNION ALL SELECT 24 UNION ALL SELECT 16 UNION ALL SELECT 8)
        WHERE NEW.status = 'active'
        ON CONFLICT (level, bucket) DO UPDATE SET active = active + 1;
END;
