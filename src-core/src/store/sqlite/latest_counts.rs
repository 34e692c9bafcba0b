//! Where a deep page of `latest` starts, from the counts of active memories per span of time
//! (`latest_counts`, kept by triggers on `memories`; see migration 0002).
//!
//! `latest` lists active memories newest first, and HAEMA's API asks for a page by position
//! (`begin`). An index walk to position p costs p steps (20 ms at half of a million
//! memories), so from [`DIRECT`] on the position is found in the counts instead: level 40
//! counts memories per 2^40 ms of `created_at_ms`, each level below per a 256th of that,
//! down to 2^8 ms. Walking down, the newest buckets are summed until the one holding
//! position p; at most 256 buckets a level are read, and the page then starts at most one
//! bucket's memories (those within the same 256 ms) past the bucket's newest end.

use rusqlite::Connection;

use crate::error::Result;

/// Positions below this are reached by walking the index, which is cheaper there.
pub(crate) const DIRECT: usize = 1024;

/// The counted levels, coarsest first; each is 8 bits finer than the one before.
const LEVELS: [u32; 5] = [40, 32, 24, 16, 8];

/// Where position `offset` (0-based, newest first) of the active memories lies: the newest
/// `created_at_ms` to start from and how many memories from there to skip. `None` when there
/// are no more than `offset` active memories.
pub(crate) fn locate(conn: &Connection, offset: usize) -> Result<Option<(i64, usize)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT bucket, active FROM latest_counts
         WHERE level = ?1 AND bucket BETWEEN ?2 AND ?3 AND active > 0
         ORDER BY bucket DESC",
    )?;
    let mut remaining = i64::try_from(offset).unwrap_or(i64::MAX);
    let mut within: Option<i64> = None;
    for level in LEVELS {
        let (low, high) = match within {
            None => (i64::MIN, i64::MAX),
            Some(parent) => (parent << 8, (parent << 8) | 0xff),
        };
        let mut rows = stmt.query(rusqlite::params![level, low, high])?;
        let mut chosen = None;
        while let Some(row) = rows.next()? {
            let (bucket, active): (i64, i64) = (row.get(0)?, row.get(1)?);
            if remaining < active {
                chosen = Some(bucket);
                break;
            }
            remaining -= active;
        }
        match chosen {
            Some(bucket) => within = Some(bucket),
            None => return Ok(None),
        }
    }
    let newest = within.map_or(i64::MAX, |bucket| (bucket << 8) | 0xff);
    Ok(Some((newest, usize::try_from(remaining).unwrap_or(0))))
}

#[cfg(test)]
mod tests {
    use rusqlite::params;

    use crate::store::sqlite::memories;

    /// A small deterministic generator (no dependency for one test).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 33
        }
    }

    fn ids(records: &[crate::types::MemoryRecord]) -> Vec<String> {
        records.iter().map(|m| m.id.to_string()).collect()
    }

    /// The page by walking the index, as before the counts.
    fn walked(conn: &rusqlite::Connection, offset: usize, count: usize) -> Vec<String> {
        let mut stmt = conn
            .prepare("SELECT id FROM memories WHERE status = 'active' ORDER BY created_at_ms DESC, rowid DESC LIMIT ?1 OFFSET ?2")
            .unwrap();
        stmt.query_map(params![count as i64, offset as i64], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    #[test]
    fn deep_pages_match_an_index_walk_through_inserts_status_changes_and_deletes() {
        let conn = crate::store::sqlite::memory_db();
        let mut rng = Lcg(42);
        // Times that collide, go back before 1970, and spread over years.
        for i in 0..6_000i64 {
            let ts = match rng.next() % 4 {
                0 => 1_700_000_000_000 + i,
                1 => 1_600_000_000_000 + (rng.next() % 5_000) as i64 * 1_000_000,
                2 => -((rng.next() % 1_000_000) as i64),
                _ => 1_650_000_000_000,
            };
            let status = if rng.next().is_multiple_of(5) {
                "pending"
            } else {
                "active"
            };
            conn.execute(
                "INSERT INTO memories (id, content, status, created_at_ms, updated_at_ms) VALUES (?1, 'x', ?2, ?3, ?3)",
                params![format!("m{i}"), status, ts],
            )
            .unwrap();
        }
        let check = |conn: &rusqlite::Connection| {
            let active: i64 = conn
                .query_row("SELECT count(*) FROM memories WHERE status = 'active'", [], |r| {
                    r.get(0)
                })
                .unwrap();
            let active = active as usize;
            for offset in [
                0,
                1,
                1023,
                1024,
                1025,
                2_000,
                3_333,
                active - 10,
                active - 1,
                active,
                active + 5,
            ] {
                let page = memories::latest(conn, offset, 10).unwrap();
                assert_eq!(ids(&page), walked(conn, offset, 10), "offset {offset} of {active}");
            }
        };
        check(&conn);
        // Supersede some, activate pending ones, move a time, delete a few.
        conn.execute(
            "UPDATE memories SET status = 'superseded' WHERE rowid % 7 = 0 AND status = 'active'",
            [],
        )
        .unwrap();
        conn.execute(
            "UPDATE memories SET status = 'active' WHERE rowid % 11 = 0 AND status = 'pending'",
            [],
        )
        .unwrap();
        conn.execute(
            "UPDATE memories SET created_at_ms = created_at_ms - 86400000 WHERE rowid % 13 = 0",
            [],
        )
        .unwrap();
        conn.execute("DELETE FROM memories WHERE rowid % 17 = 0", []).unwrap();
        check(&conn);
        // The counts agree with a fresh count of every level.
        let wrong: i64 = conn
            .query_row(
                "SELECT count(*) FROM latest_counts c WHERE c.active != (
                     SELECT count(*) FROM memories m WHERE m.status = 'active' AND m.created_at_ms >> c.level = c.bucket)",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(wrong, 0);
    }
}
