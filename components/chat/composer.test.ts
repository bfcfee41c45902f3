import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Composer } from "./composer";

function render(
  value: string,
  maxChars: number,
  state: { running?: boolean; compacting?: boolean; waitingForCompaction?: boolean } = {},
): string {
  return renderToStaticMarkup(
    createElement(Composer, {
      value,
      onChange: () => {},
      onSubmit: () => {},
      onStop: () => {},
      running: state.running ?? false,
      stopping: false,
      compacting: state.compacting ?? false,
      waitingForCompaction: state.waitingForCompaction ?? false,
      blockedReason: null,
      textareaRef: null,
      agentName: "Chief",
      maxChars,
      attachments: {
        items: [],
        add: () => {},
        remove: () => {},
        take: () => [],
        accepted: () => {},
        refused: () => {},
        uploading: false,
        ready: 0,
      },
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

  it("I15.3 T1 while compacting, Send says so and still sends; a held message shows it busy, not Stop", () => {
    const idle = render("hello", 100, { compacting: true });
    expect(idle).toContain('aria-label="Send (compacting…)"');
    expect(idle).toContain("Compacting…");
    expect(idle).not.toContain('disabled=""');
    const held = render("", 100, { compacting: true, running: true, waitingForCompaction: true });
    expect(held).toContain('aria-label="Send (compacting…)"');
    expect(held).toContain('aria-busy="true"');
    expect(held).not.toContain('aria-label="Stop"');
  });
});
