import { describe, expect, it } from "vitest";
import { deliveriesOf, type LiveEnvelope, type LiveEvent, topicKey } from "./live";

const CONTENT = "Zq7content";
const summary = {
  id: "ws_1",
  title: "Launch",
  mode: "group",
  core: false,
  coreType: null,
  agentId: "chief",
  status: "regular",
  isRunning: true,
  isCompacting: false,
  createdAt: "2026-11-23T00:00:00.000Z",
  lastActivityAt: "2026-11-23T00:00:00.000Z",
} as const;

// One sample of every type the live channel can carry, each with content wherever it could hide
// (a typed record: a new event type does not compile until it has a sample here). The workstream
// summary gets a content field it does not have today, as a later change might add one.
const samples: { [T in LiveEvent["type"]]: Extract<LiveEvent, { type: T }> } = {
  workstream: {
    type: "workstream",
    reason: "running",
    workstream: { ...summary, lastMessage: CONTENT } as typeof summary,
  },
  workstream_deleted: { type: "workstream_deleted", workstreamId: "ws_1" },
  activity: {
    type: "activity",
    entry: {
      workstreamId: "ws_1",
      title: "Launch",
      mode: "group",
      core: false,
      summary: CONTENT,
      occurredAt: summary.createdAt,
    },
  },
  onboarding: { type: "onboarding", state: "completed" },
  refresh: { type: "refresh" },
  context: { type: "context", workstreamId: "ws_1", reason: "state" },
  approval: { type: "approval", workstreamId: "ws_1", turnId: "turn_1", continued: true },
};

const owner = topicKey({ kind: "user", organizationId: "org_1", userId: "u_1" });
const organization = topicKey({ kind: "organization", organizationId: "org_1" });

describe("live routing", () => {
  for (const event of Object.values(samples)) {
    it(`S1 ${event.type}: the owner hears it whole, the organization only its metadata`, () => {
      const envelope: LiveEnvelope = { organizationId: "org_1", userId: "u_1", event };
      const deliveries = deliveriesOf(envelope);
      expect(deliveries.find((item) => item.key === owner)?.event).toEqual(event);
      const toOrganization = deliveries.filter((item) => item.key === organization);
      expect(JSON.stringify(toOrganization)).not.toContain(CONTENT);
      expect(deliveries.every((item) => item.key === owner || item.key === organization)).toBe(
        true,
      );
    });
  }

  it("S1 admins keep what the console needs: changes, running state and deletions", () => {
    const keys = (event: LiveEvent) =>
      deliveriesOf({ organizationId: "org_1", userId: "u_1", event })
        .filter((item) => item.key === organization)
        .map((item) => item.event);
    expect(keys(samples.workstream)).toEqual([
      { type: "workstream", reason: "running", workstream: summary },
    ]);
    expect(keys(samples.workstream_deleted)).toEqual([samples.workstream_deleted]);
    expect(keys(samples.activity)).toEqual([]);
    expect(keys(samples.onboarding)).toEqual([]);
  });

  it("S1 a workstream without an owner is announced to the organization only", () => {
    const deliveries = deliveriesOf({
      organizationId: "org_1",
      userId: null,
      event: samples.workstream_deleted,
    });
    expect(deliveries.map((item) => item.key)).toEqual([organization]);
  });
});
