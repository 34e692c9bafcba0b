// Plain words for what the store reports: no ids, no jargon.
import { type ChangesetView, type MemoryAttributes, type Section, type SearchHit, type SearchMode, STALE_MEANING, type StoreInfo } from "../api";

export const SECTION_WORDS: Record<Section, { title: string; help: string }> = {
  SOUL: { title: "Personality", help: "Who your assistant is: its mission and how it talks." },
  TOOLS: { title: "Tools", help: "What your assistant can use and how." },
  RULE: { title: "Rules", help: "Rules your assistant always follows." },
  USER: { title: "About you", help: "What your assistant always keeps in mind about you." },
};

export const MODE_WORDS: Record<SearchMode, string> = {
  hybrid: "Best match",
  vector: "By meaning",
  lexical: "By exact words",
};

/** How closely a search result matches, from its score (0 to 1, the same scale for every search). */
export function strengthWords(score: number | null): string {
  if (score === null) return "a match";
  if (score >= 0.75) return "a close match";
  if (score >= 0.5) return "a good match";
  if (score >= 0.25) return "a loose match";
  return "a faint match";
}

/** How a search result was found, and how closely it matches, for people. */
export function foundWords(hit: SearchHit): string {
  const how =
    hit.found_by === "both"
      ? "matches the meaning and the words"
      : hit.found_by === "vector"
        ? "similar in meaning"
        : "contains the words";
  return `${strengthWords(hit.score)}: ${how}`;
}

export function countWords(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

/** One line about a store: how much it holds and what waits. */
export function storeSummary(info: StoreInfo): string {
  const parts = [countWords(info.active, "memory", "memories")];
  if (info.pending_changesets > 0) parts.push(countWords(info.pending_changesets, "change waiting", "changes waiting"));
  if (info.captures_waiting > 0) parts.push(`${countWords(info.captures_waiting, "conversation", "conversations")} waiting for an AI`);
  return parts.join(" · ");
}

/** What the new input of a change was, shortened for a heading. */
export function inputWords(view: ChangesetView, max = 140): string {
  const cs = view.changeset;
  const text = cs.raw_input ?? cs.inputs.join(" · ");
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Where a change stands, in words. */
export function statusWords(view: ChangesetView): string {
  const cs = view.changeset;
  switch (cs.status) {
    case "pending":
      return "Waiting for you";
    case "stale":
      return `Out of date: ${STALE_MEANING}`;
    case "rejected":
      return cs.decided_by === "rerun" ? "Replaced by a newer version" : "You said no";
    case "reverted":
      return "Undone";
    case "committed":
      if (cs.decided_by === "auto") return "Saved automatically";
      if (cs.kind === "revert" || cs.kind === "forget") return "Done";
      return "You approved it";
  }
}

/** Why the LLM did not rebuild the memories, when it did not. */
export function outcomeNote(view: ChangesetView): string | null {
  switch (view.changeset.outcome) {
    case "fallback":
      return "The AI could not help, so the new text is kept as it was typed.";
    case "no_llm":
      return "No AI is connected, so the new text is kept as it was typed.";
    default:
      return null;
  }
}

/** A memory's attributes in a few words (“Preference · importance 0.8 · from chat · agent
 * planner · project: apollo”); empty when it has none. */
export function attributeWords(memory: MemoryAttributes): string {
  const parts: string[] = [];
  if (memory.memory_type) parts.push(memory.memory_type.charAt(0).toUpperCase() + memory.memory_type.slice(1));
  if (memory.importance !== null && memory.importance !== undefined) parts.push(`importance ${memory.importance}`);
  if (memory.source) parts.push(`from ${memory.source}`);
  if (memory.agent_id) parts.push(`agent ${memory.agent_id}`);
  if (memory.session_id) parts.push(`session ${memory.session_id}`);
  if (memory.user_id) parts.push(`user ${memory.user_id}`);
  for (const [key, value] of Object.entries(memory.metadata ?? {})) {
    parts.push(`${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
  }
  return parts.join(" · ");
}
