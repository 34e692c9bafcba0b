// Issue 33 in the real window: the everyday journeys on a copy of the demo store, at
// 800×600 in the dark theme, with the keyboard only (Tab, Enter, Space, Escape, Alt+1…7,
// Ctrl+Z). No key forgets on its own; focus goes on to the next item after each action;
// Ctrl+Z undoes from the empty remember box; an undo that leaves part of the profile says
// so; search says how it works in the same words in every view and shows the profile's
// lines; History says what each change did and when it was decided. Saves screenshots.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { KEY, Session } from "./webdriver";

const driver = process.env.TAURI_DRIVER_URL ?? "http://127.0.0.1:4444";
const app = process.env.HAEMA_E2E_APP ?? "";
const cli = process.env.HAEMA_E2E_CLI ?? "";
const skip = app === "" || cli === "";
const extra = process.env.HAEMA_E2E_KEYS_EXTRA ?? "";
let session: Session;

const alt = (n: number) => KEY.alt + String(n);
const ctrlZ = KEY.control + "z";
const type = (s: Session, text: string) => s.press(...[...text]);

/** The run's own folder, removed afterwards. */
let folder = "";

beforeAll(async () => {
  if (skip) return;
  folder = mkdtempSync(join(tmpdir(), "haema-keys-"));
  const store = join(folder, "demo");
  execFileSync(cli, ["--store", store, "import", join(__dirname, "../../src-tui/assets/demo.jsonl")], { stdio: "ignore" });
  // HAEMA_E2E_KEYS_EXTRA: more memories (JSON lines, older than the demo's) for the same
  // journeys on a large store, e.g. 100,000 of them.
  if (extra !== "") execFileSync(cli, ["--store", store, "import", extra], { stdio: "ignore" });
  session = await Session.start(driver, app, ["--store", store]);
  await session.setRect(800, 600);
  await session.waitText("h1", "Things your assistant remembers");
  for (let i = 0; i < 3; i++) {
    if ((await session.script(`return document.documentElement.dataset.theme;`)) === "dark" && (await session.waitText("header", "Theme:")).includes("Theme: dark")) break;
    await session.clickOn("header .bar > button.quiet:last-child");
  }
}, extra === "" ? 60_000 : 900_000);

afterAll(async () => {
  await session?.end();
  if (folder !== "") rmSync(folder, { recursive: true, force: true });
}, 120_000);

it.skipIf(skip)("says how search works in one set of words, and finds the profile's line about food", async () => {
  await session.press(alt(2));
  await session.waitText("h1", "Find a memory");
  await session.waitFocused("#search-query");
  const status = (await session.waitText("#search-status", "Search finds memories")).trim();
  expect(status).toContain("by their words only");
  expect(await session.script(`return document.querySelector("#search-mode option[value=vector]").disabled;`)).toBe(true);
  await type(session, "food");
  await session.waitText("#search-count", "1 line of the profile has these words.");
  expect(await session.waitText(".profile-hits li", "Peanuts are a hard no in any food suggestion.")).toContain("Profile · Rules");
  await session.saveScreenshot("search-profile");

  // What the assistant would be told, readable: no tags, no Markdown outside the exact block.
  await session.tabTo(".view > .actions > button", 60);
  await session.press(KEY.enter);
  await session.waitText(".recall", "Always: the profile");
  const shown = (await session.script(
    `return [...document.querySelector(".recall").children].filter((c) => c.tagName !== "DETAILS").map((c) => c.textContent).join("\\n");`,
  )) as string;
  expect(shown).not.toMatch(/<memory|<core>|\*\*|^#/m);

  for (const [n, where] of [[6, "main"], [7, "#embedder-now"]] as const) {
    await session.press(alt(n));
    expect(await session.waitText(where, "Search finds memories")).toContain(status);
  }
  expect(await session.script(`return document.querySelector("main").textContent.includes("nothing waits for review");`)).toBe(false);
}, 120_000);

it.skipIf(skip)("approves and rejects with Enter, focus on the next change, and Ctrl+Z takes the rejection back", async () => {
  await session.press(alt(3));
  await session.waitText("article.change", "Thursdays");
  await session.tabTo("article.change [data-action=approve]");
  const first = (await session.focused()).row;
  await session.press(KEY.enter);
  await session.waitText(".notice", "Approved");
  await session.waitFocused(`article.change:not([data-key="${first}"]) [data-action=approve]`);
  const after = await session.focused();
  expect(after.action).toBe("approve");
  expect(after.row).not.toBe(first);
  await session.tabTo("article.change [data-action=reject]");
  await session.press(KEY.enter);
  await session.waitText(".notice", "Undo puts it back in Review");
  await session.waitFocused("#review-list");
  await session.press(ctrlZ);
  await session.waitText(".notice", "The change is waiting for you again.");
  await session.waitText("article.change", "Reject");
  await session.saveScreenshot("review-keys-dark");
}, 120_000);

it.skipIf(skip)("edits the profile, then undoes an old change: the notice and History say the profile part stayed", async () => {
  await session.press(alt(4));
  await session.tabTo("#core-user-editbtn");
  await session.press(KEY.enter);
  await session.waitFocused("#core-user-edit");
  await session.press(KEY.control + KEY.end);
  await type(session, `${KEY.enter}- Drinks water at rehearsals.`);
  await session.press(KEY.control + KEY.enter);
  await session.waitText(".notice", "Saved “About you”");
  await session.waitFocused("#core-user-editbtn");
  // A lock that is on is ticked and outlined, unlike the main button; Ctrl+Z takes it back.
  await session.tabTo("#core-user-lock", 5);
  await session.press(KEY.enter);
  await session.waitText("#core-user-lock", "Locked");
  await session.saveScreenshot("profile-locked-dark");
  await session.press(ctrlZ);
  await session.waitText(".notice", "Unlocked “About you” again.");

  await session.press(alt(5));
  const title = await session.waitText(".history [data-key='16'] h2", "and updated the profile");
  expect(title).toContain("Replaced “");
  expect(await session.waitText(".history [data-key='16'] .meta", "You approved it")).toContain("·");
  await session.tabTo(".history [data-key='16'] [data-action=undo]", 200);
  await session.press(KEY.enter);
  await session.waitText(".notice", "Partly undone. The profile's “About you” was not put back");
  await session.waitText(".history [data-key='16'] .partly", "Undone only in part.");
  await session.saveScreenshot("history-partly-undone");

  // Ctrl+Z from the Memories view, where focus is in the empty remember box.
  await session.press(alt(1));
  await session.waitFocused("#remember-text");
  await session.press(ctrlZ);
  await session.waitText(".notice", "The change is back.");
}, 120_000);

it.skipIf(skip)("deletes with Enter and undoes with Ctrl+Z; Forget needs “I understand”, and Enter alone never forgets", async () => {
  await session.press(alt(1));
  await session.tabTo("#latest-list [data-action=delete]");
  const gone = (await session.focused()).row;
  await session.press(KEY.enter);
  await session.waitText(".notice", "Deleted the memory.");
  await session.waitFocused(`#latest-list [data-row]:not([data-key="${gone}"]) [data-action=delete]`);
  const next = await session.focused();
  expect(next.action).toBe("delete");
  expect(next.row).not.toBe(gone);
  await session.press(ctrlZ);
  await session.waitText(".notice", "The memory is back.");

  await session.tabTo("#latest-list [data-action=forget]");
  const target = (await session.focused()).row;
  await session.press(KEY.enter);
  await session.waitText("#forget-dialog", "cannot be undone");
  expect((await session.focused()).id).toBe("forget-keep");
  await session.saveScreenshot("forget-dark");
  await session.press(KEY.enter);
  await session.waitText(".notice", "Nothing was forgotten.");

  // A click on the dialog's text, then Escape: still closes, keeping everything.
  await session.press(KEY.enter);
  await session.clickOn("#forget-count");
  await session.press(KEY.escape);
  await session.waitText(".notice", "Nothing was forgotten.");
  expect(await session.script(`return document.querySelector("#forget-dialog") === null;`)).toBe(true);

  await session.press(KEY.enter);
  await session.waitText("#forget-dialog", "cannot be undone");
  await session.press(KEY.shift + KEY.tab);
  expect((await session.focused()).id).toBe("forget-sure");
  await session.press(KEY.enter);
  expect(await session.script(`return document.querySelector("#forget-confirm").disabled;`)).toBe(true);
  await session.press(KEY.space);
  await session.tabTo("#forget-confirm", 4);
  await session.press(KEY.enter);
  await session.waitText(".notice", "Forgotten for good:");
  await session.waitFocused(`#latest-list [data-row]:not([data-key="${target}"]) [data-action=forget]`);
  const then = await session.focused();
  expect(then.action).toBe("forget");
  expect(then.row).not.toBe(target);
}, 120_000);

it.skipIf(skip)("keeps the title and the count of “Forget everything that mentions…” in view", async () => {
  await session.press(alt(2));
  // The view keeps the last search's words ("food") and its count: the keys go to the
  // search box only once it has focus, and the count read is the one for "Busan".
  await session.waitFocused("#search-query");
  await session.press(KEY.control + "a");
  await type(session, "Busan");
  expect(await session.script(`return document.querySelector("#search-query").value;`)).toBe("Busan");
  await session.waitText("#search-results", "Busan");
  await session.waitText("#search-count", "1 memory found.");
  await session.tabTo("#search-forget");
  await session.press(KEY.enter);
  await session.waitText("#forget-count", "for good:");
  const visible = await session.script(
    `document.querySelector(".dialog-body").scrollTop = 1e6;
     const d = document.querySelector("#forget-dialog").getBoundingClientRect();
     const t = document.querySelector("#forget-title").getBoundingClientRect();
     return t.top >= d.top && t.bottom <= d.bottom;`,
  );
  expect(visible).toBe(true);
  await session.saveScreenshot("forget-phrase");
  await session.press(KEY.escape);
}, 120_000);

it.skipIf(skip)("says which memory a details form edits, and Delete and Forget look different", async () => {
  await session.press(alt(1));
  await session.tabTo("#latest-list [data-action=attributes]");
  await session.press(KEY.enter);
  expect(await session.waitText(".attributes-form .form-title", "Details of “")).toMatch(/^Details of “.+”$/);
  await session.saveScreenshot("details-form");
  await session.press(KEY.escape);
  expect((await session.focused()).action).toBe("attributes");
  const looks = (await session.script(
    `const card = document.querySelector("#latest-list .memory");
     const style = (b) => getComputedStyle(b).color + getComputedStyle(b).borderColor;
     return [style(card.querySelector("[data-action=delete]")), style(card.querySelector("[data-action=forget]"))];`,
  )) as [string, string];
  expect(looks[0]).not.toBe(looks[1]);
  await session.saveScreenshot("memories-dark");
}, 120_000);
