import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Composer } from "./composer";

function render(value: string, maxChars: number): string {
  return renderToStaticMarkup(
    createElement(Composer, {
      value,
      onChange: () => {},
      onSubmit: () => {},
      onStop: () => {},
      running: false,
      stopping: false,
      blockedReason: null,
      textareaRef: null,
      agentName: "Chief",
      maxChars,
    }),
  );
}

describe("Composer", () => {
  it("H7 holds a message to the length limit it is given, not a copy of the server's", () => {
    const over = render("x".repeat(11), 10);
    expect(over).toContain("1 characters over the 10 limit.");
    expect(over).toContain('aria-invalid="true"');
    expect(over).toContain("11 / 10");
    const within = render("x".repeat(11), 20);
    expect(within).not.toContain("over the");
    expect(within).not.toContain('aria-invalid="true"');
  });
});
