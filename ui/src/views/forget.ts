// "Forget…": asks before anything is removed (what goes, with the memories' own words),
// then forgets for good and says what was removed. A modal dialog: focus starts on the safe
// choice, Tab stays inside, Escape keeps everything.
import { api, type ForgetRequest } from "../api";
import type { App } from "../app";
import { h } from "../dom";
import { forgetQuestion, forgetsAnything, receiptWords } from "../logic/forget";

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
  const confirmed = await ask(question.title, question.memories, question.notes);
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

/** The dialog; resolves to true for "Forget for good", false for "Keep" or Escape. */
export function ask(title: string, memories: string[], notes: string[]): Promise<boolean> {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const keep = h("button", { type: "button", id: "forget-keep" }, "Keep everything");
  const confirm = h("button", { type: "button", class: "danger", id: "forget-confirm" }, "Forget for good");
  const shown = memories.slice(0, 20);
  const list = h(
    "ul",
    { class: "forget-memories", "aria-label": "What would be forgotten" },
    ...shown.map((text) => h("li", {}, text)),
    memories.length > shown.length ? h("li", { class: "muted" }, `and ${memories.length - shown.length} more`) : null,
  );
  const dialog = h(
    "div",
    { class: "dialog", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "forget-title", "aria-describedby": "forget-notes", id: "forget-dialog" },
    h("h2", { id: "forget-title" }, title),
    memories.length > 0 ? list : null,
    h("div", { id: "forget-notes" }, ...notes.map((note) => h("p", {}, note))),
    h("div", { class: "actions" }, keep, confirm),
  );
  const backdrop = h("div", { class: "backdrop" }, dialog);
  document.body.append(backdrop);
  keep.focus();
  return new Promise((resolve) => {
    const close = (answer: boolean): void => {
      backdrop.remove();
      opener?.focus();
      resolve(answer);
    };
    keep.addEventListener("click", () => close(false));
    confirm.addEventListener("click", () => close(true));
    dialog.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        close(false);
      } else if (e.key === "Tab") {
        e.preventDefault();
        (document.activeElement === keep ? confirm : keep).focus();
      }
    });
  });
}

/** A field and a button: "Forget everything that mentions …". */
export function forgetPhraseForm(app: App, id: string): HTMLFormElement {
  const input = h("input", { id, type: "text", autocomplete: "off", placeholder: "For example: 12 Elm Street" });
  const submit = h("button", { type: "submit" }, "Forget everything that mentions it…");
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
