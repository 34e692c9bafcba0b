// The real app in its WebKit window through tauri-driver (started by the test command
// under Xvfb with HAEMA_E2E_APP and TAURI_DRIVER_URL set).
import { mkdirSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Session } from "./webdriver";

const driver = process.env.TAURI_DRIVER_URL ?? "http://127.0.0.1:4444";
const app = process.env.HAEMA_E2E_APP ?? "";
let session: Session;

beforeAll(async () => {
  session = await Session.start(driver, app);
}, 30_000);

afterAll(async () => {
  await session?.end();
});

it("opens the store and lists what the assistant remembers", async () => {
  const heading = await session.find("h1");
  expect(await session.text(heading)).toBe("Things your assistant remembers");
  const item = await session.find("li");
  expect(await session.text(item)).toContain("The user");
  mkdirSync("../docs/screenshots", { recursive: true });
  writeFileSync("../docs/screenshots/latest.png", await session.screenshot());
});
