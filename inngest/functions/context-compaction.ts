// After a turn whose history passed the compaction threshold (the turn's end decided it, from the
// history it read): the older part becomes a summary, its findings are merged into the state and
// the pointers move (lib/compaction). One compaction per workstream at a time; a second event for
// the same workstream finds the history compacted and does nothing.

import { compactWorkstream } from "@/lib/compaction/compact";
import { defineJob } from "@/lib/jobs/define";
import { turnCompleted } from "@/lib/jobs/events";

export const COMPACTION_JOB_ID = "context-compaction";

export const contextCompaction = defineJob({
  id: COMPACTION_JOB_ID,
  name: "Context compaction",
  trigger: turnCompleted,
  when: { key: "event.data.compact", equals: true },
  flow: { retries: 2, concurrency: { key: "event.data.workstreamId", limit: 1 } },
  handler: async ({ event, step }) => {
    const { workstreamId, turnId } = event.data;
    // One step: the claim, the summary made under it and the write belong together, so a retry
    // starts over from the rows rather than writing a summary made under a claim that is gone.
    return step.run("compact", () => compactWorkstream({ workstreamId, turnId }));
  },
});
