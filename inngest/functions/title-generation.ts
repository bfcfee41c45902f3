// After a completed turn of a group workstream that still has the default title: a short title
// from the conversation, unless the member renamed it first.
import { defineJob } from "@/lib/jobs/define";
import { turnCompleted } from "@/lib/jobs/events";
import {
  applyGeneratedTitle,
  proposeTitle,
  untitledConversation,
} from "@/lib/workstreams/title-generation";

export const titleGeneration = defineJob({
  id: "title-generation",
  name: "Title generation",
  trigger: turnCompleted,
  when: { key: "event.data.untitled", equals: true },
  // One title job per workstream at a time: a second turn's job finds the title written.
  flow: { retries: 3, concurrency: { key: "event.data.workstreamId", limit: 1 } },
  handler: async ({ event, step }) => {
    const { workstreamId } = event.data;
    const transcript = await step.run("read-conversation", () =>
      untitledConversation(workstreamId),
    );
    if (!transcript) return { titled: false };
    const title = await step.run("propose-title", () => proposeTitle(transcript));
    if (!title) return { titled: false };
    const titled = await step.run("write-title", () => applyGeneratedTitle(workstreamId, title));
    return { titled };
  },
});
