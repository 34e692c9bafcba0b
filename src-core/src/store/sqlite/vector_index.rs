//! The coarse pass of nearest-neighbour search: every active vector's sign bits, held in
//! memory and scored against the query.
//!
//! The score is the dot product of the (unquantised) query with the vector's signs (±1 per
//! dimension), read from per-byte tables: an asymmetric estimate, much closer to the cosine
//! ranking than the Hamming distance between two codes (measured on MiniLM vectors of the
//! LoCoMo turns: recall@10 0.98 against 0.92 at 4× oversampling). The best [`pool_size`]
//! are re-ranked exactly with their float vectors by the caller.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use rusqlite::Connection;

use super::vector_codes::{self, CHUNK};
use crate::error::Result;

/// Candidates to re-rank for a top `k` among `active` vectors: 8× oversampling, at least
/// 160, and a two-hundredth of the store. Measured on real MiniLM vectors of the LoCoMo turns
/// repeated with small edits (each turn ~36 times at 100k, so near-ties abound), recall@10
/// against exact search at 100k, questions / random words: plain sign bits with 160
/// candidates 0.97 / 0.84, with 640 1.0 / 0.96; centred codes ([`vector_codes::Coder`]) with
/// 640 1.0 / 0.985.
pub(crate) fn pool_size(k: usize, active: usize) -> usize {
    k.saturating_mul(8).max(160).max(active / 200)
}

/// The codes of one chunk of rowids.
#[derive(Debug)]
struct Chunk {
    version: i64,
    /// Words per code.
    words: usize,
    /// Bit `i`: slot `i` holds an active vector's code.
    present: Vec<u64>,
    codes: Vec<u64>,
}

/// A process's copy of the store's vector codes, brought up to date before each search.
#[derive(Debug, Default)]
pub(crate) struct VectorIndex {
    generation: Option<String>,
    chunks: HashMap<i64, Chunk>,
    /// Active vectors held (counted when chunks change).
    active: usize,
}

impl VectorIndex {
    /// Reloads the chunks that changed since the last call (all of them after `haema
    /// reembed` or on the first call). Reads only committed data: call it outside a write.
    pub(crate) fn refresh(&mut self, conn: &Connection) -> Result<()> {
        let generation = vector_codes::generation(conn)?;
        if generation != self.generation {
            self.chunks.clear();
            self.active = 0;
            self.generation = generation;
        }
        if self.generation.is_none() {
            return Ok(());
        }
        let versions = vector_codes::versions(conn)?;
        let mut changed = false;
        if versions.len() != self.chunks.len() {
            changed = true;
            let live: std::collections::HashSet<i64> = versions.iter().map(|v| v.0).collect();
            self.chunks.retain(|chunk, _| live.contains(chunk));
        }
        for (chunk, version) in versions {
            if self.chunks.get(&chunk).is_some_and(|c| c.version == version) {
                continue;
            }
            match vector_codes::load(conn, chunk)? {
                Some((present, codes)) => {
                    let codes = words_of(&codes);
                    let words = codes.len() / CHUNK as usize;
                    self.chunks.insert(
                        chunk,
                        Chunk {
                            version,
                            words,
                            present: words_of(&present),
                            codes,
                        },
                    );
                }
                None => {
                    self.chunks.remove(&chunk);
                }
            }
            changed = true;
        }
        if changed {
            self.active = self.chunks.values().map(Chunk::active).sum();
        }
        Ok(())
    }

    /// Number of active vectors held.
    pub(crate) fn len(&self) -> usize {
        self.active
    }

    /// The rowids of the `pool` active vectors that score best against `query`, best first;
    /// with `only`, among those rows alone (the rest are never scored).
    pub(crate) fn candidates(&self, query: &[f32], pool: usize, only: Option<&RowMask>) -> Vec<i64> {
        let query = QuantisedQuery::new(query);
        let chunks: Vec<(i64, &Chunk, Option<&[u64]>)> = self
            .chunks
            .iter()
            .filter(|(_, c)| c.words == query.words + 1)
            .filter_map(|(&id, c)| match only {
                None => Some((id, c, None)),
                Some(mask) => mask.0.get(&id).map(|bits| (id, c, Some(bits.as_slice()))),
            })
            .collect();
        if pool == 0 || chunks.is_empty() {
            return Vec::new();
        }
        let threads = std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(MAX_THREADS)
            .min(chunks.len().div_ceil(PARALLEL_CHUNKS));
        let best: Vec<(Key, i64)> = if threads <= 1 {
            best_of(&chunks, &query, pool)
        } else {
            let per_thread = chunks.len().div_ceil(threads);
            std::thread::scope(|scope| {
                let handles: Vec<_> = chunks
                    .chunks(per_thread)
                    .map(|part| scope.spawn(|| best_of(part, &query, pool)))
                    .collect();
                // A scan thread only panics on a bug; its share is then missing, never wrong.
                handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
            })
        };
        let mut out = best;
        out.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        out.truncate(pool);
        out.into_iter().map(|(_, rowid)| rowid).collect()
    }
}

impl Chunk {
    /// Active vectors in the chunk.
    fn active(&self) -> usize {
        self.present.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// Chunks (of 1,024 memories) per scan thread at least: below ~32k memories one thread is
/// faster than starting another.
const PARALLEL_CHUNKS: usize = 32;
/// Scan threads at most.
const MAX_THREADS: usize = 4;

/// Rows a search may consider, as one bit per slot of each chunk that holds any.
#[derive(Debug, Default)]
pub(crate) struct RowMask(HashMap<i64, Vec<u64>>);

impl RowMask {
    /// The mask of `rowids`.
    pub(crate) fn of(rowids: &[i64]) -> Self {
        let mut chunks: HashMap<i64, Vec<u64>> = HashMap::new();
        for &rowid in rowids {
            let (chunk, slot) = (rowid.div_euclid(CHUNK), rowid.rem_euclid(CHUNK) as usize);
            let bits = chunks.entry(chunk).or_insert_with(|| vec![0; CHUNK as usize / 64]);
            bits[slot / 64] |= 1 << (slot % 64);
        }
        Self(chunks)
    }
}

/// The `pool` best-scoring codes of `chunks` (each with the mask of the rows it may
/// consider): `(score, rowid)`, in no order.
fn best_of(chunks: &[(i64, &Chunk, Option<&[u64]>)], query: &QuantisedQuery, pool: usize) -> Vec<(Key, i64)> {
    // It grows to `pool` only when the store has that many codes.
    let mut best: BinaryHeap<Reverse<(Key, i64)>> = BinaryHeap::with_capacity(pool.min(4096) + 1);
    for &(chunk, codes, mask) in chunks {
        for (w, &bits) in codes.present.iter().enumerate() {
            let mut bits = bits & mask.map_or(u64::MAX, |m| m.get(w).copied().unwrap_or(0));
            while bits != 0 {
                let slot = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let key = Key(query.score(&codes.codes[slot * codes.words..(slot + 1) * codes.words]));
                if best.len() < pool {
                    best.push(Reverse((key, chunk * CHUNK + slot as i64)));
                } else if best.peek().is_some_and(|Reverse((worst, _))| key > *worst) {
                    best.pop();
                    best.push(Reverse((key, chunk * CHUNK + slot as i64)));
                }
            }
        }
    }
    best.into_iter().map(|Reverse(entry)| entry).collect()
}

/// Little-endian u64 words of a blob (a short tail is zero-padded).
fn words_of(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks(8)
        .map(|b| {
            let mut word = [0u8; 8];
            word[..b.len()].copy_from_slice(b);
            u64::from_le_bytes(word)
        })
        .collect()
}

/// A score with a total order.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Key(f32);

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The query as one table per code byte: entry `v` of table `j` is the sum of the query's
/// components (scaled to integers) at the set bits of `v` in byte `j` of a code. A code's
/// score is then one table look-up per byte: no popcount, so it is as fast on any CPU.
struct QuantisedQuery {
    /// Words of signs per code (a code has one more: its correction).
    words: usize,
    tables: Vec<[i16; 256]>,
    /// The sum of every scaled component.
    total: i32,
}

/// Largest scaled component: a table entry (the sum of 8) fits `i16`, and the 48 tables of
/// a 384-d query (24 KB) fit a core's L1 cache.
const SCALE: f32 = 4_095.0;

impl QuantisedQuery {
    fn new(query: &[f32]) -> Self {
        let words = vector_codes::words_for(query.len());
        let largest = query.iter().filter(|x| x.is_finite()).fold(0f32, |m, x| m.max(x.abs()));
        let scale = if largest > 0.0 { SCALE / largest } else { 0.0 };
        let weight = |i: usize| match query.get(i) {
            Some(x) if x.is_finite() => (x * scale).round() as i16,
            _ => 0,
        };
        let tables = (0..words * 8)
            .map(|byte| {
                let mut table = [0i16; 256];
                for v in 1..256usize {
                    let low = v.trailing_zeros() as usize;
                    table[v] = table[v & (v - 1)] + weight(byte * 8 + low);
                }
                table
            })
            .collect();
        let total = (0..query.len()).map(|i| i32::from(weight(i))).sum();
        Self { words, tables, total }
    }

    /// ≈ ⟨q, x − c⟩ up to a factor common to all codes: the dot product of the query with
    /// the code's ±1 signs (twice the sum of its components where a bit is set, less all of
    /// them), times the code's length correction ([`vector_codes::Coder`]).
    fn score(&self, code: &[u64]) -> f32 {
        let mut sum = 0i32;
        for (w, &word) in code[..self.words].iter().enumerate() {
            let tables = &self.tables[w * 8..w * 8 + 8];
            for (b, table) in tables.iter().enumerate() {
                sum += i32::from(table[((word >> (8 * b)) & 0xFF) as usize]);
            }
        }
        (2 * sum - self.total) as f32 * vector_codes::correction(code[self.words])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sqlite::vectors;

    fn unit(seed: u64, dims: usize) -> Vec<f32> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let v: Vec<f32> = (0..dims)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 2001) as f32 / 1000.0 - 1.0
            })
            .collect();
        let norm = v.iter().map(|a| a * a).sum::<f32>().sqrt();
        v.into_iter().map(|a| a / norm).collect()
    }

    #[test]
    fn the_score_is_the_signed_dot_product_times_the_correction() {
        let query = unit(1, 100);
        let q = QuantisedQuery::new(&query);
        let largest = query.iter().fold(0f32, |m, x| m.max(x.abs()));
        let centre: Vec<f32> = unit(99, 100).iter().map(|x| x * 0.5).collect();
        for coder in [
            vector_codes::Coder::default(),
            vector_codes::Coder::with_centre(centre.clone()),
        ] {
            for seed in 2..200 {
                let v = unit(seed, 100);
                let code = coder.code(&v);
                let r: Vec<f32> = if coder.has_centre() {
                    v.iter().zip(&centre).map(|(x, c)| x - c).collect()
                } else {
                    v.clone()
                };
                let signed: i32 = query
                    .iter()
                    .zip(&r)
                    .map(|(a, b)| {
                        let weight = (a * SCALE / largest).round() as i32;
                        if *b > 0.0 { weight } else { -weight }
                    })
                    .sum();
                let correction = r.iter().map(|x| x * x).sum::<f32>() / r.iter().map(|x| x.abs()).sum::<f32>();
                let expected = signed as f32 * correction;
                let score = q.score(&code);
                assert!(
                    (score - expected).abs() <= 1e-3 * expected.abs() + 1e-3,
                    "{score} against {expected}"
                );
            }
        }
    }

    #[test]
    fn refresh_follows_inserts_deactivations_and_a_rebuild() {
        let conn = crate::store::sqlite::memory_db();
        vectors::create(&conn).unwrap();
        let mut index = VectorIndex::default();
        for rowid in [1, 5, 1023, 1024, 5000] {
            vectors::insert(&conn, rowid, &unit(rowid as u64, 70)).unwrap();
        }
        index.refresh(&conn).unwrap();
        assert_eq!(index.len(), 5);
        assert_eq!(index.candidates(&unit(5000, 70), 1, None), vec![5000]);
        vectors::set_active(&conn, 5000, false).unwrap();
        index.refresh(&conn).unwrap();
        assert_eq!(index.len(), 4);
        assert!(!index.candidates(&unit(5000, 70), 10, None).contains(&5000));
        assert_eq!(index.candidates(&unit(1023, 70), 1, None), vec![1023]);
        vector_codes::rebuild(&conn).unwrap();
        index.refresh(&conn).unwrap();
        assert_eq!(index.len(), 4);
        vectors::drop(&conn).unwrap();
        index.refresh(&conn).unwrap();
        assert_eq!(index.len(), 0);
    }

    #[test]
    fn a_mask_keeps_the_scan_to_its_rows() {
        let conn = crate::store::sqlite::memory_db();
        crate::store::sqlite::vectors::create(&conn).unwrap();
        for rowid in 1..=3000 {
            crate::store::sqlite::vectors::insert(&conn, rowid, &unit(rowid as u64, 70)).unwrap();
        }
        let mut index = VectorIndex::default();
        index.refresh(&conn).unwrap();
        let only = RowMask::of(&[7, 2048, 2999]);
        let found = index.candidates(&unit(1500, 70), 10, Some(&only));
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found.iter().all(|r| [7, 2048, 2999].contains(r)), "{found:?}");
        assert_eq!(index.candidates(&unit(7, 70), 1, Some(&only)), vec![7]);
        assert!(index.candidates(&unit(7, 70), 5, Some(&RowMask::of(&[]))).is_empty());
    }

    #[test]
    fn a_degenerate_query_still_returns_candidates() {
        let conn = crate::store::sqlite::memory_db();
        vectors::create(&conn).unwrap();
        vectors::insert(&conn, 1, &[1.0, 0.0, 0.0]).unwrap();
        let mut index = VectorIndex::default();
        index.refresh(&conn).unwrap();
        assert_eq!(index.candidates(&[0.0, 0.0, 0.0], 5, None), vec![1]);
        assert_eq!(index.candidates(&[f32::NAN, 1.0, 0.0], 5, None), vec![1]);
    }

    #[test]
    fn a_parallel_scan_finds_what_one_thread_finds() {
        let conn = crate::store::sqlite::memory_db();
        vectors::create(&conn).unwrap();
        // 80 chunks: enough for more than one scan thread on a machine with several cores.
        for chunk in 0..80i64 {
            for slot in [0, 513] {
                let rowid = chunk * CHUNK + slot;
                vectors::insert(&conn, rowid, &unit(rowid as u64, 384)).unwrap();
            }
        }
        let mut index = VectorIndex::default();
        index.refresh(&conn).unwrap();
        let query_vector = unit(12_345, 384);
        let query = QuantisedQuery::new(&query_vector);
        let chunks: Vec<(i64, &Chunk, Option<&[u64]>)> = index.chunks.iter().map(|(&id, c)| (id, c, None)).collect();
        let mut alone = best_of(&chunks, &query, 25);
        alone.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let alone: Vec<i64> = alone.into_iter().map(|e| e.1).collect();
        assert_eq!(index.candidates(&query_vector, 25, None), alone);
        assert_eq!(index.candidates(&query_vector, 1000, None).len(), 160);
    }
}
