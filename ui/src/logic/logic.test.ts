import { describe, expect, it, vi } from "vitest";
import { memory, mergeView, storeSettings } from "../test/backend";
import { historyActions } from "./actions";
import { forgetQuestion, forgetsAnything, receiptWords } from "./forget";
import { agentWords, changeTitle, learnerWords } from "./history-words";
import { PagedList } from "./paged";
import { exampleLines, fileKey, settingGroups, sourceWords } from "./settings";
import { freshDraft, isEdited, plan, planWords, resultingMemories } from "./review";
import { applyTheme, loadTheme, nextTheme } from "./theme";
import { UndoStack } from "./undo";
import { countWords, inputWords, statusWords, storeSummary, strengthWords } from "./words";

describe("review drafts", () => {
  it("approves as suggested until something is changed", () => {
    const view = mergeView();
    const draft = freshDraft(view);
    expect(isEdited(view, draft)).toBe(false);
    expect(plan(view, draft)).toEqual({ kind: "approve" });
    expect(planWords(view, draft)).toBe("Saves the change as suggested.");
  });

  it("turns edits, left-out memories and kept old ones into one edited approval", () => {
    const view = mergeView();
    const draft = freshDraft(view);
    draft.after[0] = { kind: "edit", text: "  The user drinks black tea with milk " };
    draft.after[1] = { kind: "leave" };
    draft.keepOld[0] = true;
    expect(resultingMemories(view, draft)).toEqual(["The user drinks black tea with milk", "The user drinks green tea"]);
    expect(plan(view, draft)).toEqual({
      kind: "approve_edited",
      memories: ["The user drinks black tea with milk", "The user drinks green tea"],
    });
    expect(planWords(view, draft)).toBe("Saves 2 memories as you edited them.");
  });

  it("leaving out everything of a pure addition is a rejection; of a merge, a removal", () => {
    const merge = mergeView();
    const draft = freshDraft(merge);
    draft.after = [{ kind: "leave" }, { kind: "edit", text: "   " }];
    expect(plan(merge, draft)).toEqual({ kind: "approve_edited", memories: [] });
    expect(planWords(merge, draft)).toBe("Removes the older memories and saves nothing new.");
    const addition = { ...mergeView(), before: [] };
    const d2 = freshDraft(addition);
    d2.after = [{ kind: "leave" }, { kind: "leave" }];
    expect(plan(addition, d2)).toEqual({ kind: "reject" });
  });

  it("changes too long to show whole are approved as suggested", () => {
    const view = { ...mergeView(), after_more: 3 };
    const draft = freshDraft(view);
    draft.after[0] = { kind: "leave" };
    expect(plan(view, draft)).toEqual({ kind: "approve" });
  });
});

describe("plain words", () => {
  it("names the agent whose key made a change, and nobody for one made here", () => {
    const own = mergeView();
    expect(learnerWords(own)).toBe("your assistant");
    expect(agentWords(own)).toBeNull();
    const remote = { ...own, changeset: { ...own.changeset, agent_key: "claude-laptop" } };
    expect(learnerWords(remote)).toBe("the agent “claude-laptop”");
    expect(agentWords(remote)).toBe("Made through the key of the agent “claude-laptop”");
  });

  it("says what a change does and where it stands", () => {
    const view = mergeView();
    expect(changeTitle(view)).toBe("Replace “The user drinks green tea” with “The user drinks black tea” and 1 more");
    expect(statusWords(view)).toBe("Waiting for you");
    const auto = { ...view, changeset: { ...view.changeset, status: "committed" as const, decided_by: "auto" as const } };
    expect(statusWords(auto)).toBe("Saved automatically");
    const rerun = { ...view, changeset: { ...view.changeset, status: "rejected" as const, decided_by: "rerun" as const } };
    expect(statusWords(rerun)).toBe("Replaced by a newer version");
    const imported = { ...view, changeset: { ...view.changeset, outcome: "import" as const } };
    expect(changeTitle(imported)).toBe("Imported 2 memories from I switched to black tea");
    expect(inputWords({ ...view, changeset: { ...view.changeset, raw_input: "x".repeat(200) } }, 10)).toBe("xxxxxxxxx…");
  });

  it("asks before a forget with what goes, and words its receipt and its place in history", () => {
    const plan = { memories: [memory("a", "Old address"), memory("b", "I live at 12 Elm Street")], changesets: 3, core_versions: 1 };
    const byId = forgetQuestion(plan, { memory_ids: ["b"], mentioning: null });
    expect(byId.title).toBe("Forget 2 memories for good?");
    expect(byId.memories).toEqual([
      { text: "Old address", tag: null },
      { text: "I live at 12 Elm Street", tag: null },
    ]);
    expect(byId.count).toBe("2 memories go for good: 2 memories in use.");
    expect(byId.notes[0]).toBe("This includes 1 older memory it was built from: the same fact in earlier words.");
    expect(byId.notes[1]).toBe("The words are also removed from 3 earlier changes and 1 version of the profile.");
    expect(byId.notes.at(-2)).toContain("cannot be undone");
    expect(byId.notes.at(-1)).toContain("exports, backups");
    const byPhrase = forgetQuestion({ ...plan, changesets: 0, core_versions: 0 }, { mentioning: " elm street " });
    expect(byPhrase.title).toBe("Forget everything that mentions “elm street”?");
    expect(byPhrase.notes).toHaveLength(2);
    const withState = forgetQuestion(
      { ...plan, agent_state: 2, agent_state_removed: [{ agent_id: "default", key: "elm_street" }] },
      { mentioning: "elm street" },
    );
    expect(withState.notes[0]).toBe("The words are also removed from 3 earlier changes and 1 version of the profile and 2 assistant notes.");
    expect(withState.notes[1]).toBe("These assistant notes go whole, because their name holds the words: “elm_street” of default.");
    expect(forgetsAnything({ memories: [], changesets: 0, core_versions: 0 })).toBe(false);
    expect(forgetsAnything({ memories: [], changesets: 0, core_versions: 2 })).toBe(true);
    expect(receiptWords({ memories: 1, changesets: 2, core_versions: 0, agent_state: 0, phrase: false })).toBe(
      "Forgotten for good: 1 memory; its words were removed from 2 changes. Copies saved outside the app before (exports, backups) still hold the words: delete them yourself.",
    );
    expect(
      receiptWords({ memories: 1, changesets: 0, core_versions: 0, phrase: false, unfinished: ["the scrub finishes later"] }),
    ).toContain("1 memory. Not finished yet: the scrub finishes later.");
    const forgot = {
      ...mergeView(),
      changeset: {
        ...mergeView().changeset,
        kind: "forget" as const,
        status: "committed" as const,
        decided_by: "user" as const,
        forget: { receipt: { memories: 2, changesets: 1, core_versions: 0, agent_state: 0, phrase: true } },
      },
    };
    expect(changeTitle(forgot)).toBe("Forgot 2 memories and every mention of a phrase, for good");
    expect(statusWords(forgot)).toBe("Done");
    expect(historyActions(forgot)).toEqual([]);
    const asked = { ...forgot, changeset: { ...forgot.changeset, status: "pending" as const, forget: { mentioning: "elm" } } };
    expect(changeTitle(asked)).toBe("Forget everything that mentions “elm”");
  });

  it("counts memories and what waits", () => {
    expect(countWords(1, "memory", "memories")).toBe("1 memory");
    expect(countWords(12000, "memory", "memories")).toBe("12,000 memories");
    expect(
      storeSummary({ dir: "/s", location: "/s", name: "s", active: 3, pending_changesets: 1, captures_waiting: 0, embedder: "none", dims: 0, llm: null, review: "auto", embedder_wanted: null, vectors_behind: false, lexical_reason: null, scope: "shared", user: null }),
    ).toBe("3 memories · 1 change waiting");
    expect(
      storeSummary({ dir: "/s", location: "/s", name: "s", active: 0, pending_changesets: 0, captures_waiting: 2, embedder: "none", dims: 0, llm: null, review: "auto", embedder_wanted: null, vectors_behind: false, lexical_reason: null, scope: "shared", user: null }),
    ).toBe("0 memories · 2 conversations waiting for an AI");
  });
});

describe("undo stack", () => {
  it("undoes the newest first and forgets beyond its limit", async () => {
    const stack = new UndoStack(2);
    const undone: string[] = [];
    for (const name of ["a", "b", "c"]) {
      stack.push({ done: name, undo: async () => (undone.push(name), `undid ${name}`) });
    }
    expect(stack.size).toBe(2);
    expect(await stack.undo()).toBe("undid c");
    expect(await stack.undo()).toBe("undid b");
    expect(await stack.undo()).toBeNull();
    expect(undone).toEqual(["c", "b"]);
  });
});

describe("theme", () => {
  it("cycles system → light → dark and remembers the choice", () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(loadTheme(storage)).toBe("system");
    const root = document.createElement("html");
    applyTheme(root, storage, nextTheme("system"), true);
    expect(root.dataset.theme).toBe("light");
    expect(loadTheme(storage)).toBe("light");
    applyTheme(root, storage, nextTheme("dark"), true);
    expect(root.dataset.theme).toBe("dark");
    expect(loadTheme(storage)).toBe("system");
    applyTheme(root, storage, "system", false);
    expect(root.dataset.theme).toBe("light");
    store.set("haema.theme", "purple");
    expect(loadTheme(storage)).toBe("system");
  });
});

describe("paged list", () => {
  it("pages after the last item and keeps what is shown on reload", async () => {
    const all = Array.from({ length: 5 }, (_, i) => i);
    const fetch = vi.fn(async (after: number | null, count: number) => {
      const start = after === null ? 0 : after + 1;
      return all.slice(start, start + count);
    });
    const list = new PagedList<number>(fetch, 2);
    await list.reload();
    expect(list.items).toEqual([0, 1]);
    expect(await list.more()).toBe(true);
    expect(list.items).toEqual([0, 1, 2, 3]);
    await list.reload();
    expect(fetch).toHaveBeenLastCalledWith(null, 4);
    await list.more();
    expect(list.items).toEqual([0, 1, 2, 3, 4]);
    expect(list.done).toBe(true);
    expect(await list.more()).toBe(false);
  });
});

describe("settings words", () => {
  it("groups settings by the part of their name before the dot, in the registry's order", () => {
    const lines = storeSettings().settings;
    const groups = settingGroups([...lines, { ...lines[1]!, key: "sync.every" }]);
    expect(groups.map((g) => [g.name, g.lines.length])).toEqual([
      ["review", 1],
      ["merge", 1],
      ["llm", 2],
      ["tui", 1],
      ["hub", 1],
      ["sync", 1],
    ]);
    expect(groups.at(-1)?.title).toBe("Sync");
  });

  it("says where a value came from and how a file spells its key", () => {
    const [review, topK, model, key] = storeSettings().settings;
    expect(sourceWords(key!)).toBe("Set by the environment variable HAEMA_LLM_API_KEY");
    expect(sourceWords(review!)).toContain("which wins over the files");
    expect(sourceWords(model!)).toBe("Default");
    expect(fileKey("embedder.dims")).toEqual({ key: "dims", table: "embedder" });
    expect(fileKey("review")).toEqual({ key: "review", table: null });
    expect(exampleLines(topK!)).toBe("[merge]\ntop_k = 5");
    expect(exampleLines(review!)).toBe('review = "review"');
  });
});

describe("strengthWords", () => {
  it("says how closely a result matches, on the score's fixed scale", () => {
    expect(strengthWords(1)).toBe("a close match");
    expect(strengthWords(0.75)).toBe("a close match");
    expect(strengthWords(0.6)).toBe("a good match");
    expect(strengthWords(0.3)).toBe("a loose match");
    expect(strengthWords(0)).toBe("a faint match");
  });
});

describe("connecting an AI, in words", () => {
  it("words what was found on this computer and what a choice misses", async () => {
    const { localAiWords, missingWords, connectionOf, keyWords, cutoffWords, sizeWords } = await import("./connect");
    expect(localAiWords({ server: "http://127.0.0.1:11434", running: false, models: [] }, "llm").usable).toBe(false);
    const running = { server: "s", running: true, models: [{ name: "nomic-embed-text", size_bytes: 1, embedding: true }] };
    expect(localAiWords(running, "llm").text).toContain("ollama pull llama3.1:8b");
    expect(localAiWords(running, "embedder").text).toBe("Ollama is running here with 1 model to choose from.");
    expect(missingWords(connectionOf("llm", "this_computer", "", ""))).toBe("Choose one of the models on this computer.");
    expect(missingWords(connectionOf("llm", "other", "m", "https://x/v1"))).toBeNull();
    expect(connectionOf("embedder", "builtin", "ignored", "ignored")).toEqual({ role: "embedder", service: "builtin", model: null, address: null });
    const state = { connection: { role: "llm" as const, service: "openai" as const, model: null, address: null }, model_in_force: "gpt-4o-mini", key_ending: "wxyz", key_from: "environment", needs_key: true };
    expect(keyWords(state, "openai")).toContain("environment");
    expect(keyWords(state, "gemini")).toBe("No key is saved for this service yet.");
    expect(cutoffWords(0.1)).toMatch(/^Strict/);
    expect(cutoffWords(0.25)).toMatch(/^Balanced/);
    expect(sizeWords(4.92e9)).toBe("4.9 GB");
    expect(sizeWords(null)).toBe("");
  });
});
