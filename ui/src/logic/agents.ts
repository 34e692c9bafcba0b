// Agents on other computers, in words: what each access lets an agent do, a key's row (its
// state in the core's words, when it was last used), what undoing an agent's changes will
// do before it is asked and what it did after, and the set-up an agent's owner pastes.
import { MCP_HTTP_ADDR, type AgentAccess, type AgentActivity, type AgentKeyRow, type AgentUndo } from "../api";
import { when } from "./time";

export const ACCESS_CHOICES: Array<{ access: AgentAccess; label: string; detail: string }> = [
  { access: "read", label: "Read only", detail: "It can search and read the memories and the profile. It changes nothing." },
  {
    access: "propose",
    label: "Propose changes",
    detail: "What it adds, edits or deletes waits for your approval in Review, whatever this memory's setting.",
  },
  { access: "write", label: "Write", detail: "Its changes follow this memory's setting for when to ask you." },
];

/** What an access is called in the window. */
export function accessWords(access: AgentAccess): string {
  return ACCESS_CHOICES.find((c) => c.access === access)?.label ?? access;
}

/** How long a new key works: the choices of the form, as the expiries the core reads. */
export const EXPIRY_CHOICES: Array<{ expires: string; label: string }> = [
  { expires: "", label: "Until you revoke it" },
  { expires: "30d", label: "30 days" },
  { expires: "90d", label: "90 days" },
  { expires: "365d", label: "One year" },
];

/** A key's row: its access, whose memories it sees, its state and its last use. */
export function keyWords(row: AgentKeyRow, now: number): { access: string; user: string | null; state: string; used: string } {
  const used = row.key.last_used_ms;
  return {
    access: accessWords(row.key.access),
    user: row.key.user_id === null ? null : `Only ${row.key.user_id}'s memories`,
    state: row.state.charAt(0).toUpperCase() + row.state.slice(1),
    used: used === null ? "Never used" : `Last used ${when(used, now)}`,
  };
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What undoing the agent's changes will do, before it is asked; `null` when there is
 * nothing to undo. */
export function undoQuestion(name: string, did: AgentActivity, keyWorks: boolean): { title: string; lead: string; notes: string[] } | null {
  if (did.committed + did.waiting === 0) return null;
  const parts: string[] = [];
  if (did.committed > 0) parts.push(`${count(did.committed, "saved change", "saved changes")} will be undone, newest first`);
  if (did.waiting > 0) parts.push(`${count(did.waiting, "proposal", "proposals")} waiting for you will be rejected`);
  const lead = parts.join(", and ");
  const notes: string[] = [];
  if (did.forgets > 0) notes.push(`Its ${count(did.forgets, "forget stays", "forgets stay")}: nothing forgotten comes back.`);
  if (keyWorks) notes.push("Its key still works, so it may go on writing: revoke the key first.");
  notes.push("Each undo is a change of its own in History, which can itself be undone.");
  return {
    title: `Undo what “${name}” did?`,
    lead: `${lead.charAt(0).toUpperCase()}${lead.slice(1)}.`,
    notes,
  };
}

/** What an agent did, in a sentence (after its key is revoked, and in its row). */
export function activityWords(did: AgentActivity): string {
  const total = did.committed + did.forgets + did.waiting + did.undone;
  if (total === 0) return "It made no changes.";
  const parts = [
    [did.committed + did.forgets, "saved"],
    [did.waiting, "waiting for you"],
    [did.undone, "rejected or undone"],
  ]
    .filter(([n]) => n !== 0)
    .map(([n, what]) => `${n} ${what}`);
  return `It made ${count(total, "change", "changes")}: ${parts.join(", ")}.`;
}

/** What an undo did, in a sentence; and whether it stopped partway. */
export function undoneWords(name: string, undone: AgentUndo): { text: string; stopped: boolean } {
  let text = `“${name}”: ${count(undone.reverted.length, "change", "changes")} undone, ${count(undone.rejected.length, "proposal", "proposals")} rejected.`;
  if (undone.kept.length > 0) {
    const first = undone.kept[0];
    text += ` ${undone.kept.length === 1 ? "1 change was left as it is" : `${undone.kept.length} changes were left as they are`} (change ${first.changeset}: ${first.reason}).`;
  }
  if (undone.stopped !== null) text += ` Then it stopped: ${undone.stopped}. Undo again to go on.`;
  return { text, stopped: undone.stopped !== null };
}

/** A word for a POSIX shell: as it is when plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The set-up the agent's owner pastes: the server of the memory at `store` (a folder, or
 * a shared store's postgres:// address), and the agent's settings with its key, for Claude
 * Code and for clients that take a URL (VS Code and others). */
export function agentSetup(key: string, store: string, address = MCP_HTTP_ADDR): { serve: string; claude: string; json: string } {
  const url = `http://${address}/mcp`;
  return {
    serve: `haema --store ${shellWord(store)} mcp --http ${address}`,
    claude: `claude mcp add --transport http haema ${url} --header "Authorization: Bearer ${key}"`,
    json: JSON.stringify({ servers: { haema: { type: "http", url, headers: { Authorization: `Bearer ${key}` } } } }, null, 2),
  };
}
