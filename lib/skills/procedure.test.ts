import { describe, expect, it } from "vitest";
import { findProcedure, mayHoldSkills } from "./procedure";

describe("findProcedure", () => {
  it("I14.6 reads a numbered list with the words that introduce it as the name", () => {
    expect(
      findProcedure(
        "Here is how to release the mobile app:\n1. Bump the version\n2. Run the store checks\n3. Upload the build",
      ),
    ).toEqual({
      name: "Release the mobile app",
      whenToUse: "When you need to release the mobile app.",
      steps: ["Bump the version", "Run the store checks", "Upload the build"],
    });
  });

  it("I14.6 reads steps after a colon and first/then/finally sequences", () => {
    expect(
      findProcedure(
        "To restart the ingest worker: drain the queue; restart the pod; check the lag",
      ),
    ).toMatchObject({
      name: "Restart the ingest worker",
      steps: ["Drain the queue", "Restart the pod", "Check the lag"],
    });
    expect(
      findProcedure(
        "When the invoice is late, first email the client, then call their accountant, and finally flag it in the ledger.",
      ),
    ).toEqual({
      name: "The invoice is late",
      whenToUse: "When the invoice is late.",
      steps: ["Email the client", "Call their accountant", "Flag it in the ledger"],
    });
  });

  it("I14.6 finds nothing in a message without steps", () => {
    expect(findProcedure("What is the weather like in Porto?")).toBeNull();
    expect(findProcedure("Note: one thing only")).toBeNull();
    expect(findProcedure("- just one bullet")).toBeNull();
  });
});

describe("mayHoldSkills", () => {
  it("I14.6 a turn is worth a skill job only when its member message or answer lays out a procedure", () => {
    expect(
      mayHoldSkills({ member: "What a lovely morning.", agent: "It is, enjoy the walk." }),
    ).toBe(false);
    expect(
      mayHoldSkills({
        member: "How do I restart the worker?",
        agent: "To restart the ingest worker: drain the queue; restart the pod; check the lag",
      }),
    ).toBe(true);
  });
});
