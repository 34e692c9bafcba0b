// The agent keys of the in-memory stand-in (./backend): made, listed, given anew, revoked,
// what each did and its undo, and the history of one agent's changes.
import type { AgentAccess, AgentActivity, AgentKeyRow, AgentUndo, ChangesetView } from "../api";
import { NOW } from "./backend";

export const AGENT_COMMANDS = ["agent_keys", "create_agent_key", "rotate_agent_key", "revoke_agent_key", "agent_key_activity", "undo_agent_key_changes"];

export class FakeAgents {
  keys: AgentKeyRow[] = [];
  /** What each agent did, by name. */
  activity = new Map<string, AgentActivity>();
  /** What undoing each agent's changes answers, by name. */
  undo = new Map<string, AgentUndo>();
  private made = 0;

  /** A key row as the Rust side lists it. */
  static row(name: string, access: AgentAccess, usedMinutesAgo: number | null = null): AgentKeyRow {
    return {
      key: { name, access, user_id: null, created_at_ms: NOW - 86_400_000, expires_at_ms: null, last_used_ms: usedMinutesAgo === null ? null : NOW - usedMinutesAgo * 60_000, revoked_at_ms: null },
      state: "active",
      usable: true,
    };
  }

  /** Only the changes made through `agent`'s key, when one is named. */
  static history(views: ChangesetView[], agent: string | null): ChangesetView[] {
    return agent === null ? views : views.filter((v) => v.changeset.agent_key === agent);
  }

  handle(cmd: string, args: Record<string, unknown>): unknown {
    const name = args.name as string;
    const found = () => {
      const row = this.keys.find((k) => k.key.name === name);
      if (!row) throw { kind: "not_found", message: `no agent key named ${name}`, remedy: null };
      return row;
    };
    switch (cmd) {
      case "agent_keys":
        return this.keys;
      case "create_agent_key": {
        if (this.keys.some((k) => k.key.name === name)) {
          throw { kind: "invalid", message: `an agent key named ${name} exists already (active; revoked keys stay listed so their changes can be traced): choose another name`, remedy: null };
        }
        const row = FakeAgents.row(name, args.access as AgentAccess);
        if (args.expires) row.state = `active, expires in ${String(args.expires)}`;
        this.keys.push(row);
        return { key: this.secret(), agent: row.key };
      }
      case "rotate_agent_key":
        return { key: this.secret(), agent: found().key };
      case "revoke_agent_key": {
        const row = found();
        Object.assign(row, { state: "revoked 2026-11-22 12:00:00 UTC", usable: false });
        row.key.revoked_at_ms = NOW;
        return row;
      }
      case "agent_key_activity":
        found();
        return this.activity.get(name) ?? { committed: 0, forgets: 0, waiting: 0, undone: 0 };
      case "undo_agent_key_changes":
        found();
        return this.undo.get(name) ?? { reverted: [], rejected: [], kept: [], stopped: null };
      default:
        return null;
    }
  }

  private secret(): string {
    this.made += 1;
    return `haema_ak_TESTKEY${String(this.made).padStart(33, "0")}`;
  }
}
