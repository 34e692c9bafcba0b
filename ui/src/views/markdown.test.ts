// The profile drawn for reading: what core.md's Markdown becomes, and that nothing in a
// section can become markup.
import { describe, expect, it } from "vitest";
import { blocks, markdown } from "./markdown";

describe("the profile's Markdown", () => {
  it("draws headings, lists, paragraphs and inline marks as elements", () => {
    const el = markdown(
      "## Profile\n- Mina Park, cellist\n- Drinks **green tea**, no *sugar*\n\n## Tools\n1. `calendar`: read\n2. see [the docs](https://example.com/x)\n\nA paragraph\nover two lines.",
    );
    expect([...el.querySelectorAll("h3")].map((x) => x.textContent)).toEqual(["Profile", "Tools"]);
    expect([...el.querySelectorAll("ul > li")].map((x) => x.textContent)).toEqual([
      "Mina Park, cellist",
      "Drinks green tea, no sugar",
    ]);
    expect(el.querySelector("strong")?.textContent).toBe("green tea");
    expect(el.querySelector("em")?.textContent).toBe("sugar");
    expect(el.querySelector("ol > li code")?.textContent).toBe("calendar");
    // A link shows its words and where it points; nothing in the profile is a live link.
    expect(el.querySelector("a")).toBeNull();
    expect(el.querySelectorAll("ol > li")[1].textContent).toBe("see the docs (https://example.com/x)");
    const p = el.querySelector("p");
    expect(p?.textContent).toBe("A paragraphover two lines.");
    expect(p?.querySelector("br")).not.toBeNull();
    expect(el.textContent).not.toMatch(/[#*`]/);
  });

  it("keeps a numbered list's first number and nests indented items", () => {
    const el = markdown("3. third\n4. fourth\n  - a detail");
    expect(el.querySelector("ol")?.getAttribute("start")).toBe("3");
    expect(el.querySelector("li.depth-1")?.textContent).toBe("a detail");
    expect(blocks("- a\n  going on\n- b")).toEqual([
      { kind: "list", start: null, items: [{ depth: 0, text: "a going on" }, { depth: 0, text: "b" }] },
    ]);
  });

  it("never turns a section's text into markup", () => {
    const el = markdown('<img src=x onerror="alert(1)"> **<b>bold</b>** [x](javascript:alert(1))\n- <script>1</script>');
    expect(el.querySelector("img, script, b, a")).toBeNull();
    expect(el.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(el.querySelector("strong")?.textContent).toBe("<b>bold</b>");
    expect(el.querySelector("li")?.textContent).toBe("<script>1</script>");
  });

  it("leaves lone marks and identifiers as typed", () => {
    const el = markdown("snake_case_name and 2 * 3 * 4, a ** b, price 5*");
    expect(el.textContent).toBe("snake_case_name and 2 * 3 * 4, a ** b, price 5*");
    expect(el.querySelector("em, strong")).toBeNull();
  });

  it("shows control characters as every surface does", () => {
    expect(markdown("- a\u001b[31mred").textContent).toBe("a\uFFFD[31mred");
  });
});
