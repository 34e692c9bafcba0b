// "Agents on other computers" in Settings: each agent's key with what it may do, its state
// and when it was last used; a key made (shown once, with the set-up its owner pastes, kept
// until the person says it is copied); a key given anew or revoked after a question; what an
// agent did, in History or undone in one step.
import { api, errorText, type AgentAccess, type AgentKeyRow, type NewAgentKey } from "../api";
import type { App } from "../app";
import { h } from "../dom";
import { ACCESS_CHOICES, EXPIRY_CHOICES, activityWords, agentSetup, keyWords, undoQuestion, undoneWords } from "../logic/agents";
import { ask } from "./dialog";
import type { Section } from "./preferences";

export function agentsSection(app: App): Section<AgentKeyRow[]> {
  const list = h("ul", { class: "agent-keys", id: "agent-keys", "aria-label": "Agent keys" });
  const made = h("div", { class: "agent-made", id: "agent-made", role: "region", "aria-labelledby": "agent-made-title", hidden: true });
  const name = h("input", { type: "text", id: "agent-name", autocomplete: "off", spellcheck: "false", placeholder: "claude-laptop" });
  const radios = ACCESS_CHOICES.map((c) =>
    h("input", { type: "radio", name: "agent-access", id: `agent-access-${c.access}`, value: c.access, checked: c.access === "propose" }),
  );
  const expires = h("select", { id: "agent-expires" }, ...EXPIRY_CHOICES.map((c) => h("option", { value: c.expires }, c.label)));
  const create = h("button", { type: "submit", class: "primary", id: "agent-create" }, "Make a key");
  const form = h(
    "form",
    { class: "agent-new", "aria-labelledby": "agent-new-title" },
    h("h3", { id: "agent-new-title" }, "A key for a new agent"),
    h("label", { for: "agent-name" }, "The agent's name (letters, digits, '.', '_' or '-'); it marks every change the agent makes"),
    name,
    h(
      "fieldset",
      { class: "choices" },
      h("legend", {}, "What may it do?"),
      ...ACCESS_CHOICES.map((c, i) =>
        h("div", { class: "choice" }, radios[i], h("label", { for: `agent-access-${c.access}` }, h("strong", {}, c.label), h("span", { class: "muted" }, c.detail))),
      ),
    ),
    h("label", { for: "agent-expires" }, "How long the key works"),
    expires,
    h("div", { class: "actions" }, create),
  );
  const element = h(
    "section",
    { class: "connect agents", "aria-labelledby": "agents-title" },
    h("h2", { id: "agents-title" }, "Agents on other computers"),
    h(
      "p",
      { class: "muted" },
      "An AI assistant on another computer reaches this memory through haema's server, with a key of its own that says what it may do. Every change it makes carries its name in Review and History.",
    ),
    list,
    made,
    form,
  );

  let keys: AgentKeyRow[] = [];

  function render(rows: AgentKeyRow[]): void {
    keys = rows;
    const focused = document.activeElement instanceof HTMLElement && list.contains(document.activeElement) ? focusKey(document.activeElement) : null;
    list.replaceChildren(...rows.map(row));
    if (rows.length === 0) list.replaceChildren(h("li", { class: "empty" }, "No agent has a key yet."));
    if (focused) list.querySelector<HTMLElement>(`[data-key="${focused.key}"] [data-action="${focused.action}"]`)?.focus();
    showMade();
  }

  function row(r: AgentKeyRow): HTMLElement {
    const words = keyWords(r, app.now());
    const actions = h("div", { class: "actions" });
    const add = (action: string, label: string, run: () => Promise<void>, kind = "") => {
      const button = h("button", { type: "button", "data-action": action, class: kind }, label);
      button.addEventListener("click", () => void run());
      actions.append(button);
    };
    add("changes", "Its changes", async () => {
      app.historyAgent = r.key.name;
      await app.show("history");
    });
    add("undo", "Undo its changes…", () => undoChanges(r));
    if (r.usable) {
      add("rotate", "New key…", () => rotate(r));
      add("revoke", "Revoke…", () => revoke(r), "danger-quiet");
    }
    return h(
      "li",
      { class: `agent-key${r.usable ? "" : " unusable"}`, "data-key": r.key.name },
      h("div", { class: "agent-head" }, h("strong", {}, r.key.name), h("span", { class: "tag" }, words.access)),
      h("p", { class: "muted" }, [words.state, words.user, words.used].filter((w) => w !== null).join(" · ")),
      actions,
    );
  }

  /** The key just made for this memory, once, with how the agent connects; kept until "I
   * have copied it" (a key made for another memory waits for its own Settings). */
  function showMade(): void {
    const shown = app.shownKey !== null && app.shownKey.store === app.store?.dir ? app.shownKey : null;
    made.hidden = shown === null;
    if (shown === null) {
      made.replaceChildren();
      delete made.dataset.key;
      return;
    }
    if (made.dataset.key === shown.name && made.childElementCount > 0) return;
    made.dataset.key = shown.name;
    const setup = agentSetup(shown.key, app.store?.location ?? shown.store);
    const field = h("input", { type: "text", id: "agent-made-key", readonly: true, value: shown.key, spellcheck: "false", "aria-label": `The key of ${shown.name}` });
    field.addEventListener("focus", () => field.select());
    const copy = h("button", { type: "button", id: "agent-copy" }, "Copy");
    copy.addEventListener("click", async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(shown.key);
        app.say("The key is copied.");
      } catch {
        app.say("The key is selected: press Ctrl+C to copy it.");
      }
    });
    const done = h("button", { type: "button", class: "primary", id: "agent-made-done" }, "I have copied it");
    done.addEventListener("click", () => {
      app.shownKey = null;
      showMade();
      name.focus();
    });
    made.replaceChildren(
      h("h3", { id: "agent-made-title" }, `The key of “${shown.name}”`),
      h("p", { class: "warning" }, "Copy it now: haema keeps only a fingerprint of it and cannot show it again."),
      h("div", { class: "key-line" }, field, copy),
      h(
        "details",
        { open: true },
        h("summary", {}, "How the agent connects"),
        h("p", {}, "On the computer that keeps this memory, haema's server runs with:"),
        h("pre", { class: "example" }, setup.serve),
        h("p", {}, "Then, for Claude Code on the agent's computer:"),
        h("pre", { class: "example", id: "agent-setup-claude" }, setup.claude),
        h("p", {}, "Or in the settings of VS Code and other clients that take an address:"),
        h("pre", { class: "example", id: "agent-setup-json" }, setup.json),
        h(
          "p",
          { class: "muted" },
          "For an agent on another computer, serve on an address it can reach (with TLS, or on a network you trust) and write that address in place of 127.0.0.1.",
        ),
      ),
      h("div", { class: "actions" }, done),
    );
  }

  /** Keeps a key just made or given anew, shows it, and puts the focus on it; the list is
   * read again after (the key is kept even when that read fails). */
  async function keep(result: NewAgentKey): Promise<void> {
    app.shownKey = { store: app.store?.dir ?? "", name: result.agent.name, key: result.key };
    showMade();
    document.getElementById("agent-made-key")?.focus();
    render(await api.agentKeys());
  }

  /** A key shown and not yet copied, of this memory: another waits for it. */
  function waiting(): boolean {
    const shown = app.shownKey;
    if (shown === null || shown.store !== app.store?.dir) return false;
    app.fail({ kind: "invalid", message: `Copy the key of “${shown.name}” first, then say so: it cannot be shown again.`, remedy: null });
    document.getElementById("agent-made-key")?.focus();
    return true;
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const wanted = name.value.trim();
    if (wanted === "") {
      app.fail({ kind: "invalid", message: "Name the agent first, for example claude-laptop.", remedy: null });
      name.focus();
      return;
    }
    if (waiting()) return;
    const access = (radios.find((r) => r.checked)?.value ?? "propose") as AgentAccess;
    create.disabled = true;
    try {
      const result = await api.createAgentKey(wanted, access, expires.value === "" ? null : expires.value);
      name.value = "";
      app.clearAlert();
      app.say(`A key for “${wanted}” is made. Copy it now.`);
      await keep(result);
    } catch (err) {
      app.fail(err);
    } finally {
      create.disabled = false;
    }
  });

  async function rotate(r: AgentKeyRow): Promise<void> {
    if (waiting()) return;
    const go = await ask({
      id: "agent-rotate",
      title: `Give “${r.key.name}” a new key?`,
      lead: "Its key stops working at once, on every computer that serves this memory. The new key is shown once.",
      keep: "Keep the key",
      go: "Give it a new key",
    });
    if (!go) return;
    try {
      const result = await api.rotateAgentKey(r.key.name);
      app.say(`“${r.key.name}” has a new key; the old one no longer works. Copy the new one now.`);
      await keep(result);
    } catch (e) {
      app.fail(e);
    }
  }

  async function revoke(r: AgentKeyRow): Promise<void> {
    const go = await ask({
      id: "agent-revoke",
      title: `Revoke the key of “${r.key.name}”?`,
      lead: "It stops working at once, on every computer that serves this memory, and cannot work again.",
      notes: ["What the agent did stays, marked with its name: see it or undo it from here afterwards."],
      keep: "Keep the key",
      go: "Revoke",
    });
    if (!go) return;
    await app.act(async () => {
      const revoked = await api.revokeAgentKey(r.key.name);
      // A key on screen that no longer works is not worth copying.
      if (app.shownKey?.name === r.key.name && app.shownKey.store === app.store?.dir) app.shownKey = null;
      let did = "";
      try {
        did = ` ${activityWords(await api.agentKeyActivity(r.key.name))}`;
      } catch (e) {
        did = ` What it did is not shown here: ${errorText(e)}`;
      }
      return `The key of “${revoked.key.name}” is ${revoked.state}: it no longer works.${did}`;
    }, "undo");
  }

  async function undoChanges(r: AgentKeyRow): Promise<void> {
    let question;
    try {
      question = undoQuestion(r.key.name, await api.agentKeyActivity(r.key.name), keys.find((k) => k.key.name === r.key.name)?.usable ?? false);
    } catch (e) {
      app.fail(e);
      return;
    }
    if (question === null) {
      app.say(`“${r.key.name}” has nothing to undo.`);
      return;
    }
    const go = await ask({ id: "agent-undo", ...question, keep: "Leave them", go: "Undo its changes" });
    if (!go) return;
    await app.act(async () => {
      const { text, stopped } = undoneWords(r.key.name, await api.undoAgentKeyChanges(r.key.name));
      if (stopped) throw { kind: "store", message: text, remedy: null };
      return text;
    });
  }

  return { element, render };
}

/** Which row and which of its buttons has the focus, to put it back after a redraw. */
function focusKey(active: HTMLElement): { key: string; action: string } | null {
  const key = active.closest<HTMLElement>("[data-key]")?.dataset.key;
  const action = active.dataset.action;
  return key && action ? { key, action } : null;
}
