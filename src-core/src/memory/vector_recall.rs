//! How close the fast vector search comes to an exact scan of the same store.

use super::Memory;
use crate::store::Pool;
use crate::{Error, Result};

/// Recall of the fast nearest-neighbour search against exact search, over a set of queries.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct VectorRecall {
    /// Queries measured.
    pub queries: usize,
    /// Neighbours asked for per query.
    pub k: usize,
    /// Mean share of the exact top `k` that the fast search also returned.
    pub recall: f64,
    /// The lowest share for one query.
    pub worst: f64,
}

impl Memory {
    /// Measures the fast vector search (a coarse pass over sign bits, re-ranked exactly)
    /// against an exact scan of every active vector, for the top `k` of each query. Needs
    /// the store's embedder.
    pub async fn vector_recall(&self, queries: &[String], k: usize) -> Result<VectorRecall> {
        let embedder = self
            .inner
            .embedder
            .clone()
            .ok_or_else(|| Error::Config("vector recall needs an embedder; this store searches by words".into()))?;
        let embedded = embedder.embed_query(queries).await?;
        let query_vectors =
            crate::provider::check_embeddings(&embedder.id(), embedded, queries.len(), embedder.dims())?;
        let shares = self
            .blocking(move |inner| {
                inner.store.read(|conn| {
                    let mut shares = Vec::with_capacity(query_vectors.len());
                    for query in &query_vectors {
                        let exact = conn.nearest_exact(query, k)?;
                        if exact.is_empty() {
                            continue;
                        }
                        let fast = conn.nearest(query, k, Pool::Search(k), &crate::types::MemoryFilter::default())?;
                        let found = exact
                            .iter()
                            .filter(|(rowid, _)| fast.iter().any(|f| f.0 == *rowid))
                            .count();
                        shares.push(found as f64 / exact.len() as f64);
                    }
                    Ok(shares)
                })
            })
            .await?;
        Ok(VectorRecall {
            queries: shares.len(),
            k,
            recall: if shares.is_empty() {
                1.0
            } else {
                shares.iter().sum::<f64>() / shares.len() as f64
            },
            worst: shares.iter().copied().fold(1.0, f64::min),
        })
    }
}
