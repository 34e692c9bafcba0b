//! The local embedder against golden vectors from an independent numpy forward pass
//! (tools/golden_vectors.py), on the real all-MiniLM-L6-v2 weights.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use haema_core::ErrorKind;
use haema_core::provider::Embedder;
use haema_core::provider::local::LocalEmbedder;
use haema_tests::minilm_dir;
use serde_json::Value;

fn golden() -> Vec<(String, Vec<f32>)> {
    let text = include_str!("../fixtures/golden-all-MiniLM-L6-v2.json");
    let json: Value = serde_json::from_str(text).unwrap();
    json["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["text"].as_str().unwrap().to_owned(),
                s["vector"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap() as f32)
                    .collect(),
            )
        })
        .collect()
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
    let na: f64 = a.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    dot / (na * nb)
}

#[tokio::test]
async fn matches_the_golden_vectors_in_one_batch_and_one_by_one() {
    let Some(dir) = minilm_dir() else { return };
    let embedder = LocalEmbedder::load(dir.to_str().unwrap(), 32).unwrap();
    assert_eq!(embedder.dims(), 384);
    let golden = golden();
    let texts: Vec<String> = golden.iter().map(|(t, _)| t.clone()).collect();
    let batch = embedder.embed_document(&texts).await.unwrap();
    for ((text, expected), got) in golden.iter().zip(&batch) {
        let c = cosine(expected, got);
        assert!(c >= 0.9999, "cosine {c} for {text:?}");
        let norm: f32 = got.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "normalised");
    }
    for ((text, expected), _) in golden.iter().zip(&batch) {
        let one = embedder.embed_query(std::slice::from_ref(text)).await.unwrap();
        assert!(cosine(expected, &one[0]) >= 0.9999, "alone: {text:?}");
    }
}

#[test]
fn a_name_not_in_the_cache_is_a_model_not_downloaded_with_its_folder_and_no_command() {
    let err = LocalEmbedder::load("sentence-transformers/not-a-model-here", 8).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ModelNotDownloaded);
    let text = err.to_string();
    assert!(
        text.contains("models--sentence-transformers--not-a-model-here") && !text.contains("haema "),
        "the folder, and no command: the front ends say what to run: {text}"
    );
    let err = LocalEmbedder::load("/no/such/folder", 8).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Provider, "a missing folder is a setting to fix");
    assert!(err.to_string().contains("/no/such/folder"), "{err}");
}

#[tokio::test]
async fn a_model_folder_loaded_twice_has_one_id() {
    let Some(dir) = minilm_dir() else { return };
    // The same model loaded twice has the same id: the store recognises it.
    let (a, b) = (
        LocalEmbedder::load(dir.to_str().unwrap(), 8).unwrap(),
        LocalEmbedder::load(dir.to_str().unwrap(), 1).unwrap(),
    );
    assert_eq!(a.id(), b.id());
    assert!(a.id().starts_with("local:"));
}

#[tokio::test]
async fn related_sentences_are_closer_than_unrelated_ones() {
    let Some(dir) = minilm_dir() else { return };
    let embedder = LocalEmbedder::load(dir.to_str().unwrap(), 32).unwrap();
    let texts = [
        "The user drinks green tea every morning.",
        "Each morning the user has a cup of green tea.",
        "The server runs Debian 12.",
    ]
    .map(String::from);
    let v = embedder.embed_document(&texts).await.unwrap();
    assert!(cosine(&v[0], &v[1]) > 0.75, "{}", cosine(&v[0], &v[1]));
    assert!(cosine(&v[0], &v[2]) < 0.3, "{}", cosine(&v[0], &v[2]));
}
