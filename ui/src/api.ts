// Typed wrappers for every command of the desktop app: the only module that calls invoke.
import { invoke } from "@tauri-apps/api/core";

export interface StoreInfo {
  dir: string;
  active: number;
  pending_changesets: number;
  embedder: string;
  dims: number;
  llm: string | null;
  review: "auto" | "review" | "guarded";
}

export interface AppStatus {
  store: StoreInfo | null;
  default_store: string | null;
  default_exists: boolean;
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

/** An error from the app: `kind` to decide what to show, `message` in plain words. */
export interface CommandError {
  kind: string;
  message: string;
}

export function isCommandError(value: unknown): value is CommandError {
  return typeof value === "object" && value !== null && "kind" in value && "message" in value;
}

export const api = {
  appStatus: () => invoke<AppStatus>("app_status"),
  openStore: (dir?: string) => invoke<StoreInfo>("open_store", { dir: dir ?? null }),
  latest: (after: MemoryRecord | null, count: number) => invoke<MemoryRecord[]>("latest", { after, count }),
};
