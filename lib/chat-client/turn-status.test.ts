import { describe, expect, it } from "vitest";
import {
  IDLE_TURN,
  initialTurnView,
  isRunning,
  reduceTurnStatus,
  type TurnView,
} from "./turn-status";
import type { TurnStatusEvent } from "./wire";

const fold = (events: TurnStatusEvent[]): TurnView => events.reduce(reduceTurnStatus, IDLE_TURN);
const turnId = "turn_1";

describe("reduceTurnStatus", () => {
  it("follows a turn from acknowledged through a tool to completed", () => {
    const acknowledged = fold([{ turnId, state: "acknowledged" }]);
    expect(acknowledged).toMatchObject({ state: "pending", activity: { kind: "acknowledged" } });
    expect(isRunning(acknowledged)).toBe(true);
    const tool = reduceTurnStatus(acknowledged, {
      turnId,
      state: "tool",
      toolName: "current_time",
    });
    expect(tool).toMatchObject({
      state: "active",
      activity: { kind: "tool", toolName: "current_time" },
    });
    const done = reduceTurnStatus(tool, { turnId, state: "ready" });
    expect(done).toMatchObject({ state: "completed", activity: null, turnId });
    expect(isRunning(done)).toBe(false);
  });

  it("shows preamble text while the turn works", () => {
    expect(fold([{ turnId, state: "preamble", text: "Let me check…" }]).activity).toEqual({
      kind: "preamble",
      text: "Let me check…",
    });
  });

  it("E3 keeps the preamble through the stages after it, until a tool or another preamble", () => {
    const said = fold([
      { turnId, state: "processing", stage: "COMPOSE_REQUEST" },
      { turnId, state: "preamble", text: "Getting the context together…" },
      { turnId, state: "processing", stage: "SEND_REQUEST" },
      { turnId, state: "processing", stage: "STREAM_RESPONSE" },
    ]);
    expect(said.activity).toEqual({ kind: "preamble", text: "Getting the context together…" });
    const tool = fold([
      { turnId, state: "preamble", text: "Getting the context together…" },
      { turnId, state: "tool", toolName: "calculate" },
      { turnId, state: "processing", stage: "TOOL_CALL" },
    ]);
    expect(tool.activity).toEqual({ kind: "thinking", stage: "TOOL_CALL" });
    const next = fold([
      { turnId, state: "preamble", text: "Getting the context together…" },
      { turnId: "turn_next", state: "processing", stage: "COMPOSE_REQUEST" },
    ]);
    expect(next.activity).toEqual({ kind: "thinking", stage: "COMPOSE_REQUEST" });
  });

  it("keeps the failure's reason and whether Retry makes sense", () => {
    const failed = fold([
      { turnId, state: "processing", stage: "SEND_REQUEST" },
      { turnId, state: "error", code: "model:failed", message: "boom", retryable: true },
    ]);
    expect(failed).toMatchObject({
      state: "failed",
      error: { code: "model:failed", message: "boom", retryable: true },
    });
    const next = reduceTurnStatus(failed, { turnId: "turn_2", state: "acknowledged" });
    expect(next.error).toBeNull();
  });

  it("I14.4 keeps a warning for the rest of its turn, once per code, and not into the next", () => {
    const warning = {
      turnId,
      state: "warning" as const,
      code: "retrieval:failed" as const,
      message: "Looking up failed.",
    };
    const warned = fold([
      { turnId, state: "acknowledged" },
      { turnId, state: "processing", stage: "COMPOSE_REQUEST" },
      warning,
      warning,
      { turnId, state: "processing", stage: "STREAM_RESPONSE" },
    ]);
    expect(warned).toMatchObject({ state: "active", activity: { kind: "thinking" } });
    expect(warned.warnings).toEqual([{ code: "retrieval:failed", message: "Looking up failed." }]);
    expect(reduceTurnStatus(warned, { turnId, state: "ready" }).warnings).toHaveLength(1);
    const next = reduceTurnStatus(warned, { turnId: "turn_2", state: "acknowledged" });
    expect(next.warnings).toEqual([]);
    // A late warning of another turn changes nothing.
    expect(reduceTurnStatus(next, warning)).toBe(next);
  });

  it("records why a turn was cancelled", () => {
    expect(fold([{ turnId, state: "cancelled", reason: "stopped by user" }])).toMatchObject({
      state: "cancelled",
      reason: "stopped by user",
    });
  });
});

describe("initialTurnView", () => {
  it("starts from the running turn", () => {
    expect(
      initialTurnView({ activeTurn: { id: turnId, state: "active" }, lastStatus: null }),
    ).toMatchObject({
      state: "active",
      turnId,
    });
  });

  it("starts from how the last turn ended, or idle", () => {
    expect(
      initialTurnView({
        activeTurn: null,
        lastStatus: { turnId, state: "error", code: "x:y", message: "m", retryable: true },
      }).state,
    ).toBe("failed");
    expect(initialTurnView({ activeTurn: null, lastStatus: null })).toEqual(IDLE_TURN);
  });
});
