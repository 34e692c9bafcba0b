// What each action does to the store and how it is undone: the views call these and show
// the result; nothing here touches the DOM.
import { type AddOutcome, api, type ChangesetView, type ClaudeMemory, type ImportSummary, type MemoryAttributes, type MemoryRecord, type Section, STALE_EDIT_MEANING } from "../api";
import { type Draft, plan } from "./review";
import { profileLeftWords } from "./history-words";
import type { Undoable } from "./undo";
import { countWords, SECTION_WORDS } from "./words";

/** Reverts change `id`; resolves to `whole`, or, when the undo left part of the profile as
 * it is now (changed again since), to what it left. */
async function revertSaying(id: number, whole: string): Promise<string> {
  const revert = await api.revert(id);
  const left = profileLeftWords(revert.profile_left);
  return left ? `Partly undone. ${left}` : whole;
}

/** Saves a section's new text; the undo puts the old text back. */
export async function saveSection(section: Section, before: string, text: string): Promise<Undoable | string> {
  if (text.trim() === before.trim()) return "Nothing changed.";
  await api.setSection(section, text);
  return {
    done: `Saved “${SECTION_WORDS[section].title}”`,
    undo: async () => {
      await api.setSection(section, before);
      return `“${SECTION_WORDS[section].title}” is as it was.`;
    },
  };
}

/** Locks or unlocks a section; the undo does the opposite. */
export async function lockSection(section: Section, locked: boolean): Promise<Undoable> {
  await api.setLock(section, locked);
  const title = SECTION_WORDS[section].title;
  return {
    done: locked ? `Locked “${title}”: the AI will not change it` : `Unlocked “${title}”`,
    undo: async () => {
      await api.setLock(section, !locked);
      return locked ? `Unlocked “${title}” again.` : `Locked “${title}” again.`;
    },
  };
}

/** Undoes a saved change; the undo undoes the undoing. */
export async function undoChange(view: ChangesetView): Promise<Undoable> {
  const revert = await api.revert(view.changeset.id);
  const left = profileLeftWords(revert.profile_left);
  return {
    done: left ? `Partly undone. ${left}` : "Undone",
    undo: async () => {
      await api.revert(revert.view.changeset.id);
      return "The change is back.";
    },
  };
}

/** Puts a rejected change back to review; the undo rejects it again. */
export async function lookAgain(view: ChangesetView): Promise<Undoable> {
  const id = view.changeset.id;
  await api.reopen(id);
  return {
    done: "The change waits for you in Review again",
    undo: async () => {
      await api.reject(id);
      return "Rejected again.";
    },
  };
}

/** What can still be done with a change from the history. */
export function historyActions(view: ChangesetView): Array<"undo" | "look_again"> {
  const cs = view.changeset;
  if (cs.kind === "forget") return [];
  if (cs.status === "committed" && cs.reverted_by_id === null) return ["undo"];
  if (cs.status === "rejected" && cs.decided_by === "user") return ["look_again"];
  return [];
}

/** Adds `text`; the undo takes it back whether it was saved or sent for review. */
export async function remember(text: string): Promise<Undoable | string> {
  const outcome = await api.add(text);
  const id = outcome.changeset;
  const warning = outcome.warnings.length > 0 ? ` (${outcome.warnings.join("; ")})` : "";
  if (outcome.status === "noop" || id === null) return `Already known: nothing changed${warning}.`;
  if (outcome.status === "pending" || outcome.status === "stale") {
    return {
      done: `Sent to Review: it waits for you there before your assistant uses it${warning}`,
      undo: async () => {
        await api.reject(id);
        return "Taken back: the change will not be made.";
      },
    };
  }
  return {
    done: `Remembered${warning}`,
    undo: () => revertSaying(id, "Forgotten again."),
  };
}

/** Approves every pending change as suggested; the undo reverts them all. */
export async function decideAll(views: ChangesetView[]): Promise<Undoable> {
  const done: number[] = [];
  for (const view of views.filter((v) => v.changeset.status === "pending")) {
    await api.approve(view.changeset.id);
    done.push(view.changeset.id);
  }
  return {
    done: `Approved ${done.length} changes`,
    undo: async () => {
      const said: string[] = [];
      for (const id of done.reverse()) said.push(await revertSaying(id, ""));
      const partly = said.filter((s) => s !== "");
      return partly.length > 0 ? `Undid ${done.length} changes. ${partly.join(" ")}` : `Undid ${done.length} changes.`;
    },
  };
}

/** Carries out a person's decision on one change. */
export async function decide(view: ChangesetView, draft: Draft | "reject"): Promise<Undoable> {
  const id = view.changeset.id;
  const p = draft === "reject" ? { kind: "reject" as const } : plan(view, draft);
  if (p.kind === "reject") {
    await api.reject(id);
    return {
      done: "Rejected: nothing was changed. Undo puts it back in Review",
      undo: async () => {
        await api.reopen(id);
        return "The change is waiting for you again.";
      },
    };
  }
  if (p.kind === "approve") await api.approve(id);
  else await api.approveEdited(id, p.memories);
  return {
    done: p.kind === "approve" ? "Approved" : "Approved with your edits",
    undo: () => revertSaying(id, "Undone: your assistant remembers what it did before."),
  };
}

/** What an import did, in sentences: added, held for review, secrets replaced. */
export function importWords(name: string, summary: ImportSummary): string {
  const sentences = [
    `Brought in ${countWords(summary.added, "memory", "memories")} from ${name}${
      summary.skipped > 0 ? ` (${summary.skipped} already known)` : ""
    }`,
  ];
  if (summary.held === 1) sentences.push("1 memory waits for you in Review: look at it before it is kept");
  else if (summary.held > 1) sentences.push(`${countWords(summary.held, "memory", "memories")} wait for you in Review: look at them before they are kept`);
  if (summary.secrets === 1) sentences.push("1 password or key was replaced by a marker, so it is not kept");
  else if (summary.secrets > 1) sentences.push(`${countWords(summary.secrets, "password or key", "passwords or keys")} were replaced by markers, so they are not kept`);
  return sentences.join(". ");
}

/** Imports a file's text; the undo reverts the import's change when it made one. */
export async function importText(name: string, text: string): Promise<Undoable | string> {
  return undoableImport(name, await api.importFile(name, text));
}

/** Brings in a Claude Code project's memory folder, with the same undo. */
export async function importClaudeMemory(memory: ClaudeMemory): Promise<Undoable | string> {
  return undoableImport(`Claude Code's memory of ${memory.project}`, await api.importClaudeMemory(memory.dir));
}

/** An import's words, and its undo when it made a change of its own. */
function undoableImport(name: string, summary: ImportSummary): Undoable | string {
  const words = importWords(name, summary);
  const id = summary.changeset;
  if (id === null) return `${words}.`;
  return {
    done: words,
    undo: () => revertSaying(id, "The imported memories are gone again."),
  };
}

/** The undo of a direct edit's change: revert it; the undo of that puts the change back. */
function undoEdit(outcome: AddOutcome, done: string, undone: string): Undoable | string {
  const id = outcome.changeset;
  if (outcome.status === "noop" || id === null) return "Nothing changed: the memory already says that.";
  if (outcome.status === "stale") return `${STALE_EDIT_MEANING[0]?.toUpperCase() ?? ""}${STALE_EDIT_MEANING.slice(1)}; look at it again and retry.`;
  return {
    done,
    undo: () => revertSaying(id, undone),
  };
}

/** Changes a memory's text; the undo brings the old text back. */
export async function changeMemory(memory: MemoryRecord, text: string): Promise<Undoable | string> {
  if (text.trim() === memory.content.trim()) return "Nothing changed.";
  return undoEdit(await api.updateMemory(memory.id, text), "Changed the memory", "The memory says what it said before.");
}

/** Replaces a memory's attributes; the undo brings the old ones back. */
export async function changeAttributes(memory: MemoryRecord, attributes: MemoryAttributes): Promise<Undoable | string> {
  const outcome = await api.updateAttributes(memory.id, attributes);
  if (outcome.status === "noop") return "Nothing changed.";
  return undoEdit(outcome, "Changed the attributes", "The memory has its old attributes again.");
}

/** Deletes a memory; the undo brings it back. */
export async function deleteMemory(memory: MemoryRecord): Promise<Undoable | string> {
  return undoEdit(await api.deleteMemory(memory.id), "Deleted the memory", "The memory is back.");
}

/** Pins or unpins a memory; the undo does the opposite. */
export async function pinMemory(memory: MemoryRecord, pinned: boolean): Promise<Undoable> {
  await api.setPinned(memory.id, pinned);
  return {
    done: pinned ? "Pinned: nothing will replace or rewrite it without asking you" : "Unpinned",
    undo: async () => {
      await api.setPinned(memory.id, !pinned);
      return pinned ? "Unpinned again." : "Pinned again.";
    },
  };
}
