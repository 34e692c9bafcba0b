// A memory's details (its attributes) as a form, titled with the memory it edits: what sort
// of memory it is, how much it matters, where it came from, which assistant wrote it, in
// which conversation, and other details (JSON). Saving replaces the memory with one that
// carries them (a change History can undo); the user it belongs to stays as it is.
import type { MemoryAttributes, MemoryRecord } from "../api";
import type { App } from "../app";
import { h } from "../dom";
import { changeAttributes } from "../logic/actions";
import { quoted } from "../logic/history-words";

const KINDS = ["fact", "episode", "preference", "context"];

/** How much a memory matters, in words, and the number stored for each. */
export const IMPORTANCE_WORDS: Array<[string, string]> = [
  ["", "Not said"],
  ["0.2", "A little"],
  ["0.5", "Somewhat"],
  ["0.8", "A lot"],
  ["1", "Most of all"],
];

let forms = 0;

/** The form in place of `content`; Cancel (or Escape) puts `content` back. */
export function attributesForm(app: App, memory: MemoryRecord, content: HTMLElement): HTMLElement {
  const n = ++forms;
  const a = memory;
  const field = (label: string, name: string, input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, hint?: string) => {
    input.id = `attr-${name}-${n}`;
    return h("p", {}, h("label", { for: input.id }, label), input, hint ? h("small", {}, ` ${hint}`) : null);
  };
  const kind = h("input", { type: "text", list: `attr-kinds-${n}`, value: a.memory_type ?? "" });
  const now = a.importance === null || a.importance === undefined ? "" : String(a.importance);
  const choices = IMPORTANCE_WORDS.some(([v]) => v === now) ? IMPORTANCE_WORDS : [...IMPORTANCE_WORDS, [now, `${now} (as it was set)`] as [string, string]];
  const importance = h("select", {}, ...choices.map(([value, words]) => h("option", { value }, words)));
  importance.value = now;
  const source = h("input", { type: "text", value: a.source ?? "" });
  const agent = h("input", { type: "text", value: a.agent_id ?? "" });
  const session = h("input", { type: "text", value: a.session_id ?? "" });
  const metadata = h("textarea", { rows: "3" });
  metadata.value = metadata.defaultValue = a.metadata && Object.keys(a.metadata).length > 0 ? JSON.stringify(a.metadata, null, 2) : "";
  const save = h("button", { type: "button", class: "primary" }, "Save");
  const cancel = h("button", { type: "button", class: "quiet" }, "Cancel");
  const title = `Details of ${quoted(memory.content)}`;
  const form = h(
    "div",
    { class: "change-memory attributes-form", role: "group", "aria-label": title },
    h("p", { class: "form-title" }, title),
    h("datalist", { id: `attr-kinds-${n}` }, ...KINDS.map((k) => h("option", { value: k }))),
    field("What sort of memory", "kind", kind, "a fact, an episode (something that happened), a preference, a context, or a word of your own"),
    field("How much it matters", "importance", importance),
    field("Where it came from", "source", source, "for example: a chat, onboarding"),
    field("Which assistant wrote it", "agent", agent),
    field("Conversation", "session", session, "the conversation (session) it came from, if any"),
    field("Other details", "metadata", metadata, "names and values, written as {\"project\": \"apollo\"} (JSON)"),
    h("p", {}, save, " ", cancel),
  );
  const close = () => {
    form.replaceWith(content);
    content.closest("li")?.querySelector<HTMLElement>("[data-action=attributes]")?.focus();
  };
  save.addEventListener("click", () => {
    const read = readAttributes(memory, {
      kind: kind.value,
      importance: importance.value,
      source: source.value,
      agent: agent.value,
      session: session.value,
      metadata: metadata.value,
    });
    if (typeof read === "string") {
      app.fail({ kind: "invalid", message: read, remedy: null });
      return;
    }
    void app.act(() => changeAttributes(memory, read), "attributes");
  });
  cancel.addEventListener("click", close);
  form.addEventListener("keydown", (e) => {
    if (e.key === "Escape") close();
  });
  queueMicrotask(() => kind.focus());
  return form;
}

/** What the form says, as attributes; the words of what is wrong otherwise. */
export function readAttributes(
  memory: MemoryRecord,
  form: { kind: string; importance: string; source: string; agent: string; session: string; metadata: string },
): MemoryAttributes | string {
  const text = (value: string) => (value.trim() === "" ? null : value.trim());
  let importance: number | null = null;
  if (form.importance.trim() !== "") {
    importance = Number(form.importance);
    if (!Number.isFinite(importance) || importance < 0 || importance > 1) return "How much it matters is a number from 0 to 1 (or not said).";
  }
  let metadata: Record<string, unknown> = {};
  if (form.metadata.trim() !== "") {
    try {
      metadata = JSON.parse(form.metadata) as Record<string, unknown>;
    } catch {
      return "Other details are not written as names and values (JSON). Write them such as {\"project\": \"apollo\"}, or leave them empty.";
    }
    if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
      return "Other details must be names and values in braces, such as {\"project\": \"apollo\"}.";
    }
  }
  return {
    memory_type: text(form.kind),
    importance,
    source: text(form.source),
    agent_id: text(form.agent),
    session_id: text(form.session),
    user_id: memory.user_id ?? null,
    metadata,
  } as MemoryAttributes;
}
