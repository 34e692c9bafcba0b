//! A BERT encoder forward pass on candle (CPU), for sentence-transformers models.
//!
//! Only what sentence embedding needs: embeddings, the encoder stack with fused QKV, and
//! exact (erf) GELU. Weights come from `model.safetensors` with or without a `bert.` prefix.

use std::collections::HashMap;

use candle_core::{DType, Device, Tensor};

/// What the loader needs from `config.json`.
#[derive(Debug, Clone, serde::Deserialize)]
pub(crate) struct BertConfig {
    pub hidden_size: usize,
    pub num_attention_heads: usize,
    pub num_hidden_layers: usize,
    pub max_position_embeddings: usize,
    #[serde(default = "default_eps")]
    pub layer_norm_eps: f64,
    #[serde(default = "default_act")]
    pub hidden_act: String,
    #[serde(default)]
    pub model_type: Option<String>,
}

fn default_eps() -> f64 {
    1e-12
}

fn default_act() -> String {
    "gelu".into()
}

struct Linear {
    /// Transposed weight: `[in, out]`, so a forward pass is one plain matmul.
    weight_t: Tensor,
    bias: Vec<f32>,
}

impl Linear {
    /// `x · Wᵀ + b` for `x` of `[rows, in]`, as a flat row-major buffer.
    fn forward(&self, x: &Tensor) -> candle_core::Result<Vec<f32>> {
        let mut out = x.matmul(&self.weight_t)?.flatten_all()?.to_vec1::<f32>()?;
        for row in out.chunks_exact_mut(self.bias.len()) {
            row.iter_mut().zip(&self.bias).for_each(|(v, b)| *v += b);
        }
        Ok(out)
    }
}

struct LayerNorm {
    weight: Vec<f32>,
    bias: Vec<f32>,
    eps: f32,
}

impl LayerNorm {
    /// Normalises each row of `x + residual` in place (into `x`).
    fn add_and_normalise(&self, x: &mut [f32], residual: &[f32]) {
        let width = self.weight.len();
        for (row, res) in x.chunks_exact_mut(width).zip(residual.chunks_exact(width)) {
            row.iter_mut().zip(res).for_each(|(v, r)| *v += r);
            self.normalise_row(row);
        }
    }

    fn normalise_row(&self, row: &mut [f32]) {
        let n = row.len() as f32;
        let mean = row.iter().sum::<f32>() / n;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / n;
        let inv = 1.0 / (var + self.eps).sqrt();
        for ((v, w), b) in row.iter_mut().zip(&self.weight).zip(&self.bias) {
            *v = (*v - mean) * inv * w + b;
        }
    }
}

struct Layer {
    qkv: Linear,
    attention_out: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    output: Linear,
    output_norm: LayerNorm,
}

/// A loaded BERT encoder.
///
/// Matrix products run on candle; the element-wise steps (bias, GELU, softmax, residual,
/// layer norm) run on plain buffers in the calling thread, so that several batches can be
/// encoded on several cores at once without sharing candle's element-wise thread pool.
pub(crate) struct Bert {
    word: Vec<f32>,
    position: Vec<f32>,
    token_type: Vec<f32>,
    embedding_norm: LayerNorm,
    layers: Vec<Layer>,
    heads: usize,
    hidden: usize,
    vocab: usize,
    pub(crate) max_positions: usize,
}

/// Takes tensors out of a safetensors map by name, with the naming variants BERT
/// checkpoints use.
struct Weights {
    tensors: HashMap<String, Tensor>,
    prefix: &'static str,
}

fn flat(t: &Tensor) -> Result<Vec<f32>, String> {
    t.flatten_all()
        .and_then(|t| t.to_vec1::<f32>())
        .map_err(|e| e.to_string())
}

impl Weights {
    fn new(tensors: HashMap<String, Tensor>) -> Self {
        let prefix = if tensors.contains_key("bert.embeddings.word_embeddings.weight") {
            "bert."
        } else {
            ""
        };
        Self { tensors, prefix }
    }

    fn get(&self, name: &str) -> Result<Tensor, String> {
        let alternatives = [
            name.to_owned(),
            name.replace(".weight", ".gamma"),
            name.replace(".bias", ".beta"),
        ];
        alternatives
            .iter()
            .find_map(|n| self.tensors.get(&format!("{}{n}", self.prefix)))
            .map(|t| t.to_dtype(DType::F32))
            .transpose()
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("the weights have no tensor `{}{name}`", self.prefix))
    }

    fn linear(&self, name: &str) -> Result<(Tensor, Tensor), String> {
        let weight = self.get(&format!("{name}.weight"))?;
        let weight_t = weight.t().and_then(|t| t.contiguous()).map_err(|e| e.to_string())?;
        Ok((weight_t, self.get(&format!("{name}.bias"))?))
    }

    fn norm(&self, name: &str, eps: f64) -> Result<LayerNorm, String> {
        Ok(LayerNorm {
            weight: flat(&self.get(&format!("{name}.weight"))?)?,
            bias: flat(&self.get(&format!("{name}.bias"))?)?,
            eps: eps as f32,
        })
    }
}

fn linear(parts: &[(Tensor, Tensor)]) -> Result<Linear, String> {
    let weights: Vec<&Tensor> = parts.iter().map(|p| &p.0).collect();
    let biases: Vec<&Tensor> = parts.iter().map(|p| &p.1).collect();
    let weight_t = Tensor::cat(&weights, 1).map_err(|e| e.to_string())?;
    let bias = Tensor::cat(&biases, 0).map_err(|e| e.to_string())?;
    Ok(Linear {
        weight_t,
        bias: flat(&bias)?,
    })
}

impl Bert {
    /// Builds the model from its config and safetensors tensors.
    pub(crate) fn load(config: &BertConfig, tensors: HashMap<String, Tensor>) -> Result<Self, String> {
        if let Some(kind) = config
            .model_type
            .as_deref()
            .filter(|k| !matches!(*k, "bert" | "roberta" | "xlm-roberta"))
        {
            return Err(format!(
                "model type `{kind}` is not a BERT model; use a BERT sentence-transformers model such as all-MiniLM-L6-v2 or bge-small-en-v1.5"
            ));
        }
        if config.hidden_act != "gelu" {
            return Err(format!(
                "activation `{}` is not supported (only gelu)",
                config.hidden_act
            ));
        }
        if config.num_attention_heads == 0 || !config.hidden_size.is_multiple_of(config.num_attention_heads) {
            return Err("hidden_size must be a multiple of num_attention_heads".into());
        }
        let w = Weights::new(tensors);
        let eps = config.layer_norm_eps;
        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for i in 0..config.num_hidden_layers {
            let p = format!("encoder.layer.{i}");
            let qkv = ["query", "key", "value"].map(|n| w.linear(&format!("{p}.attention.self.{n}")));
            let qkv = qkv.into_iter().collect::<Result<Vec<_>, _>>()?;
            layers.push(Layer {
                qkv: linear(&qkv)?,
                attention_out: linear(&[w.linear(&format!("{p}.attention.output.dense"))?])?,
                attention_norm: w.norm(&format!("{p}.attention.output.LayerNorm"), eps)?,
                intermediate: linear(&[w.linear(&format!("{p}.intermediate.dense"))?])?,
                output: linear(&[w.linear(&format!("{p}.output.dense"))?])?,
                output_norm: w.norm(&format!("{p}.output.LayerNorm"), eps)?,
            });
        }
        let word = w.get("embeddings.word_embeddings.weight")?;
        let vocab = word.dims().first().copied().unwrap_or(0);
        Ok(Self {
            word: flat(&word)?,
            position: flat(&w.get("embeddings.position_embeddings.weight")?)?,
            token_type: flat(&w.get("embeddings.token_type_embeddings.weight")?)?,
            embedding_norm: w.norm("embeddings.LayerNorm", eps)?,
            layers,
            heads: config.num_attention_heads,
            hidden: config.hidden_size,
            vocab,
            max_positions: config.max_position_embeddings,
        })
    }

    /// Encodes a batch of equal-length token id rows (padded where `mask` is 0) and returns
    /// the last hidden states, `[batch * len, hidden]` row-major.
    pub(crate) fn forward(&self, ids: &[u32], mask: &[u32], batch: usize, len: usize) -> candle_core::Result<Vec<f32>> {
        let (heads, hidden) = (self.heads, self.hidden);
        let head_dim = hidden / heads;
        let tokens = batch * len;
        let device = Device::Cpu;
        // Embeddings: word + position + token type 0, then layer norm.
        let mut x = vec![0f32; tokens * hidden];
        for (t, row) in x.chunks_exact_mut(hidden).enumerate() {
            let id = (ids[t] as usize).min(self.vocab.saturating_sub(1));
            let pos = t % len;
            let word = &self.word[id * hidden..(id + 1) * hidden];
            let position = &self.position[pos * hidden..(pos + 1) * hidden];
            for (i, v) in row.iter_mut().enumerate() {
                *v = word[i] + position[i] + self.token_type[i];
            }
            self.embedding_norm.normalise_row(row);
        }
        let scale = 1.0 / (head_dim as f32).sqrt();
        let mut scores = vec![0f32; len];
        for layer in &self.layers {
            let input = Tensor::from_slice(&x, (tokens, hidden), &device)?;
            let qkv = layer.qkv.forward(&input)?;
            // Attention straight from the fused [tokens, 3 * hidden] buffer: per sentence and
            // head, a few hundred short dot products, far cheaper than a batched matmul call.
            let mut merged = vec![0f32; tokens * hidden];
            for b in 0..batch {
                let keys = &mask[b * len..(b + 1) * len];
                for h in 0..heads {
                    let offset = h * head_dim;
                    for i in 0..len {
                        let qi = (b * len + i) * 3 * hidden + offset;
                        let query = &qkv[qi..qi + head_dim];
                        for (j, score) in scores.iter_mut().enumerate() {
                            let kj = (b * len + j) * 3 * hidden + hidden + offset;
                            *score = dot(query, &qkv[kj..kj + head_dim]);
                        }
                        softmax_row(&mut scores, keys, scale);
                        let out =
                            &mut merged[(b * len + i) * hidden + offset..(b * len + i) * hidden + offset + head_dim];
                        for (j, p) in scores.iter().enumerate() {
                            if *p == 0.0 {
                                continue;
                            }
                            let vj = (b * len + j) * 3 * hidden + 2 * hidden + offset;
                            out.iter_mut()
                                .zip(&qkv[vj..vj + head_dim])
                                .for_each(|(o, v)| *o += p * v);
                        }
                    }
                }
            }
            let mut attended = layer
                .attention_out
                .forward(&Tensor::from_vec(merged, (tokens, hidden), &device)?)?;
            layer.attention_norm.add_and_normalise(&mut attended, &x);
            let mut inner = layer
                .intermediate
                .forward(&Tensor::from_slice(&attended, (tokens, hidden), &device)?)?;
            super::gelu::gelu_in_place(&mut inner);
            let inner_width = inner.len() / tokens.max(1);
            let mut out = layer
                .output
                .forward(&Tensor::from_vec(inner, (tokens, inner_width), &device)?)?;
            layer.output_norm.add_and_normalise(&mut out, &attended);
            x = out;
        }
        Ok(x)
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight partial sums let the compiler vectorise the loop.
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    acc.iter().sum::<f32>() + ra.iter().zip(rb).map(|(x, y)| x * y).sum::<f32>()
}

/// Softmax of one row of attention scores, scaled, with padded keys masked out.
fn softmax_row(row: &mut [f32], mask: &[u32], scale: f32) {
    let mut max = f32::NEG_INFINITY;
    for (s, m) in row.iter_mut().zip(mask) {
        *s = if *m == 0 { f32::NEG_INFINITY } else { *s * scale };
        max = max.max(*s);
    }
    let mut sum = 0.0;
    for s in row.iter_mut() {
        *s = if s.is_finite() {
            super::gelu::exp_neg(*s - max)
        } else {
            0.0
        };
        sum += *s;
    }
    let inv = if sum > 0.0 { 1.0 / sum } else { 0.0 };
    row.iter_mut().for_each(|s| *s *= inv);
}

/// How token vectors become one sentence vector (`1_Pooling/config.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pooling {
    /// Average of the real tokens.
    Mean,
    /// The `[CLS]` token.
    Cls,
    /// Element-wise maximum over the real tokens.
    Max,
}

/// Pools `[batch * len, hidden]` hidden states into one row per sentence.
pub(crate) fn pool(hidden_states: &[f32], mask: &[u32], batch: usize, len: usize, pooling: Pooling) -> Vec<Vec<f32>> {
    let hidden = hidden_states.len() / (batch * len).max(1);
    (0..batch)
        .map(|b| {
            let rows = (0..len)
                .filter(|&l| mask[b * len + l] != 0)
                .map(|l| &hidden_states[(b * len + l) * hidden..(b * len + l + 1) * hidden]);
            match pooling {
                Pooling::Cls => hidden_states[b * len * hidden..(b * len + 1) * hidden].to_vec(),
                Pooling::Mean => {
                    let mut sum = vec![0f32; hidden];
                    let mut count = 0usize;
                    for row in rows {
                        sum.iter_mut().zip(row).for_each(|(s, v)| *s += v);
                        count += 1;
                    }
                    let inv = 1.0 / count.max(1) as f32;
                    sum.iter_mut().for_each(|s| *s *= inv);
                    sum
                }
                Pooling::Max => {
                    let mut max = vec![f32::NEG_INFINITY; hidden];
                    for row in rows {
                        max.iter_mut().zip(row).for_each(|(m, v)| *m = m.max(*v));
                    }
                    max
                }
            }
        })
        .collect()
}
