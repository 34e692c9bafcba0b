//! The sign bits of the active vectors, for the coarse pass of nearest-neighbour search.
//!
//! Codes live in chunks of [`CHUNK`] consecutive memory rowids, one row per chunk: a bitmap
//! of the slots that hold a code and the codes themselves, each `ceil(dims / 64)` words.
//! A process loads every chunk once (a few large blobs: ~5 MB at 100k memories of 384
//! dimensions) and afterwards only the chunks whose `version` changed. Writes touch the
//! bytes of one slot through SQLite's incremental blob I/O, not the whole chunk.

use rusqlite::{Connection, MAIN_DB, OptionalExtension, params};

use crate::store::{delete_meta, meta, set_meta};
use crate::{Error, Result};

/// Memories per chunk.
pub(crate) const CHUNK: i64 = 1024;
/// Bytes of a chunk's presence bitmap.
const PRESENT_BYTES: usize = (CHUNK / 8) as usize;
/// Names the current set of chunk tables; a process holding chunks of an older set reloads.
const GENERATION: &str = "vector_codes_generation";

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
    if meta(conn, GENERATION)?.is_none() {
        set_meta(conn, GENERATION, &new_generation())?;
    }
    Ok(())
}

/// Drops the code tables.
pub(crate) fn drop(conn: &Connection) -> Result<()> {
    conn.execute_batch("DROP TABLE IF EXISTS vector_chunks; DROP TABLE IF EXISTS vector_codes;")?;
    delete_meta(conn, GENERATION)
}

fn new_generation() -> String {
    format!("{:x}-{:x}", crate::store::now_ms(), rand::random::<u64>())
}

/// The sign bits of `vector`: bit `i` is set when component `i` is positive.
pub(crate) fn sign_bits(vector: &[f32]) -> Vec<u64> {
    let mut words = vec![0u64; words_for(vector.len())];
    for (i, x) in vector.iter().enumerate() {
        if *x > 0.0 {
            words[i / 64] |= 1 << (i % 64);
        }
    }
    words
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

/// Bytes of one code in `chunk`, or `None` when the chunk has no row yet.
fn chunk_code_bytes(conn: &Connection, chunk: i64) -> Result<Option<usize>> {
    let len: Option<i64> = conn
        .prepare_cached("SELECT length(codes) FROM vector_codes WHERE chunk = ?1")?
        .query_row([chunk], |r| r.get(0))
        .optional()?;
    Ok(len.map(|l| usize::try_from(l).unwrap_or(0) / CHUNK as usize))
}

/// Rebuilds every code from the active float vectors.
pub(crate) fn rebuild(conn: &Connection) -> Result<()> {
    drop(conn)?;
    create(conn)?;
    let mut stmt = conn.prepare("SELECT rowid, embedding FROM vectors WHERE active = 1 ORDER BY rowid")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let rowid: i64 = row.get(0)?;
        let blob: Vec<u8> = row.get(1)?;
        set(conn, rowid, Some(&sign_bits(&super::vectors::from_blob(&blob))))?;
    }
    Ok(())
}

/// The current generation of the code tables (`None` without them).
pub(crate) fn generation(conn: &Connection) -> Result<Option<String>> {
    meta(conn, GENERATION)
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
