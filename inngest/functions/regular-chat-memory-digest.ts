// The organization's periodic memory digest: completed turns after onboarding are not read one by
// one but together, at most once per 15 minutes per organization, and each within 30 minutes of
// its end however busy the organization is (debounced with a 15-minute period and the same
// maximum wait: a run starts 15 minutes after the first turn it absorbs at the latest). A run
// reads every slice since the organization's cursor, round by round; each round's memories and
// the cursor's advance commit together (lib/memory/digest.ts).

import { learningFrom } from "@/inngest/failures/record";
import { defineJob } from "@/lib/jobs/define";
import { turnCompleted } from "@/lib/jobs/events";
import { readDigestRound, writeDigestRound } from "@/lib/memory/digest";
import { extractFacts } from "@/lib/memory/learn";

export const MEMORY_DIGEST_JOB_ID = "regular-chat-memory-digest";

/** Rounds per run (Inngest allows a thousand steps per run); more waits for the next run. */
const MAX_ROUNDS = 300;

export const regularChatMemoryDigest = defineJob({
  id: MEMORY_DIGEST_JOB_ID,
  name: "Memory digest",
  trigger: turnCompleted,
  when: { key: "event.data.onboarding", equals: false },
  flow: {
    retries: 3,
    // The run reads the organization's slices since its cursor, not its event: the first turn
    // starts the wait and the run, at most 15 minutes later, covers every turn since then.
    debounce: { key: "event.data.organizationId", period: "15m", timeout: "15m" },
    // A run that takes longer than the period does not overlap the next one.
    concurrency: { key: "event.data.organizationId", limit: 1 },
  },
  handler: async ({ event, step }) => {
    const { organizationId } = event.data;
    let slices = 0;
    let created = 0;
    let reinforced = 0;
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      const suffix = round === 1 ? "" : `-${round}`;
      const read = await step.run(`read-slices${suffix}`, () => readDigestRound(organizationId));
      if (read.slices.length === 0) break;
      const members = read.slices.map((slice) => slice.userId);
      const facts = await step.run(`extract-facts${suffix}`, () =>
        learningFrom(members, () => extractFacts(read.slices)),
      );
      const written = await step.run(`write-memories${suffix}`, () =>
        learningFrom(members, () => writeDigestRound(read, facts)),
      );
      // Another run moved the cursor: what this one read is digested already.
      if (!written.written) break;
      slices += read.slices.length;
      created += written.created;
      reinforced += written.reinforced;
    }
    return { slices, created, reinforced };
  },
});
