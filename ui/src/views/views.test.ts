// Every view through the real shell in jsdom, against the in-memory backend: the first
// run, memories, search and the shell around them.
import { emit } from "@tauri-apps/api/event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startApp } from "../test/app-fixture";
import { button, memory, mergeView, settle, text } from "../test/backend";

afterEach(() => vi.useRealTimers());

const start = startApp;

describe("first run", () => {
  it("explains the three kinds of memory and creates a store", async () => {
    const { root, backend } = await start((b) => (b.open = null));
    expect(text(root.querySelector("h1"))).toBe("Welcome to haema");
    expect(root.querySelectorAll(".kinds li")).toHaveLength(3);
    expect(root.querySelector<HTMLInputElement>("#first-new")?.value).toBe("/home/ann/.local/share/haema/default");
    button(root, "Start a new memory").click();
    await settle();
    expect(backend.named("open_store")[0]?.args).toEqual({ dir: "/home/ann/.local/share/haema/default", create: true });
    // The next step offers to connect an AI, and can be skipped.
    expect(text(root.querySelector("h1"))).toBe("Let your memory learn");
    expect(root.querySelector<HTMLInputElement>("#llm-service-none")?.checked).toBe(true);
    button(root, "Skip for now").click();
    await settle();
    expect(text(root.querySelector("h1"))).toBe("Things your assistant remembers");
  });

  it("opens the store of the last run without asking", async () => {
    const { root, backend } = await start((b) => {
      b.open = null;
      b.startStore = "/data/work";
    });
    expect(backend.named("open_store")[0]?.args).toEqual({ dir: "/data/work", create: false });
    expect(text(root.querySelector(".store-name"))).toBe("work");
  });

  it("says why the memory given at start cannot be opened, on the first screen", async () => {
    const { root } = await start((b) => {
      b.open = null;
      b.startProblem = "The memory given at start (postgres://db/x) cannot be opened: this build has no PostgreSQL support";
    });
    expect(text(root.querySelector("h1"))).toBe("Welcome to haema");
    expect(text(root.querySelector("[role=alert]"))).toContain("The memory given at start (postgres://db/x) cannot be opened");
  });

  it("shows a refused folder in plain words and stays", async () => {
    const { root, backend } = await start((b) => (b.open = null));
    backend.failOn.set("open_store", { kind: "not_found", message: "There is no memory in /nope." });
    root.querySelector("details")?.setAttribute("open", "");
    const field = root.querySelector<HTMLInputElement>("#first-open");
    if (field) field.value = "/nope";
    button(root, "Open").click();
    await settle();
    expect(text(root.querySelector("[role=alert]"))).toContain("There is no memory in /nope.");
    expect(text(root.querySelector("h1"))).toBe("Welcome to haema");
  });
});

describe("memories", () => {
  it("lists memories with times in words and remembers with undo", async () => {
    const { root, backend } = await start();
    const rows = root.querySelectorAll(".memories .memory");
    expect(rows).toHaveLength(2);
    expect(text(rows[0] ?? null)).toContain("The user drinks green tea");
    expect(text(rows[0] ?? null)).toContain("5 minutes ago");
    const box = root.querySelector<HTMLTextAreaElement>("#remember-text");
    if (box) box.value = "I am allergic to peanuts";
    button(root, "Remember").click();
    await settle();
    expect(backend.named("add")[0]?.args).toEqual({ text: "I am allergic to peanuts" });
    expect(text(root.querySelector(".notice"))).toContain("Remembered.");
    button(root, "Undo").click();
    await settle();
    expect(backend.named("revert")[0]?.args).toEqual({ id: 100 });
    expect(text(root.querySelector(".notice"))).toBe("Forgotten again.");
  });

  it("changes, deletes and pins a memory from its card, each with undo", async () => {
    const { root, backend } = await start();
    const first = () => root.querySelectorAll(".memories .memory")[0] ?? root;
    button(first(), "Change").click();
    const area = first().querySelector<HTMLTextAreaElement>("textarea");
    expect(area?.value).toBe("The user drinks green tea");
    if (area) area.value = "The user drinks black tea";
    button(first(), "Save").click();
    await settle();
    expect(backend.named("update_memory")[0]?.args).toEqual({ id: "a", text: "The user drinks black tea" });
    expect(text(root.querySelector(".notice"))).toContain("Changed the memory.");
    expect(text(first())).toContain("The user drinks black tea");
    button(root, "Undo").click();
    await settle();
    expect(backend.named("revert").at(-1)?.args).toEqual({ id: 100 });

    button(first(), "Pin").click();
    await settle();
    expect(backend.named("set_pinned")[0]?.args).toEqual({ id: "a-2", pinned: true });
    expect(text(first())).toContain("Pinned: nothing replaces or rewrites it without asking you.");
    expect(button(first(), "Pinned").getAttribute("aria-pressed")).toBe("true");

    button(first(), "Delete").click();
    await settle();
    expect(backend.named("delete_memory")[0]?.args).toEqual({ id: "a-2" });
    expect(text(root.querySelector(".notice"))).toContain("Deleted the memory.");
    expect(root.querySelectorAll(".memories .memory")).toHaveLength(1);
    button(root, "Undo").click();
    await settle();
    expect(text(root.querySelector(".notice"))).toBe("The memory is back.");
  });

  it("pages older memories and shows where one came from", async () => {
    const { root, backend } = await start((b) => {
      b.memories = Array.from({ length: 60 }, (_, i) => memory(`m${i}`, `memory ${i}`, i));
    });
    expect(root.querySelectorAll(".memories .memory")).toHaveLength(50);
    button(root, "Show older memories").click();
    await settle();
    expect(root.querySelectorAll(".memories .memory")).toHaveLength(60);
    expect(backend.named("latest")[1]?.args.after).toMatchObject({ id: "m49" });
    button(root, "Show older memories");
    root.querySelectorAll<HTMLButtonElement>(".memory .quiet")[0]?.click();
    await settle();
    expect(text(root.querySelector(".lineage"))).toContain("From: “I switched to black tea”");
    expect(text(root.querySelector(".lineage .access"))).toBe("Your assistant was given it 12 times by a search or recall, last 3 days ago.");
    expect(root.querySelector(".lineage ins")?.textContent).toBe("black ");
  });

  it("refreshes when another process changes the store", async () => {
    const { root, backend } = await start();
    backend.memories = [memory("z", "Added by an agent", 0), ...backend.memories];
    await emit("store-changed");
    await settle();
    expect(text(root.querySelector(".memories .memory"))).toContain("Added by an agent");
  });
});

describe("search", () => {
  it("searches after a pause, in the chosen mode, and previews recall", async () => {
    const { root, backend } = await start(undefined, "search");
    vi.useFakeTimers();
    const query = root.querySelector<HTMLInputElement>("#search-query");
    if (query) {
      query.value = "tea";
      query.dispatchEvent(new Event("input"));
      query.value = "green";
      query.dispatchEvent(new Event("input"));
    }
    expect(backend.named("search")).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(300);
    vi.useRealTimers();
    await settle();
    expect(backend.named("search").map((c) => c.args.query)).toEqual(["green"]);
    expect(text(root.querySelector(".results"))).toContain("The user drinks green tea");
    expect(text(root.querySelector(".results"))).toContain("a close match: contains the words");
    const mode = root.querySelector<HTMLSelectElement>("#search-mode");
    if (mode) {
      mode.value = "lexical";
      mode.dispatchEvent(new Event("change"));
    }
    await settle();
    expect(backend.named("search").at(-1)?.args).toEqual({ query: "green", mode: "lexical", count: 20 });
    button(root, "What would your assistant be told?").click();
    await settle();
    expect(backend.named("recall").at(-1)?.args).toEqual({ query: "green", budget: null });
    expect(text(root.querySelector(".recall"))).toContain("12 of 800 tokens");
  });
});

describe("shell", () => {
  it("switches views with Alt+digits, undoes with Ctrl+Z and shows progress", async () => {
    const { root, app } = await start();
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "4", altKey: true }));
    await settle();
    expect(app.currentView).toBe("core");
    expect(root.querySelector("nav [aria-current=page]")?.textContent).toBe("Profile");
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "z", ctrlKey: true }));
    await settle();
    expect(text(root.querySelector(".notice"))).toBe("There is nothing to undo.");
    await emit("progress", { task: "import", done: 3, total: 10, message: "Making the memories searchable…", finished: false });
    await settle();
    expect(text(root.querySelector(".progress"))).toBe("Making the memories searchable… 3 of 10");
    await emit("progress", { task: "import", done: 0, total: 0, message: "", finished: true });
    await settle();
    expect(root.querySelector<HTMLElement>(".progress")?.hidden).toBe(true);
  });

  it("keeps the tab buttons (and focus on them) through live refreshes", async () => {
    const { root, backend } = await start();
    const tab = root.querySelector<HTMLButtonElement>("nav [data-view=review]");
    tab?.focus();
    backend.waiting = [mergeView(7)];
    await emit("store-changed");
    await settle();
    expect(root.querySelector("nav [data-view=review]")).toBe(tab);
    expect(text(tab)).toBe("Review (1)");
    expect(document.activeElement).toBe(tab);
  });

  it("cycles the theme and remembers it", async () => {
    const { root } = await start();
    button(root, "Theme: as the system").click();
    expect(document.documentElement.dataset.theme).toBe("light");
    button(root, "Theme: light").click();
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(localStorage.getItem("haema.theme")).toBe("dark");
  });
});
