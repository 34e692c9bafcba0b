// The embedding model on first use, in the real window: a new memory opens at once and
// works by words, the model comes from a Hugging Face Hub on 127.0.0.1 (e2e/fakehub.mjs)
// with a progress bar, and search then finds memories by meaning. tools/desktop-e2e.sh runs
// it in a session of its own, with HF_ENDPOINT set, fresh folders and HAEMA_REVIEW=auto.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Session } from "./webdriver";

const driver = process.env.TAURI_DRIVER_URL ?? "http://127.0.0.1:4444";
const app = process.env.HAEMA_E2E_APP ?? "";
const hub = process.env.HAEMA_E2E_HUB ?? "";

describe.skipIf(hub === "")("the embedding model on first use", () => {
  let session: Session;

  beforeAll(async () => {
    session = await Session.start(driver, app);
  }, 30_000);

  afterAll(async () => {
    await session?.end();
  });

  it("downloads the model in the background with a progress bar", async () => {
    expect(await session.waitText("h1", "Welcome to haema")).toBe("Welcome to haema");
    await session.clickOn("#first-start");
    await session.waitText("h1", "Let your memory learn");
    await session.clickButton("Skip for now");
    await session.waitText("h1", "Things your assistant remembers");
    await session.waitText(".progress", "Downloading the model that lets search understand meaning", 15_000);
    await session.saveScreenshot("model-download");
    // The progress bar goes once the model is there and the store is opened again with it.
    const deadline = Date.now() + 60_000;
    while (
      (await session.script("return document.querySelector('.progress')?.hidden ?? true;")) !== true &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await session.script("return document.querySelector('.progress')?.hidden ?? true;")).toBe(true);
  }, 90_000);

  it("then finds a memory by its meaning, with no word in common", async () => {
    await session.type(await session.find("#remember-text"), "I am allergic to peanuts.");
    await session.clickButton("Remember");
    await session.waitText(".memories", "allergic to peanuts", 15_000);
    await session.clickOn("nav [data-view=search]");
    await session.type(await session.find("#search-query"), "food allergy");
    const found = await session.waitText(".results li", "allergic to peanuts", 15_000);
    expect(found).toContain("meaning");
    await session.saveScreenshot("search-by-meaning");
  }, 60_000);
});
