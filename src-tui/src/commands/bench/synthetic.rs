//! Deterministic, instant providers and data for `haema bench`: only haema's own time is
//! measured.

use async_trait::async_trait;
use haema_core::provider::{Embedder, Llm, ProviderError, StructuredRequest};
use serde_json::{Value, json};

/// Dimensions of the synthetic vectors (all-MiniLM-L6-v2's).
pub const DIMS: usize = 384;

const NAMES: &[&str] = &[
    "Mina", "Ana", "Jun", "Leo", "Sara", "Omar", "Ivy", "Noah", "Lena", "Kai", "Rosa", "Theo", "Yuki", "Amir", "Eva",
    "Paul",
];
const VERBS: &[&str] = &[
    "likes", "owns", "visits", "studies", "avoids", "plans", "bought", "repairs", "teaches", "collects", "reads",
    "cooks", "paints", "rents", "sells", "needs",
];
const THINGS: &[&str] = &[
    "green tea",
    "a red bicycle",
    "the cello",
    "Korean poetry",
    "old maps",
    "a small garden",
    "jazz records",
    "mountain trails",
    "a blue kettle",
    "chess openings",
    "sourdough bread",
    "the night market",
    "film cameras",
    "a rooftop flat",
    "wool scarves",
    "river stones",
    "vintage radios",
    "lemon trees",
    "train timetables",
    "a sailing boat",
    "paper lanterns",
    "board games",
    "spicy noodles",
    "glass marbles",
];
const PLACES: &[&str] = &[
    "Busan", "Seoul", "Lisbon", "Oslo", "Kyoto", "Lima", "Cairo", "Quebec", "Hanoi", "Dublin", "Tbilisi", "Perth",
];
const WHEN: &[&str] = &[
    "on Mondays",
    "every spring",
    "before work",
    "on weekends",
    "in December",
    "after dinner",
    "at dawn",
    "twice a month",
    "on Fridays",
    "during holidays",
];

/// A small deterministic generator (xorshift64*).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.below(words.len())]
    }

    /// Roughly normal (the sum of four uniforms, centred).
    fn normal(&mut self) -> f32 {
        (0..4)
            .map(|_| (self.next() >> 40) as f32 / (1u64 << 24) as f32)
            .sum::<f32>()
            - 2.0
    }
}

/// Fact number `i`: the same text on every run, distinct for every `i`.
pub fn fact(i: usize) -> String {
    let mut rng = Rng::new(i as u64);
    format!(
        "{} {} {} in {} {} (note {i}).",
        rng.pick(NAMES),
        rng.pick(VERBS),
        rng.pick(THINGS),
        rng.pick(PLACES),
        rng.pick(WHEN)
    )
}

/// A query of two to four words drawn from the vocabulary of the facts.
pub fn random_words(rng: &mut Rng) -> String {
    let pools: [&[&str]; 5] = [NAMES, VERBS, THINGS, PLACES, WHEN];
    let count = 2 + rng.below(3);
    (0..count)
        .map(|_| {
            let pool = pools[rng.below(pools.len())];
            rng.pick(pool)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A paragraph of several facts, for the split step.
pub fn text_of_facts(start: usize, count: usize) -> String {
    (start..start + count).map(fact).collect::<Vec<_>>().join(" ")
}

/// A bag-of-words embedder: each word has a fixed random direction, a text is the normalised
/// sum of its words' directions, so texts that share words are near (clustered data).
#[derive(Debug, Default)]
pub struct WordsEmbedder;

impl WordsEmbedder {
    pub fn vector(text: &str) -> Vec<f32> {
        let mut v = vec![0f32; DIMS];
        for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            let seed = word.to_lowercase().bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
            });
            let mut rng = Rng::new(seed);
            for x in &mut v {
                *x += rng.normal();
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm == 0.0 {
            v[0] = 1.0;
            return v;
        }
        v.into_iter().map(|x| x / norm).collect()
    }
}

#[async_trait]
impl Embedder for WordsEmbedder {
    fn id(&self) -> String {
        format!("bench:words-{DIMS}")
    }

    fn dims(&self) -> usize {
        DIMS
    }

    async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        Ok(texts.iter().map(|t| Self::vector(t)).collect())
    }

    async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.embed_query(texts).await
    }
}

/// An LLM that answers at once: the split step returns the text's sentences, the
/// reconstruction keeps every related memory and adds the new contents, and the core step
/// changes nothing.
#[derive(Debug, Default)]
pub struct InstantLlm;

/// The JSON string items of a `<tag>` block of a prompt.
fn block_items(prompt: &str, tag: &str) -> Vec<String> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    let Some(start) = prompt.find(&open) else {
        return Vec::new();
    };
    let body = &prompt[start + open.len()..];
    let body = &body[..body.find(&close).unwrap_or(body.len())];
    body.lines()
        .filter_map(|line| line.strip_prefix("- "))
        .filter_map(|item| serde_json::from_str::<String>(item).ok())
        .collect()
}

#[async_trait]
impl Llm for InstantLlm {
    fn id(&self) -> String {
        "bench:instant".into()
    }

    async fn generate_structured(&self, request: StructuredRequest<'_>) -> Result<Value, ProviderError> {
        Ok(match request.name {
            "pre_split" => {
                let text = block_items(request.user, "raw_input").join(" ");
                let contents: Vec<String> = text
                    .split_inclusive(". ")
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect();
                json!({ "contents": contents })
            }
            "reconstruct" => {
                let mut memories = block_items(request.user, "related_memories");
                memories.extend(block_items(request.user, "new_contents"));
                json!({ "memories": memories, "coverage": "complete", "core_relevant": false })
            }
            _ => json!({ "should_update": false }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_stable_and_distinct() {
        assert_eq!(fact(7), fact(7));
        assert_ne!(fact(7), fact(8));
        assert!(fact(3).ends_with("(note 3)."));
    }

    #[test]
    fn shared_words_make_near_vectors() {
        let a = WordsEmbedder::vector("Mina likes green tea in Busan");
        let b = WordsEmbedder::vector("Mina likes green tea in Seoul");
        let c = WordsEmbedder::vector("Omar repairs vintage radios at dawn");
        let dot = |x: &[f32], y: &[f32]| x.iter().zip(y).map(|(p, q)| p * q).sum::<f32>();
        assert!(dot(&a, &b) > 0.6, "{}", dot(&a, &b));
        assert!(dot(&a, &c) < 0.3, "{}", dot(&a, &c));
        assert!((dot(&a, &a) - 1.0).abs() < 1e-4);
    }
}
