// "Things your assistant remembers": the newest memories, paged, with where each came
// from, and a box to remember something new.
import { api, type MemoryRecord } from "../api";
import type { App, View } from "../app";
import { h } from "../dom";
import { redraw } from "../focus";
import { PagedList } from "../logic/paged";
import { remember } from "../logic/actions";
import { countWords } from "../logic/words";
import { memoryRow } from "./memory-row";
import { weekPicture } from "./pictures";

export function latestView(app: App): View {
  const list = new PagedList<MemoryRecord>((after, count) => api.latest(after, count));
  const summary = h("p", { class: "muted" });
  const week = h("div", { class: "week-box" });
  const items = h("ul", { class: "memories", id: "latest-list", "aria-label": "Memories, newest first" });
  const more = h("button", { type: "button" }, "Show older memories");
  more.addEventListener("click", async () => {
    await list.more().catch((e: unknown) => app.fail(e));
    render();
  });

  const input = h("textarea", { id: "remember-text", rows: "2", placeholder: "For example: I'm allergic to peanuts." });
  const submit = h("button", { type: "submit", class: "primary" }, "Remember");
  const form = h(
    "form",
    { class: "remember", "aria-label": "Remember something" },
    h("label", { for: "remember-text" }, "Tell your assistant something to remember"),
    input,
    submit,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value;
    submit.disabled = true;
    const ok = await app.act(() => remember(text));
    submit.disabled = false;
    if (ok) input.value = "";
    input.focus();
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) form.requestSubmit();
  });

  // A refresh (after a change here or in another process) keeps the card of a memory that
  // did not change, with what the person opened in it ("Where this came from", its history).
  let rows = new Map<string, HTMLElement>();
  function render(): void {
    const total = app.store?.active ?? list.items.length;
    summary.textContent = total === 0 ? "" : `${countWords(total, "memory", "memories")}, newest first.`;
    const next = new Map<string, HTMLElement>();
    for (const m of list.items) {
      const key = JSON.stringify(m);
      next.set(key, rows.get(key) ?? memoryRow(app, m));
    }
    rows = next;
    redraw(() => {
      items.replaceChildren(...rows.values());
      if (list.items.length === 0) {
        items.replaceChildren(h("li", { class: "empty" }, "Nothing yet. What your assistant learns appears here."));
      }
    });
    more.hidden = list.done;
  }

  const element = h(
    "section",
    { class: "view", "aria-labelledby": "latest-title" },
    h("h1", { id: "latest-title" }, "Things your assistant remembers"),
    week,
    summary,
    form,
    items,
    more,
  );
  return {
    element,
    async refresh() {
      const [summaryOfWeek] = await Promise.all([api.weekSummary(), list.reload()]);
      week.replaceChildren(weekPicture(summaryOfWeek));
      render();
    },
    focus: () => input.focus(),
  };
}
