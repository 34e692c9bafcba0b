//! How close the fast vector search comes to an exact scan of the same store.

use super::Memory;
use crate::error::{Error, Result};
use crate::store::Pool;

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
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use std::sync::Arc;
    /// use haema_core::fake::HashEmbedder; // stands in for a real model here (feature `test-util`)
    /// let dir = tempfile::tempdir()?;
    /// let embedder = Arc::new(HashEmbedder::new(64));
    /// let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, Some(embedder)).await?;
    /// memory.add((0..50).map(|i| format!("Memory number {i} about topic {}", i % 7)).collect::<Vec<_>>()).await?;
    /// let queries = vec!["topic 3".to_string(), "memory number 12".to_string()];
    /// let measured = memory.vector_recall(&queries, 5).await?;
    /// println!("recall@{}: {:.3} (worst {:.3})", measured.k, measured.recall, measured.worst);
    /// assert_eq!(measured.queries, 2);
    /// # Ok(()) }
    /// ```
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
                        let exact = conn.whole()?.nearest_exact(query, k)?;
                        if exact.is_empty() {
                            continue;
                        }
                        let fast =
                            conn.search()
                                .nearest(query, k, Pool::Search(k), &crate::types::MemoryFilter::default())?;
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
