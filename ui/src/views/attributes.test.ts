// A memory's attributes edited from its card: the form shows what it carries, refuses what
// cannot be stored in words, and saves the rest as one change with Undo.
import { describe, expect, it } from "vitest";
import { startApp } from "../test/app-fixture";
import { button, settle, text } from "../test/backend";


function set(root: HTMLElement, label: string, value: string): void {
  const id = [...root.querySelectorAll("label")].find((l) => l.textContent === label)?.getAttribute("for") ?? "";
  const input = root.querySelector<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(`#${id}`);
  if (!input) throw new Error(`no field ${label}`);
  input.value = value;
}

describe("a memory's attributes", () => {
  it("are shown in a form, checked, and saved as one change", async () => {
    const { root, backend } = await startApp(undefined, "latest");
    const card = [...root.querySelectorAll<HTMLElement>("li.memory")].find((li) => li.textContent?.includes("Oslo"));
    expect(card).toBeDefined();
    button(card!, "Details").click();
    await settle();
    const field = (label: string) => {
      const id = [...root.querySelectorAll("label")].find((l) => l.textContent === label)?.getAttribute("for") ?? "";
      return root.querySelector<HTMLInputElement | HTMLTextAreaElement>(`#${id}`)?.value;
    };
    expect(field("What sort of memory")).toBe("fact");
    expect(field("How much it matters")).toBe("0.9");
    expect(field("Where it came from")).toBe("onboarding");
    expect(JSON.parse(field("Other details") ?? "{}")).toEqual({ city: "Oslo" });

    set(root, "How much it matters", "0.5");
    set(root, "Other details", "{city: Oslo}");
    button(root, "Save").click();
    await settle();
    expect(text(root.querySelector(".alert"))).toContain("not written as names and values");
    expect(backend.named("update_attributes")).toHaveLength(0);

    set(root, "Other details", '{"city": "Bergen"}');
    set(root, "What sort of memory", "preference");
    button(root, "Save").click();
    await settle();
    expect(backend.named("update_attributes")[0]?.args).toEqual({
      id: "b",
      attributes: { memory_type: "preference", importance: 0.5, source: "onboarding", agent_id: null, session_id: null, user_id: null, metadata: { city: "Bergen" } },
    });
    expect(text(root.querySelector(".notice"))).toContain("Changed the attributes");
  });
});
