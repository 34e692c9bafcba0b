#!/usr/bin/env python3
"""Reference sentence embeddings for the local embedder's golden test.

An independent forward pass of a BERT sentence-transformers model in numpy (no torch),
with mean pooling and L2 normalisation as the model's 1_Pooling and modules.json say.
Writes tests/fixtures/golden-all-MiniLM-L6-v2.json.

    python3 -m venv /tmp/ref && /tmp/ref/bin/pip install numpy safetensors tokenizers
    /tmp/ref/bin/python tools/golden_vectors.py "$(.ci/fetch-model)"
"""
import json
import math
import pathlib
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

SENTENCES = [
    "The user prefers green tea in the morning.",
    "Ana lives in Busan and is learning Korean.",
    "Never push directly to the main branch; open a pull request.",
    "사용자는 녹차를 좋아한다 🍵",
    "",
    " ".join(["The agent summarised a very long meeting about quarterly plans."] * 40),
]


def layer_norm(x, w, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def softmax(x):
    x = x - x.max(-1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(-1, keepdims=True)


def embed(model_dir, text):
    config = json.loads((model_dir / "config.json").read_text())
    max_len = json.loads((model_dir / "sentence_bert_config.json").read_text())["max_seq_length"]
    w = {k: v.astype(np.float64) for k, v in load_file(str(model_dir / "model.safetensors")).items()}
    tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(max_len)
    ids = tok.encode(text).ids
    n, h, heads = len(ids), config["hidden_size"], config["num_attention_heads"]
    d, eps = h // heads, config["layer_norm_eps"]
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n] + w["embeddings.token_type_embeddings.weight"][0]
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        lin = lambda name, v: v @ w[p + name + ".weight"].T + w[p + name + ".bias"]
        q = lin("attention.self.query", x).reshape(n, heads, d).transpose(1, 0, 2)
        k = lin("attention.self.key", x).reshape(n, heads, d).transpose(1, 0, 2)
        v = lin("attention.self.value", x).reshape(n, heads, d).transpose(1, 0, 2)
        ctx = (softmax(q @ k.transpose(0, 2, 1) / math.sqrt(d)) @ v).transpose(1, 0, 2).reshape(n, h)
        x = layer_norm(lin("attention.output.dense", ctx) + x, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], eps)
        inner = gelu(lin("intermediate.dense", x))
        x = layer_norm(lin("output.dense", inner) + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
    pooled = x.mean(0)
    return pooled / np.linalg.norm(pooled), n


def main():
    model_dir = pathlib.Path(sys.argv[1])
    out = {"model": "sentence-transformers/all-MiniLM-L6-v2", "pooling": "mean", "normalized": True, "sentences": []}
    for text in SENTENCES:
        vector, tokens = embed(model_dir, text)
        out["sentences"].append({"text": text, "tokens": tokens, "vector": [round(float(x), 7) for x in vector]})
    target = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "golden-all-MiniLM-L6-v2.json"
    target.write_text(json.dumps(out, ensure_ascii=False) + "\n")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
