// After every completed turn: the workstream's recent-activity entry, a generated line of what
// happened, shown to the workstream's owner alone.
import { defineJob } from "@/inngest/define";
import { turnCompleted } from "@/inngest/events";
import { describeTurn, writeTurnActivity } from "@/lib/workstreams/activity";

export const recentActivity = defineJob({
  id: "recent-activity",
  name: "Recent activity",
  trigger: turnCompleted,
  when: { key: "event.data.completed", equals: true },
  // Entries of one workstream are written one at a time; the newest turn's entry stays.
  flow: { retries: 3, concurrency: { key: "event.data.workstreamId", limit: 1 } },
  handler: async ({ event, step }) => {
    const { workstreamId, turnId, userId } = event.data;
    if (!userId) return { written: false };
    const summary = await step.run("describe-turn", () => describeTurn(workstreamId, turnId));
    if (!summary) return { written: false };
    const written = await step.run("write-entry", () =>
      writeTurnActivity({ workstreamId, turnId, summary }),
    );
    return { written };
  },
});
