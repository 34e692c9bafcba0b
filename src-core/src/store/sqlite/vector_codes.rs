//! The codes of the active vectors, for the coarse pass of nearest-neighbour search.
//!
//! A code holds the signs of the vector's difference from the store's mean vector (its
//! centre) and a length correction, as RaBitQ does: embeddings share a large common
//! direction (MiniLM's mean vector has length 0.55), so the signs of the vectors themselves
//! say little about how they differ, and the difference's signs alone rank it by its angle,
//! not its length. The coarse pass estimates the part of the dot product that varies between
//! vectors, ⟨q, x − c⟩, as ⟨q, sign(x − c)⟩ · ‖x − c‖² / ‖x − c‖₁. Measured on real MiniLM
//! vectors (100k, repeated LoCoMo turns), this needs half the candidates of plain sign bits
//! for the same recall. The centre is the mean of the active vectors when the codes are
//! rebuilt; a store gets one when it reaches [`CENTRE_AFTER`] vectors (before, the centre is
//! zero).
//!
//! Codes live in chunks of [`CHUNK`] consecutive memory rowids, one row per chunk: a bitmap
//! of the slots that hold a code and the codes themselves, each `ceil(dims / 64)` words of
//! signs and one word holding the correction (an `f32`).
//! A process loads every chunk once (a few large blobs: ~5 MB at 100k memories of 384
//! dimensions) and afterwards only the chunks whose `version` changed. Writes touch the
//! bytes of one slot through SQLite's incremental blob I/O, not the whole chunk.

use crate::store::MetaKey;
use rusqlite::{Connection, MAIN_DB, OptionalExtension, params};

use super::{delete_meta, meta, set_meta};
use crate::error::{Error, Result};

/// Memories per chunk.
pub(crate) const CHUNK: i64 = 1024;
/// Bytes of a chunk's presence bitmap.
const PRESENT_BYTES: usize = (CHUNK / 8) as usize;
/// The layout of the current codes (`MetaKey::VectorCodesLayout`); tables without it hold
/// the plain sign bits of an earlier haema. `MetaKey::VectorCodesGeneration` names the
/// current set of chunk tables (a process holding chunks of an older set reloads), and
/// `MetaKey::VectorCentre` holds the centre the codes are made with (a JSON array).
const CENTRED: &str = "centred-2";
/// Active vectors from which a store's codes are made against their mean.
pub(crate) const CENTRE_AFTER: usize = 1024;

/// Makes the codes of vectors, with the store's centre.
#[derive(Debug, Clone, Default)]
pub(crate) struct Coder {
    /// Empty: no centre yet (zero).
    centre: Vec<f32>,
}

impl Coder {
    /// The coder of the store's current codes.
    pub(crate) fn load(conn: &Connection) -> Result<Self> {
        // A centre that does not parse (a hand-edited database) only costs recall: the
        // re-rank is exact. Codes are then made as without one.
        let centre = meta(conn, MetaKey::VectorCentre)?
            .and_then(|json| serde_json::from_str::<Vec<f32>>(&json).ok())
            .unwrap_or_default();
        Ok(Self { centre })
    }

    /// A coder with this centre.
    #[cfg(test)]
    pub(crate) fn with_centre(centre: Vec<f32>) -> Self {
        Self { centre }
    }

    /// Whether the store has a centre yet.
    pub(crate) fn has_centre(&self) -> bool {
        !self.centre.is_empty()
    }

    /// The code of `vector`: the signs of `vector / ‖vector‖ − centre`, then the correction
    /// word. The vector is taken at unit length because the search ranks by angle: a longer
    /// vector must not score higher.
    pub(crate) fn code(&self, vector: &[f32]) -> Vec<u64> {
        let words = words_for(vector.len());
        let mut code = vec![0u64; words + 1];
        let scale = 1.0 / norm_of(vector);
        let (mut squares, mut absolute) = (0f32, 0f32);
        for (i, x) in vector.iter().enumerate() {
            let r = x * scale - self.centre.get(i).copied().unwrap_or(0.0);
            if r > 0.0 {
                code[i / 64] |= 1 << (i % 64);
            }
            if r.is_finite() {
                squares += r * r;
                absolute += r.abs();
            }
        }
        let correction = if absolute > 0.0 { squares / absolute } else { 0.0 };
        code[words] = u64::from(correction.to_bits());
        code
    }
}

/// The length of a vector's finite components; 1 when that is 0.
fn norm_of(vector: &[f32]) -> f32 {
    let norm = vector
        .iter()
        .filter(|x| x.is_finite())
        .map(|x| x * x)
        .sum::<f32>()
        .sqrt();
    if norm > 0.0 { norm } else { 1.0 }
}

/// The length correction stored in a code's last word.
pub(crate) fn correction(code_word: u64) -> f32 {
    f32::from_bits((code_word & 0xFFFF_FFFF) as u32)
}

/// Creates the code tables.
pub(crate) fn create(conn: &Connection) -> Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS vector_chunks (
             chunk   INTEGER PRIMARY KEY, -- memory rowid / 1024
             version INTEGER NOT NULL     -- grows with every change of the chunk
         ) STRICT;
         CREATE INDEX IF NOT EXISTS vector_chunks_version ON vector_chunks (version);
         CREATE TABLE IF NOT EXISTS vector_codes (
             chunk   INTEGER PRIMARY KEY,
             present BLOB    NOT NULL,    -- bit i: slot i holds the code of an active vector
             codes   BLOB    NOT NULL     -- 1024 slots of sign bits, little-endian u64 words
         ) STRICT;",
    )?;
    if meta(conn, MetaKey::VectorCodesGeneration)?.is_none() {
        set_meta(conn, MetaKey::VectorCodesGeneration, &new_generation())?;
        set_meta(conn, MetaKey::VectorCodesLayout, CENTRED)?;
    }
    Ok(())
}

/// Whether the code tables exist but hold codes of an earlier layout.
pub(crate) fn outdated(conn: &Connection) -> Result<bool> {
    Ok(meta(conn, MetaKey::VectorCodesGeneration)?.is_some()
        && meta(conn, MetaKey::VectorCodesLayout)?.as_deref() != Some(CENTRED))
}

/// Drops the code tables.
pub(crate) fn drop(conn: &Connection) -> Result<()> {
    conn.execute_batch("DROP TABLE IF EXISTS vector_chunks; DROP TABLE IF EXISTS vector_codes;")?;
    delete_meta(conn, MetaKey::VectorCodesGeneration)?;
    delete_meta(conn, MetaKey::VectorCodesLayout)?;
    delete_meta(conn, MetaKey::VectorCentre)
}

fn new_generation() -> String {
    format!("{:x}-{:x}", crate::types::now_ms(), rand::random::<u64>())
}

/// Words of a code for `dims` dimensions.
pub(crate) fn words_for(dims: usize) -> usize {
    dims.div_ceil(64)
}

/// Sets (`Some`) or clears (`None`) the code of memory `rowid`.
pub(crate) fn set(conn: &Connection, rowid: i64, code: Option<&[u64]>) -> Result<()> {
    let (chunk, slot) = (rowid.div_euclid(CHUNK), rowid.rem_euclid(CHUNK) as usize);
    let code_bytes = match (code, chunk_code_bytes(conn, chunk)?) {
        (None, None) => return Ok(()),
        (Some(code), None) => {
            let bytes = code.len() * 8;
            conn.prepare_cached(
                "INSERT INTO vector_codes (chunk, present, codes) VALUES (?1, zeroblob(?2), zeroblob(?3))",
            )?
            .execute(params![chunk, PRESENT_BYTES as i64, (bytes * CHUNK as usize) as i64])?;
            bytes
        }
        (_, Some(bytes)) => bytes,
    };
    if let Some(code) = code
        && code.len() * 8 != code_bytes
    {
        return Err(Error::Internal(format!(
            "a vector code of {} words in a chunk of {}-word codes",
            code.len(),
            code_bytes / 8
        )));
    }
    let mut present = [0u8; 1];
    let byte = slot / 8;
    let mut blob = conn.blob_open(MAIN_DB, c"vector_codes", c"present", chunk, false)?;
    blob.read_at_exact(&mut present, byte)?;
    match code {
        Some(_) => present[0] |= 1 << (slot % 8),
        None => present[0] &= !(1 << (slot % 8)),
    }
    blob.write_at(&present, byte)?;
    blob.close()?;
    if let Some(code) = code {
        let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut blob = conn.blob_open(MAIN_DB, c"vector_codes", c"codes", chunk, false)?;
        blob.write_at(&bytes, slot * code_bytes)?;
        blob.close()?;
    }
    conn.prepare_cached(
        "INSERT INTO vector_chunks (chunk, version) VALUES (?1, (SELECT coalesce(max(version), 0) + 1 FROM vector_chunks))
         ON CONFLICT (chunk) DO UPDATE SET version = excluded.version",
    )?
    .execute([chunk])?;
    Ok(())
}

/// Removes memory `rowid`'s code and zeroes its bytes (a forgotten memory's code keeps no
/// trace of its vector).
pub(crate) fn erase(conn: &Connection, rowid: i64) -> Result<()> {
    set(conn, rowid, None)?;
    let (chunk, slot) = (rowid.div_euclid(CHUNK), rowid.rem_euclid(CHUNK) as usize);
    if let Some(code_bytes) = chunk_code_bytes(conn, chunk)? {
        let mut blob = conn.blob_open(MAIN_DB, c"vector_codes", c"codes", chunk, false)?;
        blob.write_at(&vec![0u8; code_bytes], slot * code_bytes)?;
        blob.close()?;
    }
    Ok(())
}

/// Bytes of one code in `chunk`, or `None` when the chunk has no row yet.
fn chunk_code_bytes(conn: &Connection, chunk: i64) -> Result<Option<usize>> {
    let len: Option<i64> = conn
        .prepare_cached("SELECT length(codes) FROM vector_codes WHERE chunk = ?1")?
        .query_row([chunk], |r| r.get(0))
        .optional()?;
    Ok(len.map(|l| usize::try_from(l).unwrap_or(0) / CHUNK as usize))
}

/// Rebuilds every code from the active float vectors, against their mean when there are
/// at least [`CENTRE_AFTER`] of them.
pub(crate) fn rebuild(conn: &Connection) -> Result<()> {
    drop(conn)?;
    create(conn)?;
    let centre = mean_of_active(conn)?;
    if let Some(centre) = &centre {
        let json = serde_json::to_string(centre).map_err(|e| Error::Internal(format!("the vector centre: {e}")))?;
        set_meta(conn, MetaKey::VectorCentre, &json)?;
    }
    let coder = Coder {
        centre: centre.unwrap_or_default(),
    };
    let mut stmt = conn.prepare("SELECT rowid, embedding FROM vectors WHERE active = 1 ORDER BY rowid")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let rowid: i64 = row.get(0)?;
        let blob: Vec<u8> = row.get(1)?;
        set(conn, rowid, Some(&coder.code(&super::vectors::from_blob(&blob))))?;
    }
    Ok(())
}

/// The mean of the active vectors at unit length, when there are at least [`CENTRE_AFTER`]
/// of one size.
fn mean_of_active(conn: &Connection) -> Result<Option<Vec<f32>>> {
    let mut stmt = conn.prepare("SELECT embedding FROM vectors WHERE active = 1")?;
    let mut rows = stmt.query([])?;
    let mut sum: Vec<f64> = Vec::new();
    let mut count = 0usize;
    while let Some(row) = rows.next()? {
        let vector = super::vectors::from_blob(&row.get::<_, Vec<u8>>(0)?);
        if sum.is_empty() {
            sum = vec![0.0; vector.len()];
        }
        if vector.len() != sum.len() || vector.iter().any(|x| !x.is_finite()) {
            continue;
        }
        let norm = f64::from(norm_of(&vector));
        for (s, x) in sum.iter_mut().zip(&vector) {
            *s += f64::from(*x) / norm;
        }
        count += 1;
    }
    Ok((count >= CENTRE_AFTER).then(|| sum.iter().map(|s| (s / count as f64) as f32).collect()))
}

/// How many active vectors have a code (one row per chunk is read).
pub(crate) fn active_codes(conn: &Connection) -> Result<usize> {
    let mut stmt = conn.prepare_cached("SELECT present FROM vector_codes")?;
    let rows = stmt.query_map([], |r| r.get::<_, Vec<u8>>(0))?;
    let mut count = 0usize;
    for present in rows {
        count += present?.iter().map(|b| b.count_ones() as usize).sum::<usize>();
    }
    Ok(count)
}

/// The current generation of the code tables (`None` without them).
pub(crate) fn generation(conn: &Connection) -> Result<Option<String>> {
    meta(conn, MetaKey::VectorCodesGeneration)
}

/// Every chunk and its version.
pub(crate) fn versions(conn: &Connection) -> Result<Vec<(i64, i64)>> {
    let mut stmt = conn.prepare_cached("SELECT chunk, version FROM vector_chunks ORDER BY chunk")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One chunk: its presence bitmap and its codes (`None` when it has no row).
pub(crate) fn load(conn: &Connection, chunk: i64) -> Result<Option<(Vec<u8>, Vec<u8>)>> {
    Ok(conn
        .prepare_cached("SELECT present, codes FROM vector_codes WHERE chunk = ?1")?
        .query_row([chunk], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sqlite::vector_index::VectorIndex;
    use crate::store::sqlite::vectors;

    /// Deterministic values in [-1, 1].
    fn noise(seed: u64, dims: usize) -> Vec<f32> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..dims)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 2001) as f32 / 1000.0 - 1.0
            })
            .collect()
    }

    /// Unit vectors sharing a large common direction, as embeddings do.
    fn embedding_like(seed: u64, dims: usize) -> Vec<f32> {
        let common = noise(7, dims);
        let own = noise(seed + 1_000, dims);
        let v: Vec<f32> = common.iter().zip(&own).map(|(c, o)| 2.0 * c + o).collect();
        let norm = v.iter().map(|a| a * a).sum::<f32>().sqrt();
        v.into_iter().map(|a| a / norm).collect()
    }

    fn add(conn: &Connection, rowid: i64, vector: &[f32]) {
        conn.execute(
            "INSERT INTO memories (rowid, id, content, status, created_at_ms, updated_at_ms) VALUES (?1, ?2, 'x', 'active', ?1, ?1)",
            params![rowid, format!("m{rowid}")],
        )
        .unwrap();
        vectors::insert(conn, rowid, vector).unwrap();
    }

    #[test]
    fn a_store_is_centred_once_it_has_enough_vectors() {
        let conn = crate::store::sqlite::memory_db();
        vectors::create(&conn).unwrap();
        let dims = 64;
        for rowid in 1..CENTRE_AFTER as i64 {
            add(&conn, rowid, &embedding_like(rowid as u64, dims));
        }
        assert!(!Coder::load(&conn).unwrap().has_centre());
        let before = generation(&conn).unwrap();
        add(&conn, CENTRE_AFTER as i64, &embedding_like(0, dims));
        let coder = Coder::load(&conn).unwrap();
        assert!(coder.has_centre());
        assert_ne!(generation(&conn).unwrap(), before, "the codes were remade");
        assert_eq!(active_codes(&conn).unwrap(), CENTRE_AFTER);
        // The codes in the table are the centred ones.
        let (_, codes) = load(&conn, 0).unwrap().unwrap();
        let words = words_for(dims) + 1;
        let stored: Vec<u64> = codes[8 * words..16 * words]
            .chunks(8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(stored, coder.code(&embedding_like(1, dims)));
    }

    #[test]
    fn centred_codes_find_more_of_the_true_neighbours() {
        let dims = 96;
        let recall_with = |centred: bool| {
            let conn = crate::store::sqlite::memory_db();
            vectors::create(&conn).unwrap();
            for rowid in 1..=2_000i64 {
                add(&conn, rowid, &embedding_like(rowid as u64, dims));
            }
            if !centred {
                // Codes of an earlier haema: the signs of the vectors themselves.
                rebuild_without_centre(&conn);
            }
            let mut index = VectorIndex::default();
            index.refresh(&conn).unwrap();
            let mut found = 0;
            for q in 0..40u64 {
                let query = embedding_like(50_000 + q, dims);
                let exact: Vec<i64> = vectors::nearest_exact(&conn, &query, 10)
                    .unwrap()
                    .iter()
                    .map(|h| h.0)
                    .collect();
                let pool = index.candidates(&query, 40, None);
                found += exact.iter().filter(|id| pool.contains(id)).count();
            }
            found as f64 / 400.0
        };
        let (plain, centred) = (recall_with(false), recall_with(true));
        assert!(centred > plain, "centred {centred} against plain {plain}");
    }

    #[test]
    fn codes_of_an_earlier_haema_are_remade_on_open() {
        let mut conn = crate::store::sqlite::memory_db();
        vectors::create(&conn).unwrap();
        for rowid in 1..=5 {
            add(&conn, rowid, &embedding_like(rowid as u64, 64));
        }
        // An earlier haema wrote plain sign bits, one word shorter, and no layout.
        delete_meta(&conn, MetaKey::VectorCodesLayout).unwrap();
        assert!(outdated(&conn).unwrap());
        vectors::upgrade_codes(&mut conn).unwrap();
        assert!(!outdated(&conn).unwrap());
        assert_eq!(active_codes(&conn).unwrap(), 5);
        let mut index = VectorIndex::default();
        index.refresh(&conn).unwrap();
        assert_eq!(index.candidates(&embedding_like(3, 64), 1, None), vec![3]);
    }

    #[test]
    fn the_length_of_a_vector_does_not_change_its_rank() {
        // Cosine ranking ignores length: vectors of lengths 0.5 to 2 (an embedder that does
        // not normalise) must be found as well as the same vectors at unit length.
        let dims = 96;
        let recall_with = |length: &dyn Fn(i64) -> f32| {
            let conn = crate::store::sqlite::memory_db();
            vectors::create(&conn).unwrap();
            for rowid in 1..=3_000i64 {
                let v: Vec<f32> = embedding_like(rowid as u64, dims)
                    .iter()
                    .map(|x| x * length(rowid))
                    .collect();
                add(&conn, rowid, &v);
            }
            assert!(Coder::load(&conn).unwrap().has_centre());
            let mut index = VectorIndex::default();
            let mut found = 0;
            for q in 0..40u64 {
                let query = embedding_like(70_000 + q, dims);
                let exact = vectors::nearest_exact(&conn, &query, 10).unwrap();
                let fast = vectors::nearest(
                    &conn,
                    &mut index,
                    &query,
                    10,
                    crate::store::Pool::Search(10),
                    &crate::types::MemoryFilter::default(),
                )
                .unwrap();
                found += exact.iter().filter(|e| fast.iter().any(|f| f.0 == e.0)).count();
            }
            found as f64 / 400.0
        };
        let unit = recall_with(&|_| 1.0);
        let varied = recall_with(&|rowid| 0.5 + 1.5 * ((rowid * 7919) % 1000) as f32 / 1000.0);
        assert!(varied >= unit - 0.02, "unit length {unit}, varied lengths {varied}");
    }

    /// Remakes the codes with no centre.
    fn rebuild_without_centre(conn: &Connection) {
        drop(conn).unwrap();
        create(conn).unwrap();
        let rows: Vec<(i64, Vec<u8>)> = conn
            .prepare("SELECT rowid, embedding FROM vectors WHERE active = 1")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        for (rowid, blob) in rows {
            set(conn, rowid, Some(&Coder::default().code(&vectors::from_blob(&blob)))).unwrap();
        }
    }
}
