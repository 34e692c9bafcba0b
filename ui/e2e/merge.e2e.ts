// A merge made by the real pipeline (the bundled demo sample, imported into a store by
// tools/desktop-e2e.sh as HAEMA_E2E_DEMO_STORE): Review pairs each replaced memory with
// its successor and marks the changed words; approving one with an edit and rejecting
// the other work against the real store.
import { afterAll, beforeAll, expect, it } from "vitest";
import { Session } from "./webdriver";

const driver = process.env.TAURI_DRIVER_URL ?? "http://127.0.0.1:4444";
const app = process.env.HAEMA_E2E_APP ?? "";
const store = process.env.HAEMA_E2E_DEMO_STORE ?? "";
let session: Session;

beforeAll(async () => {
  if (store !== "") session = await Session.start(driver, app, ["--store", store]);
}, 30_000);

afterAll(async () => {
  await session?.end();
});

it.skipIf(store === "")("shows a real merge as before/after and decides it", async () => {
  await session.clickOn("nav [data-view=review]");
  await session.waitText("article.change", "Thursdays");
  const marks = (await session.script(
    `const card = [...document.querySelectorAll("article.change")].find((c) => c.textContent.includes("Thursdays"));
     return [[...card.querySelectorAll("[aria-label=Before] del")].map((e) => e.textContent.trim()),
             [...card.querySelectorAll("[aria-label=After] ins")].map((e) => e.textContent.trim())];`,
  )) as [string[], string[]];
  expect(marks[0].length).toBeGreaterThan(0);
  expect(marks[1].join(" ")).toContain("Thursdays");
  await session.saveScreenshot("review-merge");

  // Edit the successor of the lesson memory, then approve it with the edit.
  await session.script(
    `const card = [...document.querySelectorAll("article.change")].find((c) => c.textContent.includes("Thursdays"));
     [...card.querySelectorAll("[aria-label=After] button")].find((b) => b.textContent === "Edit").click();`,
  );
  const area = await session.find("article.change [aria-label=After] textarea");
  await session.script(`arguments[0].value = ""; arguments[0].dispatchEvent(new Event("input"));`, [{ "element-6066-11e4-a52e-4f735466cecf": area }]);
  await session.type(area, "Mr. Lee's cello lessons are on Thursdays at 17:00.");
  await session.clickButton("Approve with my edits", "article.change");
  await session.waitText(".notice", "Approved with your edits.");
  await session.clickOn("nav [data-view=search]");
  await session.type(await session.find("#search-query"), "cello lessons Thursdays");
  await session.waitText(".results li", "Mr. Lee's cello lessons are on Thursdays at 17:00.");

  // Reject the other; undo puts it back.
  await session.clickOn("nav [data-view=review]");
  await session.waitText("article.change", "Seoul");
  await session.clickButton("Reject", "article.change");
  await session.waitText(".notice", "Rejected");
  await session.clickButton("Undo", ".notice");
  await session.waitText("article.change", "Seoul");
});
