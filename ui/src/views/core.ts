// "What your assistant always knows": the four sections of the core profile as cards.
// Each can be edited (with a preview of what changes), locked against the AI,
// and rolled back to any text it had; every action can be undone.
import { api, type CoreView, type Section, SECTIONS, type SectionChange } from "../api";
import type { App, View } from "../app";
import { h } from "../dom";
import { when } from "../logic/time";
import { saveSection, lockSection } from "../logic/actions";
import { SECTION_WORDS } from "../logic/words";
import { markdown } from "./markdown";
import { lineDiff } from "./pieces";

const AUTHOR_WORDS: Record<string, string> = {
  llm: "suggested by the AI",
  user: "written by you",
  external: "edited in a file",
  initial: "the start",
};

export function coreView(app: App): View {
  const editing = new Map<Section, string>();
  const historyOpen = new Set<Section>();
  const cards = h("div", { class: "cards" });
  let core: CoreView | null = null;

  function render(): void {
    if (!core) return;
    const focused = document.activeElement?.id;
    cards.replaceChildren(...SECTIONS.map((s) => card(s)));
    if (focused) document.getElementById(focused)?.focus();
  }

  function card(section: Section): HTMLElement {
    const words = SECTION_WORDS[section];
    const text = core?.sections[section] ?? "";
    const locked = core?.locked.includes(section) ?? false;
    const id = `core-${section.toLowerCase()}`;
    const body = h("div", { class: "card-body" });
    const actions = h("div", { class: "actions" });
    const draft = editing.get(section);
    if (draft !== undefined) {
      const area = h("textarea", { id: `${id}-edit`, rows: "8", "aria-label": `${words.title}: your text` });
      // As it started: Ctrl+Z in the box undoes the newest action until something is typed.
      area.defaultValue = text;
      area.value = draft;
      area.addEventListener("input", () => editing.set(section, area.value));
      const save = h("button", { type: "button", class: "primary", id: `${id}-save` }, "Save");
      save.addEventListener("click", async () => {
        const ok = await app.act(() => saveSection(section, text, area.value));
        if (ok) {
          editing.delete(section);
          render();
          document.getElementById(`${id}-editbtn`)?.focus();
        }
      });
      const cancel = h("button", { type: "button", id: `${id}-cancel` }, "Cancel");
      cancel.addEventListener("click", () => {
        editing.delete(section);
        render();
        document.getElementById(`${id}-editbtn`)?.focus();
      });
      area.addEventListener("keydown", (e) => {
        if (e.key === "Escape") cancel.click();
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) save.click();
      });
      body.append(area);
      actions.append(save, cancel);
    } else {
      body.append(text.trim() === "" ? h("p", { class: "muted" }, "Nothing here yet.") : markdown(text));
      const edit = h("button", { type: "button", id: `${id}-editbtn` }, "Edit");
      edit.addEventListener("click", () => {
        editing.set(section, text);
        render();
        document.getElementById(`${id}-edit`)?.focus();
      });
      actions.append(edit);
    }
    const lock = h(
      "button",
      { type: "button", id: `${id}-lock`, "aria-pressed": String(locked) },
      locked ? "Locked" : "Lock",
    );
    lock.title = locked ? "The AI cannot change this. Click to unlock." : "Stop the AI from changing this.";
    lock.addEventListener("click", () => void app.act(() => lockSection(section, !locked)));
    const historyButton = h(
      "button",
      { type: "button", id: `${id}-history`, "aria-expanded": String(historyOpen.has(section)) },
      "Earlier versions",
    );
    const history = h("div", { class: "section-history", hidden: !historyOpen.has(section) });
    historyButton.addEventListener("click", () => {
      if (historyOpen.has(section)) historyOpen.delete(section);
      else historyOpen.add(section);
      render();
    });
    if (historyOpen.has(section)) void fillHistory(app, section, text, history);
    actions.append(lock, historyButton);
    return h(
      "section",
      { class: `card${locked ? " locked" : ""}`, "aria-labelledby": `${id}-title` },
      h("h2", { id: `${id}-title` }, words.title, locked ? h("span", { class: "tag" }, "locked") : null),
      h("p", { class: "muted" }, words.help),
      body,
      actions,
      history,
    );
  }

  const element = h(
    "section",
    { class: "view", "aria-labelledby": "core-title" },
    h("h1", { id: "core-title" }, "What your assistant always knows"),
    h("p", { class: "muted" }, "A short profile your assistant reads every time. Edit it freely; lock a part to keep the AI from changing it."),
    cards,
  );
  return {
    element,
    async refresh() {
      core = await api.core();
      render();
    },
    focus: () => document.getElementById("core-soul-editbtn")?.focus(),
  };
}

async function fillHistory(app: App, section: Section, current: string, into: HTMLElement): Promise<void> {
  let changes: SectionChange[];
  try {
    changes = await api.sectionHistory(section);
  } catch (e) {
    app.fail(e);
    return;
  }
  into.replaceChildren(
    h("h3", {}, "Earlier versions"),
    h(
      "ol",
      {},
      ...changes.map((change) => {
        const row = h(
          "li",
          {},
          h("p", { class: "meta" }, `${when(change.created_at_ms, app.now())} · ${AUTHOR_WORDS[change.author] ?? change.author}`),
          lineDiff(change.diff, "What changed in this version"),
        );
        if (change.text !== current) {
          const back = h("button", { type: "button" }, "Go back to this");
          back.addEventListener("click", () => void app.act(() => saveSection(section, current, change.text)));
          row.append(back);
        } else {
          row.append(h("span", { class: "tag" }, "current"));
        }
        return row;
      }),
    ),
  );
}
