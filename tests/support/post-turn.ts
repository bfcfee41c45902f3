// What the post-turn jobs' tests stand on: embedded runners with a clock of their own, stopped
// after each test, and a member's completed turn with the `turn.completed` event it stands for.
import { afterEach, expect } from "vitest";
import { createEmbeddedRunner, type EmbeddedRunner } from "@/inngest/runner";
import type { AnyJobDefinition } from "@/lib/jobs/define";
import { turnCompleted } from "@/lib/jobs/events";
import { userMessage } from "./fixtures";
import type { GroupMember } from "./harness";
import { readSse, statuses } from "./sse";

const YEAR = 365 * 24 * 60 * 60_000;

export type TestClock = { now(): number; advance(ms: number): void };

/**
 * Runners for one function each, on clocks that each start a year after the last, so no test
 * runs another's jobs; every runner is stopped after its test.
 */
export function jobRunners(firstClock: number) {
  const runners: EmbeddedRunner[] = [];
  let clockBase = firstClock;
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  });
  return {
    clock(): TestClock {
      clockBase += YEAR;
      let now = clockBase;
      return {
        now: () => now,
        advance(ms: number) {
          now += ms;
        },
      };
    },
    runner(
      definition: AnyJobDefinition,
      options: { clock: TestClock; processId: string; backoffMs: number },
    ): EmbeddedRunner {
      const runner = createEmbeddedRunner({
        functions: [definition],
        clock: options.clock,
        processId: options.processId,
        backoffMs: () => options.backoffMs,
      });
      runners.push(runner);
      return runner;
    },
  };
}

/** The member's message answered to the end; the id of its turn. */
export async function completedTurn(member: GroupMember, text: string): Promise<string> {
  const response = await member.user.client.fetch(
    `/api/workstreams/${member.workstreamId}/messages`,
    { method: "POST", json: userMessage(text) },
  );
  const { events } = await readSse(response);
  expect(statuses(events).at(-1)).toBe("ready");
  const status = events.find((event) => event.data.type === "data-status");
  return String((status?.data.data as { turnId?: string } | undefined)?.turnId);
}

/** The `turn.completed` data of a member's completed turn, with its flags. */
export function turnCompletedData(
  member: GroupMember,
  turnId: string,
  flags: { onboarding: boolean; skills?: boolean },
) {
  return turnCompleted.schema.parse({
    turnId,
    workstreamId: member.workstreamId,
    organizationId: member.user.organizationId,
    userId: member.user.userId,
    completed: true,
    compact: false,
    untitled: false,
    ...flags,
  });
}
