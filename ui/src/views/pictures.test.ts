// The pictures in jsdom against the in-memory backend: the History's activity per day with
// its sentence, legend and table; the Memories' week at a glance; a memory's whole history
// as a tree walked by its buttons.
import { emit } from "@tauri-apps/api/event";
import { describe, expect, it } from "vitest";
import { startApp } from "../test/app-fixture";
import { button, NOW, settle, text } from "../test/backend";
import { activityDays, activitySentence, madeWords } from "../logic/pictures";


describe("pictures", () => {
  it("draws the last 30 days of changes by who decided, and says it in words", async () => {
    const started = await startApp(undefined, "history");
    const { root } = started;
    const figure = root.querySelector("#activity");
    expect(text(figure?.querySelector("h2") ?? null)).toBe("The last 30 days");
    expect(text(root.querySelector("#activity-sentence"))).toMatch(
      /^In the last 30 days, 4 changes: 2 decided by you, 1 kept without asking, 1 waiting for you\. The busiest day was .+, with 2\.$/,
    );
    const chart = root.querySelector("svg.activity-chart");
    expect(chart?.getAttribute("role")).toBe("img");
    expect(chart?.getAttribute("aria-labelledby")).toBe("activity-sentence");
    expect(chart?.querySelectorAll("rect")).toHaveLength(4);
    expect(chart?.querySelectorAll("g")).toHaveLength(30);
    expect([...root.querySelectorAll(".legend li")].map((li) => text(li))).toEqual([
      "Decided by you",
      "Kept without asking",
      "Imported",
      "Undone",
      "Waiting for you",
    ]);
    expect(root.querySelectorAll(".activity tbody tr")).toHaveLength(2);
  });

  it("shows the week at a glance above the memories", async () => {
    const started = await startApp();
    const { root } = started;
    expect(text(root.querySelector("#week-memories"))).toBe("2 memories in use");
    expect(text(root.querySelector("#week-waiting"))).toBe("1 change waits for you");
    expect(text(root.querySelector("#week-added"))).toBe("+3 added this week, 1 set aside");
    expect(text(root.querySelector("#week-profile"))).toBe("4 lines of the profile changed this week, in 2 new versions");
  });

  it("shows a memory's whole history as a tree, walked with its buttons and Back", async () => {
    const started = await startApp();
    const { root } = started;
    button(root, "Where this came from").click();
    await settle();
    button(root, "Its whole history").click();
    await settle();
    const tree = root.querySelector(".ancestry");
    expect(text(tree?.querySelector(".meta") ?? null)).toContain("It was built from 3 older memories.");
    const cards = [...(tree?.querySelectorAll(".card .text") ?? [])].map((c) => text(c));
    expect(cards).toEqual(["The user drinks green tea", "The user drinks tea", "The user likes warm drinks", "The user likes green things"]);
    expect(tree?.querySelectorAll(":scope .tree > li > ul > li")).toHaveLength(2);
    // Walk to an ancestor: it becomes the root, with what it was made from and a way back.
    const tea = [...(tree?.querySelectorAll<HTMLButtonElement>("button.card") ?? [])].find((b) => text(b).startsWith("The user drinks tea"));
    tea?.click();
    await settle();
    expect(text(root.querySelector(".ancestry .card.root .text"))).toBe("The user drinks tea");
    expect(text(root.querySelector(".ancestry .card.root .meta"))).toContain("replaced");
    button(root.querySelector(".ancestry") ?? root, "Back").click();
    await settle();
    expect(text(root.querySelector(".ancestry .card.root .text"))).toBe("The user drinks green tea");
    // A live refresh keeps the card as the person left it, history open.
    await emit("store-changed");
    await settle();
    expect(text(root.querySelector(".ancestry .card.root .text"))).toBe("The user drinks green tea");
  });
});

describe("pictures, in words", () => {
  it("counts days in local time and words an empty month and a merge", () => {
    const days = activityDays([{ at_ms: NOW, who: "import" }, { at_ms: NOW - 40 * 86_400_000, who: "you" }], NOW, 30);
    expect(days).toHaveLength(30);
    expect(days[29].counts.import).toBe(1);
    expect(days.reduce((n, d) => n + d.total, 0)).toBe(1);
    expect(activitySentence(activityDays([], NOW, 7))).toBe("Nothing changed in the last 7 days.");
    const node = {
      memory: { id: "x" } as never,
      made_by: { changeset: 1, kind: "add" as const, decided_by: "auto" as const, at_ms: NOW - 3 * 86_400_000 },
      parents: ["a", "b"],
      successors: [],
    };
    expect(madeWords(node, NOW)).toBe("Merged from 2 memories, 3 days ago (kept without asking)");
  });
});
