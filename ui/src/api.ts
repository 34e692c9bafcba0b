// Typed wrappers for every command of the desktop app and its two events: the only module
// that talks to the Rust side. Types mirror haema-core's serde output.
import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";

export type Section = "SOUL" | "TOOLS" | "RULE" | "USER";
export const SECTIONS: Section[] = ["SOUL", "TOOLS", "RULE", "USER"];
export type ReviewPolicy = "auto" | "review" | "guarded";
export type SearchMode = "hybrid" | "vector" | "lexical";
export type ChangesetStatus = "pending" | "committed" | "rejected" | "stale" | "reverted";
export type Outcome = "reconstructed" | "refined" | "fallback" | "no_llm" | "revert" | "import";
export type Change = "same" | "removed" | "added";

export interface StoreInfo {
  dir: string;
  active: number;
  pending_changesets: number;
  embedder: string;
  dims: number;
  llm: string | null;
  review: ReviewPolicy;
}

export interface AppStatus {
  store: StoreInfo | null;
  start_store: string | null;
  default_store: string | null;
  default_exists: boolean;
}

export interface StoreEntry {
  dir: string;
  info: StoreInfo | null;
  error: string | null;
  open: boolean;
}

export interface MemoryRecord {
  id: string;
  content: string;
  timestamp_ms: number;
  updated_at_ms: number;
  status: "active" | "pending" | "superseded" | "forgotten";
  changeset_id: number | null;
  superseded_by: number | null;
}

export interface SearchHit extends MemoryRecord {
  score: number;
  found_by: "vector" | "lexical" | "both";
  distance: number | null;
  bm25: number | null;
}

export interface SearchResults {
  mode: SearchMode;
  notice: string | null;
  hits: SearchHit[];
}

export interface RecallItem {
  reason: string;
  id: string | null;
  content: string;
  score: number | null;
  tokens: number;
  sanitized: boolean;
}

export interface Recall {
  text: string;
  items: RecallItem[];
  tokens: number;
  budget: number;
}

export interface RelatedItem {
  memory_id: string;
  content: string;
  distance: number | null;
  kept: boolean;
}

export interface ProposedItem {
  memory_id: string | null;
  content: string;
  kept: boolean;
}

export interface LlmCall {
  stage: string;
  answer: unknown;
  error: string | null;
}

export interface Changeset {
  id: number;
  kind: string;
  status: ChangesetStatus;
  outcome: Outcome;
  created_at_ms: number;
  decided_at_ms: number | null;
  decided_by: string | null;
  raw_input: string | null;
  inputs: string[];
  related: RelatedItem[];
  proposed: ProposedItem[];
  core_before: string | null;
  core_after: string | null;
  llm: string | null;
  embedder: string | null;
  llm_calls: LlmCall[];
  warnings: string[];
  reverts_id: number | null;
  reverted_by_id: number | null;
}

export interface Piece {
  change: Change;
  text: string;
}

export interface ItemView {
  memory_id: string | null;
  content: string;
  kept: boolean;
  distance: number | null;
  pieces: Piece[];
}

export interface ChangesetView {
  changeset: Changeset;
  before: ItemView[];
  before_more: number;
  after: ItemView[];
  after_more: number;
  core: Piece[] | null;
}

export interface AddOutcome {
  changeset: number | null;
  status: "committed" | "pending" | "noop" | "stale";
  warnings: string[];
}

export interface Lineage {
  memory: MemoryRecord;
  origin: ChangesetView | null;
  replaced_by: ChangesetView | null;
}

export interface CoreView {
  sections: Record<Section, string>;
  locked: Section[];
}

export interface SectionChange {
  version_id: number;
  created_at_ms: number;
  author: string;
  changeset_id: number | null;
  text: string;
  diff: Piece[];
}

export interface ImportSummary {
  added: number;
  skipped: number;
  changeset: number | null;
}

export interface ReembedReport {
  from: string;
  to: string;
  dims: number;
  embedded: number;
  resumed: boolean;
}

export interface Progress {
  task: "add" | "import" | "reembed";
  done: number;
  total: number;
  message: string;
  finished: boolean;
}

/** An error from the app: `kind` to decide what to show, `message` in plain words. */
export interface CommandError {
  kind: string;
  message: string;
}

export function isCommandError(value: unknown): value is CommandError {
  return typeof value === "object" && value !== null && "kind" in value && "message" in value;
}

/** The words to show for any failure. */
export function errorText(error: unknown): string {
  if (isCommandError(error)) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export const api = {
  appStatus: () => invoke<AppStatus>("app_status"),
  openStore: (dir: string | null, create: boolean) => invoke<StoreInfo>("open_store", { dir, create }),
  stores: () => invoke<StoreEntry[]>("stores"),
  latest: (after: MemoryRecord | null, count: number) => invoke<MemoryRecord[]>("latest", { after, count }),
  add: (text: string) => invoke<AddOutcome>("add", { text }),
  search: (query: string, mode: SearchMode, count: number) => invoke<SearchResults>("search", { query, mode, count }),
  recall: (query: string, budget: number) => invoke<Recall>("recall", { query, budget }),
  lineage: (id: string) => invoke<Lineage>("lineage", { id }),
  importFile: (name: string, text: string) => invoke<ImportSummary>("import_file", { name, text }),
  reembed: () => invoke<ReembedReport>("reembed"),
  awaitingReview: () => invoke<ChangesetView[]>("awaiting_review"),
  changeset: (id: number) => invoke<ChangesetView>("changeset", { id }),
  approve: (id: number) => invoke<ChangesetView>("approve", { id }),
  approveEdited: (id: number, memories: string[]) => invoke<ChangesetView>("approve_edited", { id, memories }),
  reject: (id: number) => invoke<ChangesetView>("reject", { id }),
  reopen: (id: number) => invoke<ChangesetView>("reopen", { id }),
  rerun: (id: number) => invoke<AddOutcome>("rerun", { id }),
  revert: (id: number) => invoke<ChangesetView>("revert", { id }),
  history: (before: number | null, count: number) => invoke<ChangesetView[]>("history", { before, count }),
  core: () => invoke<CoreView>("core"),
  setSection: (section: Section, text: string) => invoke<number>("set_section", { section, text }),
  setLock: (section: Section, locked: boolean) => invoke<null>("set_lock", { section, locked }),
  sectionHistory: (section: Section) => invoke<SectionChange[]>("section_history", { section }),
  textDiff: (old: string, next: string) => invoke<Piece[]>("text_diff", { old, new: next }),
  onStoreChanged: (handler: () => void): Promise<UnlistenFn> => listen("store-changed", () => handler()),
  onProgress: (handler: (p: Progress) => void): Promise<UnlistenFn> =>
    listen<Progress>("progress", (e) => handler(e.payload)),
};
