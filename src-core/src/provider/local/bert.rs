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
    bias: Tensor,
}

impl Linear {
    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        // x: [tokens, in]
        x.matmul(&self.weight_t)?.broadcast_add(&self.bias)
    }
}

struct LayerNorm {
    weight: Tensor,
    bias: Tensor,
    eps: f32,
}

impl LayerNorm {
    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        candle_nn::ops::layer_norm(x, &self.weight, &self.bias, self.eps)
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
pub(crate) struct Bert {
    word: Tensor,
    position: Tensor,
    token_type: Tensor,
    embedding_norm: LayerNorm,
    layers: Vec<Layer>,
    heads: usize,
    hidden: usize,
    pub(crate) max_positions: usize,
}

/// Takes tensors out of a safetensors map by name, with the naming variants BERT
/// checkpoints use.
struct Weights {
    tensors: HashMap<String, Tensor>,
    prefix: &'static str,
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

    fn linear(&self, name: &str) -> Result<Linear, String> {
        let weight = self.get(&format!("{name}.weight"))?;
        Ok(Linear {
            weight_t: weight.t().and_then(|t| t.contiguous()).map_err(|e| e.to_string())?,
            bias: self.get(&format!("{name}.bias"))?,
        })
    }

    fn norm(&self, name: &str, eps: f64) -> Result<LayerNorm, String> {
        Ok(LayerNorm {
            weight: self.get(&format!("{name}.weight"))?,
            bias: self.get(&format!("{name}.bias"))?,
            eps: eps as f32,
        })
    }
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
        if config.num_attention_heads == 0 || config.hidden_size % config.num_attention_heads != 0 {
            return Err("hidden_size must be a multiple of num_attention_heads".into());
        }
        let w = Weights::new(tensors);
        let eps = config.layer_norm_eps;
        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for i in 0..config.num_hidden_layers {
            let p = format!("encoder.layer.{i}");
            let (q, k, v) = (
                w.linear(&format!("{p}.attention.self.query"))?,
                w.linear(&format!("{p}.attention.self.key"))?,
                w.linear(&format!("{p}.attention.self.value"))?,
            );
            let fuse = |a: &Tensor, b: &Tensor, c: &Tensor, dim: usize| {
                Tensor::cat(&[a, b, c], dim).map_err(|e| e.to_string())
            };
            layers.push(Layer {
                qkv: Linear {
                    weight_t: fuse(&q.weight_t, &k.weight_t, &v.weight_t, 1)?,
                    bias: fuse(&q.bias, &k.bias, &v.bias, 0)?,
                },
                attention_out: w.linear(&format!("{p}.attention.output.dense"))?,
                attention_norm: w.norm(&format!("{p}.attention.output.LayerNorm"), eps)?,
                intermediate: w.linear(&format!("{p}.intermediate.dense"))?,
                output: w.linear(&format!("{p}.output.dense"))?,
                output_norm: w.norm(&format!("{p}.output.LayerNorm"), eps)?,
            });
        }
        Ok(Self {
            word: w.get("embeddings.word_embeddings.weight")?,
            position: w.get("embeddings.position_embeddings.weight")?,
            token_type: w.get("embeddings.token_type_embeddings.weight")?,
            embedding_norm: w.norm("embeddings.LayerNorm", eps)?,
            layers,
            heads: config.num_attention_heads,
            hidden: config.hidden_size,
            max_positions: config.max_position_embeddings,
        })
    }

    /// Encodes a batch of equal-length token id rows (padded with `mask` = 0) and returns the
    /// last hidden states `[batch, len, hidden]`.
    pub(crate) fn forward(&self, ids: &[u32], mask: &[u32], batch: usize, len: usize) -> candle_core::Result<Tensor> {
        let device = Device::Cpu;
        let (heads, hidden) = (self.heads, self.hidden);
        let head_dim = hidden / heads;
        let ids_t = Tensor::from_slice(ids, batch * len, &device)?;
        let positions = Tensor::arange(0u32, len as u32, &device)?;
        let word = self.word.embedding(&ids_t)?.reshape((batch, len, hidden))?;
        let position = self.position.embedding(&positions)?.unsqueeze(0)?;
        let token_type = self.token_type.narrow(0, 0, 1)?.unsqueeze(0)?;
        let x = word.broadcast_add(&position)?.broadcast_add(&token_type)?;
        let mut x = self.embedding_norm.forward(&x)?.reshape((batch * len, hidden))?;
        // Additive attention bias: 0 for real tokens, a large negative for padding.
        let bias: Vec<f32> = mask.iter().map(|&m| if m == 0 { -1e4 } else { 0.0 }).collect();
        let bias = Tensor::from_vec(bias, (batch, 1, 1, len), &device)?;
        let scale = 1.0 / (head_dim as f64).sqrt();
        for layer in &self.layers {
            let qkv = layer.qkv.forward(&x)?.reshape((batch, len, 3, heads, head_dim))?;
            let q = qkv.narrow(2, 0, 1)?.squeeze(2)?.transpose(1, 2)?.contiguous()?;
            let k = qkv.narrow(2, 1, 1)?.squeeze(2)?.transpose(1, 2)?.contiguous()?;
            let v = qkv.narrow(2, 2, 1)?.squeeze(2)?.transpose(1, 2)?.contiguous()?;
            let scores = (q.matmul(&k.t()?)? * scale)?.broadcast_add(&bias)?;
            let probs = candle_nn::ops::softmax_last_dim(&scores)?;
            let context = probs.matmul(&v)?.transpose(1, 2)?.reshape((batch * len, hidden))?;
            let attended = layer.attention_out.forward(&context)?;
            x = layer.attention_norm.forward(&(attended + &x)?)?;
            let inner = layer.intermediate.forward(&x)?.gelu_erf()?;
            let out = layer.output.forward(&inner)?;
            x = layer.output_norm.forward(&(out + &x)?)?;
        }
        x.reshape((batch, len, hidden))
    }
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

/// Pools `[batch, len, hidden]` hidden states into `[batch, hidden]` rows.
pub(crate) fn pool(
    hidden: &Tensor,
    mask: &[u32],
    batch: usize,
    len: usize,
    pooling: Pooling,
) -> candle_core::Result<Vec<Vec<f32>>> {
    let device = Device::Cpu;
    let pooled = match pooling {
        Pooling::Cls => hidden.narrow(1, 0, 1)?.squeeze(1)?,
        Pooling::Mean => {
            let m: Vec<f32> = mask.iter().map(|&v| v as f32).collect();
            let m = Tensor::from_vec(m, (batch, len, 1), &device)?;
            let summed = hidden.broadcast_mul(&m)?.sum(1)?;
            let counts = m.sum(1)?.clamp(1e-9, f64::MAX)?;
            summed.broadcast_div(&counts)?
        }
        Pooling::Max => {
            let m: Vec<f32> = mask.iter().map(|&v| if v == 0 { -1e9 } else { 0.0 }).collect();
            let m = Tensor::from_vec(m, (batch, len, 1), &device)?;
            hidden.broadcast_add(&m)?.max(1)?
        }
    };
    pooled.to_vec2::<f32>()
}
