import { describe, expect, it } from "vitest";
import { decodeEntities, safeHref } from "./text";

describe("safeHref", () => {
  it("allows absolute http(s) and mailto links", () => {
    expect(safeHref("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(safeHref("mailto:someone@example.com")).toBe("mailto:someone@example.com");
  });

  it("refuses scripts, relative and half-streamed links", () => {
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("/relative/path")).toBeNull();
    expect(safeHref("streamdown:incomplete-link")).toBeNull();
  });
});

describe("decodeEntities", () => {
  it("decodes named and numeric character references", () => {
    expect(decodeEntities("a &amp; b &lt;c&gt; &#39;d&#x27; &mdash;")).toBe(
      "a & b <c> 'd' &mdash;",
    );
  });
});
