// An agent on another computer, in the real window (issue 35's journey): a person makes a
// key that may only propose, in Settings; the key is shown once with the set-up to paste; an
// agent reaches the store through `haema mcp --http` with it (the store's own policy would
// write at once) and its add waits in Review, named as the agent's; the person approves it,
// sees the agent's changes in History and when it was last used, and revokes the key, which
// the server refuses from then on. Saves screenshots.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Session } from "./webdriver";

const driver = process.env.TAURI_DRIVER_URL ?? "http://127.0.0.1:4444";
const app = process.env.HAEMA_E2E_APP ?? "";
const cli = process.env.HAEMA_E2E_CLI ?? "";
const skip = app === "" || cli === "";
let session: Session;
let store = "";
let server: ChildProcess | null = null;
let key = "";
let url = "";

beforeAll(async () => {
  if (skip) return;
  store = join(mkdtempSync(join(tmpdir(), "haema-remote-")), "team");
  mkdirSync(store);
  writeFileSync(join(store, "haema.toml"), 'review = "auto"\n[embedder]\nprovider = "none"\n');
  execFileSync(cli, ["--store", store, "status"], { stdio: "ignore", env: { ...process.env, HF_HUB_OFFLINE: "1" } });
  session = await Session.start(driver, app, ["--store", store]);
  await session.waitText("h1", "Things your assistant remembers");
}, 30_000);

afterAll(async () => {
  server?.kill("SIGTERM");
  await session?.end();
  if (store !== "") rmSync(dirname(store), { recursive: true, force: true });
});

/** `haema mcp --http` on a free port of 127.0.0.1, with the store's own policy (auto). */
async function serve(): Promise<string> {
  const env = { ...process.env };
  delete env.HAEMA_REVIEW;
  const child = spawn(cli, ["--store", store, "mcp", "--http", "127.0.0.1:0"], { env, stdio: ["ignore", "ignore", "pipe"] });
  server = child;
  return new Promise((resolve, reject) => {
    let said = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      const found = /http:\/\/\S+\/mcp/.exec(said);
      if (found) resolve(found[0]);
    });
    child.on("error", (e) => reject(new Error(`the server could not start: ${e.message}`)));
    child.on("exit", () => reject(new Error(`the server ended: ${said}`)));
  });
}

/** One JSON-RPC message to the server as the agent, and the HTTP answer. */
async function post(url: string, body: object, sessionId?: string): Promise<Response> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${key}`,
    Accept: "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2025-11-25",
  };
  if (sessionId) headers["Mcp-Session-Id"] = sessionId;
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
}

/** The agent's session: initialized, then one tool call; the tool's structured answer. */
async function agentAdds(url: string, text: string): Promise<Record<string, unknown>> {
  const init = await post(url, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "remote-agent", version: "1" } },
  });
  if (init.status !== 200) throw new Error(`initialize answered ${init.status}: ${await init.text()}`);
  const sessionId = init.headers.get("mcp-session-id") ?? undefined;
  await init.text();
  await (await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, sessionId)).text();
  const call = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "add_memory", arguments: { items: [text] } } }, sessionId);
  const events = await call.text();
  const answer = events
    .split("\n")
    // Each message is a `data:` line; a stream also starts with an empty one (resumability).
    .filter((line) => line.startsWith("data:") && line.slice(5).trim() !== "")
    .map((line) => JSON.parse(line.slice(5)) as { id?: number; result?: { structuredContent: Record<string, unknown> } })
    .find((message) => message.id === 2);
  if (!answer?.result) throw new Error(`no answer to add_memory: ${events}`);
  return answer.result.structuredContent;
}

it.skipIf(skip)("makes a key that may only propose, shown once with the agent's set-up", async () => {
  await session.clickOn("nav [data-view=settings]");
  await session.waitText("#agents-title", "Agents on other computers");
  await session.waitText("#agent-keys", "No agent has a key yet.");
  await session.type(await session.find("#agent-name"), "claude-laptop");
  await session.clickOn("#agent-access-propose");
  await session.clickButton("Make a key");
  await session.waitText("#agent-made", "Copy it now");
  key = (await session.script(`return document.getElementById("agent-made-key").value;`)) as string;
  expect(key).toMatch(/^haema_ak_[A-Za-z0-9]{40}$/);
  expect(await session.text(await session.find("#agent-setup-claude"))).toContain(`Authorization: Bearer ${key}`);
  await session.waitText("#agent-keys", "Propose changes");
  await session.saveScreenshot("agent-key-made");
  expect(await session.accessibilityProblems()).toEqual([]);
  await session.clickButton("I have copied it");
  expect(await session.script(`return document.body.innerHTML.includes(arguments[0]);`, [key])).toBe(false);
});

it.skipIf(skip)("an agent's add through the server waits in Review, named as the agent's, and is approved", async () => {
  url = await serve();
  const added = await agentAdds(url, "The user's sailing club meets on Thursday evenings.");
  expect(added.status).toBe("pending");
  await session.waitText("nav button", "Review (1)", 15_000);
  await session.clickOn("nav [data-view=review]");
  await session.waitText("article.change", "sailing club");
  await session.waitText("article.change", "claude-laptop");
  await session.saveScreenshot("review-agent");
  await session.clickButton("Approve", "article.change");
  await session.waitText(".notice", "Approved");
});

it.skipIf(skip)("shows when the key was last used and the agent's changes, then revokes it", async () => {
  await session.clickOn("nav [data-view=settings]");
  await session.waitText('#agent-keys [data-key="claude-laptop"]', "Last used");
  await session.clickButton("Its changes", '#agent-keys [data-key="claude-laptop"]');
  await session.waitText("h1", "Everything that changed");
  await session.waitText("#history-list", "sailing club");
  expect(await session.script(`return document.getElementById("history-agent").value;`)).toBe("claude-laptop");
  await session.clickOn("nav [data-view=settings]");
  await session.clickButton("Revoke…", '#agent-keys [data-key="claude-laptop"]');
  await session.waitText("#agent-revoke-title", "Revoke the key of “claude-laptop”?");
  await session.clickOn("#agent-revoke-confirm");
  await session.waitText(".notice", "It made 1 change: 1 saved.");
  await session.waitText('#agent-keys [data-key="claude-laptop"]', "Revoked");
  // The server checks the key on every request: refused at once.
  const refused = await post(url, { jsonrpc: "2.0", id: 9, method: "ping" });
  expect(refused.status).toBe(401);
});
