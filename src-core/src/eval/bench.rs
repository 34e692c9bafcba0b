//! Entry points for the `criterion` benches of the hot inner pieces (`benches/inner.rs`).
//! Built only with the `bench` feature; not part of haema's API.

use std::path::Path;

use crate::error::Result;
use crate::search::{fusion, time};
use crate::store::Backend;
use crate::store::Pool;
use crate::store::sqlite::{SqliteStore, vector_codes, vectors};
use crate::text::terms;

/// A store of synthetic memories (text and unit vectors), every one active.
pub struct BenchStore {
    store: SqliteStore,
    dims: usize,
}

impl BenchStore {
    /// Creates the store in `dir` with `n` memories of `dims`-dimensional vectors (random
    /// directions around a few dozen centres, like clustered embeddings) and texts of a
    /// few hundred distinct words. The same `n` and `dims` give the same store.
    pub fn create(dir: &Path, n: usize, dims: usize) -> Result<Self> {
        let (store, _) = SqliteStore::open(dir)?;
        (&store as &dyn Backend).write(|tx| {
            tx.vectors_mut().create(dims)?;
            let changeset = tx.changesets_mut().insert(&crate::types::Changeset::imported(
                "bench store".into(),
                Vec::new(),
                Vec::new(),
                0,
            ))?;
            let centres: Vec<Vec<f32>> = (0..48).map(|c| unit_vector(dims, 1_000_000 + c)).collect();
            for i in 0..n {
                let rowid = i64::try_from(i).unwrap_or(i64::MAX) + 1;
                let content = synthetic_text(i);
                let id = crate::types::MemoryId::from(format!("bench-{i}"));
                let ts = 1_700_000_000_000 + rowid * 1_000;
                let inserted = tx.memories_mut().insert(
                    &id,
                    &content,
                    crate::types::MemoryStatus::Active,
                    ts,
                    changeset,
                    &Default::default(),
                )?;
                tx.text_index_mut().insert(inserted, &content)?;
                let noise = unit_vector(dims, i as u64);
                let centre = &centres[i % centres.len()];
                let vector: Vec<f32> = centre.iter().zip(&noise).map(|(c, e)| c + 0.6 * e).collect();
                tx.vectors_mut().insert(inserted, &vector)?;
            }
            Ok(())
        })?;
        Ok(Self { store, dims })
    }

    fn backend(&self) -> &dyn Backend {
        &self.store
    }

    /// Dimensions of the store's vectors.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The coarse pass alone: the rowids of the `pool` best codes (codes reloaded only when
    /// they changed, as in a search).
    pub fn coarse_candidates(&self, query: &[f32], pool: usize) -> Result<Vec<i64>> {
        self.store.with_vector_index(|conn, index| {
            index.refresh(conn)?;
            Ok(index.candidates(query, pool, None))
        })
    }

    /// The `k` nearest memories: coarse pass and exact re-rank, as a vector search does.
    pub fn nearest(&self, query: &[f32], k: usize) -> Result<Vec<(i64, f64)>> {
        self.backend().read(|store| {
            store
                .search()
                .nearest(query, k, Pool::Search(k), &crate::types::MemoryFilter::default())
        })
    }

    /// The `k` best full-text matches of `query`'s content words, as a search ranks them.
    pub fn full_text(&self, query: &str, k: usize) -> Result<Vec<(i64, f64)>> {
        let words = terms::query_words(query);
        self.backend().read(|store| {
            store
                .search()
                .full_text(&words, k, &crate::types::MemoryFilter::default())
        })
    }

    /// A page of `latest` starting at position `offset` (0-based).
    pub fn latest_page(&self, offset: usize, count: usize) -> Result<usize> {
        self.backend()
            .read(|conn| {
                conn.memories()
                    .latest(offset, count, &crate::types::MemoryFilter::default())
            })
            .map(|page| page.len())
    }
}

/// A deterministic unit vector of `dims` components.
pub fn unit_vector(dims: usize, seed: u64) -> Vec<f32> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    };
    let raw: Vec<f32> = (0..dims).map(|_| next() + next() + next()).collect();
    let norm = raw.iter().map(|x| x * x).sum::<f32>().sqrt().max(f32::MIN_POSITIVE);
    raw.into_iter().map(|x| x / norm).collect()
}

/// A short text of a few words out of a vocabulary of several hundred.
pub fn synthetic_text(i: usize) -> String {
    const WORDS: [&str; 16] = [
        "garden", "violin", "river", "coffee", "train", "market", "letter", "winter", "kitchen", "bridge", "lamp",
        "harbour", "forest", "pencil", "island", "ticket",
    ];
    let word = |k: usize| format!("{}{}", WORDS[k % WORDS.len()], k % 37);
    format!(
        "note {i}: {} near the {} with {}",
        word(i.wrapping_mul(7)),
        word(i.wrapping_mul(13) / 3),
        word(i / 5)
    )
}

/// The code of a vector (what the coarse pass scans), without a centre.
pub fn vector_code(vector: &[f32]) -> Vec<u64> {
    vector_codes::Coder::default().code(vector)
}

/// sqlite-vec's cosine distance as the exact pass computes it.
pub fn cosine_distance(a: &[f32], b: &[f32]) -> f64 {
    vectors::cosine_distance(a, b)
}

/// What a search makes of its query text: content words, named times, names.
pub fn parse_query(query: &str) -> usize {
    terms::query_words(query).len() + time::spans(query).len() + crate::search::names::names(query).len()
}

/// Score fusion of two candidate lists.
pub fn fuse(vector: &[(i64, f64)], lexical: &[(i64, f64)]) -> usize {
    fusion::fuse(vector, lexical).len()
}
