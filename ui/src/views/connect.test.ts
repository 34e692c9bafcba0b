// Connecting an AI in the window (jsdom, the in-memory backend): a refused key, then the
// right one; the key field emptied once saved and the key nowhere in the page; an AI on
// this computer found or not; the review policy, merge sensitivity and copies of the store.
import { describe, expect, it } from "vitest";
import { startApp } from "../test/app-fixture";
import { Backend, button, settle, text } from "../test/backend";
import { connectionSection } from "./connect";
import type { App } from "../app";


const settings = (setup?: (b: Backend) => void) => startApp(setup, "settings");

function type(root: HTMLElement, selector: string, value: string): void {
  const input = root.querySelector<HTMLInputElement>(selector);
  if (!input) throw new Error(`no ${selector}`);
  input.value = value;
  input.dispatchEvent(new Event("input"));
}

function choose(root: HTMLElement, id: string): void {
  const radio = root.querySelector<HTMLInputElement>(`#${id}`);
  if (!radio) throw new Error(`no #${id}`);
  radio.checked = true;
  radio.dispatchEvent(new Event("change"));
}

describe("connect an AI", () => {
  it("holds its place until the setup is read, so a click on its way lands on what was aimed at", () => {
    const section = connectionSection({} as App, "llm", () => {});
    expect(text(section.element.querySelector("#llm-now"))).toBe("Reading what is set up…");
    const details = [...section.element.querySelectorAll<HTMLElement>(".detail")];
    expect(details.length).toBeGreaterThan(0);
    expect(details.every((d) => d.hidden)).toBe(true);
  });

  it("tells a refused key in words, saves the right one to the keyring and never shows it again", async () => {
    const { root, backend } = await settings();
    expect(text(root.querySelector("#llm-now"))).toBe("Now: no AI. What is added is kept as it is given.");
    choose(root, "llm-service-openai");
    expect(root.querySelector<HTMLElement>("#llm-key")?.closest<HTMLElement>(".detail")?.hidden).toBe(false);
    expect(text(root.querySelector("#llm-key-status"))).toBe("No key is saved for this service yet.");
    type(root, "#llm-key", "sk-wrong-key-0000");
    button(root.querySelector("#llm-save")?.parentElement ?? root, "Test").click();
    await settle();
    expect(text(root.querySelector("#llm-outcome p"))).toBe("Not yet. The service refused the key.");
    expect(text(root.querySelector("#llm-outcome .fix"))).toBe("Check the key: copy it again from the service's website.");
    type(root, "#llm-key", backend.rightKey);
    button(root.querySelector("#llm-save")?.parentElement ?? root, "Test").click();
    await settle();
    expect(text(root.querySelector("#llm-outcome"))).toContain("It works.");
    button(root.querySelector("#llm-save")?.parentElement ?? root, "Save").click();
    await settle();
    const saved = backend.named("save_connection")[0]?.args;
    expect(saved).toEqual({ connection: { role: "llm", service: "openai", model: null, address: null }, key: backend.rightKey });
    expect(root.querySelector<HTMLInputElement>("#llm-key")?.value).toBe("");
    expect(text(root.querySelector("#llm-key-status"))).toBe("A key is saved in this computer's keyring, ending in …1234.");
    expect(text(root.querySelector("#llm-now"))).toBe("Now: OpenAI, gpt-4o-mini.");
    expect(document.documentElement.outerHTML).not.toContain(backend.rightKey);
    expect(document.documentElement.outerHTML).not.toContain("sk-wrong-key-0000");

    button(root, "Remove the saved key").click();
    await settle();
    expect(text(root.querySelector("#llm-key-status"))).toBe("No key is saved for this service yet.");
  });

  it("offers Undo after a save, which puts the connection saved before back", async () => {
    const { root, backend } = await settings();
    choose(root, "llm-service-openai");
    type(root, "#llm-key", backend.rightKey);
    button(root.querySelector("#llm-save")?.parentElement ?? root, "Save").click();
    await settle();
    expect(text(root.querySelector("#llm-now"))).toBe("Now: OpenAI, gpt-4o-mini.");
    const undo = document.querySelector<HTMLButtonElement>("#undo-button");
    expect(undo).not.toBeNull();
    undo?.click();
    await settle();
    const calls = backend.named("save_connection");
    expect(calls[calls.length - 1]?.args).toEqual({ connection: { role: "llm", service: "none", model: null, address: null }, key: null });
    expect(text(root.querySelector("#llm-now"))).toBe("Now: no AI. What is added is kept as it is given.");
    expect(text(document.querySelector(".notice"))).toContain("Back to no AI.");
    expect(root.querySelector<HTMLInputElement>("#llm-service-none")?.checked).toBe(true);
    // Saving what is already saved changes nothing, so there is nothing to undo.
    button(root.querySelector("#llm-save")?.parentElement ?? root, "Save").click();
    await settle();
    expect(document.querySelector("#undo-button")).toBeNull();
  });

  it("says what to do when no AI runs on this computer, and lists the models when one does", async () => {
    const { root, backend } = await settings();
    choose(root, "llm-service-this_computer");
    await settle();
    expect(text(root.querySelector("#llm-local-status"))).toContain("Install Ollama from ollama.com");
    backend.local = {
      server: "http://127.0.0.1:11434",
      running: true,
      models: [
        { name: "llama3.1:8b", size_bytes: 4.9e9, embedding: false },
        { name: "nomic-embed-text:latest", size_bytes: 2.7e8, embedding: true },
      ],
    };
    button(root, "Look again").click();
    await settle();
    expect(text(root.querySelector("#llm-local-status"))).toBe("Ollama is running here with 1 model to choose from.");
    const options = [...(root.querySelector<HTMLSelectElement>("#llm-local-model")?.options ?? [])].map((o) => text(o));
    expect(options).toEqual(["llama3.1:8b (4.9 GB)"]);
    button(root.querySelector("#llm-save")?.parentElement ?? root, "Save").click();
    await settle();
    expect(backend.named("save_connection")[0]?.args).toEqual({
      connection: { role: "llm", service: "this_computer", model: "llama3.1:8b", address: null },
      key: null,
    });
  });

  it("asks for what another service needs before trying it", async () => {
    const { root, backend } = await settings();
    choose(root, "llm-service-other");
    button(root.querySelector("#llm-save")?.parentElement ?? root, "Test").click();
    await settle();
    expect(text(root.querySelector("#llm-outcome"))).toBe("Give the service's address, such as https://llm.example.com/v1.");
    type(root, "#llm-address", "llm.example.com");
    button(root.querySelector("#llm-save")?.parentElement ?? root, "Test").click();
    await settle();
    expect(text(root.querySelector("#llm-outcome"))).toBe("The address must start with http:// or https://.");
    expect(backend.named("test_connection")).toHaveLength(0);
  });

  it("says when there is no keyring to keep a key in", async () => {
    const { root } = await settings((b) => (b.setup = { ...b.setup, keyring: { usable: false, said: "no Secret Service" } }));
    choose(root, "llm-service-gemini");
    const note = root.querySelector<HTMLElement>("#llm-keyring-note");
    expect(note?.hidden).toBe(false);
    expect(text(note)).toContain("HAEMA_LLM_API_KEY");
  });
});

describe("the rest of the settings", () => {
  it("saves the review policy and merge sensitivity in words, and writes copies of the store", async () => {
    const { root, backend } = await settings();
    expect(root.querySelector<HTMLInputElement>("#review-guarded")?.checked).toBe(true);
    choose(root, "review-review");
    await settle();
    expect(backend.named("set_setting")[0]?.args).toEqual({ name: "review", value: "review" });
    expect(text(root.querySelector(".notice"))).toBe("Saved: Ask me about everything.Undo");
    expect(text(root.querySelector("#review-waiting"))).toBe("Nothing waits for you in Review.");

    const slider = root.querySelector<HTMLInputElement>("#merge-cutoff");
    expect(slider?.value).toBe("0.25");
    if (slider) {
      slider.value = "0.4";
      slider.dispatchEvent(new Event("input"));
      slider.dispatchEvent(new Event("change"));
    }
    await settle();
    expect(text(root.querySelector("#merge-words"))).toContain("Loose");
    expect(backend.named("set_setting")[1]?.args).toEqual({ name: "merge.distance_cutoff", value: "0.4" });
    // Each setting saved here can be taken back: Undo puts the one before back.
    button(root.querySelector(".notice") as HTMLElement, "Undo").click();
    await settle();
    expect(backend.named("set_setting")[2]?.args).toEqual({ name: "merge.distance_cutoff", value: "0.25" });
    expect(text(root.querySelector(".notice"))).toBe("Merge sensitivity is 0.25 again.");

    expect(text(root.querySelector("#store-size"))).toBe("It takes 2.4 MB on this computer.");
    expect(root.querySelector<HTMLInputElement>("#copy-path")?.value).toBe("/home/ann/haema-backup-2026-11-25.jsonl");
    button(root, "Write a full backup").click();
    await settle();
    expect(backend.copies).toEqual([{ path: "/home/ann/haema-backup-2026-11-25.jsonl", kind: "backup" }]);
    expect(text(root.querySelector("#copy-result"))).toBe("Written: /home/ann/haema-backup-2026-11-25.jsonl (5 kB).");
  });
});
