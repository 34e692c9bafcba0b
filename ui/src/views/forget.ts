// "Forget for good…": asks before anything is removed (how many memories go, each with its
// own words and whether it is pinned or no longer in use), then forgets for good and says
// what was removed. A modal dialog: its title and its buttons stay in view while the list
// scrolls; focus starts on the safe choice and stays inside; Escape keeps everything,
// wherever a click left focus (the keys are heard on the whole page while it is open); and "Forget for good" works only once "I
// understand" is ticked, so no Enter alone forgets.
import { api, type ForgetRequest } from "../api";
import type { App } from "../app";
import { h } from "../dom";
import { type ForgetItem, forgetQuestion, forgetsAnything, receiptWords } from "../logic/forget";

/** Shows what forgetting `request` would remove and, when the person confirms, forgets.
 * Resolves to whether anything was forgotten. */
export async function confirmForget(app: App, request: ForgetRequest): Promise<boolean> {
  let plan;
  try {
    plan = await api.forgetPlan(request);
  } catch (e) {
    app.fail(e);
    return false;
  }
  if (!forgetsAnything(plan)) {
    const phrase = request.mentioning?.trim();
    app.say(phrase ? `Nothing mentions “${phrase}”: there is nothing to forget.` : "There is nothing to forget.");
    return false;
  }
  const question = forgetQuestion(plan, request);
  const confirmed = await ask(question.title, question.memories, question.notes, question.count);
  if (!confirmed) {
    app.say("Nothing was forgotten.");
    return false;
  }
  let forgotten = false;
  await app.act(async () => {
    const receipt = await api.forget(request);
    forgotten = true;
    return receiptWords(receipt);
  });
  return forgotten;
}

/** The dialog; resolves to true for "Forget for good" (after "I understand" is ticked),
 * false for "Keep everything" or Escape. */
export function ask(title: string, memories: ForgetItem[], notes: string[], count = ""): Promise<boolean> {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const keep = h("button", { type: "button", id: "forget-keep", class: "primary" }, "Keep everything");
  const confirm = h("button", { type: "button", class: "danger", id: "forget-confirm", disabled: true }, "Forget for good");
  const sure = h("input", { type: "checkbox", id: "forget-sure" });
  const shown = memories.slice(0, 200);
  const list = h(
    "ul",
    { class: "forget-memories", "aria-label": "What would be forgotten" },
    ...shown.map((item) => h("li", {}, item.text, item.tag ? h("span", { class: "tag" }, item.tag) : null)),
    memories.length > shown.length ? h("li", { class: "muted" }, `and ${memories.length - shown.length} more`) : null,
  );
  const dialog = h(
    "div",
    { class: "dialog", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "forget-title", "aria-describedby": "forget-count forget-notes", id: "forget-dialog", tabindex: "-1" },
    h("div", { class: "dialog-head" }, h("h2", { id: "forget-title" }, title), h("p", { id: "forget-count" }, count)),
    h("div", { class: "dialog-body" }, memories.length > 0 ? list : null, h("div", { id: "forget-notes" }, ...notes.map((note) => h("p", {}, note)))),
    h(
      "div",
      { class: "dialog-foot" },
      h("label", { class: "sure", for: "forget-sure" }, sure, " I understand: this cannot be undone"),
      h("div", { class: "actions" }, keep, confirm),
    ),
  );
  const backdrop = h("div", { class: "backdrop" }, dialog);
  document.body.append(backdrop);
  keep.focus();
  sure.addEventListener("change", () => (confirm.disabled = !sure.checked));
  return new Promise((resolve) => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        close(false);
      } else if (e.key === "Tab") {
        // Focus stays inside the dialog.
        const stops = [sure, keep, confirm].filter((b) => !b.disabled);
        const at = stops.indexOf(document.activeElement as HTMLInputElement & HTMLButtonElement);
        e.preventDefault();
        const next = at < 0 ? 0 : (at + (e.shiftKey ? stops.length - 1 : 1)) % stops.length;
        stops[next]?.focus();
      } else if (!dialog.contains(document.activeElement)) {
        // A key while focus is outside (after a click on the dialog's text or the backdrop
        // left it on the page): back into the dialog, never to the page behind it.
        keep.focus();
      }
    };
    const close = (answer: boolean): void => {
      document.removeEventListener("keydown", onKey, true);
      backdrop.remove();
      opener?.focus();
      resolve(answer);
    };
    document.addEventListener("keydown", onKey, true);
    keep.addEventListener("click", () => close(false));
    confirm.addEventListener("click", () => {
      if (sure.checked) close(true);
    });
  });
}

/** A field and a button: "Forget everything that mentions …". */
export function forgetPhraseForm(app: App, id: string): HTMLFormElement {
  const input = h("input", { id, type: "text", autocomplete: "off", placeholder: "For example: 12 Elm Street" });
  const submit = h("button", { type: "submit", class: "danger-quiet" }, "Forget everything that mentions it for good…");
  const form = h(
    "form",
    { class: "forget-phrase", "aria-label": "Forget everything that mentions a phrase" },
    h("label", { for: id }, "Word or phrase"),
    input,
    submit,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const phrase = input.value.trim();
    if (phrase === "") {
      app.say("Type the word or phrase to forget first.");
      input.focus();
      return;
    }
    if (await confirmForget(app, { memory_ids: [], mentioning: phrase })) input.value = "";
  });
  return form;
}
