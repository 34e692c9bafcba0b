import { describe, expect, it } from "vitest";
import { h, printable } from "./dom";

describe("stored text on the desktop", () => {
  it("shows each control character as U+FFFD, a carriage return too", () => {
    expect(printable("k\u001b]0;PWNED\u0007")).toBe("k\uFFFD]0;PWNED\uFFFD");
    expect(printable("paid\runpaid \u009b2J \u007f")).toBe("paid\uFFFDunpaid \uFFFD2J \uFFFD");
    expect(printable("two\nlines\tand a tab, ünïcode 東京")).toBe("two\nlines\tand a tab, ünïcode 東京");
  });

  it("shows the bidirectional overrides and isolates as U+FFFD, not the marks of RTL text", () => {
    expect(printable("un\u202Ediap")).toBe("un\uFFFDdiap");
    expect(printable("a\u2066b\u2069c\u202Ad")).toBe("a\uFFFDb\uFFFDc\uFFFDd");
    expect(printable("שלום\u200F عربي\u061C")).toBe("שלום\u200F عربي\u061C");
  });

  it("renders text children printable", () => {
    const row = h("p", {}, "I owe Bo 10 EUR\r I owe Bo nothing", h("b", {}, "\u001b[2J"));
    expect(row.textContent).toBe("I owe Bo 10 EUR\uFFFD I owe Bo nothing\uFFFD[2J");
  });
});
