// A person's decision on one change, memory by memory: each proposed memory kept as it
// is, edited or left out; each replaced memory optionally kept too. `plan` turns it into
// the one call that carries it out.
import type { ChangesetView } from "../api";

export type Choice = { kind: "keep" } | { kind: "edit"; text: string } | { kind: "leave" };

export interface Draft {
  /** One choice per entry of `view.after`. */
  after: Choice[];
  /** Per entry of `view.before`: whether the old memory stays too. */
  keepOld: boolean[];
}

export type Plan =
  | { kind: "approve" }
  | { kind: "approve_edited"; memories: string[] }
  | { kind: "reject" };

export function freshDraft(view: ChangesetView): Draft {
  return {
    after: view.after.map(() => ({ kind: "keep" })),
    keepOld: view.before.map((b) => b.kept),
  };
}

/** Whether the person changed anything from the proposal. */
export function isEdited(view: ChangesetView, draft: Draft): boolean {
  return (
    draft.after.some((c) => c.kind !== "keep") || draft.keepOld.some((keep, i) => keep !== view.before[i]?.kept)
  );
}

/** The memories that would be stored: kept or edited proposals, then old ones kept. */
export function resultingMemories(view: ChangesetView, draft: Draft): string[] {
  const out: string[] = [];
  view.after.forEach((item, i) => {
    const choice = draft.after[i] ?? { kind: "keep" };
    if (choice.kind === "keep") out.push(item.content);
    if (choice.kind === "edit" && choice.text.trim() !== "") out.push(choice.text.trim());
  });
  view.before.forEach((item, i) => {
    if (draft.keepOld[i] && !out.includes(item.content)) out.push(item.content);
  });
  return out;
}

/** The call that carries out the draft. Leaving out everything of a change that replaces
 * nothing is a rejection (nothing would be stored). Changes with more items than shown cannot be
 * edited piecewise (the rest would be lost), so they are approved as proposed. */
export function plan(view: ChangesetView, draft: Draft): Plan {
  if (!isEdited(view, draft) || view.after_more > 0 || view.before_more > 0) return { kind: "approve" };
  const memories = resultingMemories(view, draft);
  return memories.length === 0 && view.before.length === 0 ? { kind: "reject" } : { kind: "approve_edited", memories };
}

/** What approving `view` as drafted does, in a sentence for the button's description. */
export function planWords(view: ChangesetView, draft: Draft): string {
  const p = plan(view, draft);
  if (p.kind === "reject") return "Nothing would be saved, so this says no to the change.";
  if (p.kind === "approve") return "Saves the change as suggested.";
  const n = p.memories.length;
  return n === 0
    ? "Removes the older memories and saves nothing new."
    : `Saves ${n === 1 ? "1 memory" : `${n} memories`} as you edited them.`;
}
