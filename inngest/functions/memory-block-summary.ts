// When a workstream's memory block reaches its trigger size: its oldest notes and its previous
// summary become one summary. Each fold is three steps (read, summarize, write) so a retry
// redoes only the one that failed; the write compare-and-sets, so a note deleted meanwhile makes
// it write nothing and the next round folds the block as it is then.
import { defineJob } from "@/lib/jobs/define";
import { memoryBlockFull } from "@/lib/jobs/events";
import { MEMORY_SUMMARY_JOB_ID, readFoldInput, writeFold } from "@/lib/memory/block";
import { summarizeFold } from "@/lib/memory/summary";

/** Folds per run: notes added while a fold ran may fill the block again. */
const MAX_ROUNDS = 3;

export const memoryBlockSummary = defineJob({
  id: MEMORY_SUMMARY_JOB_ID,
  name: "Memory block summary",
  trigger: memoryBlockFull,
  // One fold per workstream at a time: there is only ever one summary to fold into.
  flow: { retries: 3, concurrency: { key: "event.data.workstreamId", limit: 1 } },
  handler: async ({ event, step }) => {
    const { workstreamId } = event.data;
    let folded = 0;
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      const suffix = round === 1 ? "" : `-${round}`;
      const fold = await step.run(`read-entries${suffix}`, () => readFoldInput(workstreamId));
      if (!fold) break;
      const summary = await step.run(`summarize${suffix}`, () => summarizeFold(fold));
      const written = await step.run(`write-summary${suffix}`, () => writeFold(fold, summary));
      if (written) folded += fold.entries.length;
    }
    return { folded };
  },
});
