#!/usr/bin/env python3
"""The BM25 baseline of `haema eval locomo`, with the reference library `rank_bm25`.

It pins the metric definitions that `haema eval locomo` uses (src-core/src/eval/metrics.rs):
the same data, the same documents (one per turn: "speaker: text", an image's caption
appended as "[shares ...]"), one index per conversation, categories 1-4 only, queries
without evidence left out, and

  recall@k = share of questions with at least one evidence turn in the top k (hit rate)
  MRR      = mean of 1 / rank of the first evidence turn in the top 10 (0 if none)

`--fraction` prints the other common reading of recall@k (the share of a question's
evidence turns found, averaged), which gives lower figures and does not reproduce the
reference numbers.

    pip install rank_bm25
    python3 tools/locomo_baselines.py [--data ../shared/data/locomo-dev] [--json]

Tokens: lower-cased runs of letters, digits and underscores (re \\w+); rank_bm25's
BM25Okapi with its defaults (k1 1.5, b 0.75, epsilon 0.25). Ties keep file order.
"""

import argparse
import collections
import json
import os
import re
import sys

try:
    from rank_bm25 import BM25Okapi
except ImportError:  # pragma: no cover
    sys.exit("rank_bm25 is missing: pip install rank_bm25")

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def memory_text(turn):
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("image_caption"):
        text += f" [shares {turn['image_caption']}]"
    return text


def tokens(text):
    return re.findall(r"\w+", text.lower())


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data", "locomo-dev"))
    parser.add_argument("--fraction", action="store_true", help="also print recall as the share of evidence found")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    args = parser.parse_args()
    turns = read_jsonl(os.path.join(args.data, "turns.jsonl"))
    queries = read_jsonl(os.path.join(args.data, "queries.jsonl"))
    by_conv = collections.defaultdict(list)
    for turn in turns:
        by_conv[turn["conv"]].append(turn)
    rows = []  # (category, first hit rank or None, fraction@5, fraction@10)
    for conv, conv_turns in sorted(by_conv.items()):
        bm25 = BM25Okapi([tokens(memory_text(t)) for t in conv_turns])
        for q in queries:
            if q["conv"] != conv or q["category"] not in CATEGORIES or not q.get("evidence"):
                continue
            scores = bm25.get_scores(tokens(q["question"]))
            order = sorted(range(len(conv_turns)), key=lambda i: -scores[i])
            ranked = [conv_turns[i]["dia_id"] for i in order[:10]]
            gold = set(q["evidence"])
            first = next((i for i, d in enumerate(ranked) if d in gold), None)
            fraction = [len(gold & set(ranked[:k])) / len(gold) for k in (5, 10)]
            rows.append((q["category"], first, *fraction))

    def scores(rs):
        n = len(rs) or 1
        return {
            "queries": len(rs),
            "r5": 100 * sum(1 for r in rs if r[1] is not None and r[1] < 5) / n,
            "r10": 100 * sum(1 for r in rs if r[1] is not None) / n,
            "mrr": sum(1 / (r[1] + 1) for r in rs if r[1] is not None) / n,
            "fraction_r5": 100 * sum(r[2] for r in rs) / n,
            "fraction_r10": 100 * sum(r[3] for r in rs) / n,
        }

    overall = scores(rows)
    if args.json:
        print(json.dumps({"baseline": "bm25", **overall}))
        return
    print(f"BM25 (rank_bm25), {len(by_conv)} conversations, {len(turns)} turns")
    head = f"{'category':<16} {'queries':>7} {'R@5':>7} {'R@10':>7} {'MRR':>7}"
    print(head + (f" {'fR@5':>7} {'fR@10':>7}" if args.fraction else ""))
    for label, s in [(f"{c} {name}", scores([r for r in rows if r[0] == c])) for c, name in CATEGORIES.items()] + [
        ("all (1-4)", overall)
    ]:
        line = f"{label:<16} {s['queries']:>7} {s['r5']:>7.1f} {s['r10']:>7.1f} {s['mrr']:>7.3f}"
        if args.fraction:
            line += f" {s['fraction_r5']:>7.1f} {s['fraction_r10']:>7.1f}"
        print(line)


if __name__ == "__main__":
    main()
