// The profile as a person reads it: the few Markdown forms core.md uses (headings, bullet
// and numbered lists, paragraphs, **bold**, *emphasis*, `code`, [links](…)) drawn as
// text, never as HTML: every piece goes in through `h` (text nodes only), so nothing in a
// section can become markup, a script or a live link.
import { h } from "../dom";

type Item = { depth: number; text: string };
type List = { kind: "list"; start: number | null; items: Item[] };
type Paragraph = { kind: "paragraph"; lines: string[] };
type Block = { kind: "heading"; text: string } | List | Paragraph;

const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const NUMBERED = /^(\s*)(\d{1,9})[.)]\s+(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;

/** The blocks of `text`, in order. A list is numbered when its first item is (`start`). */
export function blocks(text: string): Block[] {
  const out: Block[] = [];
  let paragraph: Paragraph | null = null;
  let list: List | null = null;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    const heading = HEADING.exec(line);
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (line.trim() === "") {
      paragraph = null;
      list = null;
    } else if (heading) {
      paragraph = null;
      list = null;
      out.push({ kind: "heading", text: heading[1] });
    } else if (bullet || numbered) {
      const indent = (bullet ?? numbered)?.[1] ?? "";
      const start = numbered ? Number(numbered[2]) : null;
      const item = bullet ? bullet[2] : (numbered?.[3] ?? "");
      // A new kind of list at the margin starts a new list; an indented one nests.
      if (!list || ((list.start === null) !== (start === null) && indent.length === 0)) {
        list = { kind: "list", start, items: [] };
        out.push(list);
      }
      paragraph = null;
      list.items.push({ depth: Math.min(3, Math.floor(indent.replace(/\t/g, "  ").length / 2)), text: item });
    } else if (list && /^\s+\S/.test(line)) {
      // A list item's text going on over the next line.
      const last = list.items[list.items.length - 1];
      last.text = `${last.text} ${line.trim()}`;
    } else {
      list = null;
      if (!paragraph) {
        paragraph = { kind: "paragraph", lines: [] };
        out.push(paragraph);
      }
      paragraph.lines.push(line.trim());
    }
  }
  return out;
}

const INLINE = /(\*\*|__)(?=\S)(.+?)(?<=\S)\1|\*(?=\S)([^*]+?)(?<=\S)\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** `text` with its inline marks drawn: strong, emphasis, code; a link as its words and,
 *  after them, where it points (shown, not followed). */
export function inline(text: string): (Node | string)[] {
  const out: (Node | string)[] = [];
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    const index = m.index ?? 0;
    if (index > at) out.push(text.slice(at, index));
    if (m[2] !== undefined) out.push(h("strong", {}, ...inline(m[2])));
    else if (m[3] !== undefined) out.push(h("em", {}, ...inline(m[3])));
    else if (m[4] !== undefined) out.push(h("code", {}, m[4]));
    else out.push(...inline(m[5]), " ", h("span", { class: "muted" }, `(${m[6]})`));
    at = index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** A section's text drawn for reading. */
export function markdown(text: string): HTMLElement {
  const root = h("div", { class: "markdown" });
  for (const block of blocks(text)) {
    if (block.kind === "heading") {
      root.append(h("h3", {}, ...inline(block.text)));
    } else if (block.kind === "paragraph") {
      const p = h("p", {});
      block.lines.forEach((line, i) => {
        if (i > 0) p.append(h("br", {}));
        p.append(...inline(line));
      });
      root.append(p);
    } else {
      const list = block.start === null ? h("ul", {}) : h("ol", block.start === 1 ? {} : { start: String(block.start) });
      for (const item of block.items) {
        list.append(h("li", item.depth > 0 ? { class: `depth-${item.depth}` } : {}, ...inline(item.text)));
      }
      root.append(list);
    }
  }
  return root;
}
