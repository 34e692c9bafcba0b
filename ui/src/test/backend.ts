// A small in-memory stand-in for the Rust side, behind @tauri-apps/api's mockIPC: enough
// state for the views' logic to be tested (the real app is driven by the e2e tests).
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { AGENT_COMMANDS, FakeAgents } from "./agents-backend";
import type { StoreStatus, ActivityEvent, AiSetup, Ancestry, AncestryNode, ChangesetView, ClaudeMemory, Connection, ConnectionState, CoreView, ImportSummary, LocalAi, MemoryRecord, PendingForget, ReviewPolicy, Section, SectionChange, Service, SettingLine, StoreEntry, StoreInfo, StoreSettings, WeekSummary } from "../api";

export interface Call {
  cmd: string;
  args: Record<string, unknown>;
}

export const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

export function memory(id: string, content: string, minutesAgo = 5): MemoryRecord {
  const ts = NOW - minutesAgo * 60_000;
  return { id, content, timestamp_ms: ts, timestamp: new Date(ts).toISOString(), updated_at_ms: ts, status: "active", changeset_id: 1, superseded_by: null, pinned: false, has_embedding: true };
}

/** A pending merge: "green tea" becomes "black tea", a kept memory, and a new one. */
export function mergeView(id = 7): ChangesetView {
  return {
    changeset: {
      id,
      kind: "add",
      status: "pending",
      outcome: "reconstructed",
      created_at_ms: NOW - 60_000,
      decided_at_ms: null,
      decided_by: null,
      raw_input: "I switched to black tea",
      inputs: ["I switched to black tea"],
      related: [{ memory_id: "m1", content: "The user drinks green tea", distance: 0.2, kept: false }],
      proposed: [
        { memory_id: "p1", content: "The user drinks black tea", kept: false },
        { memory_id: "p2", content: "The user stopped green tea", kept: false },
      ],
      core_before: null,
      core_after: null,
      llm: "openai:gpt-4o-mini",
      embedder: "none",
      llm_calls: [{ stage: "reconstruct", answer: { memories: ["…"] }, error: null }],
      warnings: [],
      reverts_id: null,
      reverted_by_id: null,
    },
    before: [
      {
        memory_id: "m1",
        content: "The user drinks green tea",
        kept: false,
        distance: 0.2,
        pieces: [
          { change: "same", text: "The user drinks " },
          { change: "removed", text: "green " },
          { change: "same", text: "tea" },
        ],
      },
    ],
    before_more: 0,
    added: { count: 2, first: "The user drinks black tea" },
    removed: { count: 1, first: "The user drinks green tea" },
    after: [
      {
        memory_id: "p1",
        content: "The user drinks black tea",
        kept: false,
        distance: null,
        pieces: [
          { change: "same", text: "The user drinks " },
          { change: "added", text: "black " },
          { change: "same", text: "tea" },
        ],
      },
      {
        memory_id: "p2",
        content: "The user stopped green tea",
        kept: false,
        distance: null,
        pieces: [{ change: "added", text: "The user stopped green tea" }],
      },
    ],
    after_more: 0,
    core: null,
  };
}

/** An assistant's pending request to forget everything that mentions "default" (MCP's
 * forget_memory), and what approving it would remove: no memory, and two notes of the
 * assistant "default" whole. */
export function forgetRequest(id = 11): { view: ChangesetView; pending: PendingForget } {
  const base = mergeView(id);
  const view: ChangesetView = {
    ...base,
    changeset: {
      ...base.changeset,
      kind: "forget",
      outcome: "forget",
      raw_input: null,
      inputs: [],
      related: [],
      proposed: [],
      llm: null,
      llm_calls: [],
      forget: { mentioning: "default" },
    },
    before: [],
    after: [],
  };
  const pending: PendingForget = {
    changeset: id,
    mentioning: "default",
    memory_ids: [],
    plan: {
      memories: [],
      changesets: 0,
      core_versions: 0,
      agent_state: 4,
      agent_state_removed: [
        { agent_id: "default", key: "task" },
        { agent_id: "default", key: "cursor" },
      ],
    },
  };
  return { view, pending };
}

export function storeInfo(dir = "/home/ann/.local/share/haema/default", pending = 0, active = 2): StoreInfo {
  return {
    dir,
    location: dir,
    // The core names a folder store by its last folder (haema_core::store_name).
    name: dir.split("/").filter((p) => p !== "").pop() ?? dir,
    active,
    pending_changesets: pending,
    captures_waiting: 0,
    embedder: "none",
    dims: 0,
    llm: null,
    review: "guarded",
    embedder_wanted: null,
    vectors_behind: false,
    scope: "shared",
    user: null,
    lexical_reason: null,
  };
}

function setting(key: string, value: string, source: SettingLine["source"], more: Partial<SettingLine> = {}): SettingLine {
  return { key, value, source, file: "store", env: "", default: value, allowed: [], help: `help of ${key}`, ...more };
}

/** A store's settings as `Settings::explain` reports them: one from haema.toml, one from
 * the environment, a masked key, a user setting and a Hub variable. */
export function storeSettings(dir = "/home/ann/.local/share/haema/default"): StoreSettings {
  return {
    file: `${dir}/haema.toml`,
    file_exists: true,
    user_file: "/home/ann/.config/haema/config.toml",
    reopen_needed: false,
    settings: [
      setting("review", "review", "env", {
        env: "HAEMA_REVIEW",
        default: "guarded",
        allowed: ["auto", "review", "guarded"],
        help: "what happens to a changeset: auto commits it, review waits for a person",
      }),
      setting("merge.top_k", "5", "file", { env: "HAEMA_MERGE_TOP_K", default: "3", help: "related memories looked up per new content (> 0)" }),
      setting("llm.model", "gpt-4o-mini", "default", { env: "HAEMA_LLM_MODEL", help: "the LLM's model" }),
      setting("llm.api_key", "sk-…1234", "env", { file: null, env: "HAEMA_LLM_API_KEY", default: "none", help: "the LLM's key, from the environment only" }),
      setting("tui.mouse", "false", "user_file", { file: "user", default: "true", allowed: ["true", "false"], help: "the terminal UI captures the mouse" }),
      setting("hub.offline", "1", "env", { file: null, env: "HF_HUB_OFFLINE", default: "not set", help: "1: never download" }),
    ],
  };
}

/** What `ai_setup` reports of a store with no AI, the built-in search model and a usable
 * keyring. */
export function aiSetup(): AiSetup {
  const state = (role: "llm" | "embedder", service: Service, model: string): ConnectionState => ({
    connection: { role, service, model: null, address: null },
    model_in_force: model,
    key_ending: null,
    key_from: null,
    needs_key: false,
  });
  return {
    llm: state("llm", "none", ""),
    embedder: state("embedder", "builtin", "sentence-transformers/all-MiniLM-L6-v2"),
    review: "guarded",
    merge_distance_cutoff: 0.25,
    keyring: { usable: true, said: null },
    overridden: [],
  };
}

/** A memory made by merging two older ones, one of which was itself rewritten once. */
function ancestryOf(memories: MemoryRecord[], id: string): Ancestry {
  const made = (at: number) => ({ changeset: 7, kind: "add" as const, decided_by: "user" as const, at_ms: NOW - at });
  const old = (mid: string, content: string, successors: string[]): AncestryNode => ({
    memory: { ...memory(mid, content, 20), status: "superseded" },
    made_by: made(40 * 86_400_000),
    parents: mid === "m-tea" ? ["m-first"] : [],
    successors,
  });
  const top = memories.find((m) => m.id === id) ?? memory(id, "unknown", 1);
  if (id === "m-tea") return { root: id, nodes: [old("m-tea", "The user drinks tea", ["a"]), old("m-first", "The user likes warm drinks", ["m-tea"])], truncated: false };
  return {
    root: id,
    nodes: [
      { memory: top, made_by: made(86_400_000), parents: ["m-tea", "m-green"], successors: [] },
      old("m-tea", "The user drinks tea", [id]),
      old("m-green", "The user likes green things", [id]),
      old("m-first", "The user likes warm drinks", ["m-tea"]),
    ],
    truncated: false,
  };
}

export class Backend {
  calls: Call[] = [];
  open: StoreInfo | null = storeInfo();
  startStore: string | null = null;
  /** Why the store given at start cannot be opened (`app_status`). */
  startProblem: string | null = null;
  memories: MemoryRecord[] = [
    memory("a", "The user drinks green tea", 5),
    { ...memory("b", "The user lives in Oslo", 90), memory_type: "fact", importance: 0.9, source: "onboarding", metadata: { city: "Oslo" } },
  ];
  waiting: ChangesetView[] = [];
  /** What approving each pending forget request would remove (`pending_forget`). */
  pendingForgets = new Map<number, PendingForget>();
  history: ChangesetView[] = [];
  /** What `recall` answers; a short block when `null`. */
  recallAnswer: unknown = null;
  /** Per change id: the profile sections its undo left (`profile_left`). */
  profileLeft = new Map<number, Section[]>();
  /** How the store stands, as the core words it (`StoreInfo::status`). */
  status: StoreStatus = {
    by_meaning: false,
    search: "Search finds memories by their words only: no search model is chosen.",
    search_fix: "To search by meaning too, choose a search model in the settings.",
    search_detail: "this store has no embedder, so search is lexical (by words only)",
    waiting: 0,
    review: "Nothing waits for you in Review.",
    captured: null,
  };
  core: CoreView = {
    sections: { SOUL: "Calm and brief.", TOOLS: "", RULE: "", USER: "- Likes jazz." },
    locked: [],
  };
  sectionHistory: SectionChange[] = [];
  stores: StoreEntry[] = [];
  settings: StoreSettings = storeSettings();
  setup: AiSetup = aiSetup();
  local: LocalAi = { server: "http://127.0.0.1:11434", running: false, models: [] };
  /** The key the fake service takes; any other is refused. */
  rightKey = "sk-right-key-1234";
  copies: Array<{ path: string; kind: string }> = [];
  events: ActivityEvent[] = [
    { at_ms: NOW - 2 * 86_400_000, who: "ai" },
    { at_ms: NOW - 2 * 86_400_000, who: "you" },
    { at_ms: NOW - 60_000, who: "you" },
    { at_ms: NOW - 30_000, who: "waiting" },
  ];
  week: WeekSummary = { active: 2, waiting: 1, added: 3, removed: 1, profile_versions: 2, profile_lines_changed: 4 };
  failOn = new Map<string, { kind: string; message: string; remedy?: unknown }>();
  nextChangeset = 100;
  imported: ImportSummary = { added: 3, skipped: 1, changeset: 55, held: 0, secrets: 0 };
  claudeMemories: ClaudeMemory[] = [];
  readonly agents = new FakeAgents();

  constructor() {
    mockIPC((cmd, args) => this.handle(cmd, (args ?? {}) as Record<string, unknown>), { shouldMockEvents: true });
  }

  stop(): void {
    clearMocks();
  }

  named(cmd: string): Call[] {
    return this.calls.filter((c) => c.cmd === cmd);
  }

  private handle(cmd: string, args: Record<string, unknown>): unknown {
    this.calls.push({ cmd, args });
    const failure = this.failOn.get(cmd);
    if (failure) throw failure;
    const info = () => (this.open ? { ...this.open, pending_changesets: this.waiting.length } : null);
    if (AGENT_COMMANDS.includes(cmd)) return this.agents.handle(cmd, args);
    switch (cmd) {
      case "app_status":
        return { store: info(), status: this.open ? this.status : null, start_store: this.startStore, default_store: "/home/ann/.local/share/haema/default", default_exists: false, start_problem: this.startProblem };
      case "open_store":
        this.open = storeInfo((args.dir as string | null) ?? "/home/ann/.local/share/haema/default");
        return info();
      case "choose_user":
        if (this.open) this.open = { ...this.open, user: args.user as string };
        return info();
      case "stores":
        return this.stores;
      case "latest": {
        const after = args.after as MemoryRecord | null;
        const start = after ? this.memories.findIndex((m) => m.id === after.id) + 1 : 0;
        return this.memories.slice(start, start + (args.count as number));
      }
      case "add":
        return { changeset: this.nextChangeset++, status: "committed", warnings: [] };
      case "awaiting_review":
        return this.waiting;
      case "pending_forget":
        return this.pendingForgets.get(args.id as number) ?? null;
      case "approve":
      case "approve_edited":
      case "reject":
      case "reopen":
      case "revert": {
        const id = args.id as number;
        const found = this.waiting.find((v) => v.changeset.id === id) ?? this.history.find((v) => v.changeset.id === id);
        if (cmd !== "reopen" && cmd !== "revert") this.waiting = this.waiting.filter((v) => v.changeset.id !== id);
        const view = found ?? mergeView(id);
        const plan = this.pendingForgets.get(id)?.plan;
        if (cmd === "approve" && view.changeset.kind === "forget" && plan) {
          const receipt = { memories: plan.memories.length, changesets: plan.changesets, core_versions: plan.core_versions, agent_state: plan.agent_state, phrase: true };
          return { ...view, changeset: { ...view.changeset, status: "committed", forget: { receipt } } };
        }
        const changed = { ...view, changeset: { ...view.changeset, id: cmd === "revert" ? this.nextChangeset++ : id } };
        return cmd === "revert" ? { view: changed, profile_left: this.profileLeft.get(id) ?? [] } : changed;
      }
      case "history":
        return FakeAgents.history(this.history, (args.agentKey as string | null) ?? null).map((view) => ({ view, profile_left: this.profileLeft.get(view.changeset.id) ?? [] }));
      case "core":
        return this.core;
      case "set_section":
        this.core.sections[args.section as Section] = args.text as string;
        return 2;
      case "set_lock": {
        const section = args.section as Section;
        this.core.locked = (args.locked as boolean) ? [...this.core.locked, section] : this.core.locked.filter((s) => s !== section);
        return null;
      }
      case "section_history":
        return this.sectionHistory;
      case "search": {
        const query = String(args.query).toLowerCase();
        const profile = Object.entries(this.core.sections).flatMap(([section, body]) =>
          body.split("\n").filter((l) => l.toLowerCase().includes(query)).map((l) => ({ section, text: l.replace(/^- /, "") })),
        );
        const hits = this.memories
          .filter((m) => m.content.toLowerCase().includes(query))
          .map((m) => ({ ...m, score: 0.9, rank_score: 0.6, found_by: "lexical", distance: null, bm25: 1.2 }));
        return { results: { mode: this.status.by_meaning ? args.mode : "lexical", notice: this.status.by_meaning ? null : "search is lexical", hits }, profile };
      }
      case "recall":
        return this.recallAnswer ?? { text: "## Core\nCalm.", items: [], tokens: 12, budget: args.budget ?? 800, max_chars: 1000 }; // null: the core's DEFAULT_RECALL_BUDGET
      case "import_file":
      case "import_claude_memory":
        return this.imported;
      case "claude_memories":
        return this.claudeMemories;
      case "settings":
        return this.settings;
      case "ai_setup":
        return this.setup;
      case "local_ai":
        return this.local;
      case "test_connection": {
        const connection = args.connection as Connection;
        const key = (args.key as string | null) ?? null;
        if (connection.service === "openai" && key !== this.rightKey) {
          return { ok: false, said: "The service refused the key.", fix: "Check the key: copy it again from the service's website." };
        }
        return { ok: true, said: `The AI answered: ${connection.model ?? "gpt-4o-mini"} works.`, fix: null };
      }
      case "save_connection": {
        const connection = args.connection as Connection;
        const key = (args.key as string | null) ?? null;
        const role = connection.role;
        this.setup = {
          ...this.setup,
          [role]: {
            connection,
            model_in_force: connection.model ?? "gpt-4o-mini",
            key_ending: key ? key.slice(-4) : this.setup[role].key_ending,
            key_from: key ? "keyring" : this.setup[role].key_from,
            needs_key: connection.service === "openai" || connection.service === "gemini",
          },
        };
        return this.setup;
      }
      case "forget_saved_key": {
        const role = (args.connection as Connection).role;
        this.setup = { ...this.setup, [role]: { ...this.setup[role], key_ending: null, key_from: null } };
        return this.setup;
      }
      case "set_setting":
        if (args.name === "review") this.setup = { ...this.setup, review: args.value as ReviewPolicy };
        if (args.name === "merge.distance_cutoff") this.setup = { ...this.setup, merge_distance_cutoff: Number(args.value) };
        return this.setup;
      case "activity":
        return this.events;
      case "week_summary":
        return this.week;
      case "ancestry":
        return ancestryOf(this.memories, args.id as string);
      case "store_facts":
        return { dir: this.open?.dir ?? "", bytes: 2_400_000, suggested_backup: "/home/ann/haema-backup-2026-11-25.jsonl" };
      case "write_copy":
        this.copies.push({ path: args.path as string, kind: args.kind as string });
        return { path: args.path, bytes: 5120 };
      case "forget_plan":
      case "forget": {
        const request = args.request as { memory_ids?: string[]; mentioning?: string | null };
        const phrase = request.mentioning?.toLowerCase() ?? null;
        const going = this.memories.filter(
          (m) => (request.memory_ids ?? []).includes(m.id) || (phrase !== null && m.content.toLowerCase().includes(phrase)),
        );
        if (cmd === "forget_plan") return { memories: going, changesets: going.length, core_versions: 0 };
        this.memories = this.memories.filter((m) => !going.includes(m));
        return { memories: going.length, changesets: going.length, core_versions: 0, agent_state: 0, phrase: phrase !== null };
      }
      case "lineage":
        return { memory: this.memories[0], origin: mergeView(3), replaced_by: null, access: { access_count: 12, last_accessed_ms: NOW - 3 * 86_400_000 } };
      case "delete_memory":
      case "update_memory": {
        const index = this.memories.findIndex((m) => m.id === args.id);
        const changeset = this.nextChangeset++;
        if (cmd === "delete_memory") {
          this.memories.splice(index, 1);
          return { changeset, status: "committed", warnings: [], memory_ids: [] };
        }
        const id = `${String(args.id)}-2`;
        this.memories[index] = { ...this.memories[index], id, content: args.text as string };
        return { changeset, status: "committed", warnings: [], memory_ids: [id] };
      }
      case "update_attributes": {
        const index = this.memories.findIndex((m) => m.id === args.id);
        const id = `${String(args.id)}-a`;
        this.memories[index] = { ...this.memories[index], ...(args.attributes as object), id };
        return { changeset: this.nextChangeset++, status: "committed", warnings: [], memory_ids: [id] };
      }
      case "set_pinned": {
        const found = this.memories.find((m) => m.id === args.id);
        if (found) found.pinned = args.pinned as boolean;
        return found ?? null;
      }
      default:
        return null;
    }
  }
}

/** Lets pending promises (mocked invokes are async) settle. */
export async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0));
}

/** The visible text of an element, whitespace squeezed. */
export function text(el: Element | null): string {
  return (el?.textContent ?? "").replace(/\s+/g, " ").trim();
}

/** The button whose text is `label` inside `root`. */
export function button(root: ParentNode, label: string): HTMLButtonElement {
  const found = [...root.querySelectorAll("button")].find((b) => text(b) === label);
  if (!found) throw new Error(`no button “${label}” in: ${[...root.querySelectorAll("button")].map((b) => text(b)).join(" | ")}`);
  return found;
}
