// The admin console's members: list with roles, invitations with a copyable link and their
// acceptance, role changes and removal (whose workstreams stay with the organization).
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminMember } from "@/lib/admin/members";
import type { AdminWorkstream } from "@/lib/admin/workstreams";
import type { InvitationSummary } from "@/lib/auth/invitations";
import { appHarness } from "../support/harness";
import { HttpClient, type SignedUpUser } from "../support/http-client";
import { createGroup, joinOrganization } from "./workstreams-support/helpers";

type ErrorBody = { error: { code: string } };
type Invite = { invitation: InvitationSummary; url: string; created: boolean };

const app = appHarness();
let owner: SignedUpUser;
let admin: SignedUpUser;

beforeAll(async () => {
  owner = await app.signUp("Team Owner");
  admin = await app.signUp("Team Admin");
  await joinOrganization(admin, owner.organizationId, "admin");
});

async function members(user: SignedUpUser) {
  return (await user.client.json<{ members: AdminMember[] }>("/api/admin/members")).body.members;
}

async function memberIdOf(user: SignedUpUser) {
  const found = (await members(owner)).find((item) => item.userId === user.userId);
  if (!found) throw new Error("not a member");
  return found.id;
}

async function invite(user: SignedUpUser, body: unknown) {
  return user.client.json<Invite & ErrorBody>("/api/admin/invitations", {
    method: "POST",
    json: body,
  });
}

describe("members", () => {
  it("W1 lists members with their roles and workstream counts", async () => {
    await createGroup(admin.client, "Admin's plan");
    const list = await members(admin);
    expect(list.map((item) => [item.name, item.role])).toEqual(
      expect.arrayContaining([
        ["Team Owner", "owner"],
        ["Team Admin", "admin"],
      ]),
    );
    expect(list.find((item) => item.userId === admin.userId)?.workstreamCount).toBe(1);
  });

  it("W1 invites by email with a link the invited person accepts to join", async () => {
    const email = `invitee.${crypto.randomUUID().slice(0, 8)}@example.test`;
    const created = await invite(admin, { email: email.toUpperCase(), role: "member" });
    expect(created.status).toBe(201);
    expect(created.body.url).toBe(`${app.url}/invite/${created.body.invitation.id}`);
    expect(created.body.invitation).toMatchObject({ email, role: "member", status: "pending" });
    const renewed = await invite(owner, { email, role: "admin" });
    expect([renewed.status, renewed.body.invitation.id]).toEqual([200, created.body.invitation.id]);
    const pending = await admin.client.json<{ invitations: InvitationSummary[] }>(
      "/api/admin/invitations",
    );
    expect(pending.body.invitations.map((item) => item.email)).toContain(email);

    const stranger = await app.signUp("Not Invited");
    const refused = await stranger.client.json<ErrorBody>(
      `/api/invitations/${created.body.invitation.id}/accept`,
      { method: "POST" },
    );
    expect([refused.status, refused.body.error.code]).toEqual([404, "not_found:invitation"]);

    const invitee = new HttpClient(app.url);
    const signed = await invitee.json("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "Invited Person", email, password: "correct horse battery" },
    });
    expect(signed.status).toBe(200);
    const accepted = await invitee.json<{ organizationId: string; role: string }>(
      `/api/invitations/${created.body.invitation.id}/accept`,
      { method: "POST" },
    );
    expect(accepted.body).toEqual({ organizationId: owner.organizationId, role: "admin" });
    const twice = await invitee.json(`/api/invitations/${created.body.invitation.id}/accept`, {
      method: "POST",
    });
    expect(twice.status).toBe(200);
    expect((await members(owner)).map((item) => item.email)).toContain(email);
    const signedOut = await new HttpClient(app.url).json<ErrorBody>(
      `/api/invitations/${created.body.invitation.id}/accept`,
      { method: "POST" },
    );
    expect(signedOut.status).toBe(401);
  });

  it("W1 refuses bad invitations with a code", async () => {
    const existing = await invite(admin, { email: owner.email });
    expect([existing.status, existing.body.error.code]).toEqual([409, "conflict:already_member"]);
    const notEmail = await invite(admin, { email: "not-an-email" });
    expect([notEmail.status, notEmail.body.error.code]).toEqual([400, "bad_request:email"]);
    const badRole = await invite(admin, { email: "x@example.test", role: "emperor" });
    expect([badRole.status, badRole.body.error.code]).toEqual([400, "bad_request:role"]);
    const ownerByAdmin = await invite(admin, { email: "boss@example.test", role: "owner" });
    expect([ownerByAdmin.status, ownerByAdmin.body.error.code]).toEqual([
      403,
      "forbidden:owner_only",
    ]);
  });

  it("W1 a canceled invitation can no longer be accepted", async () => {
    const email = `canceled.${crypto.randomUUID().slice(0, 8)}@example.test`;
    const created = await invite(owner, { email });
    const id = created.body.invitation.id;
    for (let i = 0; i < 2; i++) {
      const canceled = await admin.client.json(`/api/admin/invitations/${id}`, {
        method: "DELETE",
      });
      expect(canceled.status).toBe(200);
    }
    const invitee = new HttpClient(app.url);
    await invitee.json("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "Too Late", email, password: "correct horse battery" },
    });
    const refused = await invitee.json<ErrorBody>(`/api/invitations/${id}/accept`, {
      method: "POST",
    });
    expect([refused.status, refused.body.error.code]).toEqual([
      409,
      "conflict:invitation_canceled",
    ]);
  });

  it("W1 changes roles within the rules: only owners touch owners, one owner always stays", async () => {
    const person = await app.signUp("Role Person");
    await joinOrganization(person, owner.organizationId, "member");
    const personId = await memberIdOf(person);
    const promote = await admin.client.json<{ role: string }>(`/api/admin/members/${personId}`, {
      method: "PATCH",
      json: { role: "admin" },
    });
    expect([promote.status, promote.body.role]).toEqual([200, "admin"]);
    const toOwner = await admin.client.json<ErrorBody>(`/api/admin/members/${personId}`, {
      method: "PATCH",
      json: { role: "owner" },
    });
    expect([toOwner.status, toOwner.body.error.code]).toEqual([403, "forbidden:owner_only"]);
    const ownerId = await memberIdOf(owner);
    const demoteOwner = await admin.client.json<ErrorBody>(`/api/admin/members/${ownerId}`, {
      method: "PATCH",
      json: { role: "member" },
    });
    expect([demoteOwner.status, demoteOwner.body.error.code]).toEqual([
      403,
      "forbidden:owner_only",
    ]);
    const lastOwner = await owner.client.json<ErrorBody>(`/api/admin/members/${ownerId}`, {
      method: "PATCH",
      json: { role: "admin" },
    });
    expect([lastOwner.status, lastOwner.body.error.code]).toEqual([409, "conflict:last_owner"]);
    const badRole = await owner.client.json<ErrorBody>(`/api/admin/members/${personId}`, {
      method: "PATCH",
      json: { role: "root" },
    });
    expect([badRole.status, badRole.body.error.code]).toEqual([400, "bad_request:role"]);
    expect((await members(owner)).find((item) => item.id === personId)?.role).toBe("admin");
  });

  it("W1 removing a member keeps their workstreams with the organization, listed for admins", async () => {
    const leaver = await app.signUp("Leaving Member");
    await joinOrganization(leaver, owner.organizationId, "member");
    const stream = await createGroup(leaver.client, "Handover notes");
    const leaverId = await memberIdOf(leaver);
    const self = await admin.client.json<ErrorBody>(
      `/api/admin/members/${await memberIdOf(admin)}`,
      { method: "DELETE" },
    );
    expect([self.status, self.body.error.code]).toEqual([409, "conflict:self_removal"]);
    const removed = await admin.client.json(`/api/admin/members/${leaverId}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(200);
    expect((await members(owner)).map((item) => item.userId)).not.toContain(leaver.userId);

    const list = await admin.client.json<{ workstreams: AdminWorkstream[] }>(
      "/api/admin/workstreams?q=handover",
    );
    expect(list.body.workstreams).toHaveLength(1);
    expect(list.body.workstreams[0]?.owner).toMatchObject({
      id: leaver.userId,
      isMember: false,
    });
    const access = await leaver.client.fetch(`/api/workstreams/${stream.id}`);
    expect([403, 404]).toContain(access.status);
    const again = await admin.client.json<ErrorBody>(`/api/admin/members/${leaverId}`, {
      method: "DELETE",
    });
    expect([again.status, again.body.error.code]).toEqual([404, "not_found:member"]);
  });
});
