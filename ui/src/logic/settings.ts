// Plain words for the settings the store reports (the one registry of the core, as
// `haema config` shows it): the groups they fall in, where a value came from, and where
// a person can change it.
import type { SettingLine } from "../api";

/** Titles and a line of help for the groups of settings (the part of a name before its
 * first dot); a group not listed here is shown under its own name. */
const GROUP_WORDS: Record<string, { title: string; help: string }> = {
  review: {
    title: "Reviewing changes",
    help: "Whether what your assistant learns waits for you in Review before it is saved.",
  },
  merge: {
    title: "Finding related memories",
    help: "How something new is compared with what is already remembered.",
  },
  recall: {
    title: "What your assistant is told",
    help: "How memories are quoted in the block your assistant reads before it answers.",
  },
  llm: {
    title: "The AI",
    help: "The model that combines something new with related memories. Without one, things are remembered as they were said.",
  },
  embedder: {
    title: "Search model",
    help: "The model that lets search understand meaning. Without one, search works by words.",
  },
  tui: {
    title: "Terminal app",
    help: "Settings of haema in a terminal; they do not change this window.",
  },
  hub: {
    title: "Model downloads",
    help: "Where the search model is downloaded from and kept (Hugging Face's own settings).",
  },
};

export interface SettingGroup {
  /** The part of the settings' names before the first dot (`llm`), or the whole name. */
  name: string;
  title: string;
  help: string;
  lines: SettingLine[];
}

/** The settings grouped by the part of their name before the first dot, in the order the
 * registry lists them. */
export function settingGroups(lines: SettingLine[]): SettingGroup[] {
  const groups: SettingGroup[] = [];
  for (const line of lines) {
    const name = line.key.split(".")[0] ?? line.key;
    let group = groups.find((g) => g.name === name);
    if (!group) {
      const words = GROUP_WORDS[name] ?? { title: capitalised(name), help: "" };
      group = { name, ...words, lines: [] };
      groups.push(group);
    }
    group.lines.push(line);
  }
  return groups;
}

/** A setting's help as a label: a sentence. */
export function settingLabel(line: SettingLine): string {
  return capitalised(line.help);
}

/** Where a setting's value came from, in words. */
export function sourceWords(line: SettingLine): string {
  switch (line.source) {
    case "env":
      return line.file === null
        ? `Set by the environment variable ${line.env}`
        : `Set by the environment variable ${line.env}, which wins over the files`;
    case "file":
      return "Set in this memory's haema.toml";
    case "user_file":
      return "Set in your user settings (config.toml)";
    case "keyring":
      return "Saved in this computer's keyring";
    case "default":
      return "Default";
  }
}

/** A setting's key as a settings file spells it: `model` under `[llm]`, or `review` alone. */
export function fileKey(key: string): { key: string; table: string | null } {
  const dot = key.lastIndexOf(".");
  return dot < 0 ? { key, table: null } : { key: key.slice(dot + 1), table: key.slice(0, dot) };
}

/** The name of the file a setting can be written in; `null`: the environment only. */
export function fileName(line: SettingLine): string | null {
  if (line.file === "store") return "haema.toml";
  if (line.file === "user") return "your config.toml";
  return null;
}

/** The value as people read it. */
export function valueWords(line: SettingLine): string {
  return line.value === "" ? "(empty)" : line.value;
}

/** A line of a settings file that sets `line` to its value: what to look for, or write.
 * Numbers and true/false stay bare, anything else is quoted. */
export function exampleLines(line: SettingLine): string {
  const { key, table } = fileKey(line.key);
  const bare = /^(-?\d+(\.\d+)?|true|false)$/.test(line.value);
  const value = bare ? line.value : JSON.stringify(line.value);
  return table === null ? `${key} = ${value}` : `[${table}]\n${key} = ${value}`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
