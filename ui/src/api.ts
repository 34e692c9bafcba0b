// The only module the views use to talk to the Rust side. Every type, command wrapper and
// event comes from `bindings.ts`, generated from the Rust types (src-tauri/src/bindings.rs):
// nothing here restates a type of the core.
import type { UnlistenFn } from "@tauri-apps/api/event";
import { commands, events, type CommandError, type Progress } from "./bindings";

export * from "./bindings";

/** Whether a thrown value is the app's own error (`{kind, message, remedy}`). */
export function isCommandError(value: unknown): value is CommandError {
  return typeof value === "object" && value !== null && "kind" in value && "message" in value;
}

/** The words to show for any failure. */
export function errorText(error: unknown): string {
  if (isCommandError(error)) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The generated commands, and the two events as plain callbacks. */
export const api = {
  ...commands,
  onStoreChanged: (handler: () => void): Promise<UnlistenFn> => events.storeChanged.listen(() => handler()),
  onProgress: (handler: (p: Progress) => void): Promise<UnlistenFn> =>
    events.progress.listen((e) => handler(e.payload)),
};
