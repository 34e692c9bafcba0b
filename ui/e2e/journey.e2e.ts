// The real app in its WebKit window through tauri-driver under Xvfb (started by
// tools/desktop-e2e.sh with fresh XDG folders and HAEMA_REVIEW=review, so every new memory
// waits for a person): first run → add → review → approve → search → edit the profile →
// undo from the history. Saves screenshots for the README.
import { mkdirSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Session } from "./webdriver";

const driver = process.env.TAURI_DRIVER_URL ?? "http://127.0.0.1:4444";
const app = process.env.HAEMA_E2E_APP ?? "";
const shots = process.env.HAEMA_E2E_SCREENSHOTS ?? "../docs/screenshots";
let session: Session;

async function shot(name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  writeFileSync(`${shots}/${name}.png`, await session.screenshot());
}

beforeAll(async () => {
  session = await Session.start(driver, app);
}, 30_000);

afterAll(async () => {
  await session?.end();
});

it("welcomes a new user and creates the default memory", async () => {
  expect(await session.waitText("h1", "Welcome to haema")).toBe("Welcome to haema");
  await session.waitText(".kinds", "Long-term");
  await shot("first-run");
  await session.click(await session.find("#first-start"));
  await session.waitText("h1", "Things your assistant remembers");
});

it("adds a memory, which waits for review, and approves it", async () => {
  const box = await session.find("#remember-text");
  await session.type(box, "I am allergic to peanuts and cook with sesame oil instead.");
  await session.clickButton("Remember");
  await session.waitText(".notice", "waits for you there");
  await session.waitText("nav button", "Review (1)");
  await session.click(await session.find("nav [data-view=review]"));
  await session.waitText("article.change", "allergic to peanuts");
  await session.waitText("article.change ins", "peanuts");
  await shot("review");
  await session.clickButton("Approve", "article.change");
  await session.waitText(".notice", "Approved.");
  await session.waitText("#review-title + p", "Nothing is waiting");
});

it("finds the approved memory by searching", async () => {
  await session.click(await session.find("nav [data-view=search]"));
  await session.type(await session.find("#search-query"), "peanuts");
  await session.waitText(".results li", "allergic to peanuts");
  await shot("search");
});

it("edits a profile section and locks it", async () => {
  await session.click(await session.find("nav [data-view=core]"));
  await session.click(await session.find("#core-user-editbtn"));
  await session.type(await session.find("#core-user-edit"), "- Allergic to peanuts.");
  await session.click(await session.find("#core-user-save"));
  await session.waitText(".notice", "Saved “About you”.");
  await session.waitText("[aria-labelledby=core-user-title]", "Allergic to peanuts.");
  await session.click(await session.find("#core-user-lock"));
  await session.waitText("[aria-labelledby=core-user-title] h2", "locked");
  await shot("profile");
});

it("undoes the approved change from the history", async () => {
  await session.click(await session.find("nav [data-view=history]"));
  await session.waitText(".history > li", "You approved it");
  await session.clickButton("Undo this change", ".history > li");
  await session.waitText(".notice", "Undone.");
  await session.waitText(".history > li", "Undid an earlier change");
  await shot("history");
  await session.click(await session.find("nav [data-view=latest]"));
  await session.waitText(".memories", "Nothing yet.");
});
