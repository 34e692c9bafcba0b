// One memory as a card, in the memories and the search views: its text, when it was
// learned, and on request where it came from (the change that made it, as a before/after).
import { type AccessStats, api, type MemoryRecord } from "../api";
import type { App } from "../app";
import { h } from "../dom";
import { changeMemory, deleteMemory, pinMemory } from "../logic/actions";
import { when } from "../logic/time";
import { attributeWords, statusWords } from "../logic/words";
import { attributesForm } from "./attributes-form";
import { confirmForget } from "./forget";
import { beforeAfter } from "./pieces";
import { ancestryPicture } from "./pictures";

/** How often search and recall gave the assistant this memory, in words. */
export function accessWords(access: AccessStats, now: number): string {
  if (access.access_count === 0 || access.last_accessed_ms === null) return "Your assistant has not been given it by a search or recall yet.";
  const times = access.access_count === 1 ? "once" : `${access.access_count} times`;
  return `Your assistant was given it ${times} by a search or recall, last ${when(access.last_accessed_ms, now)}.`;
}

/** A memory as a card: its text, when, an optional note, and "Where this came from". */
export function memoryRow(app: App, memory: MemoryRecord, note?: string): HTMLElement {
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
        const waiting = (app.store?.dims ?? 0) > 0 && !lineage.memory.has_embedding;
        const whole = h("button", { type: "button", class: "quiet", "aria-expanded": "false" }, "Its whole history");
        whole.addEventListener("click", () => {
          const shown = details.querySelector(".ancestry");
          whole.setAttribute("aria-expanded", String(!shown));
          if (shown) shown.remove();
          else whole.after(ancestryPicture(app, memory.id));
        });
        details.replaceChildren(
          h("p", { class: "meta access" }, accessWords(lineage.access, app.now())),
          ...(waiting ? [h("p", { class: "meta vector" }, "Search finds it by its words only until its search vector is made.")] : []),
          origin
            ? h(
                "div",
                {},
                h("p", {}, `From: “${origin.changeset.raw_input ?? origin.changeset.inputs.join(" · ")}” · ${statusWords(origin)}`),
                beforeAfter(origin),
              )
            : h("p", {}, "It was there before changes were recorded."),
          whole,
        );
      } catch (e) {
        app.fail(e);
      }
    }
  });
  const forget = h(
    "button",
    { type: "button", class: "danger-quiet", "data-action": "forget", "aria-label": `Forget for good… “${short(memory.content)}”`, title: "Removes it for good: this cannot be undone" },
    "Forget for good…",
  );
  forget.addEventListener("click", () => void confirmForget(app, { memory_ids: [memory.id], mentioning: null }));
  const content = h("p", { class: "content" }, memory.content);
  const change = h("button", { type: "button", class: "quiet", "data-action": "change", "aria-label": `Change “${short(memory.content)}”` }, "Change");
  change.addEventListener("click", () => content.replaceWith(changeForm(app, memory, content)));
  const attributesButton = h(
    "button",
    { type: "button", class: "quiet", "data-action": "attributes", "aria-label": `Details of “${short(memory.content)}”` },
    "Details",
  );
  attributesButton.addEventListener("click", () => content.replaceWith(attributesForm(app, memory, content)));
  const remove = h(
    "button",
    { type: "button", class: "quiet", "data-action": "delete", "aria-label": `Delete “${short(memory.content)}”`, title: "Sets it aside; Undo brings it back" },
    "Delete",
  );
  remove.addEventListener("click", () => void app.act(() => deleteMemory(memory)));
  const pin = h(
    "button",
    { type: "button", class: "quiet", "data-action": "pin", "aria-pressed": String(memory.pinned), "aria-label": `Pin “${short(memory.content)}”` },
    memory.pinned ? "Pinned" : "Pin",
  );
  pin.addEventListener("click", () => void app.act(() => pinMemory(memory, !memory.pinned)));
  const attributes = attributeWords(memory);
  return h(
    "li",
    { class: memory.pinned ? "memory pinned" : "memory", "data-row": "", "data-key": memory.id },
    content,
    memory.pinned ? h("p", { class: "meta" }, "Pinned: nothing replaces or rewrites it without asking you.") : null,
    attributes ? h("p", { class: "meta attributes" }, attributes) : null,
    h("p", { class: "meta" }, h("time", { datetime: new Date(memory.timestamp_ms).toISOString() }, when(memory.timestamp_ms, app.now())),
      note ? ` · ${note}` : null,
      " ",
      toggle,
      change,
      attributesButton,
      remove,
      pin,
      h("span", { class: "apart" }, forget),
    ),
    details,
  );
}

/** The text of a memory being changed, with Save and Cancel (Escape cancels too). */
function changeForm(app: App, memory: MemoryRecord, content: HTMLElement): HTMLElement {
  const area = h("textarea", { "aria-label": "The memory's new text", rows: "3" }) as HTMLTextAreaElement;
  // As it started: Ctrl+Z in the box undoes the newest action until something is typed.
  area.defaultValue = memory.content;
  const save = h("button", { type: "button", class: "primary" }, "Save");
  const cancel = h("button", { type: "button", class: "quiet" }, "Cancel");
  const form = h("div", { class: "change-memory" }, area, h("p", {}, save, " ", cancel));
  const close = () => {
    form.replaceWith(content);
    content.closest("li")?.querySelector<HTMLElement>("[data-action=change]")?.focus();
  };
  save.addEventListener("click", () => void app.act(() => changeMemory(memory, area.value), "change"));
  cancel.addEventListener("click", close);
  area.addEventListener("keydown", (e) => {
    if (e.key === "Escape") close();
  });
  queueMicrotask(() => area.focus());
  return form;
}

/** A memory's text cut for a button's accessible name. */
function short(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
