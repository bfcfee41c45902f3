// What travels on the live channel: changes to a member's workstreams (created, renamed,
// archived, title, running, compacting, deleted), recent activity and onboarding. Each change is
// addressed to the workstream's owner in its organization. Admins may follow the organization,
// which carries only the metadata projection of each event (toOrganizationEvent).
import type { OnboardingState } from "@/db/schema";
import type { ActivityEntry, WorkstreamSummary } from "@/lib/workstreams/types";

export type WorkstreamChangeReason =
  | "created"
  | "renamed"
  | "archived"
  | "unarchived"
  | "title"
  | "running"
  | "compacting"
  | "updated";

export type ContextChangeReason = "state" | "plan" | "memory_block" | "turn" | "compaction";

export type LiveEvent =
  | { type: "workstream"; reason: WorkstreamChangeReason; workstream: WorkstreamSummary }
  | { type: "workstream_deleted"; workstreamId: string }
  | { type: "activity"; entry: ActivityEntry }
  | { type: "onboarding"; state: OnboardingState }
  /**
   * An approval of a suspended turn was answered (from any tab, or by its expiry): the owner's
   * open chats of the workstream reload the card and, when the turn went on, follow it.
   */
  | { type: "approval"; workstreamId: string; turnId: string; continued: boolean }
  /** The workstream's state, plan or memory block changed: its owner's panel reloads it. */
  | { type: "context"; workstreamId: string; reason: ContextChangeReason }
  /** Something changed that did not fit in one message: reload. */
  | { type: "refresh" };

export type LiveEnvelope = {
  organizationId: string;
  /** The workstream's owner; null for a workstream whose owner's account is gone. */
  userId: string | null;
  event: LiveEvent;
};

/**
 * What the organization topic (the admin console) may carry: metadata only. Ids, titles, counts,
 * running state and deletions; never a member's message text, activity lines or anything derived
 * from their conversations.
 */
export type OrganizationEvent =
  | { type: "workstream"; reason: WorkstreamChangeReason; workstream: WorkstreamSummary }
  | { type: "workstream_deleted"; workstreamId: string }
  | { type: "refresh" };

/** Whom a subscriber listens for: one member's own changes, or the whole organization's. */
export type LiveTopic =
  | { kind: "user"; organizationId: string; userId: string }
  | { kind: "organization"; organizationId: string };

export function topicKey(topic: LiveTopic): string {
  return topic.kind === "user"
    ? `u:${topic.organizationId}:${topic.userId}`
    : `o:${topic.organizationId}`;
}

/**
 * The metadata an organization subscriber may see of an owner's event, or null when the event
 * stays with its owner. Every event type must be decided here: the switch is exhaustive, so a
 * new type does not compile until someone says whether (and what of it) admins receive.
 */
export function toOrganizationEvent(event: LiveEvent): OrganizationEvent | null {
  switch (event.type) {
    case "workstream": {
      const { workstream } = event;
      // Rebuilt field by field so a content field added to the summary later is not forwarded.
      return {
        type: "workstream",
        reason: event.reason,
        workstream: {
          id: workstream.id,
          title: workstream.title,
          mode: workstream.mode,
          core: workstream.core,
          coreType: workstream.coreType,
          agentId: workstream.agentId,
          status: workstream.status,
          isRunning: workstream.isRunning,
          isCompacting: workstream.isCompacting,
          createdAt: workstream.createdAt,
          lastActivityAt: workstream.lastActivityAt,
        },
      };
    }
    case "workstream_deleted":
      return { type: "workstream_deleted", workstreamId: event.workstreamId };
    case "refresh":
      return { type: "refresh" };
    case "activity":
    case "onboarding":
    case "context":
    case "approval":
      return null;
    default:
      return unhandled(event);
  }
}

function unhandled(event: never): null {
  throw new Error(`live event type not routed: ${(event as { type: string }).type}`);
}

/** Each topic one envelope is delivered to, with the event as that topic may see it. */
export function deliveriesOf(
  envelope: LiveEnvelope,
): Array<{ key: string; event: LiveEvent | OrganizationEvent }> {
  const deliveries: Array<{ key: string; event: LiveEvent | OrganizationEvent }> = [];
  if (envelope.userId) {
    deliveries.push({
      key: topicKey({
        kind: "user",
        organizationId: envelope.organizationId,
        userId: envelope.userId,
      }),
      event: envelope.event,
    });
  }
  const metadata = toOrganizationEvent(envelope.event);
  if (metadata) {
    deliveries.push({
      key: topicKey({ kind: "organization", organizationId: envelope.organizationId }),
      event: metadata,
    });
  }
  return deliveries;
}
