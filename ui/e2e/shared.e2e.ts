// One memory shared by two machines through PostgreSQL (tools/desktop-e2e.sh, when the
// PostgreSQL test server runs): this window is machine A, whose own config.toml names the
// store (`store = "postgres://…"`); machine B is the `haema` CLI with folders of its own.
// What B adds shows here without a reload (LISTEN/NOTIFY), a change B proposes is approved
// in this window and B sees it committed, and a profile edit goes both ways.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Session } from "./webdriver";

const driver = process.env.TAURI_DRIVER_URL ?? "http://127.0.0.1:4444";
const app = process.env.HAEMA_E2E_APP ?? "";
const cli = process.env.HAEMA_E2E_CLI ?? "";
const url = process.env.HAEMA_E2E_PG_STORE ?? "";
const other = process.env.HAEMA_E2E_OTHER_MACHINE ?? "";
const skip = url === "" || other === "" || cli === "";
let session: Session;

/** The CLI on machine B: its own data and configuration folders, the same store. */
function machineB(args: string[], review = "auto", input?: string): string {
  return execFileSync(cli, args, {
    encoding: "utf8",
    input,
    env: {
      ...process.env,
      XDG_DATA_HOME: `${other}/data`,
      XDG_CONFIG_HOME: `${other}/config`,
      HAEMA_STORE: url,
      HAEMA_REVIEW: review,
    },
  });
}

const contents = (json: string): string[] => (JSON.parse(json) as { content: string }[]).map((m) => m.content);

beforeAll(async () => {
  if (skip) return;
  machineB(["add", "--items", "The deploy key rotates on Mondays."]);
  // No --store: the app opens the store its config.toml names.
  session = await Session.start(driver, app);
}, 30_000);

afterAll(async () => {
  await session?.end();
});

it.skipIf(skip)("opens the store config.toml names and says which it is", async () => {
  const schema = /schema=([a-z0-9_]+)/.exec(url)?.[1] ?? "";
  await session.waitText(".store-name", `${schema} in haema_test on 127.0.0.1`);
  await session.waitText("main", "The deploy key rotates on Mondays.");
  await session.clickOn("nav [data-view=stores]");
  await session.waitText(".stores li", "open now");
  const path = (await session.script("return document.querySelector('.stores li .path').textContent;")) as string;
  expect(path).toMatch(/^postgres:\/\/haema@127\.0\.0\.1:\d+\/haema_test\?schema=/);
  expect(path).not.toContain("haema-test");
});

it.skipIf(skip)("shows what another machine adds, live, and approves its proposal here", async () => {
  await session.clickOn("nav [data-view=latest]");
  machineB(["add", "--items", "The staging database moves to Frankfurt in March."], "review");
  await session.waitText("nav button", "Review (1)", 10_000);
  await session.clickOn("nav [data-view=review]");
  await session.waitText("article.change", "Frankfurt");
  await session.saveScreenshot("shared-store-review");
  await session.clickButton("Approve", "article.change");
  await session.waitText(".notice", "Approved");
  // Machine B sees it committed.
  expect(contents(machineB(["latest", "--json"]))).toContain("The staging database moves to Frankfurt in March.");
  expect(JSON.parse(machineB(["review", "list", "--json"]))).toEqual([]);

  machineB(["add", "--items", "Ann owns the incident runbook."]);
  await session.clickOn("nav [data-view=latest]");
  await session.waitText("main", "Ann owns the incident runbook.", 10_000);
  await session.clickOn("nav [data-view=search]");
  await session.type(await session.find("#search-query"), "Frankfurt staging");
  await session.waitText(".results li", "Frankfurt");
});

it.skipIf(skip)("shares the profile both ways", async () => {
  machineB(["core", "set", "USER", "--file", "-"], "auto", "Ann leads the platform team.\n");
  await session.clickOn("nav [data-view=core]");
  await session.waitText("main", "Ann leads the platform team.", 10_000);
  await session.clickOn("#core-rule-editbtn");
  const area = await session.find("#core-rule-edit");
  await session.type(area, "Never rotate keys on a Friday.");
  await session.clickOn("#core-rule-save");
  await session.waitText("#core-rule-title", "");
  await session.waitText("main", "Never rotate keys on a Friday.");
  const sections = JSON.parse(machineB(["core", "sections", "--json"])) as Record<string, string>;
  expect(sections.RULE).toContain("Never rotate keys on a Friday.");
  expect(sections.USER).toContain("Ann leads the platform team.");
});
