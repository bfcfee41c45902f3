// Storage clean-up jobs: a deleted workstream's or organization's files (queued by the delete,
// retried until storage has let them go) and the daily sweep of uploads never attached, which
// queues the next day's sweep when it is done.

import {
  removeWorkstreamFiles,
  scheduleFileSweep,
  sweepUnattachedUploads,
} from "@/lib/files/lifecycle";
import { defineJob } from "@/lib/jobs/define";
import { filesSweepDue, workstreamFilesDeleted } from "@/lib/jobs/events";

export const FILES_DELETION_JOB_ID = "workstreams-files-deletion";
export const FILES_SWEEP_JOB_ID = "workstreams-files-sweep";

export const filesDeletion = defineJob({
  id: FILES_DELETION_JOB_ID,
  name: "Deleted workstream's or organization's files",
  trigger: workstreamFilesDeleted,
  flow: { retries: 10 },
  handler: async ({ event, step }) =>
    step.run("remove-prefix", () => removeWorkstreamFiles(event.data.prefix)),
});

export const filesSweep = defineJob({
  id: FILES_SWEEP_JOB_ID,
  name: "Unattached uploads sweep",
  trigger: filesSweepDue,
  flow: { retries: 3, concurrency: { key: "event.data.day", limit: 1 } },
  startsAt: "event.ts",
  handler: async ({ step }) => {
    const removed = await step.run("sweep", () => sweepUnattachedUploads());
    await step.run("schedule-next", () => scheduleFileSweep());
    return removed;
  },
});
