// "Forget for good…": asks before anything is removed (how many memories go, each with its
// own words and whether it is pinned or no longer in use), then forgets for good and says
// what was removed, in a modal dialog (./dialog) where "Forget for good" works only once "I
// understand" is ticked, so no Enter alone forgets.
import { api, type ForgetRequest } from "../api";
import type { App } from "../app";
import { h } from "../dom";
import { type ForgetItem, forgetQuestion, forgetsAnything, receiptWords } from "../logic/forget";
import { ask as askFirst } from "./dialog";

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
  const shown = memories.slice(0, 200);
  const list = h(
    "ul",
    { class: "forget-memories", "aria-label": "What would be forgotten" },
    ...shown.map((item) => h("li", {}, item.text, item.tag ? h("span", { class: "tag" }, item.tag) : null)),
    memories.length > shown.length ? h("li", { class: "muted" }, `and ${memories.length - shown.length} more`) : null,
  );
  return askFirst({
    id: "forget",
    title,
    lead: count,
    body: [memories.length > 0 ? list : null],
    notes,
    keep: "Keep everything",
    go: "Forget for good",
    sure: "I understand: this cannot be undone",
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
