// Every view through the real shell in jsdom, against the in-memory backend.
import { emit } from "@tauri-apps/api/event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startApp } from "../test/app-fixture";
import { Backend, button, memory, mergeView, settle, text } from "../test/backend";

let backend: Backend | undefined;
afterEach(() => {
  backend?.stop();
  vi.useRealTimers();
});

async function start(...args: Parameters<typeof startApp>) {
  const started = await startApp(...args);
  backend = started.backend;
  return started;
}

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

describe("review", () => {
  it("shows each change as before/after with the changed words marked", async () => {
    const { root } = await start((b) => (b.waiting = [mergeView(7)]), "review");
    expect(text(root.querySelector("nav [data-view=review]"))).toBe("Review (1)");
    const card = root.querySelector("article.change");
    expect(text(card?.querySelector("h2") ?? null)).toBe("Replace “The user drinks green tea” with “The user drinks black tea” and 1 more");
    expect(card?.querySelector("[aria-label=Before] del")?.textContent).toBe("green ");
    expect(card?.querySelector("[aria-label=After] ins")?.textContent).toBe("black ");
    expect(text(card)).not.toContain("p1");
  });

  it("approves one memory edited, one left out and the old one kept; undo reverts", async () => {
    const { root, backend } = await start((b) => (b.waiting = [mergeView(7)]), "review");
    const card = () => root.querySelector("article.change") as HTMLElement;
    button(card().querySelectorAll("li")[1] as HTMLElement, "Edit").click();
    const area = card().querySelector<HTMLTextAreaElement>("textarea");
    if (area) {
      area.value = "The user drinks black tea, no sugar";
      area.dispatchEvent(new Event("input"));
      area.dispatchEvent(new Event("change"));
    }
    button(card().querySelectorAll("[aria-label=After] li")[1] as HTMLElement, "Leave out").click();
    card().querySelector<HTMLInputElement>("input[type=checkbox]")?.click();
    expect(text(card())).toContain("Saves 2 memories as you edited them.");
    button(card(), "Approve with my edits").click();
    await settle();
    expect(backend.named("approve_edited")[0]?.args).toEqual({
      id: 7,
      memories: ["The user drinks black tea, no sugar", "The user drinks green tea"],
    });
    expect(text(root.querySelector(".notice"))).toContain("Approved with your edits.");
    button(root, "Undo").click();
    await settle();
    expect(backend.named("revert")[0]?.args).toEqual({ id: 7 });
  });

  it("rejects with undo that puts the change back, and approves all", async () => {
    const { root, backend } = await start((b) => (b.waiting = [mergeView(7), mergeView(8), mergeView(9)]), "review");
    button(root.querySelector("article.change") as HTMLElement, "Reject").click();
    await settle();
    expect(backend.named("reject")[0]?.args).toEqual({ id: 7 });
    button(root, "Undo").click();
    await settle();
    expect(backend.named("reopen")[0]?.args).toEqual({ id: 7 });
    button(root, "Approve all as suggested").click();
    await settle();
    expect(backend.named("approve").map((c) => c.args.id)).toEqual([8, 9]);
    expect(text(root.querySelector(".changes"))).toBe("");
    expect(text(root.querySelector("#review-title + p"))).toContain("Nothing is waiting");
  });

  it("offers to build an out-of-date change again", async () => {
    const stale = mergeView(4);
    stale.changeset.status = "stale";
    const { root, backend } = await start((b) => (b.waiting = [stale]), "review");
    expect(text(root)).toContain("This change is out of date");
    button(root, "Build it again").click();
    await settle();
    expect(backend.named("rerun")[0]?.args).toEqual({ id: 4 });
  });

  it("offers the error's own way out as a button: a change found stale on approval is built again", async () => {
    const { root, backend } = await start((b) => {
      b.waiting = [mergeView(6)];
      b.failOn.set("approve", {
        kind: "stale",
        message: "This change is out of date.",
        remedy: { action: "rerun", changeset: 6 },
      });
    }, "review");
    button(root, "Approve").click();
    await settle();
    expect(text(root.querySelector("[role=alert]") ?? root)).toContain("This change is out of date.");
    backend.failOn.delete("approve");
    button(root, "Build it again").click();
    await settle();
    expect(backend.named("rerun")[0]?.args).toEqual({ id: 6 });
  });
});

describe("profile", () => {
  it("edits a section with undo, locks it, and goes back to an earlier text", async () => {
    const { root, backend } = await start((b) => {
      b.sectionHistory = [
        { version_id: 3, created_at_ms: 0, author: "user", changeset_id: null, text: "- Likes jazz.", diff: [{ change: "added", text: "- Likes jazz." }] },
        { version_id: 1, created_at_ms: 0, author: "initial", changeset_id: null, text: "", diff: [] },
      ];
    }, "core");
    const user = () => root.querySelector("[aria-labelledby=core-user-title]") as HTMLElement;
    expect(text(user().querySelector("h2"))).toBe("About you");
    button(user(), "Edit").click();
    const area = user().querySelector("textarea");
    if (area) {
      area.value = "- Likes jazz.\n- Plays cello.";
      area.dispatchEvent(new Event("input"));
    }
    button(user(), "Save").click();
    await settle();
    expect(backend.named("set_section")[0]?.args).toEqual({ section: "USER", text: "- Likes jazz.\n- Plays cello." });
    expect(text(user())).toContain("Plays cello.");
    button(root, "Undo").click();
    await settle();
    expect(backend.named("set_section")[1]?.args).toEqual({ section: "USER", text: "- Likes jazz." });

    button(user(), "Lock").click();
    await settle();
    expect(backend.named("set_lock")[0]?.args).toEqual({ section: "USER", locked: true });
    expect(user().querySelector("[aria-pressed=true]")).not.toBeNull();

    button(user(), "Earlier versions").click();
    await settle();
    button(user(), "Go back to this").click();
    await settle();
    expect(backend.named("set_section")[2]?.args).toEqual({ section: "USER", text: "" });
  });

  it("Escape cancels an edit without saving", async () => {
    const { root, backend } = await start(undefined, "core");
    const soul = root.querySelector("[aria-labelledby=core-soul-title]") as HTMLElement;
    button(soul, "Edit").click();
    root.querySelector("#core-soul-edit")?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
    await settle();
    expect(root.querySelector("[aria-labelledby=core-soul-title] textarea")).toBeNull();
    expect(backend.named("set_section")).toHaveLength(0);
  });
});

describe("history", () => {
  it("words each change and undoes a saved one or looks at a rejected one again", async () => {
    const saved = mergeView(5);
    saved.changeset.status = "committed";
    saved.changeset.decided_by = "user";
    const rejected = mergeView(6);
    rejected.changeset.status = "rejected";
    rejected.changeset.decided_by = "user";
    const { root, backend } = await start((b) => (b.history = [rejected, saved]), "history");
    const rows = root.querySelectorAll(".history > li");
    expect(text(rows[0] ?? null)).toContain("You said no");
    expect(text(rows[1] ?? null)).toContain("You approved it");
    button(rows[1] as HTMLElement, "Undo this change").click();
    await settle();
    expect(backend.named("revert")[0]?.args).toEqual({ id: 5 });
    button(root.querySelectorAll(".history > li")[0] as HTMLElement, "Look at it again").click();
    await settle();
    expect(backend.named("reopen")[0]?.args).toEqual({ id: 6 });
    button(root, "Undo").click();
    await settle();
    expect(backend.named("reject")[0]?.args).toEqual({ id: 6 });
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
    expect(text(root.querySelector(".recall"))).toContain("12 of 800 tokens");
  });
});

describe("forget", () => {
  it("asks with the memory's own words, keeps everything on Escape, and forgets for good on confirm", async () => {
    const { root, backend } = await start(undefined, "latest");
    const card = [...root.querySelectorAll(".memory")].find((li) => text(li).includes("lives in Oslo"));
    if (!card) throw new Error("no Oslo card");
    button(card, "Forget for good…").click();
    await settle();
    const dialog = document.querySelector<HTMLElement>("#forget-dialog");
    expect(dialog?.getAttribute("role")).toBe("alertdialog");
    expect(text(dialog)).toContain("Forget this memory for good?");
    expect(text(dialog)).toContain("The user lives in Oslo");
    expect(text(card)).toContain("Fact · importance 0.9 · from onboarding · city: Oslo");
    expect(text(dialog)).toContain("cannot be undone");
    expect(document.activeElement?.id).toBe("forget-keep");
    // "Forget for good" is off until "I understand" is ticked: Tab goes past it.
    dialog?.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab", bubbles: true }));
    expect(document.activeElement?.id).toBe("forget-sure");
    dialog?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    await settle();
    expect(document.querySelector("#forget-dialog")).toBeNull();
    expect(backend.named("forget")).toHaveLength(0);
    expect(text(root.querySelector(".notice"))).toContain("Nothing was forgotten");

    button(card, "Forget for good…").click();
    await settle();
    document.querySelector<HTMLInputElement>("#forget-sure")?.click();
    document.querySelector<HTMLButtonElement>("#forget-confirm")?.click();
    await settle();
    expect(backend.named("forget").map((c) => c.args.request)).toEqual([{ memory_ids: ["b"], mentioning: null }]);
    expect(text(root.querySelector(".notice"))).toContain("Forgotten for good: 1 memory");
    expect(text(root.querySelector(".notice"))).not.toContain("Undo");
    expect(text(root.querySelector(".memories"))).not.toContain("Oslo");
  });

  it("forgets everything that mentions a phrase from the settings, and says when nothing does", async () => {
    const { root, backend } = await start(undefined, "settings");
    const phrase = root.querySelector<HTMLInputElement>("#settings-forget-phrase");
    if (!phrase) throw new Error("no phrase field");
    phrase.value = "elm street";
    button(root, "Forget everything that mentions it for good…").click();
    await settle();
    expect(document.querySelector("#forget-dialog")).toBeNull();
    expect(text(root.querySelector(".notice"))).toContain("Nothing mentions “elm street”");
    expect(backend.named("forget")).toHaveLength(0);

    phrase.value = "GREEN tea";
    button(root, "Forget everything that mentions it for good…").click();
    await settle();
    expect(text(document.querySelector("#forget-dialog"))).toContain("Forget everything that mentions “GREEN tea”?");
    document.querySelector<HTMLInputElement>("#forget-sure")?.click();
    document.querySelector<HTMLButtonElement>("#forget-confirm")?.click();
    await settle();
    expect(backend.named("forget").at(-1)?.args.request).toEqual({ memory_ids: [], mentioning: "GREEN tea" });
    expect(phrase.value).toBe("");
  });
});

describe("stores", () => {
  it("lists stores and opens another with undo back", async () => {
    const { root, backend } = await start((b) => {
      b.stores = [
        { dir: "/home/ann/.local/share/haema/default", info: b.open, error: null, open: true },
        { dir: "/home/ann/.local/share/haema/work", info: { ...b.open!, dir: "/home/ann/.local/share/haema/work", location: "/home/ann/.local/share/haema/work", active: 12 }, error: null, open: false },
        { dir: "/home/ann/.local/share/haema/broken", info: null, error: "schema too new", open: false },
        {
          dir: "/home/ann/.local/share/haema/pg-agents_db.example_5432_team_haema",
          info: { ...b.open!, dir: "/home/ann/.local/share/haema/pg-agents_db.example_5432_team_haema", location: "postgres://agents@db.example:5432/team?schema=haema", active: 40 },
          error: null,
          open: false,
        },
      ];
    }, "stores");
    const rows = root.querySelectorAll(".stores > li");
    expect(text(rows[1] ?? null)).toContain("12 memories");
    expect(text(rows[2] ?? null)).toContain("Cannot be read: schema too new");
    // A shared store is named by its URL, not by its link folder.
    expect(text(rows[3]?.querySelector("h2") ?? null)).toBe("haema in team on db.example");
    expect(text(rows[3]?.querySelector(".path") ?? null)).toBe("postgres://agents@db.example:5432/team?schema=haema");
    button(rows[1] as HTMLElement, "Open").click();
    await settle();
    expect(backend.named("open_store")[0]?.args).toEqual({ dir: "/home/ann/.local/share/haema/work", create: false });
    expect(text(root.querySelector(".store-name"))).toBe("work");
    button(root, "Undo").click();
    await settle();
    expect(backend.named("open_store")[1]?.args).toEqual({ dir: "/home/ann/.local/share/haema/default", create: false });
  });

  it("imports a chosen file with undo", async () => {
    const { backend } = await start();
    const { importText } = await import("../logic/actions");
    const result = await importText("notes.jsonl", '{"content":"a"}');
    expect(backend.named("import_file")[0]?.args).toEqual({ name: "notes.jsonl", text: '{"content":"a"}' });
    expect(typeof result === "string" ? result : result.done).toBe("Brought in 3 memories from notes.jsonl (1 already known)");
  });

  it("says what an import held for review and which secrets it replaced", async () => {
    const { backend } = await start((b) => (b.imported = { added: 2, skipped: 0, changeset: 56, held: 1, secrets: 3 }));
    const { importText } = await import("../logic/actions");
    const result = await importText("notes.jsonl", "[]");
    expect(typeof result === "string" ? result : result.done).toBe(
      "Brought in 2 memories from notes.jsonl. 1 memory waits for you in Review: look at it before it is kept. " +
        "3 passwords or keys were replaced by markers, so they are not kept",
    );
    // A haema export makes no change of its own to undo: the words alone.
    backend.imported = { added: 0, skipped: 0, changeset: null, held: 2, secrets: 1 };
    expect(await importText("backup.jsonl", "")).toBe(
      "Brought in 0 memories from backup.jsonl. 2 memories wait for you in Review: look at them before they are kept. " +
        "1 password or key was replaced by a marker, so it is not kept.",
    );
  });
});

describe("settings", () => {
  it("shows every setting grouped, with its value, where it came from and where to change it", async () => {
    const { root, backend } = await start(undefined, "settings");
    expect(text(root.querySelector("h1"))).toBe("How this memory is set up");
    expect(text(root.querySelector("#settings-file"))).toBe("/home/ann/.local/share/haema/default/haema.toml");
    expect(text(root.querySelector(".how-to"))).toContain("The settings above are changed here.");
    expect(root.querySelector(".how-to pre")?.textContent).toBe("[merge]\ntop_k = 5");
    expect(root.querySelector<HTMLElement>("#settings-file-missing")?.hidden).toBe(true);
    const groups = [...root.querySelectorAll(".setting-group h2")].map((g) => text(g));
    expect(groups).toEqual(["Reviewing changes", "Finding related memories", "The AI", "Terminal app", "Model downloads"]);
    const row = (key: string) => root.querySelector(`.setting[data-key="${key}"]`) as HTMLElement;
    expect(text(row("merge.top_k").querySelector("dt"))).toBe("Related memories looked up per new content (> 0)");
    expect(text(row("merge.top_k").querySelector(".value"))).toBe("5");
    expect(text(row("merge.top_k").querySelector(".source"))).toBe("Set in this memory's haema.toml");
    expect(text(row("merge.top_k").querySelector(".how"))).toBe(
      "top_k under [merge] in haema.toml · or the environment variable HAEMA_MERGE_TOP_K · default: 3",
    );
    expect(text(row("review").querySelector(".source"))).toBe("Set by the environment variable HAEMA_REVIEW, which wins over the files");
    expect(text(row("review").querySelector(".how"))).toContain("choices: auto, review, guarded");
    expect(text(row("llm.model").querySelector(".source"))).toBe("Default");
    expect(text(row("llm.model").querySelector(".how"))).not.toContain("default:");
    expect(text(row("llm.api_key").querySelector(".value"))).toBe("sk-…1234");
    expect(text(row("llm.api_key").querySelector(".how"))).toBe("Only the environment variable HAEMA_LLM_API_KEY · default: none");
    expect(text(row("tui.mouse").querySelector(".source"))).toBe("Set in your user settings (config.toml)");
    expect(text(row("tui.mouse").querySelector(".how"))).toContain("mouse under [tui] in your config.toml");
    expect(root.querySelector(".reopen p")).toBeNull();

    // A live refresh leaves the file's help open as the person left it.
    root.querySelector(".how-to details")?.setAttribute("open", "");
    const asked = backend.named("settings").length;
    await emit("store-changed");
    await settle();
    expect(backend.named("settings").length).toBeGreaterThan(asked);
    expect(root.querySelector(".how-to details")?.hasAttribute("open")).toBe(true);
  });

  it("opens with Alt+7, reads the settings again on every visit, and offers to reopen after haema.toml changed", async () => {
    const { root, app, backend } = await start();
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "7", altKey: true }));
    await settle();
    expect(app.currentView).toBe("settings");
    expect(text(root.querySelector("nav [aria-current=page]"))).toBe("Settings");
    // (Apps of earlier tests still hear the key, so count from here.)
    const asked = backend.named("settings").length;
    backend.settings = { ...backend.settings, reopen_needed: true, file_exists: false };
    await app.show("latest");
    await app.show("settings");
    await settle();
    expect(backend.named("settings")).toHaveLength(asked + 1);
    expect(root.querySelector<HTMLElement>("#settings-file-missing")?.hidden).toBe(false);
    expect(text(root.querySelector(".reopen"))).toContain("they apply once it is opened again");
    backend.settings = { ...backend.settings, reopen_needed: false };
    button(root, "Open this memory again").click();
    await settle();
    expect(backend.named("open_store")[0]?.args).toEqual({ dir: "/home/ann/.local/share/haema/default", create: false });
    expect(app.currentView).toBe("settings");
    expect(text(root.querySelector(".notice"))).toBe("Opened again with the settings shown.");
    expect(root.querySelector(".reopen p")).toBeNull();
  });

  it("says in words when the settings file cannot be read", async () => {
    const { root, backend, app } = await start();
    backend.failOn.set("settings", { kind: "invalid", message: "/x/haema.toml: TOML parse error at line 1." });
    await app.show("settings");
    await settle();
    expect(text(root.querySelector("[role=alert]"))).toContain("TOML parse error");
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
