// Plain words for connecting an AI and a search model: the choices, what was found on this
// computer, whether a key is saved, the review policy and the merge sensitivity. Pure
// functions of what the Rust side reports, so that they are unit-tested without a window.
import type { Connection, ConnectionState, LocalAi, LocalModel, ReviewPolicy, Role, Service } from "../api";

export interface ServiceChoice {
  service: Service;
  label: string;
  detail: string;
}

/** The choices for a role, in the order shown. */
export function serviceChoices(role: Role): ServiceChoice[] {
  if (role === "llm") {
    return [
      { service: "none", label: "No AI (just keep what I type)", detail: "Everything is kept as it is given: nothing is split, merged or summed up. What waits for you in Review follows “When should haema ask you?” below." },
      { service: "this_computer", label: "An AI on this computer", detail: "Ollama, running here: nothing you remember leaves this computer." },
      { service: "openai", label: "OpenAI", detail: "Needs an API key from platform.openai.com. What you remember is sent to OpenAI." },
      { service: "gemini", label: "Google Gemini", detail: "Needs an API key from aistudio.google.com. What you remember is sent to Google." },
      { service: "other", label: "Another service", detail: "Any service that speaks OpenAI's API, at its address (LM Studio, vLLM, a company gateway…)." },
    ];
  }
  return [
    { service: "builtin", label: "The built-in model (on this computer)", detail: "Search understands meaning. Downloaded once (about 90 MB); nothing leaves this computer." },
    { service: "none", label: "By words only", detail: "Search finds memories that share words with what you look for." },
    { service: "this_computer", label: "A model on this computer", detail: "An embedding model in Ollama, running here." },
    { service: "openai", label: "OpenAI", detail: "Needs an API key. Memories are sent to OpenAI to be indexed." },
    { service: "gemini", label: "Google Gemini", detail: "Needs an API key. Memories are sent to Google to be indexed." },
    { service: "other", label: "Another service", detail: "Any service that speaks OpenAI's embeddings API, at its address." },
  ];
}

/** The installed models that fit a role: text models for the AI, embedding models for search. */
export function fittingModels(local: LocalAi, role: Role): LocalModel[] {
  return local.models.filter((m) => m.embedding === (role === "embedder"));
}

/** What was found of Ollama, and what to do when it is not usable. */
export function localAiWords(local: LocalAi | null, role: Role): { text: string; usable: boolean } {
  const example = role === "llm" ? "llama3.1:8b" : "nomic-embed-text";
  if (local === null) return { text: "Looking for an AI on this computer…", usable: false };
  if (!local.running) {
    return {
      text: `No AI is running on this computer (nothing answers at ${local.server}). Install Ollama from ollama.com, start it, then choose “Look again”.`,
      usable: false,
    };
  }
  const fitting = fittingModels(local, role);
  if (fitting.length === 0) {
    return {
      text: `Ollama is running, but it has no ${role === "llm" ? "text" : "embedding"} model yet. Install one in a terminal with “ollama pull ${example}”, then choose “Look again”.`,
      usable: false,
    };
  }
  const count = fitting.length === 1 ? "1 model" : `${fitting.length} models`;
  return { text: `Ollama is running here with ${count} to choose from.`, usable: true };
}

/** "4.9 GB" for a model's size. */
export function sizeWords(bytes: number | null): string {
  if (!bytes || bytes <= 0) return "";
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
  return `${Math.round(bytes / 1e3)} kB`;
}

/** Whether a key is saved for the service shown, in words; never more of it than its end. */
export function keyWords(state: ConnectionState, service: Service): string {
  const same = state.connection.service === service;
  if (!same || state.key_ending === null) return "No key is saved for this service yet.";
  if (state.key_from === "environment") {
    return `A key ending in …${state.key_ending} comes from this computer's environment (an environment variable), which wins over a key saved here.`;
  }
  return `A key is saved in this computer's keyring, ending in …${state.key_ending}.`;
}

/** The choice as the form holds it. */
export function connectionOf(role: Role, service: Service, model: string, address: string): Connection {
  const trimmed = (s: string) => (s.trim() === "" ? null : s.trim());
  const needsAddress = service === "other" || service === "this_computer";
  return {
    role,
    service,
    model: service === "none" || service === "builtin" ? null : trimmed(model),
    address: needsAddress ? trimmed(address) : null,
  };
}

/** What the form misses before a test or a save can be tried, in words; `null` when nothing. */
export function missingWords(connection: Connection): string | null {
  if (connection.service === "this_computer" && !connection.model) return "Choose one of the models on this computer.";
  if (connection.service === "other" && !connection.address) return "Give the service's address, such as https://llm.example.com/v1.";
  if (connection.service === "other" && connection.address && !/^https?:\/\//.test(connection.address)) {
    return "The address must start with http:// or https://.";
  }
  if (connection.service === "other" && !connection.model) return "Give the name of the model to use.";
  return null;
}

export interface ReviewChoice {
  policy: ReviewPolicy;
  label: string;
  detail: string;
}

export const REVIEW_CHOICES: ReviewChoice[] = [
  {
    policy: "guarded",
    label: "Ask me before anything is changed or removed",
    detail: "New memories are kept at once; a change that rewrites or removes what is remembered, touches the profile or reads like an instruction waits for you in Review.",
  },
  { policy: "review", label: "Ask me about everything", detail: "Every change, even a new memory, waits for you in Review." },
  { policy: "auto", label: "Never ask", detail: "Every change is kept at once. You can still undo any of them in History." },
];

/** Merge sensitivity: a cosine distance from 0.05 (only near-identical) to 0.6 (loosely
 * related), in words. */
export function cutoffWords(cutoff: number): string {
  if (cutoff <= 0.15) return "Strict: only memories that say nearly the same thing are combined.";
  if (cutoff <= 0.3) return "Balanced: memories about the same thing are combined (the default is 0.25).";
  if (cutoff <= 0.45) return "Loose: memories on related subjects are combined too; expect more changes to review.";
  return "Very loose: even distant memories are combined; most additions will rewrite something.";
}

/** "12.3 MB" for the store's size. */
export function storeSizeWords(bytes: number | null): string {
  return sizeWords(bytes) || "empty";
}
