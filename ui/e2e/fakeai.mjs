// An AI on 127.0.0.1 for the desktop's end-to-end test of connecting one, in two shapes:
// Ollama (GET /api/tags lists an installed text model and an embedding model; /v1 needs no
// key) and an OpenAI-compatible service under /openai/v1 that takes only the key in
// FAKEAI_KEY. Chat calls answer haema's stages as a model would: the split gives its input
// back, a reconstruction with related memories merges them into one, the profile is left
// alone; the connection test gets {"ok": true}.
//
//   FAKEAI_KEY=sk-… node e2e/fakeai.mjs   → prints http://127.0.0.1:PORT, serves until killed
import { createServer } from "node:http";

const key = process.env.FAKEAI_KEY ?? "sk-e2e-right-key-7Q4Z";

/** The items of a block `<tag>` of haema's prompt: lines `- "json string"`. */
function items(prompt, tag) {
  const lines = prompt.split("\n");
  const start = lines.indexOf(`<${tag}>`);
  if (start < 0) return [];
  const out = [];
  for (const line of lines.slice(start + 1)) {
    if (line === `</${tag}>`) break;
    if (line.startsWith("- ")) {
      try {
        out.push(JSON.parse(line.slice(2)));
      } catch {
        // not an item
      }
    }
  }
  return out;
}

function answer(stage, prompt) {
  switch (stage) {
    case "pre_split":
      return { contents: items(prompt, "raw_input") };
    case "reconstruct": {
      const related = items(prompt, "related_memories");
      const fresh = items(prompt, "new_contents");
      if (related.length === 0) return { memories: fresh, coverage: "complete", core_relevant: false };
      const merged = `${fresh.join(" ").replace(/\.$/, "")} (before that: ${related.join(" ").replace(/\.$/, "")}).`;
      return { memories: [merged], coverage: "complete", core_relevant: false };
    }
    case "core_update":
      return { should_update: false, core_markdown: null };
    default:
      return { ok: true };
  }
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  let raw = "";
  req.on("data", (chunk) => (raw += chunk));
  req.on("end", () => {
    if (req.method === "GET" && url.pathname === "/api/tags") {
      send(res, 200, {
        models: [
          { name: "llama3.1:8b", size: 4920753328, details: { family: "llama" } },
          { name: "nomic-embed-text:latest", size: 274302450, details: { family: "nomic-bert" } },
        ],
      });
      return;
    }
    if (req.method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
      send(res, 404, { error: { message: "unknown path" } });
      return;
    }
    if (url.pathname.startsWith("/openai/") && req.headers.authorization !== `Bearer ${key}`) {
      const given = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      send(res, 401, { error: { message: `Incorrect API key provided: ${given}` } });
      return;
    }
    let body = {};
    try {
      body = JSON.parse(raw);
    } catch {
      send(res, 400, { error: { message: "not JSON" } });
      return;
    }
    const stage = body.response_format?.json_schema?.name ?? "";
    const prompt = body.messages?.[1]?.content ?? "";
    send(res, 200, {
      id: "chatcmpl-e2e",
      object: "chat.completion",
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(answer(stage, prompt)) }, finish_reason: "stop" }],
      usage: { prompt_tokens: 8, completion_tokens: 8, total_tokens: 16 },
    });
  });
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  console.log(`http://127.0.0.1:${port}`);
});
