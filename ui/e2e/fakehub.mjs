// A Hugging Face Hub on 127.0.0.1 for the desktop's end-to-end test of the first-use model
// download: serves the files of a model folder as repository
// sentence-transformers/all-MiniLM-L6-v2 the way the Hub does (HEAD and GET of
// /<repo>/resolve/<revision>/<file> with X-Repo-Commit; small files with their git blob hash
// as ETag; LFS files as a 302 to /lfs/<sha256> with X-Linked-Etag and X-Linked-Size; Range).
//
//   node e2e/fakehub.mjs MODEL_DIR   → prints http://127.0.0.1:PORT, serves until killed
//
// FAKEHUB_LFS_DELAY_MS holds back each LFS body that long, so that a window can be seen
// downloading.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { join, relative } from "node:path";

const REPO = "sentence-transformers/all-MiniLM-L6-v2";
const COMMIT = "c9745ed1d9f207416be6d2e6f8de32d1f16199bf";
const dir = process.argv[2];
if (!dir) {
  console.error("usage: node e2e/fakehub.mjs MODEL_DIR");
  process.exit(2);
}

function walk(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const files = new Map();
const blobs = new Map();
for (const path of walk(dir)) {
  const bytes = readFileSync(path);
  const name = relative(dir, path);
  const lfs = bytes.length > 1_000_000 || name.endsWith(".safetensors");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const gitSha1 = createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
  files.set(name, { bytes, lfs, sha256, gitSha1 });
  blobs.set(sha256, bytes);
}

function body(res, req, bytes, headers) {
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
  const start = range ? Math.min(Number(range[1]), bytes.length) : 0;
  const part = bytes.subarray(start);
  const status = range ? 206 : 200;
  const extra = range ? { "Content-Range": `bytes ${start}-${bytes.length - 1}/${bytes.length}` } : {};
  res.writeHead(status, { ...headers, ...extra, "Content-Length": part.length });
  res.end(req.method === "HEAD" ? undefined : part);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const lfs = /^\/lfs\/([0-9a-f]{64})$/.exec(url.pathname);
  if (lfs && blobs.has(lfs[1])) {
    const delay = req.method === "GET" ? Number(process.env.FAKEHUB_LFS_DELAY_MS ?? 0) : 0;
    setTimeout(() => body(res, req, blobs.get(lfs[1]), { ETag: `"${lfs[1]}"` }), delay);
    return;
  }
  const prefix = `/${REPO}/resolve/`;
  if (!url.pathname.startsWith(prefix)) {
    res.writeHead(404, { "X-Error-Code": "RepoNotFound" }).end();
    return;
  }
  const rest = decodeURIComponent(url.pathname.slice(prefix.length));
  const name = rest.slice(rest.indexOf("/") + 1);
  const file = files.get(name);
  if (!file) {
    res.writeHead(404, { "X-Error-Code": "EntryNotFound", "X-Repo-Commit": COMMIT }).end();
    return;
  }
  if (file.lfs) {
    res.writeHead(302, {
      Location: `/lfs/${file.sha256}`,
      "X-Repo-Commit": COMMIT,
      "X-Linked-Etag": `"${file.sha256}"`,
      "X-Linked-Size": String(file.bytes.length),
      ETag: `"${file.gitSha1}"`,
      "Content-Length": 0,
    });
    res.end();
    return;
  }
  body(res, req, file.bytes, { "X-Repo-Commit": COMMIT, ETag: `"${file.gitSha1}"` });
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`http://127.0.0.1:${address.port}`);
});
