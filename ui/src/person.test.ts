// A memory that keeps each person's memories apart: the window asks whose memories to show
// before any view reads, names the person in the header and lets them switch.
import { afterEach, describe, expect, it } from "vitest";
import { startApp } from "./test/app-fixture";
import { type Backend, button, settle, storeInfo, text } from "./test/backend";

let backend: Backend | undefined;
afterEach(() => backend?.stop());

describe("a memory that keeps people apart", () => {
  it("asks whose memories first and reads nothing before", async () => {
    const started = await startApp((b) => (b.open = { ...storeInfo(), scope: "per_user", user: null }));
    backend = started.backend;
    const { root } = started;
    expect(text(root.querySelector("#person-title"))).toBe("Whose memories?");
    expect(backend.named("latest")).toHaveLength(0);
    const person = root.querySelector<HTMLButtonElement>("#person-button");
    expect(person?.hidden).toBe(false);
    expect(text(person)).toBe("Choose a person");

    button(root, "Show their memories").click();
    await settle();
    expect(backend.named("choose_user")).toHaveLength(0);

    root.querySelector<HTMLInputElement>("#person-id")!.value = " ann ";
    button(root, "Show their memories").click();
    await settle();
    expect(backend.named("choose_user")[0]?.args).toEqual({ user: "ann" });
    expect(text(root.querySelector("#person-button"))).toBe("Person: ann");
    expect(text(root.querySelector("h1"))).toBe("Things your assistant remembers");
    expect(backend.named("latest").length).toBeGreaterThan(0);
  });

  it("offers the choice again when the store says no person is chosen", async () => {
    const started = await startApp((b) => (b.open = { ...storeInfo(), scope: "per_user", user: "ann" }));
    backend = started.backend;
    const { root } = started;
    expect(text(root.querySelector("#person-button"))).toBe("Person: ann");
    backend.failOn.set("latest", { kind: "no_user", message: "This memory keeps each person's memories apart." });
    await started.app.show("latest");
    await settle();
    expect(text(root.querySelector("#person-title"))).toBe("Whose memories?");
  });

  it("shows no person control in a memory without scopes", async () => {
    const started = await startApp();
    backend = started.backend;
    expect(started.root.querySelector<HTMLButtonElement>("#person-button")?.hidden).toBe(true);
  });
});
