// "Your memories on this computer": switch between stores, start a new one, bring in
// memories from a file, and make the search vectors again.
import { api, type ClaudeMemory, type StoreEntry } from "../api";
import type { App, View } from "../app";
import { h } from "../dom";
import { importClaudeMemory, importText } from "../logic/actions";
import { countWords, storeSummary } from "../logic/words";

export function storesView(app: App): View {
  const list = h("ul", { class: "stores", "aria-label": "Memories on this computer" });
  const folder = h("input", { id: "new-store", type: "text", placeholder: "work" });
  const create = h("button", { type: "submit" }, "Create");
  const form = h(
    "form",
    { class: "inline-form" },
    h("label", { for: "new-store" }, "Start a new memory: give it a name (or a full folder path)"),
    folder,
    create,
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void app.openStore(folder.value.trim(), true);
  });
  const file = h("input", { id: "import-file", type: "file", accept: ".jsonl,.json,.ndjson,.txt" });
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    const text = await chosen.text();
    await app.act(() => importText(chosen.name, text));
    file.value = "";
  });
  const claude = h("ul", { id: "claude-memories", class: "claude-memories", "aria-label": "Claude Code's memory on this computer" });
  const reembed = h("button", { type: "button", title: "Makes every memory's search vector again (after changing the search model)" }, "Prepare every memory for search again");
  const embedder = h("p", { class: "muted" });
  reembed.addEventListener("click", () =>
    void app.act(async () => {
      const report = await api.reembed();
      return `${countWords(report.embedded, "memory is", "memories are")} prepared for search again, with ${report.to}.`;
    }),
  );

  function renderClaude(found: ClaudeMemory[]): void {
    if (found.length === 0) {
      claude.replaceChildren(
        h("li", { class: "muted" }, "No Claude Code memory on this computer: Claude Code keeps it in ~/.claude/projects/<project>/memory."),
      );
      return;
    }
    claude.replaceChildren(
      ...found.map((memory) => {
        const bring = h("button", { type: "button", "aria-label": `Bring in Claude Code's memory of ${memory.project}` }, "Bring in");
        bring.addEventListener("click", () => void app.act(() => importClaudeMemory(memory)));
        return h(
          "li",
          {},
          h("h2", {}, memory.project),
          h("p", { class: "meta" }, countWords(memory.files, "file", "files")),
          h("p", { class: "path" }, memory.dir),
          bring,
        );
      }),
    );
  }

  function render(entries: StoreEntry[]): void {
    list.replaceChildren(
      ...entries.map((entry) => {
        // A store in PostgreSQL is named by its URL (without a password), not its link folder.
        const where = entry.info?.location ?? entry.dir;
        const name = entry.name;
        const row = h(
          "li",
          {},
          h("h2", {}, name),
          h("p", { class: "meta" }, entry.info ? storeSummary(entry.info) : `Cannot be read: ${entry.error ?? "unknown"}`),
          h("p", { class: "path" }, where),
        );
        if (entry.open) row.append(h("span", { class: "tag" }, "open now"));
        else if (entry.info) {
          const open = h("button", { type: "button", "aria-label": `Open ${name}` }, "Open");
          open.addEventListener("click", () => void app.openStore(entry.dir, false));
          row.append(open);
        }
        return row;
      }),
    );
    const status = app.status;
    embedder.textContent = status
      ? `${status.search} ${status.search_fix ?? ""} After choosing another search model in Settings, prepare every memory for it here.`.replace("  ", " ")
      : "";
    if (status?.search_detail) embedder.title = status.search_detail;
  }

  const element = h(
    "section",
    { class: "view", "aria-labelledby": "stores-title" },
    h("h1", { id: "stores-title" }, "Memories on this computer"),
    h("p", { class: "muted" }, "Each assistant or project can have its own memory. Open another one here."),
    list,
    form,
    h("h2", {}, "Bring in memories"),
    h(
      "p",
      { class: "muted" },
      "A backup written by haema, or memories exported from another memory app (a file with one memory on each line, or the export of mem0). Nothing already known is added twice.",
    ),
    h("label", { for: "import-file" }, "Choose a file"),
    file,
    h("h2", {}, "Claude Code's memory"),
    h(
      "p",
      { class: "muted" },
      "What Claude Code remembers for a project (its MEMORY.md and topic files): each item becomes a memory, marked as coming from Claude Code. Bringing it in again later adds only what is new.",
    ),
    claude,
    h("h2", {}, "Search"),
    embedder,
    reembed,
  );
  return {
    element,
    async refresh() {
      // Claude Code's folders that cannot be read never keep the stores from showing.
      const [stores, claudeMemories] = await Promise.all([api.stores(), api.claudeMemories().catch(() => [])]);
      render(stores);
      renderClaude(claudeMemories);
    },
    focus: () => folder.focus(),
  };
}
