// A modal question before something that cannot simply be undone: its title and buttons
// stay in view while a long body scrolls; the safe choice has the focus; Tab stays inside;
// Escape (or the safe button) answers no. With `sure`, the other button waits for a tick.
import { h } from "../dom";

export interface Question {
  /** Prefix of the dialog's element ids (`${id}-dialog`, `${id}-title`, `${id}-keep`,
   *  `${id}-confirm`, `${id}-sure`). */
  id: string;
  title: string;
  /** The line under the title (a count, what will happen). */
  lead?: string;
  /** What the body shows (a list of what is affected). */
  body?: Array<Node | null>;
  /** Sentences under the body. */
  notes?: string[];
  /** The safe button's words (it answers no). */
  keep: string;
  /** The button that goes ahead. */
  go: string;
  /** When given, a box to tick before `go` works, with these words. */
  sure?: string;
}

/** Shows `question`; resolves to true for its `go` button, false for `keep` or Escape. */
export function ask(question: Question): Promise<boolean> {
  const { id } = question;
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const keep = h("button", { type: "button", id: `${id}-keep`, class: "primary" }, question.keep);
  const confirm = h("button", { type: "button", class: "danger", id: `${id}-confirm`, disabled: question.sure !== undefined }, question.go);
  const sure = question.sure === undefined ? null : h("input", { type: "checkbox", id: `${id}-sure` });
  const dialog = h(
    "div",
    { class: "dialog", role: "alertdialog", "aria-modal": "true", "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-count ${id}-notes`, id: `${id}-dialog`, tabindex: "-1" },
    h("div", { class: "dialog-head" }, h("h2", { id: `${id}-title` }, question.title), h("p", { id: `${id}-count` }, question.lead ?? "")),
    h("div", { class: "dialog-body" }, ...(question.body ?? []), h("div", { id: `${id}-notes` }, ...(question.notes ?? []).map((note) => h("p", {}, note)))),
    h(
      "div",
      { class: "dialog-foot" },
      sure ? h("label", { class: "sure", for: `${id}-sure` }, sure, ` ${question.sure}`) : null,
      h("div", { class: "actions" }, keep, confirm),
    ),
  );
  const backdrop = h("div", { class: "backdrop" }, dialog);
  document.body.append(backdrop);
  keep.focus();
  sure?.addEventListener("change", () => (confirm.disabled = !sure.checked));
  return new Promise((resolve) => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        close(false);
      } else if (e.key === "Tab") {
        // Focus stays inside the dialog.
        const stops = [sure, keep, confirm].filter((b): b is HTMLInputElement | HTMLButtonElement => b !== null && !b.disabled);
        const at = stops.indexOf(document.activeElement as HTMLInputElement | HTMLButtonElement);
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
      if (sure === null || sure.checked) close(true);
    });
  });
}
