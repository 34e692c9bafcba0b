// "Find a memory": search as you type (after a short pause), three ways of matching, and
// what your assistant would be told for the same question.
import { api, type SearchMode, type SearchResults } from "../api";
import type { App, View } from "../app";
import { h } from "../dom";
import { foundWords, MODE_WORDS } from "../logic/words";
import { confirmForget } from "./forget";
import { memoryRow } from "./memory-row";

/** Pause after the last key before searching, in ms. */
export const SEARCH_DELAY = 250;

export function searchView(app: App): View {
  const query = h("input", { id: "search-query", type: "search", autocomplete: "off", placeholder: "What do you want to find?" });
  const mode = h(
    "select",
    { id: "search-mode" },
    ...(Object.keys(MODE_WORDS) as SearchMode[]).map((m) => h("option", { value: m }, MODE_WORDS[m])),
  );
  const notice = h("p", { class: "muted", role: "status" });
  const results = h("ol", { class: "results", "aria-label": "Results, best first" });
  const recallButton = h("button", { type: "button" }, "What would your assistant be told?");
  const recallBox = h("div", { class: "recall", hidden: true });
  const forgetButton = h("button", { type: "button", id: "search-forget" }, "Forget everything that mentions these words…");
  forgetButton.addEventListener("click", () => {
    const text = query.value.trim();
    if (text === "") app.say("Type the words to forget first.");
    else void confirmForget(app, { memory_ids: [], mentioning: text });
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;

  async function run(): Promise<void> {
    const text = query.value.trim();
    const mine = ++asked;
    recallBox.hidden = true;
    if (text === "") {
      results.replaceChildren();
      notice.textContent = "";
      return;
    }
    try {
      const found = await api.search(text, mode.value as SearchMode, 20);
      if (mine === asked) show(found);
    } catch (e) {
      if (mine === asked) app.fail(e);
    }
  }

  function show(found: SearchResults): void {
    const count = found.hits.length === 0 ? "Nothing found. Try other words." : `${found.hits.length} found.`;
    notice.textContent = found.notice ? `${count} ${sentence(found.notice)}` : count;
    results.replaceChildren(...found.hits.map((hit) => memoryRow(app, hit, foundWords(hit))));
  }

  query.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), SEARCH_DELAY);
  });
  query.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      clearTimeout(timer);
      void run();
    }
  });
  mode.addEventListener("change", () => void run());
  recallButton.addEventListener("click", async () => {
    const text = query.value.trim();
    try {
      const recall = await api.recall(text, 800);
      recallBox.replaceChildren(
        h("h2", {}, "What your assistant would be told"),
        h("p", { class: "muted" }, `About ${recall.tokens} tokens of its ${recall.budget}-token allowance.`),
        h("pre", {}, recall.text),
      );
      recallBox.hidden = false;
    } catch (e) {
      app.fail(e);
    }
  });

  const element = h(
    "section",
    { class: "view", "aria-labelledby": "search-title" },
    h("h1", { id: "search-title" }, "Find a memory"),
    h(
      "div",
      { class: "search-bar" },
      h("label", { for: "search-query", class: "visually-hidden" }, "Search for"),
      query,
      h("label", { for: "search-mode", class: "visually-hidden" }, "How to match"),
      mode,
    ),
    notice,
    results,
    h("div", { class: "actions" }, recallButton, forgetButton),
    recallBox,
  );
  return { element, refresh: run, focus: () => query.focus() };
}

/** A note of the core as a sentence: capital first letter, full stop at the end. */
function sentence(text: string): string {
  const trimmed = text.trim();
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}
