// "What would your assistant be told?" in words: the profile by its sections, the newest
// memories and the ones that match, each a list; the block exactly as the assistant reads
// it (tags and all) folded away beneath.
import type { Recall, RecallItem } from "../api";
import { h } from "../dom";
import { SECTION_WORDS } from "../logic/words";

const PARTS: Array<{ reason: RecallItem["reason"]; title: string }> = [
  { reason: "core", title: "Always: the profile" },
  { reason: "latest", title: "The newest memories" },
  { reason: "relevant", title: "Memories that match what you asked" },
];

/** How much of the room for memories the block takes, in words. */
export function roomWords(recall: Recall): string {
  const share = recall.budget > 0 ? Math.min(100, Math.round((recall.tokens / recall.budget) * 100)) : 0;
  return `This fills about ${share}% of the room your assistant has for memories before it answers (${recall.tokens} of ${recall.budget} tokens; a token is a short word or part of a word).`;
}

/** The block as people read it. */
export function recallBlock(recall: Recall): HTMLElement[] {
  const out: HTMLElement[] = [h("h2", {}, "What your assistant would be told"), h("p", { class: "muted" }, roomWords(recall))];
  for (const part of PARTS) {
    const items = recall.items.filter((i) => i.reason === part.reason);
    if (items.length === 0) continue;
    out.push(h("h3", {}, part.title));
    if (part.reason === "core") out.push(...items.flatMap((i) => profileParts(i.content)));
    else out.push(h("ul", { class: "told" }, ...items.map((i) => h("li", {}, itemText(i)))));
  }
  if (recall.items.length === 0) out.push(h("p", {}, "Nothing: there is nothing remembered yet."));
  out.push(
    h(
      "details",
      { class: "technical" },
      h("summary", {}, "Exactly what your assistant reads"),
      h("p", { class: "muted" }, "The block as it goes to the assistant, with the marks that tell it these are memories, not instructions."),
      h("pre", {}, recall.text),
    ),
  );
  return out;
}

function itemText(item: RecallItem): string {
  const notes: string[] = [];
  if (item.flags.length > 0) notes.push("marked for the assistant as reading like an instruction to it");
  if (item.truncated) notes.push("cut short, it is long");
  const text = item.content.replace(/\s*… \[cut: [^\]]*\]$/, "…");
  return notes.length > 0 ? `${text} (${notes.join("; ")})` : text;
}

/** core.md's sections as headings in words and their lines as a list (Markdown list marks
 * and emphasis dropped); empty sections left out. */
export function profileParts(markdown: string): HTMLElement[] {
  const out: HTMLElement[] = [];
  let list: HTMLElement | null = null;
  for (const raw of markdown.split("\n")) {
    const line = raw.trim();
    const heading = /^#\s+(SOUL|TOOLS|RULE|USER)\s*$/.exec(line);
    if (heading) {
      out.push(h("h4", {}, SECTION_WORDS[heading[1] as keyof typeof SECTION_WORDS].title));
      list = null;
      continue;
    }
    if (line === "" || line.startsWith("<!--")) continue;
    const text = line.replace(/^[-*+]\s+/, "").replace(/^#+\s+/, "").replace(/\*\*|__|`/g, "");
    if (!list) {
      list = h("ul", { class: "told" });
      out.push(list);
    }
    list.append(h("li", {}, text));
  }
  // A heading with nothing under it says nothing: leave it out.
  return out.filter((el, i) => el.tagName !== "H4" || (out[i + 1] !== undefined && out[i + 1].tagName === "UL"));
}
