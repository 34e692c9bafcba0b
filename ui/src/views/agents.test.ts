// Agents on other computers, in Settings, through the real shell in jsdom against the
// in-memory backend: keys listed with their last use; a key made and shown once, kept until
// the person says it is copied (leaving Settings does not lose it); revoke and a new key
// after a question; what an agent did undone after a question that counts it; its changes
// in History.
import { describe, expect, it } from "vitest";
import { activityWords, agentSetup, undoQuestion, undoneWords } from "../logic/agents";
import { startApp } from "../test/app-fixture";
import { FakeAgents } from "../test/agents-backend";
import { Backend, button, mergeView, settle, text } from "../test/backend";


const settings = (setup?: (b: Backend) => void) => startApp(setup, "settings");

function rowOf(root: HTMLElement, name: string): HTMLElement {
  const row = root.querySelector<HTMLElement>(`#agent-keys [data-key="${name}"]`);
  if (!row) throw new Error(`no row for ${name}: ${text(root.querySelector("#agent-keys"))}`);
  return row;
}

function dialogButton(id: string): HTMLButtonElement {
  const found = document.getElementById(id);
  if (!(found instanceof HTMLButtonElement)) throw new Error(`no #${id}`);
  return found;
}

describe("agents on other computers", () => {
  it("lists each key with what it may do, its state and when it was last used", async () => {
    const { root } = await settings((b) => {
      b.agents.keys = [FakeAgents.row("claude-laptop", "propose", 3), FakeAgents.row("reader", "read")];
    });
    expect(text(rowOf(root, "claude-laptop"))).toContain("Propose changes");
    expect(text(rowOf(root, "claude-laptop"))).toContain("Active · Last used 3 minutes ago");
    expect(text(rowOf(root, "reader"))).toContain("Never used");
  });

  it("says when no agent has a key", async () => {
    const { root } = await settings();
    expect(text(root.querySelector("#agent-keys"))).toBe("No agent has a key yet.");
  });

  it("makes a key, shows it once with the agent's set-up, and keeps it until it is copied", async () => {
    const { root, app, backend } = await settings();
    const name = root.querySelector<HTMLInputElement>("#agent-name")!;
    name.value = "claude-laptop";
    button(root, "Make a key").click();
    await settle();
    expect(backend.named("create_agent_key")[0]?.args).toEqual({ name: "claude-laptop", access: "propose", expires: null });
    const key = root.querySelector<HTMLInputElement>("#agent-made-key")?.value ?? "";
    expect(key).toMatch(/^haema_ak_/);
    expect(text(root.querySelector("#agent-setup-claude"))).toContain(`Authorization: Bearer ${key}`);
    expect(text(rowOf(root, "claude-laptop"))).toContain("Propose changes");
    // Another key is refused until this one is copied: it cannot be shown again.
    name.value = "second";
    button(root, "Make a key").click();
    await settle();
    expect(backend.named("create_agent_key")).toHaveLength(1);
    expect(text(root.querySelector(".alert"))).toContain("Copy the key of “claude-laptop” first");
    // Leaving Settings and coming back keeps it.
    await app.show("latest");
    await settle();
    await app.show("settings");
    await settle();
    expect(root.querySelector<HTMLInputElement>("#agent-made-key")?.value).toBe(key);
    button(root, "I have copied it").click();
    await settle();
    expect(root.querySelector("#agent-made-key")).toBeNull();
    expect(root.innerHTML).not.toContain(key);
  });

  it("keeps a key shown for its own memory only, and drops it once its key is revoked", async () => {
    const { root, app, backend } = await settings();
    root.querySelector<HTMLInputElement>("#agent-name")!.value = "bot";
    button(root, "Make a key").click();
    await settle();
    expect(root.querySelector("#agent-made-key")).not.toBeNull();
    expect(text(root.querySelector("#agent-setup-claude"))).toContain("haema_ak_");
    expect(document.getElementById("agent-made-key")).toBe(document.activeElement);
    // Another memory: the key waits for its own; a key can be made here.
    await app.openStore("/home/ann/work", false, "settings");
    await settle();
    expect(root.querySelector("#agent-made-key")).toBeNull();
    await app.openStore("/home/ann/.local/share/haema/default", false, "settings");
    await settle();
    expect(root.querySelector("#agent-made-key")).not.toBeNull();
    expect(document.getElementById("agent-made-key")).not.toBe(document.activeElement);
    button(rowOf(root, "bot"), "Revoke…").click();
    await settle();
    dialogButton("agent-revoke-confirm").click();
    await settle();
    expect(backend.named("revoke_agent_key")).toHaveLength(1);
    expect(root.querySelector("#agent-made-key")).toBeNull();
    expect(app.shownKey).toBeNull();
  });

  it("keeps a key just made even when the list cannot be read again", async () => {
    const { root, backend } = await settings();
    backend.failOn.set("agent_keys", { kind: "store", message: "the disk is busy" });
    root.querySelector<HTMLInputElement>("#agent-name")!.value = "bot";
    button(root, "Make a key").click();
    await settle();
    expect(root.querySelector<HTMLInputElement>("#agent-made-key")?.value).toMatch(/^haema_ak_/);
    expect(text(root.querySelector("[role=alert]"))).toContain("the disk is busy");
  });

  it("asks for a name before making a key", async () => {
    const { root, backend } = await settings();
    button(root, "Make a key").click();
    await settle();
    expect(backend.named("create_agent_key")).toHaveLength(0);
    expect(text(root.querySelector(".alert"))).toContain("Name the agent first");
  });

  it("revokes a key only once asked, then says what the agent did", async () => {
    const { root, backend } = await settings((b) => {
      b.agents.keys = [FakeAgents.row("bot", "write", 1)];
      b.agents.activity.set("bot", { committed: 2, forgets: 0, waiting: 1, undone: 0 });
    });
    button(rowOf(root, "bot"), "Revoke…").click();
    await settle();
    expect(text(document.getElementById("agent-revoke-title"))).toBe("Revoke the key of “bot”?");
    dialogButton("agent-revoke-keep").click();
    await settle();
    expect(backend.named("revoke_agent_key")).toHaveLength(0);
    button(rowOf(root, "bot"), "Revoke…").click();
    await settle();
    dialogButton("agent-revoke-confirm").click();
    await settle();
    expect(backend.named("revoke_agent_key")[0]?.args).toEqual({ name: "bot" });
    expect(text(root.querySelector(".notice"))).toContain("It made 3 changes: 2 saved, 1 waiting for you.");
    expect(text(rowOf(root, "bot"))).toContain("Revoked");
    expect(rowOf(root, "bot").querySelector("[data-action=revoke]")).toBeNull();
  });

  it("undoes what an agent did after a question that counts it and warns that its key still works", async () => {
    const { root, backend } = await settings((b) => {
      b.agents.keys = [FakeAgents.row("bot", "write", 1)];
      b.agents.activity.set("bot", { committed: 2, forgets: 1, waiting: 1, undone: 0 });
      b.agents.undo.set("bot", { reverted: [5, 4], rejected: [6], kept: [{ changeset: 3, reason: "a forget cannot be undone: what it forgot is gone" }], stopped: null });
    });
    button(rowOf(root, "bot"), "Undo its changes…").click();
    await settle();
    expect(text(document.getElementById("agent-undo-count"))).toBe("2 saved changes will be undone, newest first, and 1 proposal waiting for you will be rejected.");
    expect(text(document.getElementById("agent-undo-notes"))).toContain("Its key still works");
    dialogButton("agent-undo-confirm").click();
    await settle();
    expect(backend.named("undo_agent_key_changes")[0]?.args).toEqual({ name: "bot" });
    expect(text(root.querySelector(".notice"))).toContain("“bot”: 2 changes undone, 1 proposal rejected. 1 change was left as it is");
  });

  it("gives an agent a new key only once asked, and shows the new key once", async () => {
    const { root, backend } = await settings((b) => {
      b.agents.keys = [FakeAgents.row("bot", "read", 10)];
    });
    button(rowOf(root, "bot"), "New key…").click();
    await settle();
    expect(text(document.getElementById("agent-rotate-title"))).toBe("Give “bot” a new key?");
    dialogButton("agent-rotate-confirm").click();
    await settle();
    expect(backend.named("rotate_agent_key")[0]?.args).toEqual({ name: "bot" });
    expect(root.querySelector<HTMLInputElement>("#agent-made-key")?.value).toMatch(/^haema_ak_/);
    expect(text(root.querySelector("#agent-made h3"))).toBe("The key of “bot”");
  });

  it("shows an agent's changes in History, and everyone's again", async () => {
    const { root, backend } = await settings((b) => {
      b.agents.keys = [FakeAgents.row("bot", "propose", 1)];
      const theirs = mergeView(8);
      b.history = [{ ...theirs, changeset: { ...theirs.changeset, status: "committed", agent_key: "bot" } }, mergeView(9)];
    });
    button(rowOf(root, "bot"), "Its changes").click();
    await settle();
    expect(backend.named("history").at(-1)?.args).toMatchObject({ agentKey: "bot" });
    expect(root.querySelectorAll("#history-list > li")).toHaveLength(1);
    const madeBy = root.querySelector<HTMLSelectElement>("#history-agent")!;
    expect(madeBy.value).toBe("bot");
    madeBy.value = "";
    madeBy.dispatchEvent(new Event("change"));
    await settle();
    expect(root.querySelectorAll("#history-list > li")).toHaveLength(2);
  });
});

describe("agents in words", () => {
  it("counts what an undo will do, or says there is nothing", () => {
    expect(undoQuestion("bot", { committed: 0, forgets: 2, waiting: 0, undone: 3 }, false)).toBeNull();
    const q = undoQuestion("bot", { committed: 1, forgets: 0, waiting: 0, undone: 0 }, false);
    expect(q?.lead).toBe("1 saved change will be undone, newest first.");
    expect(q?.notes.join(" ")).not.toContain("still works");
  });

  it("says what an agent did and what an undo did, and when it stopped partway", () => {
    expect(activityWords({ committed: 0, forgets: 0, waiting: 0, undone: 0 })).toBe("It made no changes.");
    expect(activityWords({ committed: 1, forgets: 1, waiting: 0, undone: 2 })).toBe("It made 4 changes: 2 saved, 2 rejected or undone.");
    const stopped = undoneWords("bot", { reverted: [2], rejected: [], kept: [], stopped: "the disk is full" });
    expect(stopped.stopped).toBe(true);
    expect(stopped.text).toContain("Then it stopped: the disk is full. Undo again to go on.");
  });

  it("gives the agent's owner a set-up that serves this memory and holds the key", () => {
    const setup = agentSetup("haema_ak_x", "/home/ann/my memory", "127.0.0.1:8731");
    expect(setup.serve).toBe("haema --store '/home/ann/my memory' mcp --http 127.0.0.1:8731");
    expect(agentSetup("k", "/home/ann/it's", "127.0.0.1:8731").serve).toBe("haema --store '/home/ann/it'\\''s' mcp --http 127.0.0.1:8731");
    expect(agentSetup("k", "postgres://ann@db:5432/team?schema=haema", "127.0.0.1:8731").serve).toBe(
      "haema --store 'postgres://ann@db:5432/team?schema=haema' mcp --http 127.0.0.1:8731",
    );
    expect(setup.claude).toBe('claude mcp add --transport http haema http://127.0.0.1:8731/mcp --header "Authorization: Bearer haema_ak_x"');
    expect(JSON.parse(setup.json)).toEqual({ servers: { haema: { type: "http", url: "http://127.0.0.1:8731/mcp", headers: { Authorization: "Bearer haema_ak_x" } } } });
  });
});
