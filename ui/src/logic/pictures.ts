// The numbers behind the pictures, in words: activity per day by who decided, a memory's
// ancestry, and the week at a glance. Pure functions, unit-tested without a window.
import type { ActivityEvent, ActivityWho, AncestryNode, WeekSummary } from "../api";
import { when } from "./time";
import { countWords } from "./words";

export const WHO_ORDER: ActivityWho[] = ["you", "ai", "import", "undo", "waiting"];

export const WHO_WORDS: Record<ActivityWho, string> = {
  you: "Decided by you",
  ai: "Kept without asking",
  import: "Imported",
  undo: "Undone",
  waiting: "Waiting for you",
};

export interface Day {
  /** Local midnight, in ms. */
  start: number;
  /** "Nov 24". */
  label: string;
  counts: Record<ActivityWho, number>;
  total: number;
}

function empty(): Record<ActivityWho, number> {
  return { you: 0, ai: 0, import: 0, undo: 0, waiting: 0 };
}

/** Local midnight of the day holding `ms`. */
export function dayStart(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The last `days` days up to `now` (oldest first), each with its changes by who decided. */
export function activityDays(events: ActivityEvent[], now: number, days: number): Day[] {
  const out: Day[] = [];
  const today = dayStart(now);
  for (let i = days - 1; i >= 0; i--) {
    const d = new Date(today);
    d.setDate(d.getDate() - i);
    out.push({ start: d.getTime(), label: d.toLocaleDateString(undefined, { month: "short", day: "numeric" }), counts: empty(), total: 0 });
  }
  const index = new Map(out.map((d, i) => [d.start, i]));
  for (const e of events) {
    const i = index.get(dayStart(e.at_ms));
    if (i === undefined) continue;
    out[i].counts[e.who] += 1;
    out[i].total += 1;
  }
  return out;
}

/** One sentence for the whole picture (what a screen reader says for it). */
export function activitySentence(days: Day[]): string {
  const totals = empty();
  for (const d of days) for (const who of WHO_ORDER) totals[who] += d.counts[who];
  const all = WHO_ORDER.reduce((n, who) => n + totals[who], 0);
  if (all === 0) return `Nothing changed in the last ${days.length} days.`;
  const parts = WHO_ORDER.filter((who) => totals[who] > 0).map((who) => `${totals[who]} ${WHO_WORDS[who].toLowerCase()}`);
  const busiest = days.reduce((a, b) => (b.total > a.total ? b : a));
  return `In the last ${days.length} days, ${countWords(all, "change", "changes")}: ${parts.join(", ")}. The busiest day was ${busiest.label}, with ${busiest.total}.`;
}

/** How a memory in an ancestry was made, in words. */
export function madeWords(node: AncestryNode, now: number): string {
  const made = node.made_by;
  if (!made) return "There before changes were recorded";
  const at = when(made.at_ms, now);
  if (made.kind === "revert") return `Brought back by an undo, ${at}`;
  if (made.decided_by === "import") return `Imported ${at}`;
  const how = node.parents.length > 1 ? `Merged from ${node.parents.length} memories` : node.parents.length === 1 ? "Rewritten from an older memory" : "Learned";
  const who = made.decided_by === "user" ? "you approved it" : made.decided_by === "auto" ? "kept without asking" : "waiting for you";
  return `${how}, ${at} (${who})`;
}

/** A memory's standing, in words. */
export function standingWords(node: AncestryNode): string {
  switch (node.memory.status) {
    case "active":
      return "in use";
    case "superseded":
      return node.successors.length > 0 ? "replaced" : "set aside";
    case "pending":
      return "waiting for you";
    default:
      return String(node.memory.status).replace(/_/g, " ");
  }
}

export interface Tile {
  id: string;
  figure: string;
  words: string;
}

/** The week at a glance: memories, what waits, what the week added, the profile. */
export function weekTiles(week: WeekSummary): Tile[] {
  const lines = week.profile_lines_changed;
  const profile =
    week.profile_versions === 0
      ? "changes to the profile this week"
      : `${lines === 1 ? "line" : "lines"} of the profile changed this week, in ${countWords(week.profile_versions, "new version", "new versions")}`;
  return [
    { id: "week-memories", figure: String(week.active), words: week.active === 1 ? "memory in use" : "memories in use" },
    { id: "week-waiting", figure: String(week.waiting), words: week.waiting === 1 ? "change waits for you" : "changes wait for you" },
    { id: "week-added", figure: `+${week.added}`, words: week.removed > 0 ? `added this week, ${week.removed} set aside` : "added this week" },
    { id: "week-profile", figure: String(week.profile_versions === 0 ? 0 : lines), words: profile },
  ];
}
