// "Things your assistant remembers": the newest memories, paged, with where each came
// from, and a box to remember something new.
import { api, type MemoryRecord } from "../api";
import type { App, View } from "../app";
import { h } from "../dom";
import { PagedList } from "../logic/paged";
import { when } from "../logic/time";
import { remember } from "../logic/actions";
import { countWords, statusWords } from "../logic/words";
import { beforeAfter } from "./pieces";

export function latestView(app: App): View {
  const list = new PagedList<MemoryRecord>((after, count) => api.latest(after, count));
  const summary = h("p", { class: "muted" });
  const items = h("ul", { class: "memories", "aria-label": "Memories, newest first" });
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

  function render(): void {
    const total = app.store?.active ?? list.items.length;
    summary.textContent = total === 0 ? "" : `${countWords(total, "memory", "memories")}, newest first.`;
    items.replaceChildren(...list.items.map((m) => row(app, m)));
    if (list.items.length === 0) {
      items.replaceChildren(h("li", { class: "empty" }, "Nothing yet. What your assistant learns appears here."));
    }
    more.hidden = list.done;
  }

  const element = h(
    "section",
    { class: "view", "aria-labelledby": "latest-title" },
    h("h1", { id: "latest-title" }, "Things your assistant remembers"),
    summary,
    form,
    items,
    more,
  );
  return {
    element,
    async refresh() {
      await list.reload();
      render();
    },
    focus: () => input.focus(),
  };
}

function row(app: App, memory: MemoryRecord): HTMLElement {
  const details = h("div", { class: "lineage", hidden: true });
  const toggle = h("button", { type: "button", class: "quiet", "aria-expanded": "false" }, "Where this came from");
  toggle.addEventListener("click", async () => {
    const open = toggle.getAttribute("aria-expanded") === "true";
    toggle.setAttribute("aria-expanded", String(!open));
    details.hidden = open;
    if (!open && details.childElementCount === 0) {
      try {
        const lineage = await api.lineage(memory.id);
        const origin = lineage.origin;
        details.replaceChildren(
          origin
            ? h(
                "div",
                {},
                h("p", {}, `From: “${origin.changeset.raw_input ?? origin.changeset.inputs.join(" · ")}” · ${statusWords(origin)}`),
                beforeAfter(origin),
              )
            : h("p", {}, "It was there before changes were recorded."),
        );
      } catch (e) {
        app.fail(e);
      }
    }
  });
  return h(
    "li",
    { class: "memory" },
    h("p", { class: "content" }, memory.content),
    h("p", { class: "meta" }, h("time", { datetime: new Date(memory.timestamp_ms).toISOString() }, when(memory.timestamp_ms, app.now())), " ", toggle),
    details,
  );
}
