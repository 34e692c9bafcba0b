// Forgetting in words: what a forget would remove, asked before anything happens, and what
// it removed. Nothing here touches the DOM.
import type { ChangesetView, ForgetPlan, ForgetReceipt, ForgetRequest } from "../api";
import { countWords } from "./words";

/** A memory a forget would remove: its text, and what it is besides a memory in use. */
export interface ForgetItem {
  text: string;
  /** "pinned", or "no longer in use" (replaced or deleted earlier); `null` otherwise. */
  tag: string | null;
}

/** The confirmation for a plan: a question, how many memories go, their texts and what
 * else goes. */
export interface ForgetQuestion {
  title: string;
  /** How many memories go, in use and replaced earlier, in a sentence. */
  count: string;
  /** Each memory that would be forgotten, oldest first. */
  memories: ForgetItem[];
  /** Everything else that is removed, and that it cannot be undone. */
  notes: string[];
}

/** How many memories a plan removes, in words: those in use (pinned ones said) and those
 * no longer in use (older versions, deleted ones), which go too. */
export function countSentence(plan: ForgetPlan): string {
  const n = plan.memories.length;
  if (n === 0) return "No memory is forgotten.";
  const replaced = plan.memories.filter((m) => m.status === "superseded").length;
  const inUse = n - replaced;
  const pinned = plan.memories.filter((m) => m.pinned && m.status !== "superseded").length;
  const parts: string[] = [];
  if (inUse > 0) parts.push(`${countWords(inUse, "memory in use", "memories in use")}${pinned > 0 ? ` (${pinned === inUse ? (inUse === 1 ? "it is pinned" : "all pinned") : `${pinned} of them pinned`})` : ""}`);
  if (replaced > 0) parts.push(`${replaced.toLocaleString("en")} no longer in use (replaced or deleted earlier)`);
  return `${countWords(n, "memory goes", "memories go")} for good: ${parts.join(" and ")}.`;
}

function tagOf(memory: ForgetPlan["memories"][number]): string | null {
  if (memory.status === "superseded") return "no longer in use";
  return memory.pinned ? "pinned" : null;
}

/** Whether a plan would remove anything at all. */
export function forgetsAnything(plan: ForgetPlan): boolean {
  return plan.memories.length > 0 || plan.changesets > 0 || plan.core_versions > 0 || (plan.agent_state ?? 0) > 0;
}

/** The words shown before a forget: a phrase's own wording when one was typed. */
export function forgetQuestion(plan: ForgetPlan, request: ForgetRequest): ForgetQuestion {
  const phrase = request.mentioning?.trim() ?? "";
  const n = plan.memories.length;
  const title =
    phrase !== ""
      ? `Forget everything that mentions “${phrase}”?`
      : `Forget ${n === 1 ? "this memory" : countWords(n, "memory", "memories")} for good?`;
  const notes: string[] = [];
  const asked = request.memory_ids?.length ?? 0;
  if (phrase === "" && n > asked) {
    notes.push(
      `This includes ${countWords(n - asked, "older memory", "older memories")} it was built from: the same fact in earlier words.`,
    );
  }
  const elsewhere: string[] = [];
  if (plan.changesets > 0) elsewhere.push(countWords(plan.changesets, "earlier change", "earlier changes"));
  if (plan.core_versions > 0) elsewhere.push(countWords(plan.core_versions, "version of the profile", "versions of the profile"));
  if ((plan.agent_state ?? 0) > 0) elsewhere.push(countWords(plan.agent_state ?? 0, "assistant note", "assistant notes"));
  if (elsewhere.length > 0) notes.push(`The words are also removed from ${elsewhere.join(" and ")}.`);
  const removed = plan.agent_state_removed ?? [];
  if (removed.length > 0) {
    const names = removed.map((e) => `“${e.key}” of ${e.agent_id}`).join(", ");
    notes.push(`These assistant notes go whole, because their name holds the words: ${names}.`);
  }
  notes.push(
    "This cannot be undone: the text is removed from the disk too. The history keeps a note that something was forgotten, never what.",
  );
  notes.push(COPIES_OUTSIDE);
  return { title, count: countSentence(plan), memories: plan.memories.map((m) => ({ text: m.content, tag: tagOf(m) })), notes };
}

/** What a finished forget removed, in one sentence. */
export function receiptWords(receipt: ForgetReceipt): string {
  const parts = [`Forgotten for good: ${countWords(receipt.memories, "memory", "memories")}`];
  const elsewhere: string[] = [];
  if (receipt.changesets > 0) elsewhere.push(countWords(receipt.changesets, "change", "changes"));
  if (receipt.core_versions > 0) elsewhere.push(countWords(receipt.core_versions, "profile version", "profile versions"));
  const notes = receipt.agent_state ?? 0;
  if (notes > 0) elsewhere.push(countWords(notes, "assistant note", "assistant notes"));
  if (elsewhere.length > 0) parts.push(`its words were removed from ${elsewhere.join(" and ")}`);
  const unfinished = (receipt.unfinished ?? []).map((u) => ` Not finished yet: ${u}.`).join("");
  return `${parts.join("; ")}.${unfinished} ${COPIES_OUTSIDE}`;
}

/** What a forget cannot reach, said before and after it. */
const COPIES_OUTSIDE = "Copies saved outside the app before (exports, backups) still hold the words: delete them yourself.";

/** A forget change in one sentence: waiting (an agent asked) or done (its receipt). */
export function forgetHeadline(view: ChangesetView): string {
  const cs = view.changeset;
  const receipt = cs.forget?.receipt ?? null;
  if (receipt) {
    const what = countWords(receipt.memories, "memory", "memories");
    return receipt.phrase ? `Forgot ${what} and every mention of a phrase, for good` : `Forgot ${what} for good`;
  }
  const n = cs.related.length;
  if (cs.forget?.mentioning) return `Forget everything that mentions “${cs.forget.mentioning}”`;
  return `Forget ${countWords(n, "memory", "memories")} for good`;
}
