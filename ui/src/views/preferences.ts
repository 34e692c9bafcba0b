// The rest of the settings a person needs, in words: when haema asks before memories
// change, how alike memories must be to be combined, and where this memory lives, with a
// full backup or a page to read written to a file of the person's choice.
import { api, errorText, type AiSetup, type CopyKind, type StoreFacts } from "../api";
import type { App } from "../app";
import { h } from "../dom";
import { REVIEW_CHOICES, cutoffWords, storeSizeWords } from "../logic/connect";

export interface Section<T> {
  element: HTMLElement;
  render(value: T): void;
}

/** "When should haema ask you?": the review policy as three choices, saved on change. */
export function reviewSection(app: App, onSaved: (setup: AiSetup) => void): Section<AiSetup> {
  const radios = REVIEW_CHOICES.map((c) => h("input", { type: "radio", name: "review-policy", id: `review-${c.policy}`, value: c.policy }));
  // What waits now, in the core's words (the same sentence everywhere).
  const waiting = h("p", { class: "muted", id: "review-waiting" });
  let saved: string | null = null;
  const element = h(
    "section",
    { class: "connect", "aria-labelledby": "review-title" },
    h("h2", { id: "review-title" }, "When should haema ask you?"),
    h(
      "fieldset",
      { class: "choices" },
      h("legend", {}, "Before memories change"),
      ...REVIEW_CHOICES.map((c, i) =>
        h("div", { class: "choice" }, radios[i], h("label", { for: `review-${c.policy}` }, h("strong", {}, c.label), h("span", { class: "muted" }, c.detail))),
      ),
    ),
    waiting,
  );
  const label = (policy: string) => REVIEW_CHOICES.find((c) => c.policy === policy)?.label ?? policy;
  for (const radio of radios) {
    radio.addEventListener("change", async () => {
      const before = saved;
      try {
        onSaved(await api.setSetting("review", radio.value));
        app.say(`Saved: ${label(radio.value)}.`, before === null ? undefined : {
          done: `Saved: ${label(radio.value)}`,
          undo: async () => {
            onSaved(await api.setSetting("review", before));
            return `Back to: ${label(before)}.`;
          },
        });
      } catch (e) {
        app.fail(e);
      }
    });
  }
  return {
    element,
    render(setup) {
      saved = setup.review;
      for (const radio of radios) radio.checked = radio.value === setup.review;
      waiting.textContent = app.status?.review ?? "";
    },
  };
}

/** Merge sensitivity: a slider over the cosine distance, explained as it moves. */
export function mergeSection(app: App, onSaved: (setup: AiSetup) => void): Section<AiSetup> {
  const slider = h("input", { type: "range", id: "merge-cutoff", min: "0.05", max: "0.6", step: "0.05" });
  const words = h("output", { for: "merge-cutoff", id: "merge-words" });
  const element = h(
    "section",
    { class: "connect", "aria-labelledby": "merge-title" },
    h("h2", { id: "merge-title" }, "How alike must memories be to be combined?"),
    h(
      "p",
      { class: "muted" },
      "When something new arrives, the AI looks at the memories most like it and may rewrite them into one. This sets how alike they must be. Further right means more combining, and more changes to review.",
    ),
    h("label", { for: "merge-cutoff" }, "Merge sensitivity"),
    slider,
    words,
  );
  slider.addEventListener("input", () => (words.textContent = cutoffWords(Number(slider.value))));
  let saved: string | null = null;
  slider.addEventListener("change", async () => {
    const before = saved;
    try {
      onSaved(await api.setSetting("merge.distance_cutoff", slider.value));
      app.say(`Saved: merge sensitivity ${slider.value}.`, before === null ? undefined : {
        done: `Saved: merge sensitivity ${slider.value}`,
        undo: async () => {
          onSaved(await api.setSetting("merge.distance_cutoff", before));
          return `Merge sensitivity is ${before} again.`;
        },
      });
    } catch (e) {
      app.fail(e);
    }
  });
  return {
    element,
    render(setup) {
      saved = String(setup.merge_distance_cutoff);
      if (document.activeElement !== slider) slider.value = String(setup.merge_distance_cutoff);
      words.textContent = cutoffWords(Number(slider.value));
    },
  };
}

/** Where this memory is, its size, and copies of it to a file. */
export function storeSection(app: App): Section<StoreFacts> {
  const dir = h("p", { class: "path", id: "store-dir" });
  const size = h("p", { id: "store-size" });
  const path = h("input", { type: "text", id: "copy-path", autocomplete: "off", spellcheck: "false" });
  const backup = h("button", { type: "button", id: "copy-backup" }, "Write a full backup");
  const readable = h("button", { type: "button", id: "copy-readable" }, "Write a page to read");
  const result = h("p", { id: "copy-result", role: "status" });
  let suggested = "";
  const element = h(
    "section",
    { class: "connect", "aria-labelledby": "store-title" },
    h("h2", { id: "store-title" }, "This memory"),
    dir,
    size,
    h("label", { for: "copy-path" }, "Write a copy to this file"),
    path,
    h("div", { class: "actions" }, backup, readable),
    h(
      "p",
      { class: "muted" },
      "A full backup keeps everything — every memory, every change with what the AI answered, every version of the profile — and can be brought back into a new memory (Switch memory, then import it). A page to read is the profile and the memories as a document.",
    ),
    result,
  );
  async function write(kind: CopyKind): Promise<void> {
    result.textContent = "Writing…";
    try {
      const written = await api.writeCopy(path.value.trim(), kind);
      result.textContent = `Written: ${written.path} (${storeSizeWords(written.bytes)}).`;
      app.say(kind === "backup" ? "The backup is written." : "The page is written.");
    } catch (e) {
      result.textContent = errorText(e);
    }
  }
  backup.addEventListener("click", () => void write("backup"));
  readable.addEventListener("click", () => void write("readable"));
  return {
    element,
    render(facts) {
      dir.textContent = facts.dir;
      size.textContent = `It takes ${storeSizeWords(facts.bytes)} on this computer.`;
      if (path.value === "" || path.value === suggested) path.value = facts.suggested_backup;
      suggested = facts.suggested_backup;
    },
  };
}
