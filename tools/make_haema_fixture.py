"""Makes tests/fixtures/haema-store: a real store of the Python library HAEMA (pip install
haema) with stub clients, for `haema import <folder>` tests.

    python3 -m venv /tmp/haemavenv && /tmp/haemavenv/bin/pip install haema==0.4.0
    /tmp/haemavenv/bin/python tools/make_haema_fixture.py

What it holds: six memories written through HAEMA's add() (pre-split, reconstruction, core
update), one merge that replaced a memory (a tombstone in latest.sqlite3), a core.md the
LLM updated, and one memory whose latest.sqlite3 row is removed afterwards, as an
interrupted HAEMA write leaves it: only Chroma still has its document.
"""

import hashlib
import shutil
import sqlite3
import sys
from pathlib import Path

import numpy as np
from haema import EmbeddingClient, LLMClient, Memory

DIMS = 16
OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "haema-store"


def vector(text: str) -> np.ndarray:
    words = text.lower().replace(".", " ").replace(",", " ").split()
    v = np.zeros(DIMS, dtype=np.float32)
    for w in words:
        h = int.from_bytes(hashlib.sha256(w.encode()).digest()[:4], "little")
        v[h % DIMS] += 1.0
    n = np.linalg.norm(v)
    return v / n if n else v + 1.0 / np.sqrt(DIMS)


class Embedder(EmbeddingClient):
    def embed_query(self, texts, output_dimensionality):
        return np.stack([vector(t) for t in texts])

    def embed_document(self, texts, output_dimensionality):
        return np.stack([vector(t) for t in texts])


CORE = """# SOUL
Calm, brief answers.

# TOOLS

# RULE
- Never suggest food with peanuts.

# USER
- Drinks black coffee in the morning.
"""


class Llm(LLMClient):
    def generate_structured(self, system_prompt, user_prompt, response_model):
        name = response_model.__name__
        if name == "PreMemorySplitResponse":
            content = user_prompt.split("<content>")[-1].split("</content>")[0].strip()
            return {"contents": [content]}
        if name == "MemoryReconstructionResponse":
            if "black coffee" in user_prompt:
                related = user_prompt.split("<related_memories>")[1].split("</related_memories>")[0]
                kept = [l[2:].strip() for l in related.strip().splitlines() if "green tea" not in l]
                return {
                    "memories": ["The user drinks black coffee in the morning, no longer green tea."] + kept,
                    "coverage": "complete",
                }
            items = [l[2:].strip() for l in user_prompt.splitlines() if l.startswith("- ") and l != "- (none)"]
            items = [i for i in items if not i.startswith(("Preserve", "Remove", "Give", "If ", "Split", "Keep",
                                                          "Produce", "Do not", "Use only", "Return"))]
            return {"memories": items, "coverage": "complete"}
        if name == "CoreUpdateResponse":
            if "black coffee" in user_prompt:
                return {"should_update": True, "core_markdown": CORE}
            return {"should_update": False, "core_markdown": None}
        raise ValueError(name)


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    memory = Memory(OUT, output_dimensionality=DIMS, embedding_client=Embedder(), llm_client=Llm(),
                    merge_distance_cutoff=0.05)
    for text in [
        "The user drinks green tea every morning.",
        "The user is allergic to peanuts.",
        "The user's sister Ana lives in Busan.",
        "사용자는 첼로를 연주해요 🎻",
        "The user runs on Sunday mornings.",
    ]:
        memory.add([text])
    memory.merge_distance_cutoff = 0.9
    memory.add(["The user switched to black coffee in the morning."])
    memory.merge_distance_cutoff = 0.05
    memory.add(["The user reads science fiction on the subway."])
    print(memory.get_latest(1, 20), file=sys.stderr)
    del memory
    db = sqlite3.connect(OUT / "latest.sqlite3")
    db.execute("DELETE FROM latest_memories WHERE document LIKE '%science fiction%'")
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
