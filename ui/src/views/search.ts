// "Find a memory": search as you type (after a short pause), three ways of matching, the
// profile's lines with the same words beside the memories found, and what your assistant
// would be told for the same question. How search works now is said in the core's words.
import { api, type Found, type ProfileLine, type SearchMode } from "../api";
import type { App, View } from "../app";
import { h } from "../dom";
import { redraw } from "../focus";
import { foundWords, MODE_WORDS, SECTION_WORDS } from "../logic/words";
import { confirmForget } from "./forget";
import { inline } from "./markdown";
import { memoryRow } from "./memory-row";
import { recallBlock } from "./recall";

/** Pause after the last key before searching, in ms. */
export const SEARCH_DELAY = 250;

export function searchView(app: App): View {
  const query = h("input", { id: "search-query", type: "search", autocomplete: "off", placeholder: "What do you want to find?" });
  const options = (Object.keys(MODE_WORDS) as SearchMode[]).map((m) => h("option", { value: m }, MODE_WORDS[m]));
  const mode = h("select", { id: "search-mode" }, ...options);
  const how = h("p", { class: "muted search-status", id: "search-status" });
  const notice = h("p", { class: "muted", role: "status", id: "search-count" });
  const profile = h("section", { class: "profile-hits", "aria-labelledby": "profile-hits-title", hidden: true });
  const results = h("ol", { class: "results", id: "search-results", "aria-label": "Memories found, best first" });
  const recallButton = h("button", { type: "button" }, "What would your assistant be told?");
  const recallBox = h("div", { class: "recall", hidden: true });
  const forgetButton = h("button", { type: "button", id: "search-forget", class: "danger-quiet" }, "Forget everything that mentions these words for good…");
  forgetButton.addEventListener("click", () => {
    const text = query.value.trim();
    if (text === "") app.say("Type the words to forget first.");
    else void confirmForget(app, { memory_ids: [], mentioning: text });
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;

  /** How search works now (the core's sentence), and the modes that work now. */
  function showStatus(): void {
    const status = app.status;
    how.textContent = status ? [status.search, status.search_fix].filter(Boolean).join(" ") : "";
    if (status?.search_detail) how.title = status.search_detail;
    const vector = options.find((o) => o.value === "vector");
    if (vector) {
      vector.disabled = status !== null && !status.by_meaning;
      vector.textContent = vector.disabled ? `${MODE_WORDS.vector} (not yet)` : MODE_WORDS.vector;
      if (vector.disabled && mode.value === "vector") mode.value = "hybrid";
    }
  }

  async function run(): Promise<void> {
    showStatus();
    const text = query.value.trim();
    const mine = ++asked;
    recallBox.hidden = true;
    if (text === "") {
      results.replaceChildren();
      profile.replaceChildren();
      profile.hidden = true;
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

  function show(found: Found): void {
    const hits = found.results.hits;
    const lines = found.profile;
    const memories = hits.length === 1 ? "1 memory found." : `${hits.length} memories found.`;
    const inProfile = lines.length === 0 ? "" : lines.length === 1 ? " 1 line of the profile has these words." : ` ${lines.length} lines of the profile have these words.`;
    let count = hits.length === 0 && lines.length === 0 ? "Nothing found. Try other words." : `${hits.length === 0 ? "No memory found." : memories}${inProfile}`;
    // A reason the core gives beyond how search works now (the embedder failed on this search).
    const byWords = found.results.mode === "lexical" && mode.value !== "lexical";
    if (found.results.notice && !(byWords && app.status && !app.status.by_meaning)) count += ` ${sentence(found.results.notice)}`;
    notice.textContent = count;
    profile.hidden = lines.length === 0;
    profile.replaceChildren(
      h("h2", { id: "profile-hits-title" }, "In the profile"),
      h("p", { class: "muted" }, "Your assistant is always told these, whatever it is asked."),
      h("ul", {}, ...lines.map((line) => profileLine(line))),
    );
    redraw(() => results.replaceChildren(...hits.map((hit) => memoryRow(app, hit, foundWords(hit)))));
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
      recallBox.replaceChildren(...recallBlock(await api.recall(text, null)));
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
    how,
    notice,
    // What acts on the words typed comes before the memories found: a keyboard reaches it
    // in a few Tabs however many memories match.
    h("div", { class: "actions" }, recallButton, h("span", { class: "apart" }, forgetButton)),
    recallBox,
    profile,
    results,
  );
  return { element, refresh: run, focus: () => query.focus() };
}

/** A line of the profile, marked as such, with its section. */
function profileLine(line: ProfileLine): HTMLElement {
  return h(
    "li",
    { class: "profile-line" },
    h("span", { class: "tag from-profile" }, `Profile · ${SECTION_WORDS[line.section].title}`),
    " ",
    ...inline(line.text),
  );
}

/** A note of the core as a sentence: capital first letter, full stop at the end. */
function sentence(text: string): string {
  const trimmed = text.trim();
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}
