// The pictures: activity per day by who decided (History), a memory's ancestry as a tree
// you can walk (its "Where this came from"), and the week at a glance (Memories). Each
// says in words what it shows, for screen readers and for anyone who would rather read.
import { api, type ActivityEvent, type Ancestry, type AncestryNode, type MemoryId, type WeekSummary } from "../api";
import type { App } from "../app";
import { h } from "../dom";
import { WHO_ORDER, WHO_WORDS, activityDays, activitySentence, madeWords, standingWords, weekTiles, type Day } from "../logic/pictures";

const SVG = "http://www.w3.org/2000/svg";

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, ...children: Node[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** Changes per day over the last `days` days, stacked by who decided, with a legend, a
 * sentence and the numbers as a table. */
export function activityPicture(events: ActivityEvent[], now: number, days = 30): HTMLElement {
  const data = activityDays(events, now, days);
  const sentence = activitySentence(data);
  const most = Math.max(1, ...data.map((d) => d.total));
  const [barW, gap, height, left, bottom] = [14, 4, 110, 28, 20];
  const width = left + data.length * (barW + gap);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height + bottom}`, role: "img", "aria-labelledby": "activity-sentence", class: "activity-chart" });
  chart.append(
    svg("line", { x1: left - 4, y1: height, x2: width, y2: height, class: "axis" }),
    svg("text", { x: left - 8, y: 10, class: "tick", "text-anchor": "end" }, document.createTextNode(String(most))),
    svg("text", { x: left - 8, y: height, class: "tick", "text-anchor": "end" }, document.createTextNode("0")),
  );
  data.forEach((day, i) => {
    const x = left + i * (barW + gap);
    const group = svg("g", {}, svg("title", {}, document.createTextNode(dayWords(day))));
    let y = height;
    for (const who of WHO_ORDER) {
      const n = day.counts[who];
      if (n === 0) continue;
      const barH = (n / most) * (height - 12);
      y -= barH;
      group.append(svg("rect", { x, y, width: barW, height: barH, class: `who-${who}` }));
    }
    if (i === 0 || i === data.length - 1 || i === Math.floor(data.length / 2)) {
      group.append(svg("text", { x: x + barW / 2, y: height + 15, class: "tick", "text-anchor": "middle" }, document.createTextNode(day.label)));
    }
    chart.append(group);
  });
  const legend = h(
    "ul",
    { class: "legend", "aria-label": "Colours" },
    ...WHO_ORDER.map((who) => h("li", {}, h("span", { class: `swatch who-${who}`, "aria-hidden": "true" }), WHO_WORDS[who])),
  );
  const busy = data.filter((d) => d.total > 0);
  const table = h(
    "table",
    {},
    h("caption", {}, "Changes per day"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Day"), ...WHO_ORDER.map((who) => h("th", { scope: "col" }, WHO_WORDS[who])))),
    h(
      "tbody",
      {},
      ...(busy.length > 0
        ? busy.map((d) => h("tr", {}, h("th", { scope: "row" }, d.label), ...WHO_ORDER.map((who) => h("td", {}, String(d.counts[who])))))
        : [h("tr", {}, h("td", { colspan: String(WHO_ORDER.length + 1) }, "No changes."))]),
    ),
  );
  return h(
    "figure",
    { class: "picture activity", id: "activity" },
    h("figcaption", {}, h("h2", {}, `The last ${days} days`), h("p", { id: "activity-sentence" }, sentence)),
    chart,
    legend,
    h("details", {}, h("summary", {}, "The numbers, day by day"), table),
  );
}

function dayWords(day: Day): string {
  if (day.total === 0) return `${day.label}: no changes`;
  return `${day.label}: ${WHO_ORDER.filter((w) => day.counts[w] > 0)
    .map((w) => `${day.counts[w]} ${WHO_WORDS[w].toLowerCase()}`)
    .join(", ")}`;
}

/** A memory's ancestry as a tree: the memory, then what it was made from, each a button
 * that walks to that memory's own ancestry. */
export function ancestryPicture(app: App, first: MemoryId): HTMLElement {
  const box = h("div", { class: "picture ancestry", role: "region", "aria-label": "Its whole history" });
  const trail: MemoryId[] = [];
  async function show(id: MemoryId): Promise<void> {
    let tree: Ancestry;
    try {
      tree = await api.ancestry(id);
    } catch (e) {
      app.fail(e);
      return;
    }
    const byId = new Map(tree.nodes.map((n) => [n.memory.id, n]));
    const drawn = new Set<MemoryId>();
    const branch = (node: AncestryNode, depth: number): HTMLElement => {
      drawn.add(node.memory.id);
      const parents = node.parents.map((p) => byId.get(p)).filter((p): p is AncestryNode => p !== undefined && !drawn.has(p.memory.id));
      return h(
        "li",
        { class: `node ${node.memory.status}` },
        nodeCard(node, depth === 0, app.now(), () => void walk(node.memory.id)),
        parents.length > 0 ? h("ul", { "aria-label": "Made from" }, ...parents.map((p) => branch(p, depth + 1))) : null,
      );
    };
    const root = byId.get(tree.root);
    const forward = root?.successors ?? [];
    const back = h("button", { type: "button", class: "quiet", disabled: trail.length === 0 }, "Back");
    back.addEventListener("click", () => {
      const previous = trail.pop();
      if (previous) void show(previous);
    });
    const replaced = forward.map((s) => {
      const b = h("button", { type: "button", class: "quiet" }, "See what replaced it");
      b.addEventListener("click", () => void walk(s));
      return b;
    });
    box.replaceChildren(
      h("p", { class: "meta" }, `${tree.nodes.length === 1 ? "It was made from nothing older." : `It was built from ${tree.nodes.length - 1} older ${tree.nodes.length === 2 ? "memory" : "memories"}.`}${tree.truncated ? " (The oldest are not shown.)" : ""} `, back, ...replaced),
      root ? h("ul", { class: "tree", "aria-label": "The memory and what it was made from" }, branch(root, 0)) : h("p", {}, "This memory is gone."),
    );
    box.querySelector<HTMLElement>(".node button")?.focus();
    async function walk(next: MemoryId): Promise<void> {
      if (next === id) return;
      trail.push(id);
      await show(next);
    }
  }
  void show(first);
  return box;
}

function nodeCard(node: AncestryNode, isRoot: boolean, now: number, onWalk: () => void): HTMLElement {
  const label = h("span", { class: "text" }, node.memory.content);
  const meta = h("span", { class: "meta" }, `${madeWords(node, now)} · ${standingWords(node)}`);
  if (isRoot) return h("div", { class: "card root", "aria-current": "true" }, label, meta);
  const button = h("button", { type: "button", class: "card", title: "Show this memory's own history" }, label, meta);
  button.addEventListener("click", onWalk);
  return button;
}

/** The week at a glance. */
export function weekPicture(week: WeekSummary): HTMLElement {
  return h(
    "ul",
    { class: "picture week", "aria-label": "This week" },
    ...weekTiles(week).map((t) => h("li", { id: t.id }, h("strong", {}, t.figure), " ", h("span", {}, t.words))),
  );
}
