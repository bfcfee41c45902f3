import { afterEach, describe, expect, it } from "vitest";
import { runRegistry } from "./run-registry";

const run = (turnId: string) => ({
  turnId,
  workstreamId: "ws_1",
  serverRunId: `run_${turnId}`,
  controller: new AbortController(),
  done: Promise.resolve(),
});

describe("whether the process has other turns in flight", () => {
  const releases: Array<() => void> = [];
  afterEach(() => {
    for (const release of releases.splice(0)) release();
    for (const { turnId } of runRegistry.all()) runRegistry.unregister(turnId);
  });

  it("H2 a turn alone is not busy with others; its own run and reservation do not count", () => {
    expect(runRegistry.busyWithOthers("turn_a")).toBe(false);
    runRegistry.register(run("turn_a"));
    releases.push(runRegistry.reserve("turn_a"));
    expect(runRegistry.busyWithOthers("turn_a")).toBe(false);
  });

  it("H2 another turn running, or about to start (reserved before its opening), counts", () => {
    runRegistry.register(run("turn_a"));
    runRegistry.register(run("turn_b"));
    expect(runRegistry.busyWithOthers("turn_a")).toBe(true);
    runRegistry.unregister("turn_b");
    expect(runRegistry.busyWithOthers("turn_a")).toBe(false);
    const release = runRegistry.reserve("turn_c");
    expect(runRegistry.busyWithOthers("turn_a")).toBe(true);
    release();
    expect(runRegistry.busyWithOthers("turn_a")).toBe(false);
  });
});
