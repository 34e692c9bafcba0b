import { afterEach, describe, expect, it } from "vitest";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { api, errorText, isCommandError } from "./api";

afterEach(() => clearMocks());

describe("api", () => {
  it("sends each command with its arguments in the Rust side's names", async () => {
    const calls: Array<[string, unknown]> = [];
    mockIPC((cmd, args) => {
      calls.push([cmd, args]);
      return cmd === "latest" ? [] : null;
    });
    await api.openStore(null, true);
    await api.latest(null, 50);
    await api.approveEdited(3, ["a"]);
    await api.textDiff("a", "b");
    await api.setSection("USER", "- x");
    await api.settings();
    expect(calls).toEqual([
      ["open_store", { dir: null, create: true }],
      ["latest", { after: null, count: 50 }],
      ["approve_edited", { id: 3, memories: ["a"] }],
      ["text_diff", { old: "a", next: "b" }],
      ["set_section", { section: "USER", text: "- x" }],
      ["settings", {}],
    ]);
  });

  it("recognises the app's errors and words any failure", async () => {
    mockIPC(() => {
      throw { kind: "no_store", message: "No memory is open yet." };
    });
    const error = await api.appStatus().catch((e: unknown) => e);
    expect(isCommandError(error)).toBe(true);
    expect(errorText(error)).toBe("No memory is open yet.");
    expect(isCommandError("boom")).toBe(false);
    expect(errorText(new Error("lost"))).toBe("lost");
  });
});
