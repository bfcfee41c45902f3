// After every completed turn: the workstream's recent-activity entry, a generated line of what
// happened, shown to the workstream's owner alone. No flow control: the entry's write keeps the
// newest turn's line whatever order two runs end in (it compares the turns' ends), so the
// embedded runner claims these runs in batches without its claim lock. Not debounced: the line is
// what the owner sees of a conversation they just left, so it comes at once. A run whose turn was
// followed by a later completed one in the same workstream describes nothing (describeTurn): the
// later turn's run writes the line that is shown.
import { defineJob } from "@/lib/jobs/define";
import { turnCompleted } from "@/lib/jobs/events";
import { describeTurn, writeTurnActivity } from "@/lib/workstreams/activity";

export const recentActivity = defineJob({
  id: "recent-activity",
  name: "Recent activity",
  trigger: turnCompleted,
  when: { key: "event.data.completed", equals: true },
  flow: { retries: 3 },
  handler: async ({ event, step }) => {
    const { workstreamId, turnId, userId } = event.data;
    if (!userId) return { written: false };
    // One step: the line is written by the step that asks for it, so the run stores one result
    // (with its completion) instead of storing the line first, a statement on every turn. What
    // it costs: a retry after a failed write asks the model for the line again.
    return step.run("describe-and-write", async () => {
      const summary = await describeTurn(workstreamId, turnId);
      if (!summary) return { written: false };
      return { written: await writeTurnActivity({ workstreamId, turnId, summary }) };
    });
  },
});
