// A change in words for the history: a title that says what it did, with the memory's own
// text; when it was decided (and proposed, when that was another time); what an undo left.
import type { ChangeCount, ChangesetView, Section } from "../api";
import { forgetHeadline } from "./forget";
import { when } from "./time";
import { countWords, SECTION_WORDS, statusWords } from "./words";

/** A memory's text in quotes, cut with … to `max` characters. */
export function quoted(text: string, max = 60): string {
  const one = text.replace(/\s+/g, " ").trim();
  return `“${one.length > max ? `${one.slice(0, max - 1).trimEnd()}…` : one}”`;
}

/** The first memory of a side, quoted, and how many more. */
function some(side: ChangeCount): string {
  const first = quoted(side.first ?? "");
  return side.count > 1 ? `${first} and ${side.count - 1} more` : first;
}

/** What a change did (or would do), with the memory's text: “Remembered “I'm allergic…””. */
export function changeTitle(view: ChangesetView): string {
  const cs = view.changeset;
  if (cs.kind === "forget") return forgetHeadline(view);
  const { added, removed } = view;
  const profile = cs.core_after !== null && cs.core_before !== cs.core_after;
  if (cs.kind === "revert") {
    if (added.count > 0 && removed.count > 0) return `Undo: brought back ${some(added)} in place of ${some(removed)}`;
    if (removed.count > 0) return `Undo: took back ${some(removed)}`;
    if (added.count > 0) return `Undo: brought back ${some(added)}`;
    return "Undo: put the profile back as it was";
  }
  if (cs.outcome === "import") return `Imported ${countWords(added.count, "memory", "memories")}${cs.raw_input ? ` from ${cs.raw_input}` : ""}`;
  const done = cs.status === "committed" || cs.status === "reverted";
  const verb = (now: string, past: string) => (done ? past : now);
  let title: string;
  if (cs.outcome === "deleted") title = `${verb("Delete", "Deleted")} ${some(removed)}`;
  else if (cs.outcome === "edited" && added.first === removed.first) title = `${verb("Change", "Changed")} the details of ${some(added)}`;
  else if (cs.outcome === "edited") title = `${verb("Change", "Changed")} ${some(removed)} to ${some(added)}`;
  else if (added.count > 0 && removed.count > 0) title = `${verb("Replace", "Replaced")} ${some(removed)} with ${some(added)}`;
  else if (added.count > 0) title = `${verb("Remember", "Remembered")} ${some(added)}`;
  else if (removed.count > 0) title = `${verb("Remove", "Removed")} ${some(removed)}`;
  else return profile ? verb("Update the profile", "Updated the profile") : "Nothing to change";
  return profile ? `${title}, and ${verb("update", "updated")} the profile` : title;
}

/** Who decided and when, then when it was proposed when that was at another time:
 * “You approved it · just now · proposed 3 days ago”; an undone change, with `undoneAt`
 * (when its undo was decided): “Undone · just now · saved 3 days ago”. */
export function decidedWords(view: ChangesetView, now: number, undoneAt: number | null = null): string {
  const cs = view.changeset;
  // An undone change says when it was undone (the undo's own time), then when it was saved.
  if (cs.status === "reverted" && undoneAt !== null) {
    return `${statusWords(view)} · ${when(undoneAt, now)} · saved ${when(cs.decided_at_ms ?? cs.created_at_ms, now)}`;
  }
  const decided = cs.decided_at_ms;
  if (decided === null) return `${statusWords(view)} · proposed ${when(cs.created_at_ms, now)}`;
  const apart = Math.abs(decided - cs.created_at_ms) > 60_000;
  return `${statusWords(view)} · ${when(decided, now)}${apart ? ` · proposed ${when(cs.created_at_ms, now)}` : ""}`;
}

/** Who learned what a change is built on: the agent whose key made it, or “your assistant”
 * for a change made on this computer. */
export function learnerWords(view: ChangesetView): string {
  const agent = view.changeset.agent_key;
  return agent ? `the agent “${agent}”` : "your assistant";
}

/** Which agent made a change through its key, for a history row; `null` for a change made
 * on this computer. */
export function agentWords(view: ChangesetView): string | null {
  const agent = view.changeset.agent_key;
  return agent ? `Made through the key of the agent “${agent}”` : null;
}

/** The profile sections an undo left, said for people; `null` when it left none. */
export function profileLeftWords(sections: Section[]): string | null {
  if (sections.length === 0) return null;
  const names = sections.map((s) => `“${SECTION_WORDS[s].title}”`);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return sections.length === 1
    ? `The profile's ${list} was not put back: it was changed again since, so it stays as it is now.`
    : `The profile's ${list} were not put back: they were changed again since, so they stay as they are now.`;
}
