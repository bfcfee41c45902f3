import { describe, expect, it } from "vitest";
import { ChatRequestError } from "@/lib/chat-client/wire";
import { workstreamStateDeltaSchema } from "@/lib/state/schema";
import {
  type AnyStateItem,
  addDelta,
  draftOf,
  editErrorSentence,
  removeDelta,
  updateDelta,
} from "./edit";

const decision = {
  id: "dec_1",
  addedAt: "2026-01-01T00:00:00.000Z",
  text: "Use Postgres",
  rationale: "ops know it",
  confidence: 0.7,
} as AnyStateItem;

describe("the panel's state deltas", () => {
  it("W9 sends only the fields an edit changed, and the server's schema takes it", () => {
    const delta = updateDelta("keyDecisions", decision, {
      ...draftOf(decision),
      rationale: "ops know it well",
    });
    expect(delta).toEqual({
      keyDecisions: { update: [{ id: "dec_1", rationale: "ops know it well" }] },
    });
    expect(workstreamStateDeltaSchema.parse(delta)).toEqual(delta);
  });

  it("an edit that changes nothing sends nothing", () => {
    expect(
      updateDelta("keyDecisions", decision, { ...draftOf(decision), text: " Use Postgres " }),
    ).toBeNull();
  });

  it("confidence is edited in percent and sent as a fraction", () => {
    const delta = updateDelta("keyDecisions", decision, { ...draftOf(decision), confidence: 95 });
    expect(delta).toEqual({ keyDecisions: { update: [{ id: "dec_1", confidence: 0.95 }] } });
  });

  it("a new item carries its list's fields, trimmed", () => {
    const task = addDelta("tasks", {
      ...draftOf(null),
      text: "  Write the migration ",
      status: "in_progress",
    });
    expect(task).toEqual({
      tasks: { add: [{ text: "Write the migration", status: "in_progress" }] },
    });
    const risk = addDelta("risks", { ...draftOf(null), text: "Vendor lock-in" });
    expect(risk).toEqual({ risks: { add: [{ text: "Vendor lock-in" }] } });
    for (const delta of [task, risk, removeDelta("risks", "risk_1")]) {
      expect(workstreamStateDeltaSchema.safeParse(delta).success).toBe(true);
    }
  });
});

describe("editErrorSentence", () => {
  it("names the full list and its limit after the server's sentence", () => {
    const error = new ChatRequestError(
      "limit:state",
      "That list of the workstream state is full.",
      {
        status: 422,
        details: { list: "keyDecisions", limit: 8 },
      },
    );
    expect(editErrorSentence(error)).toBe(
      "That list of the workstream state is full. “Decisions” holds at most 8 items: delete one first.",
    );
  });

  it("says how long a text may be", () => {
    const error = new ChatRequestError(
      "bad_request:too_long",
      "A text in the request is longer than allowed.",
      {
        status: 400,
        details: { field: "delta.tasks.add.0.text", maximum: 500 },
      },
    );
    expect(editErrorSentence(error)).toBe(
      "A text in the request is longer than allowed. Keep it to 500 characters.",
    );
  });

  it("keeps any other sentence as the server wrote it", () => {
    const error = new ChatRequestError("conflict:archived", "This workstream is archived.", {
      status: 409,
    });
    expect(editErrorSentence(error)).toBe("This workstream is archived.");
  });
});
