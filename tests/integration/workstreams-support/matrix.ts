// The access matrix's personas and expectations, and the entries for the workstreams, onboarding,
// live, activity, admin and invitation routes with the fixture they address (everything owned by
// `member`, in the owner's organization). tests/integration/access-matrix.test.ts runs them.
import { getDb } from "@/db/client";
import { member, toolGrants } from "@/db/schema";
import { addMemoryNote } from "@/lib/memory/block";
import { wireTurnTools } from "@/root/wiring";
import { seedCompaction } from "../../support/compactions";
import type { SignedUpUser } from "../../support/http-client";
import { signUp } from "../../support/http-client";
import { readSse } from "../../support/sse";
import { createGroup, sendTo } from "./helpers";
import type { MemoryFixture } from "./memory-matrix";

export const PERSONAS = [
  "owner",
  "admin",
  "member",
  "anotherMember",
  "otherOrg",
  "signedOut",
] as const;
export type Persona = (typeof PERSONAS)[number];
export type Expected = Record<Persona, number>;

export type Fixture = {
  /** member's direct chief workstream */
  workstreamId: string;
  /** a note in that workstream's memory block, for member to delete */
  memoryEntryId: string;
  /** a compacted range of that workstream */
  compactionId: string;
  /** member's group workstreams: renamed/archived by member, archived/unarchived by admins */
  groupId: string;
  adminGroupId: string;
  /** member's archived group workstreams: one for member to delete, one per persona for admins */
  archivedGroupId: string;
  adminArchived: Record<Persona, string>;
  /** a member whose role admins set; members admins remove (one for each admin persona) */
  roleTargetId: string;
  removable: Record<Persona, string>;
  invitationId: string;
  /** an invitation addressed to the otherOrg persona */
  otherOrgInvitationId: string;
  /** member's memories and skills, and organization memories (./memory-matrix.ts) */
  memory: MemoryFixture;
  /** member's group workstream whose turn waits for the approval of a send_message call */
  approval: { workstreamId: string; turnId: string; approvalId: string };
  /** a remembered approval in member's direct workstream, for member to revoke */
  grantId: string;
  /** uploads in member's direct workstream: one to view, one for member to remove */
  files?: { fileId: string; removableFileId: string };
};

export type Entry = {
  expected: Expected;
  path: (fixture: Fixture, persona: Persona) => string;
  body?: (fixture: Fixture, persona: Persona) => unknown;
  /** A multipart form instead of JSON (a file upload). */
  form?: () => FormData;
  /** An endless SSE stream: read its first event, then hang up. */
  endless?: boolean;
};

export const ownerOnly = (ok: number): Expected => ({
  owner: 404,
  admin: 404,
  member: ok,
  anotherMember: 404,
  otherOrg: 404,
  signedOut: 401,
});
export const anySignedIn = (ok: number): Expected => ({
  owner: ok,
  admin: ok,
  member: ok,
  anotherMember: ok,
  otherOrg: ok,
  signedOut: 401,
});
/** Owners and admins of any organization (otherOrg owns its own); members 403. */
export const adminOnly = (ok: number): Expected => ({
  owner: ok,
  admin: ok,
  member: 403,
  anotherMember: 403,
  otherOrg: ok,
  signedOut: 401,
});
/** A resource of the owner's organization: its owners and admins; otherOrg 404, members 403. */
export const adminResource = (ok: number): Expected => ({ ...adminOnly(ok), otherOrg: 404 });

const adminWs = (f: Fixture) => `/api/admin/workstreams/${f.adminGroupId}`;

export const WORKSTREAM_ENTRIES: Record<string, Entry> = {
  "GET /api/workstreams": {
    expected: anySignedIn(200),
    path: () => "/api/workstreams?mode=direct",
  },
  "PATCH /api/workstreams/[workstreamId]": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.groupId}`,
    body: () => ({ title: "Matrix rename" }),
  },
  "DELETE /api/workstreams/[workstreamId]": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.archivedGroupId}`,
  },
  "PATCH /api/workstreams/[workstreamId]/state": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}/state`,
    body: () => ({ delta: { tasks: { add: [{ text: "Matrix task" }] } } }),
  },
  "POST /api/workstreams/[workstreamId]/archive": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.groupId}/archive`,
  },
  "GET /api/workstreams/[workstreamId]/context": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}/context`,
  },
  "GET /api/workstreams/[workstreamId]/compactions": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}/compactions`,
  },
  "GET /api/workstreams/[workstreamId]/compactions/[compactionId]/messages": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}/compactions/${f.compactionId}/messages`,
  },
  "DELETE /api/workstreams/[workstreamId]/memory-block/[entryId]": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}/memory-block/${f.memoryEntryId}`,
  },
  "POST /api/workstreams/[workstreamId]/unarchive": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.groupId}/unarchive`,
  },
  "GET /api/onboarding": { expected: anySignedIn(200), path: () => "/api/onboarding" },
  "POST /api/onboarding": { expected: anySignedIn(200), path: () => "/api/onboarding" },
  "POST /api/onboarding/complete": {
    expected: anySignedIn(200),
    path: () => "/api/onboarding/complete",
  },
  "GET /api/activity": { expected: anySignedIn(200), path: () => "/api/activity" },
  "GET /api/live": { expected: anySignedIn(200), path: () => "/api/live", endless: true },
  "GET /api/admin/workstreams": { expected: adminOnly(200), path: () => "/api/admin/workstreams" },
  "GET /api/admin/workstreams/[workstreamId]": { expected: adminResource(200), path: adminWs },
  "DELETE /api/admin/workstreams/[workstreamId]": {
    expected: adminResource(200),
    path: (f, persona) => `/api/admin/workstreams/${f.adminArchived[persona]}`,
  },
  "POST /api/admin/workstreams/[workstreamId]/archive": {
    expected: adminResource(200),
    path: (f) => `${adminWs(f)}/archive`,
  },
  "POST /api/admin/workstreams/[workstreamId]/unarchive": {
    expected: adminResource(200),
    path: (f) => `${adminWs(f)}/unarchive`,
  },
  "GET /api/workstreams/[workstreamId]/grants": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}/grants`,
  },
  "DELETE /api/workstreams/[workstreamId]/grants/[grantId]": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}/grants/${f.grantId}`,
  },
  "GET /api/admin/tool-policy": { expected: adminOnly(200), path: () => "/api/admin/tool-policy" },
  // No such failed job in any organization: admins learn only that it is not theirs to handle;
  // retrying and discarding a real one is tests/integration/failed-jobs.test.ts.
  "POST /api/admin/jobs/[jobId]/retry": {
    expected: adminResource(404),
    path: () => "/api/admin/jobs/fjob_matrix_unknown/retry",
  },
  "DELETE /api/admin/jobs/[jobId]": {
    expected: adminResource(404),
    path: () => "/api/admin/jobs/fjob_matrix_unknown",
  },
  "POST /api/admin/models/check": {
    expected: adminOnly(200),
    path: () => "/api/admin/models/check",
  },
  "PUT /api/admin/tool-policy": {
    expected: adminOnly(200),
    path: () => "/api/admin/tool-policy",
    body: () => ({ rules: {} }),
  },
  "GET /api/admin/workstreams/[workstreamId]/approvals": {
    expected: adminResource(200),
    path: (f) => `${adminWs(f)}/approvals`,
  },
  "POST /api/workstreams/[workstreamId]/turns/[turnId]/approvals/[approvalId]": {
    expected: ownerOnly(200),
    path: ({ approval }) =>
      `/api/workstreams/${approval.workstreamId}/turns/${approval.turnId}/approvals/${approval.approvalId}`,
    body: () => ({ approved: false, reason: "matrix" }),
  },
  "GET /api/workstreams/[workstreamId]/turns/[turnId]": {
    expected: ownerOnly(200),
    path: ({ approval }) => `/api/workstreams/${approval.workstreamId}/turns/${approval.turnId}`,
  },
  "GET /api/admin/workstreams/[workstreamId]/turns/[turnId]": {
    expected: adminResource(200),
    path: ({ approval }) =>
      `/api/admin/workstreams/${approval.workstreamId}/turns/${approval.turnId}`,
  },
  "POST /api/admin/workstreams/[workstreamId]/stop": {
    expected: adminResource(200),
    path: (f) => `/api/admin/workstreams/${f.workstreamId}/stop`,
  },
  "GET /api/admin/members": { expected: adminOnly(200), path: () => "/api/admin/members" },
  "PATCH /api/admin/members/[memberId]": {
    expected: adminResource(200),
    path: (f) => `/api/admin/members/${f.roleTargetId}`,
    body: () => ({ role: "member" }),
  },
  "DELETE /api/admin/members/[memberId]": {
    expected: adminResource(200),
    path: (f, persona) => `/api/admin/members/${f.removable[persona]}`,
  },
  "GET /api/admin/invitations": { expected: adminOnly(200), path: () => "/api/admin/invitations" },
  "POST /api/admin/invitations": {
    expected: adminOnly(201),
    path: () => "/api/admin/invitations",
    body: (_, persona) => ({ email: `matrix.${persona}.invitee@example.test`, role: "member" }),
  },
  "DELETE /api/admin/invitations/[invitationId]": {
    expected: adminResource(200),
    path: (f) => `/api/admin/invitations/${f.invitationId}`,
  },
  // Only the invited person may accept; accepting does not switch their active organization,
  // so otherOrg stays in its own organization for the entries after this one.
  "POST /api/invitations/[invitationId]/accept": {
    expected: { ...ownerOnly(404), member: 404, otherOrg: 200 },
    path: (f) => `/api/invitations/${f.otherOrgInvitationId}/accept`,
  },
};

async function addMember(organizationId: string, userId: string, role: string): Promise<string> {
  const id = crypto.randomUUID();
  await (await getDb()).insert(member).values({ id, organizationId, userId, role });
  return id;
}

export async function buildWorkstreamFixture({
  baseUrl,
  owner,
  memberUser,
  otherOrg,
  workstreamId,
}: {
  baseUrl: string;
  owner: SignedUpUser;
  memberUser: SignedUpUser;
  otherOrg: SignedUpUser;
  workstreamId: string;
}): Promise<Omit<Fixture, "memory">> {
  const orgId = owner.organizationId;
  const archived = async () => {
    const stream = await createGroup(memberUser.client, "Matrix archived");
    await memberUser.client.fetch(`/api/workstreams/${stream.id}/archive`, { method: "POST" });
    return stream.id;
  };
  const adminArchived = {} as Record<Persona, string>;
  for (const persona of [
    "owner",
    "admin",
    "member",
    "anotherMember",
    "otherOrg",
    "signedOut",
  ] as const) {
    adminArchived[persona] = await archived();
  }
  const extras = await Promise.all(
    ["Matrix Target", "Matrix Leaver A", "Matrix Leaver B"].map((name) => signUp(baseUrl, name)),
  );
  const [target, leaverA, leaverB] = await Promise.all(
    extras.map((user) => addMember(orgId, user.userId, "member")),
  );
  const invite = async (email: string) => {
    const response = await owner.client.json<{ invitation: { id: string } }>(
      "/api/admin/invitations",
      { method: "POST", json: { email } },
    );
    return response.body.invitation.id;
  };
  const note = await addMemoryNote({
    workstreamId,
    organizationId: orgId,
    ownerId: memberUser.userId,
    role: "member",
    text: "Matrix note",
  });
  const { compactionId } = await seedCompaction({ workstreamId, organizationId: orgId });
  return {
    workstreamId,
    memoryEntryId: note.entry.id,
    compactionId,
    groupId: (await createGroup(memberUser.client, "Matrix group")).id,
    adminGroupId: (await createGroup(memberUser.client, "Matrix admin group")).id,
    archivedGroupId: await archived(),
    adminArchived,
    roleTargetId: target ?? "",
    removable: {
      owner: leaverA ?? "",
      admin: leaverB ?? "",
      member: leaverA ?? "",
      anotherMember: leaverA ?? "",
      otherOrg: leaverB ?? "",
      signedOut: leaverA ?? "",
    },
    invitationId: await invite("matrix.cancel@example.test"),
    otherOrgInvitationId: await invite(otherOrg.email),
    approval: await pendingApproval(memberUser),
    grantId: await rememberedGrant(workstreamId, orgId),
  };
}

async function rememberedGrant(workstreamId: string, organizationId: string): Promise<string> {
  const id = `grant_matrix_${crypto.randomUUID().slice(0, 8)}`;
  await (await getDb()).insert(toolGrants).values({
    id,
    organizationId,
    workstreamId,
    toolName: "send_message",
    approvalKey: "matrix group",
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return id;
}

/** A turn of `user`'s that ends waiting for the approval of a send_message call. */
export async function pendingApproval(user: SignedUpUser): Promise<Fixture["approval"]> {
  // The agents' scoped tools (send_message among them), without background jobs: a test that
  // counts rows must not see jobs write behind its back.
  wireTurnTools();
  const group = await createGroup(user.client, "Matrix approvals");
  const call = JSON.stringify({ workstreamId: "Matrix group", text: "hello" });
  const response = await sendTo(user.client, group.id, `[tool:send_message:${call}] send it`);
  const turnId = String(response.headers.get("x-turn-id"));
  const { events } = await readSse(response);
  const request = events.find((event) => event.data.type === "tool-approval-request");
  if (!request) throw new Error("the matrix turn asked for no approval");
  return { workstreamId: group.id, turnId, approvalId: String(request.data.approvalId) };
}
