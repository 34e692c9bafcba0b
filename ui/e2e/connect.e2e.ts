// Connecting an AI without a terminal, in the real window (tools/desktop-e2e.sh runs it in
// a session of its own: fresh folders, a real Secret Service unlocked in a private D-Bus
// session, and an AI on 127.0.0.1 from e2e/fakeai.mjs, Ollama-shaped at /api/tags and /v1,
// OpenAI-shaped with a key at /openai/v1). A new memory offers the AI step; the AI on this
// computer is found with its models and tested; another service refuses a wrong key, then
// takes the right one, which goes to the keyring; what is typed next is merged by the AI
// and waits for approval; the key is in no file and not in the window.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Session } from "./webdriver";

const driver = process.env.TAURI_DRIVER_URL ?? "http://127.0.0.1:4444";
const app = process.env.HAEMA_E2E_APP ?? "";
const cli = process.env.HAEMA_E2E_CLI ?? "";
const ai = process.env.HAEMA_E2E_AI ?? "";
const key = process.env.FAKEAI_KEY ?? "";
const folders = (process.env.HAEMA_E2E_FOLDERS ?? "").split(":").filter((f) => f !== "");
const store = process.env.HAEMA_E2E_STORE ?? "";
let session: Session;

beforeAll(async () => {
  if (ai !== "") session = await Session.start(driver, app);
}, 30_000);

afterAll(async () => {
  await session?.end();
});

/** Every file under `dir`. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const kind = statSync(path);
    // Only files: a store folder also holds the recall socket of the window that has it open.
    return kind.isDirectory() ? files(path) : kind.isFile() ? [path] : [];
  });
}

async function setValue(css: string, value: string): Promise<void> {
  const field = await session.find(css);
  await session.script(`arguments[0].value = ""; arguments[0].dispatchEvent(new Event("input"));`, [
    { "element-6066-11e4-a52e-4f735466cecf": field },
  ]);
  await session.type(field, value);
}

it.skipIf(ai === "")("offers to connect an AI on a new memory and finds the one on this computer", async () => {
  await session.waitText("h1", "Welcome to haema");
  await session.clickOn("#first-start");
  await session.waitText("h1", "Let your memory learn");
  await session.waitText("#llm-now", "Now: no AI");
  await session.clickOn("#llm-service-this_computer");
  // The window asks Ollama (the fake on 127.0.0.1) once the choice is made; on a loaded CI
  // machine that answer took more than 10 s once.
  await session.waitText("#llm-local-status", "Ollama is running here with 1 model", 30_000);
  expect(await session.text(await session.find("#llm-local-model"))).toContain("llama3.1:8b");
  await session.clickOn("#llm-test");
  await session.waitText("#llm-outcome", "The AI answered: llama3.1:8b works.");
  await session.saveScreenshot("connect-ai");
  expect(await session.accessibilityProblems()).toEqual([]);
}, 90_000);

it.skipIf(ai === "")("tells a refused key, then saves the right one to the keyring only", async () => {
  await session.clickOn("#llm-service-other");
  await setValue("#llm-address", `${ai}/openai/v1`);
  await setValue("#llm-model", "gpt-e2e");
  await setValue("#llm-key", "sk-e2e-wrong-key-0000");
  await session.clickOn("#llm-test");
  await session.waitText("#llm-outcome", "The service refused the key.");
  await setValue("#llm-key", key);
  await session.clickOn("#llm-test");
  await session.waitText("#llm-outcome", "works");
  await session.clickOn("#llm-save");
  await session.waitText("#llm-key-status", `ending in …${key.slice(-4)}`);
  expect(await session.script(`return document.getElementById("llm-key").value;`)).toBe("");
  await session.clickOn("#setup-continue");
  await session.waitText("h1", "Things your assistant remembers");
});

it.skipIf(ai === "")("merges what is typed next with what it knows, and waits for approval", async () => {
  await session.type(await session.find("#remember-text"), "The user drinks green tea every morning.");
  await session.clickButton("Remember");
  await session.waitText(".notice", "Remembered");
  await setValue("#remember-text", "The user drinks green tea every morning with honey.");
  await session.clickButton("Remember");
  await session.waitText(".notice", "waits for you there");
  await session.waitText("nav button", "Review (1)");
  await session.clickOn("nav [data-view=review]");
  await session.waitText("article.change", "before that: The user drinks green tea every morning");
  await session.saveScreenshot("review-ai-merge");
  await session.clickButton("Approve", "article.change");
  await session.waitText(".notice", "Approved.");
  await session.clickOn("nav [data-view=latest]");
  await session.waitText("main", "with honey (before that");
});

it.skipIf(ai === "")("pictures the week, the memory's ancestry and the activity, readable and accessible", async () => {
  await session.waitText("#week-memories", "1 memory in use");
  await session.waitText("#week-added", "added this week, 1 set aside");
  await session.clickButton("Where this came from", ".memories .memory");
  await session.clickButton("Its whole history", ".memories .memory");
  await session.waitText(".ancestry", "It was built from 1 older memory.");
  await session.waitText(".ancestry .card.root", "with honey");
  await session.waitText(".ancestry button.card", "The user drinks green tea every morning.");
  await session.waitText(".ancestry button.card", "replaced");
  await session.saveScreenshot("ancestry");
  const problems = (await session.accessibilityProblems()).map((p) => `memories: ${p}`);
  // Walk to the ancestor: it becomes the root, with the way forward to what replaced it.
  await session.clickOn(".ancestry button.card");
  await session.waitText(".ancestry .card.root", "The user drinks green tea every morning.");
  await session.clickButton("See what replaced it", ".ancestry");
  await session.waitText(".ancestry .card.root", "with honey");

  await session.clickOn("nav [data-view=history]");
  await session.waitText("#activity-sentence", "decided by you");
  await session.waitText("#activity-sentence", "kept without asking");
  await session.saveScreenshot("history-activity");
  problems.push(...(await session.accessibilityProblems()).map((p) => `history: ${p}`));
  await session.clickButton("Theme: as the system");
  await session.waitText("header", "Theme: light");
  await session.clickButton("Theme: light");
  await session.waitText("header", "Theme: dark");
  problems.push(...(await session.accessibilityProblems()).map((p) => `history, dark: ${p}`));
  expect(problems).toEqual([]);
});

it.skipIf(ai === "")("keeps the key in the keyring only: not in the window, not in a file, and the CLI reads it", async () => {
  // Settings shows the key as saved in the keyring, masked, and sees no change to apply.
  await session.clickOn("nav [data-view=settings]");
  await session.waitText("#llm-key-status", `ending in …${key.slice(-4)}`);
  await session.waitText('.setting[data-key="llm.api_key"] .source', "Saved in this computer's keyring");
  expect(await session.script("return document.querySelector('.reopen').textContent;")).toBe("");
  const page = (await session.script("return document.documentElement.outerHTML;")) as string;
  expect(page).not.toContain(key);
  for (const folder of folders) {
    for (const file of files(folder)) {
      expect(readFileSync(file).includes(Buffer.from(key)), `the key is in ${file}`).toBe(false);
    }
  }
  // The command line (and so `haema mcp`) reads the key the window saved.
  const config = JSON.parse(execFileSync(cli, ["--store", store, "config", "--json"], { encoding: "utf8" })) as {
    settings: Array<{ key: string; value: string; source: string }>;
  };
  const line = config.settings.find((l) => l.key === "llm.api_key");
  expect(line?.source).toBe("keyring");
  expect(line?.value.endsWith(key.slice(-4))).toBe(true);
  expect(line?.value).not.toContain(key);
  // What the window saved is in haema.toml under the names the CLI documents.
  const model = config.settings.find((l) => l.key === "llm.model");
  expect([model?.value, model?.source]).toEqual(["gpt-e2e", "file"]);
  expect(readFileSync(join(store, "haema.toml"), "utf8")).toContain(`base_url = "${ai}/openai/v1"`);
});
