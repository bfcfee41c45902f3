// What travels on the live channel: changes to a member's workstreams (created, renamed,
// archived, title, running, compacting, deleted), recent activity and onboarding. Each change is
// addressed to the workstream's owner in its organization; admins may follow the organization.
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

export type LiveEvent =
  | { type: "workstream"; reason: WorkstreamChangeReason; workstream: WorkstreamSummary }
  | { type: "workstream_deleted"; workstreamId: string }
  | { type: "activity"; entry: ActivityEntry }
  | { type: "onboarding"; state: OnboardingState }
  /** Something changed that did not fit in one message: reload. */
  | { type: "refresh" };

export type LiveEnvelope = {
  organizationId: string;
  /** The workstream's owner; null for a workstream whose owner's account is gone. */
  userId: string | null;
  event: LiveEvent;
};

/** Whom a subscriber listens for: one member's own changes, or the whole organization's. */
export type LiveTopic =
  | { kind: "user"; organizationId: string; userId: string }
  | { kind: "organization"; organizationId: string };

export function topicKey(topic: LiveTopic): string {
  return topic.kind === "user"
    ? `u:${topic.organizationId}:${topic.userId}`
    : `o:${topic.organizationId}`;
}

/** The topics one envelope is delivered to. */
export function topicKeysOf(envelope: LiveEnvelope): string[] {
  const keys = [topicKey({ kind: "organization", organizationId: envelope.organizationId })];
  if (envelope.userId) {
    keys.push(
      topicKey({ kind: "user", organizationId: envelope.organizationId, userId: envelope.userId }),
    );
  }
  return keys;
}
