// When a suspended turn's approvals reach their deadline (WORKSTREAMS_APPROVAL_TIMEOUT after they
// were asked): those still unanswered expire, the model is told they were not approved, and the
// turn goes on to its end. The run is delayed by the event's own time, on Inngest and in the
// embedded runner alike. Answered approvals are left alone, so a late or repeated run does nothing.
import { expireApprovals } from "@/lib/approvals/answer";
import { defineJob } from "@/lib/jobs/define";
import { approvalsDue } from "@/lib/jobs/events";

export const APPROVAL_EXPIRY_JOB_ID = "workstreams-approval-expiry";

export const approvalExpiry = defineJob({
  id: APPROVAL_EXPIRY_JOB_ID,
  name: "Approval expiry",
  trigger: approvalsDue,
  flow: { retries: 3, concurrency: { key: "event.data.workstreamId", limit: 1 } },
  startsAt: "event.ts",
  handler: async ({ event, step }) => {
    const { turnId, workstreamId, approvalIds } = event.data;
    return step.run("expire", () => expireApprovals({ turnId, workstreamId, approvalIds }));
  },
});
