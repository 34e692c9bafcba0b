//! A local sentence-transformers embedder: BERT on candle (CPU) with the model's own
//! tokenizer, pooling and normalisation. Feature `local-embed`.
//!
//! Loads from a folder (`config.json`, `tokenizer.json`, `model.safetensors`, and where
//! present `modules.json`, `1_Pooling/config.json`, `sentence_bert_config.json`,
//! `config_sentence_transformers.json`) or from the Hugging Face cache by name; [`fetch`]
//! downloads a model into that cache.

mod bert;
pub mod fetch;
mod files;
mod gelu;

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;
use tokenizers::{Tokenizer, TruncationDirection, TruncationParams, TruncationStrategy};

use super::{Embedder, ProviderError, ProviderErrorKind};
use bert::{Bert, BertConfig, Pooling};

/// The query instruction of the English BGE models.
const BGE_QUERY: &str = "Represent this sentence for searching relevant passages: ";

struct Model {
    bert: Bert,
    tokenizer: Tokenizer,
    pooling: Pooling,
    normalize: bool,
    query_prefix: String,
    document_prefix: String,
    batch_size: usize,
    /// One single-threaded pool per core: a batch is split across them so that each part
    /// runs its matrix products without cross-thread synchronisation.
    workers: Vec<rayon::ThreadPool>,
}

/// What is known of a model folder without loading its weights.
struct Spec {
    dir: std::path::PathBuf,
    config: BertConfig,
    pooling: Pooling,
    normalize: bool,
    max_len: usize,
    query_prefix: String,
    document_prefix: String,
    batch_size: usize,
}

/// A sentence-transformers model run locally. Opening reads only the small files (so a
/// store opens fast and small); the tokenizer and weights load on the first embedding.
#[derive(Clone)]
pub struct LocalEmbedder {
    spec: Arc<Spec>,
    model: Arc<std::sync::Mutex<Option<Arc<Model>>>>,
    id: String,
    name: String,
}

impl std::fmt::Debug for LocalEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalEmbedder")
            .field("id", &self.id)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

fn read_json(path: &Path) -> Option<Value> {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
}

/// 64-bit FNV-1a, for a short fingerprint of the model files.
fn fnv(parts: &[&[u8]]) -> u64 {
    parts
        .iter()
        .flat_map(|p| p.iter())
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
        })
}

/// The JSON header of a safetensors file: names, shapes and offsets of every tensor.
fn safetensors_header(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut len = [0u8; 8];
    file.read_exact(&mut len)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let len = u64::from_le_bytes(len).min(100_000_000);
    let mut header = Vec::new();
    file.take(len)
        .read_to_end(&mut header)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(header)
}

impl LocalEmbedder {
    /// Loads `model`: a folder, or a Hugging Face name found in the local cache.
    ///
    /// # Errors
    /// [`Error::ModelNotDownloaded`](crate::Error::ModelNotDownloaded) for a name that is not
    /// in the cache; a provider error of kind `Config` for a folder that is missing or
    /// does not hold a usable model.
    pub fn load(model: &str, batch_size: usize) -> crate::error::Result<Self> {
        let dir = files::resolve(model)?;
        Self::load_dir(&dir, model, batch_size)
            .map_err(|message| ProviderError::new(format!("local:{model}"), ProviderErrorKind::Config, message).into())
    }

    /// Loads the model in folder `dir`, known to people as `name` (its Hugging Face name).
    pub fn load_named(dir: &Path, name: &str, batch_size: usize) -> Result<Self, ProviderError> {
        Self::load_dir(dir, name, batch_size)
            .map_err(|message| ProviderError::new(format!("local:{name}"), ProviderErrorKind::Config, message))
    }

    fn load_dir(dir: &Path, name: &str, batch_size: usize) -> Result<Self, String> {
        let config_text =
            std::fs::read_to_string(dir.join("config.json")).map_err(|e| format!("cannot read config.json: {e}"))?;
        let config: BertConfig =
            serde_json::from_str(&config_text).map_err(|e| format!("config.json is not a BERT config: {e}"))?;
        let (pooling, normalize) = pooling_of(dir);
        let max_len = read_json(&dir.join("sentence_bert_config.json"))
            .and_then(|v| v.get("max_seq_length").and_then(Value::as_u64))
            .map_or(config.max_position_embeddings, |n| {
                usize::try_from(n).unwrap_or(usize::MAX)
            })
            .min(config.max_position_embeddings);
        let (query_prefix, document_prefix) = prompts_of(dir, name);
        if !dir.join("tokenizer.json").is_file() {
            return Err(format!("{} has no tokenizer.json", dir.display()));
        }
        let header = safetensors_header(&dir.join("model.safetensors"))?;
        let id = format!(
            "local:{:016x}",
            fnv(&[
                config_text.as_bytes(),
                &header,
                format!("{pooling:?}{normalize}{query_prefix}\u{0}{document_prefix}").as_bytes()
            ])
        );
        let spec = Spec {
            dir: dir.to_path_buf(),
            config,
            pooling,
            normalize,
            max_len,
            query_prefix,
            document_prefix,
            batch_size: batch_size.max(1),
        };
        Ok(Self {
            spec: Arc::new(spec),
            model: Arc::default(),
            id,
            name: name.to_owned(),
        })
    }

    /// The loaded model, loading it on first use.
    fn model(&self) -> Result<Arc<Model>, String> {
        let mut slot = self.model.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(model) = slot.as_ref() {
            return Ok(Arc::clone(model));
        }
        let model = Arc::new(Model::load(&self.spec)?);
        *slot = Some(Arc::clone(&model));
        Ok(model)
    }

    /// The name it was loaded by.
    pub fn name(&self) -> &str {
        &self.name
    }

    async fn run(&self, texts: &[String], query: bool) -> Result<Vec<Vec<f32>>, ProviderError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let this = self.clone();
        let texts = texts.to_vec();
        let id = self.id.clone();
        let fail = move |m: String| ProviderError::new(id.clone(), ProviderErrorKind::BadAnswer, m);
        tokio::task::spawn_blocking(move || this.model()?.embed(&texts, query))
            .await
            .map_err(|e| fail(e.to_string()))?
            .map_err(fail)
    }

    /// Embeds on the calling thread (for benchmarks and blocking callers).
    pub fn embed_blocking(&self, texts: &[String], query: bool) -> Result<Vec<Vec<f32>>, String> {
        self.model()?.embed(texts, query)
    }
}

/// Pooling and normalisation as `modules.json` and `1_Pooling/config.json` say; without
/// them, mean pooling and L2 normalisation (what sentence-transformers models mostly use).
fn pooling_of(dir: &Path) -> (Pooling, bool) {
    let modules = read_json(&dir.join("modules.json"));
    let module_types: Vec<String> = modules
        .as_ref()
        .and_then(Value::as_array)
        .map(|m| {
            m.iter()
                .filter_map(|x| x.get("type").and_then(Value::as_str).map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let pooling_dir = modules
        .as_ref()
        .and_then(Value::as_array)
        .and_then(|m| {
            m.iter().find(|x| {
                x.get("type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t.ends_with("Pooling"))
            })
        })
        .and_then(|x| x.get("path").and_then(Value::as_str))
        .unwrap_or("1_Pooling");
    let config = read_json(&dir.join(pooling_dir).join("config.json"));
    let flag = |name: &str| {
        config
            .as_ref()
            .and_then(|c| c.get(name))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    };
    let pooling = if flag("pooling_mode_cls_token") {
        Pooling::Cls
    } else if flag("pooling_mode_max_tokens") {
        Pooling::Max
    } else {
        Pooling::Mean
    };
    let normalize = modules.is_none() || module_types.iter().any(|t| t.ends_with("Normalize"));
    (pooling, normalize)
}

/// Query and document prefixes: `config_sentence_transformers.json` prompts, else the BGE
/// query instruction for English BGE models.
fn prompts_of(dir: &Path, name: &str) -> (String, String) {
    let prompts = read_json(&dir.join("config_sentence_transformers.json")).and_then(|c| c.get("prompts").cloned());
    let prompt = |key: &str| {
        prompts
            .as_ref()
            .and_then(|p| p.get(key))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let lower = name.to_lowercase();
    let bge = lower.contains("bge-") && lower.contains("-en");
    let query = prompt("query").unwrap_or_else(|| if bge { BGE_QUERY.to_owned() } else { String::new() });
    let document = prompt("document").or_else(|| prompt("passage")).unwrap_or_default();
    (query, document)
}

impl Model {
    /// Loads the tokenizer and weights and starts the worker threads.
    fn load(spec: &Spec) -> Result<Self, String> {
        let dir = &spec.dir;
        let mut tokenizer =
            Tokenizer::from_file(dir.join("tokenizer.json")).map_err(|e| format!("cannot load tokenizer.json: {e}"))?;
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: spec.max_len,
                strategy: TruncationStrategy::LongestFirst,
                stride: 0,
                direction: TruncationDirection::Right,
            }))
            .map_err(|e| format!("cannot set truncation: {e}"))?;
        tokenizer.with_padding(None);
        let weights_path = dir.join("model.safetensors");
        let tensors = candle_core::safetensors::load(&weights_path, &candle_core::Device::Cpu)
            .map_err(|e| format!("cannot load {}: {e}", weights_path.display()))?;
        let bert = Bert::load(&spec.config, tensors)?;
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        let workers = (0..threads)
            .map(|i| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .thread_name(move |_| format!("haema-embed-{i}"))
                    .build()
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("cannot start embedding threads: {e}"))?;
        Ok(Self {
            bert,
            tokenizer,
            pooling: spec.pooling,
            normalize: spec.normalize,
            query_prefix: spec.query_prefix.clone(),
            document_prefix: spec.document_prefix.clone(),
            batch_size: spec.batch_size,
            workers,
        })
    }

    /// Pooled (and normalised) vectors of the texts `rows` points at, as one padded batch.
    fn forward(&self, rows: &[usize], encoded: &[Vec<u32>]) -> Result<Vec<Vec<f32>>, String> {
        let len = rows.iter().map(|&i| encoded[i].len()).max().unwrap_or(1).max(1);
        let batch = rows.len();
        let mut ids = vec![0u32; batch * len];
        let mut mask = vec![0u32; batch * len];
        for (row, &i) in rows.iter().enumerate() {
            for (col, &id) in encoded[i].iter().enumerate() {
                ids[row * len + col] = id;
                mask[row * len + col] = 1;
            }
        }
        let hidden = self
            .bert
            .forward(&ids, &mask, batch, len)
            .map_err(|e| format!("the model failed: {e}"))?;
        let mut pooled = bert::pool(&hidden, &mask, batch, len, self.pooling);
        if self.normalize {
            for vector in &mut pooled {
                let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
                vector.iter_mut().for_each(|x| *x /= norm);
            }
        }
        Ok(pooled)
    }

    fn embed(&self, texts: &[String], query: bool) -> Result<Vec<Vec<f32>>, String> {
        let prefix = if query {
            &self.query_prefix
        } else {
            &self.document_prefix
        };
        let mut encoded = Vec::with_capacity(texts.len());
        for text in texts {
            let input = format!("{prefix}{text}");
            let encoding = self
                .tokenizer
                .encode(input.as_str(), true)
                .map_err(|e| format!("cannot tokenize: {e}"))?;
            let mut ids = encoding.get_ids().to_vec();
            ids.truncate(self.bert.max_positions);
            encoded.push(ids);
        }
        // Sort by length so each batch pads as little as possible.
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| encoded[i].len());
        let mut out = vec![Vec::new(); texts.len()];
        for chunk in order.chunks(self.batch_size) {
            let parts = self.workers.len();
            let vectors = if parts > 1 && chunk.len() >= 2 * parts {
                // Contiguous parts of a length-sorted chunk have similar lengths.
                let size = chunk.len().div_ceil(parts);
                let results: Vec<Result<Vec<Vec<f32>>, String>> = std::thread::scope(|scope| {
                    let handles: Vec<_> = chunk
                        .chunks(size)
                        .zip(&self.workers)
                        .map(|(part, pool)| scope.spawn(|| pool.install(|| self.forward(part, &encoded))))
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| h.join().unwrap_or_else(|_| Err("an embedding thread failed".into())))
                        .collect()
                });
                results
                    .into_iter()
                    .collect::<Result<Vec<_>, _>>()?
                    .into_iter()
                    .flatten()
                    .collect()
            } else {
                self.forward(chunk, &encoded)?
            };
            for (&i, vector) in chunk.iter().zip(vectors) {
                out[i] = vector;
            }
        }
        Ok(out)
    }
}

#[async_trait]
impl Embedder for LocalEmbedder {
    fn id(&self) -> String {
        self.id.clone()
    }

    fn dims(&self) -> usize {
        self.spec.config.hidden_size
    }

    async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.run(texts, true).await
    }

    async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.run(texts, false).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bge_models_get_their_query_instruction_and_others_none() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            prompts_of(dir.path(), "BAAI/bge-small-en-v1.5"),
            (BGE_QUERY.to_owned(), String::new())
        );
        assert_eq!(
            prompts_of(dir.path(), "sentence-transformers/all-MiniLM-L6-v2"),
            (String::new(), String::new())
        );
        std::fs::write(
            dir.path().join("config_sentence_transformers.json"),
            r#"{"prompts": {"query": "query: ", "document": "passage: "}}"#,
        )
        .unwrap();
        assert_eq!(
            prompts_of(dir.path(), "intfloat/e5-small-v2"),
            ("query: ".to_owned(), "passage: ".to_owned())
        );
    }

    #[test]
    fn pooling_follows_the_model_files() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            pooling_of(dir.path()),
            (Pooling::Mean, true),
            "no files: mean pooling, normalised"
        );
        std::fs::write(
            dir.path().join("modules.json"),
            r#"[{"idx":0,"name":"0","path":"","type":"sentence_transformers.models.Transformer"},{"idx":1,"name":"1","path":"1_Pooling","type":"sentence_transformers.models.Pooling"}]"#,
        )
        .unwrap();
        std::fs::create_dir(dir.path().join("1_Pooling")).unwrap();
        std::fs::write(
            dir.path().join("1_Pooling/config.json"),
            r#"{"pooling_mode_cls_token": true, "pooling_mode_mean_tokens": false}"#,
        )
        .unwrap();
        assert_eq!(
            pooling_of(dir.path()),
            (Pooling::Cls, false),
            "CLS pooling, no Normalize module"
        );
    }
}
