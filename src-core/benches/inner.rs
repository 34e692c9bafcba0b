//! Criterion benches of the hot inner pieces of a search, on real SQLite stores in a
//! temporary folder: the coarse pass over the vector codes, the exact re-rank, full text,
//! a deep `latest` page, the pure pieces (codes, distances, query parsing, fusion), and the
//! hostile-text and secret screens every write and every quoted result goes through.
//!
//! `cargo bench -p haema-core --bench inner` measures stores of 10,000 and 100,000
//! memories; run as a test (`cargo test -p haema-core --bench inner`) each bench runs once
//! on a store of 2,000, so that CI keeps them working.

#![allow(clippy::expect_used)]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use haema_core::bench::{self, BenchStore};

const DIMS: usize = 384;

/// Store sizes: the real ones under `cargo bench`, a small one when run as a test.
fn sizes() -> Vec<usize> {
    if std::env::args().any(|a| a == "--bench") {
        vec![10_000, 100_000]
    } else {
        vec![2_000]
    }
}

fn stores(c: &mut Criterion) {
    for n in sizes() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let store = BenchStore::create(dir.path(), n, DIMS).expect("bench store");
        let queries: Vec<Vec<f32>> = (0..64).map(|q| bench::unit_vector(store.dims(), 7_000 + q)).collect();
        let mut group = c.benchmark_group("store");
        let mut q = 0usize;
        let mut next_query = || {
            q = (q + 1) % queries.len();
            &queries[q]
        };
        group.bench_function(BenchmarkId::new("coarse_pass_pool_160", n), |b| {
            b.iter(|| black_box(store.coarse_candidates(next_query(), 160).expect("coarse pass")))
        });
        group.bench_function(BenchmarkId::new("nearest_10", n), |b| {
            b.iter(|| black_box(store.nearest(next_query(), 10).expect("nearest")))
        });
        let texts = [
            "violin near the river",
            "coffee market ticket",
            "note 1234: garden3 with lamp",
        ];
        let mut t = 0usize;
        group.bench_function(BenchmarkId::new("full_text_40", n), |b| {
            b.iter(|| {
                t = (t + 1) % texts.len();
                black_box(store.full_text(texts[t], 40).expect("full text"))
            })
        });
        group.bench_function(BenchmarkId::new("latest_middle_page", n), |b| {
            b.iter(|| black_box(store.latest_page(n / 2, 10).expect("latest page")))
        });
        group.finish();
    }
}

fn pieces(c: &mut Criterion) {
    let a = bench::unit_vector(DIMS, 1);
    let b = bench::unit_vector(DIMS, 2);
    c.bench_function("vector_code_384", |bench| {
        bench.iter(|| black_box(bench::vector_code(black_box(&a))))
    });
    c.bench_function("cosine_distance_384", |bench| {
        bench.iter(|| black_box(bench::cosine_distance(black_box(&a), black_box(&b))))
    });
    c.bench_function("parse_query", |bench| {
        bench.iter(|| {
            black_box(bench::parse_query(black_box(
                "What did Caroline do in Busan on 13 October, 2023?",
            )))
        })
    });
    let vector: Vec<(i64, f64)> = (0..40).map(|i| (i, 0.2 + f64::from(i as i32) * 0.01)).collect();
    let lexical: Vec<(i64, f64)> = (20..60).map(|i| (i, -12.0 + f64::from(i as i32) * 0.2)).collect();
    c.bench_function("fuse_40_40", |bench| {
        bench.iter(|| black_box(bench::fuse(black_box(&vector), black_box(&lexical))))
    });
}

/// The write path's screens on one ordinary sentence (each a new text: the secret screen
/// remembers the last few it read).
fn screens(c: &mut Criterion) {
    let sentences = [
        "Hey Mel! I went to a LGBTQ support group yesterday and it was so powerful.",
        "Caroline is planning to go camping with her kids near the lake next month.",
        "The user prefers green tea in the morning and works from Lisbon on Fridays.",
        "Melanie painted a sunrise over the mountains; it took her three weekends.",
    ];
    let mut k = 0usize;
    let mut next = || {
        k += 1;
        format!("{} (note {k})", sentences[k % sentences.len()])
    };
    c.bench_function("screen_hostile_sentence", |b| {
        b.iter(|| black_box(haema_core::safety::detect(&next())))
    });
    c.bench_function("screen_secrets_sentence", |b| {
        b.iter(|| black_box(haema_core::secrets::find(&next())))
    });
}

criterion_group!(benches, stores, pieces, screens);
criterion_main!(benches);
