// A memory's attributes as a form: its kind, how much it matters, where it came from, who
// wrote it, in which session, and free metadata (JSON). Saving replaces the memory with one
// that carries them (a change History can undo); the user it belongs to stays as it is.
import type { MemoryAttributes, MemoryRecord } from "../api";
import type { App } from "../app";
import { h } from "../dom";
import { changeAttributes } from "../logic/actions";

const KINDS = ["fact", "episode", "preference", "context"];

let forms = 0;

/** The form in place of `content`; Cancel (or Escape) puts `content` back. */
export function attributesForm(app: App, memory: MemoryRecord, content: HTMLElement): HTMLElement {
  const n = ++forms;
  const a = memory;
  const field = (label: string, name: string, input: HTMLInputElement | HTMLTextAreaElement, hint?: string) => {
    input.id = `attr-${name}-${n}`;
    return h("p", {}, h("label", { for: input.id }, label), input, hint ? h("small", {}, ` ${hint}`) : null);
  };
  const kind = h("input", { type: "text", list: `attr-kinds-${n}`, value: a.memory_type ?? "" });
  const importance = h("input", { type: "number", min: "0", max: "1", step: "0.05", value: a.importance?.toString() ?? "" });
  const source = h("input", { type: "text", value: a.source ?? "" });
  const agent = h("input", { type: "text", value: a.agent_id ?? "" });
  const session = h("input", { type: "text", value: a.session_id ?? "" });
  const metadata = h("textarea", { rows: "3" });
  metadata.value = a.metadata && Object.keys(a.metadata).length > 0 ? JSON.stringify(a.metadata, null, 2) : "";
  const save = h("button", { type: "button" }, "Save");
  const cancel = h("button", { type: "button", class: "quiet" }, "Cancel");
  const form = h(
    "div",
    { class: "change-memory attributes-form", role: "group", "aria-label": "The memory's attributes" },
    h("datalist", { id: `attr-kinds-${n}` }, ...KINDS.map((k) => h("option", { value: k }))),
    field("Kind", "kind", kind, "fact, episode, preference, context, or a word of your own"),
    field("Importance", "importance", importance, "from 0 to 1; empty: not set"),
    field("Source", "source", source),
    field("Written by (agent)", "agent", agent),
    field("Session", "session", session),
    field("Metadata", "metadata", metadata, "a JSON object, such as {\"project\": \"apollo\"}"),
    h("p", {}, save, " ", cancel),
  );
  const close = () => form.replaceWith(content);
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
    void app.act(() => changeAttributes(memory, read));
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
    if (!Number.isFinite(importance) || importance < 0 || importance > 1) return "Importance is a number from 0 to 1 (or empty).";
  }
  let metadata: Record<string, unknown> = {};
  if (form.metadata.trim() !== "") {
    try {
      metadata = JSON.parse(form.metadata) as Record<string, unknown>;
    } catch {
      return "Metadata is not JSON. Write an object such as {\"project\": \"apollo\"}, or leave it empty.";
    }
    if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
      return "Metadata must be one JSON object, such as {\"project\": \"apollo\"}.";
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
