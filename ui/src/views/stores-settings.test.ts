// Stores and settings through the real shell in jsdom, against the in-memory backend.
import { emit } from "@tauri-apps/api/event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startApp } from "../test/app-fixture";
import { button, settle, text } from "../test/backend";

afterEach(() => vi.useRealTimers());

const start = startApp;

describe("stores", () => {
  it("lists stores and opens another with undo back", async () => {
    const { root, backend } = await start((b) => {
      b.stores = [
        { dir: "/home/ann/.local/share/haema/default", name: "default", info: b.open, error: null, open: true },
        { dir: "/home/ann/.local/share/haema/work", name: "work", info: { ...b.open!, dir: "/home/ann/.local/share/haema/work", location: "/home/ann/.local/share/haema/work", name: "work", active: 12 }, error: null, open: false },
        { dir: "/home/ann/.local/share/haema/broken", name: "broken", info: null, error: "schema too new", open: false },
        {
          dir: "/home/ann/.local/share/haema/pg-agents_db.example_5432_team_haema",
          name: "haema in team on db.example",
          info: {
            ...b.open!,
            dir: "/home/ann/.local/share/haema/pg-agents_db.example_5432_team_haema",
            location: "postgres://agents@db.example:5432/team?schema=haema",
            name: "haema in team on db.example",
            active: 40,
          },
          error: null,
          open: false,
        },
      ];
    }, "stores");
    const rows = root.querySelectorAll(".stores > li");
    expect(text(rows[1] ?? null)).toContain("12 memories");
    expect(text(rows[2] ?? null)).toContain("Cannot be read: schema too new");
    // A shared store is shown by the name the core gives it (from its URL), not its link folder.
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

  it("finds Claude Code's memory on this computer and brings one in with undo", async () => {
    const { root, backend } = await start((b) => {
      b.claudeMemories = [{ dir: "/home/ann/.claude/projects/-home-ann-garden/memory", project: "-home-ann-garden", files: 3 }];
    }, "stores");
    const found = root.querySelector("#claude-memories");
    expect(text(found)).toContain("-home-ann-garden");
    expect(text(found)).toContain("3 files");
    button(found as HTMLElement, "Bring in").click();
    await settle();
    expect(backend.named("import_claude_memory")[0]?.args).toEqual({ dir: "/home/ann/.claude/projects/-home-ann-garden/memory" });
    expect(text(root)).toContain("Brought in 3 memories from Claude Code's memory of -home-ann-garden (1 already known)");
    button(root, "Undo").click();
    await settle();
    expect(backend.named("revert")[0]?.args).toMatchObject({ id: 55 });
  });

  it("says where Claude Code keeps its memory when there is none", async () => {
    const { root } = await start(undefined, "stores");
    expect(text(root.querySelector("#claude-memories"))).toContain("~/.claude/projects/<project>/memory");
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
