// A memory that keeps each person's memories apart (scope = "per_user", made by
// tools/desktop-e2e.sh as HAEMA_E2E_TEAM_STORE with one memory of Ann's and one of Bob's):
// the real window asks whose memories first and shows nothing before, then shows only the
// chosen person's memories, in the list and in search, and switches to another person.
import { afterAll, beforeAll, expect, it } from "vitest";
import { Session } from "./webdriver";

const driver = process.env.TAURI_DRIVER_URL ?? "http://127.0.0.1:4444";
const app = process.env.HAEMA_E2E_APP ?? "";
const store = process.env.HAEMA_E2E_TEAM_STORE ?? "";
let session: Session;

beforeAll(async () => {
  if (store !== "") session = await Session.start(driver, app, ["--store", store]);
}, 30_000);

afterAll(async () => {
  await session?.end();
});

const page = async (): Promise<string> => (await session.script("return document.body.innerText;")) as string;

async function choose(person: string): Promise<void> {
  const input = await session.find("#person-id");
  await session.script(`arguments[0].value = "";`, [{ "element-6066-11e4-a52e-4f735466cecf": input }]);
  await session.type(input, person);
  await session.clickButton("Show their memories");
}

it.skipIf(store === "")("asks whose memories, then shows only that person's", async () => {
  await session.waitText("#person-title", "Whose memories?");
  expect(await page()).not.toMatch(/lighthouse|harbour/);

  await choose("ann");
  await session.waitText("main", "lighthouse survey");
  await session.waitText("#person-button", "Person: ann");
  expect(await page()).not.toContain("harbour");

  await session.clickOn("nav [data-view=search]");
  await session.type(await session.find("#search-query"), "project");
  await session.waitText(".results li", "lighthouse survey");
  expect(await page()).not.toContain("harbour");

  await session.clickOn("#person-button");
  await choose("bob");
  await session.waitText("#person-button", "Person: bob");
  await session.waitText("main", "harbour crane");
  expect(await page()).not.toContain("lighthouse");
});
