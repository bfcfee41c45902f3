// After a completed onboarding turn, at once: the facts the member stated about themselves (at
// most 16), each kept as one of their memories with the message it came from. Later turns are
// left to the regular digest. Three steps, so a retry redoes only the one that failed; the write
// is idempotent by source, so a re-run after it committed changes nothing.

import { learningFrom } from "@/inngest/failures/record";
import { defineJob } from "@/lib/jobs/define";
import { turnCompleted } from "@/lib/jobs/events";
import {
  extractFacts,
  learnedFacts,
  planWrites,
  readTurnSlice,
  writePlan,
} from "@/lib/memory/learn";

export const POST_CHAT_MEMORY_JOB_ID = "post-chat-memory";

export const postChatMemory = defineJob({
  id: POST_CHAT_MEMORY_JOB_ID,
  name: "Post-chat memory",
  trigger: turnCompleted,
  when: { key: "event.data.onboarding", equals: true },
  // One member's turns one at a time: a fact said twice in a row is one memory, reinforced.
  flow: { retries: 3, concurrency: { key: "event.data.userId", limit: 1 } },
  handler: async ({ event, step }) => {
    const slice = await step.run("read-turn", () => readTurnSlice(event.data.turnId));
    if (!slice?.isMember) return { created: 0, reinforced: 0 };
    const member = [slice.userId];
    const facts = await step.run("extract-facts", () =>
      learningFrom(member, () => extractFacts([slice])),
    );
    if (facts.length === 0) return { created: 0, reinforced: 0 };
    return step.run("remember", () =>
      learningFrom(member, async () => writePlan(await planWrites(learnedFacts([slice], facts)))),
    );
  },
});
