"use client";
// The admin console's members: roles (changed in place), removal (their workstreams stay with
// the organization), invitations. The server enforces the rules; the UI only hides what the
// viewer's role cannot do (admins do not manage owners).
import { useState } from "react";
import { Avatar } from "@/components/shell/avatar";
import { RoleBadge } from "@/components/shell/role-badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, useConfirm } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { useEditableList } from "@/components/ui/use-editable-list";
import type { AdminMember } from "@/lib/admin/members";
import { ApiError, callApi } from "@/lib/api-client/call-api";
import type { Role } from "@/lib/auth/organizations";
import { type InvitationWithUrl, InviteForm, PendingInvitations } from "./invitations";

const messageOf = (failure: unknown) =>
  failure instanceof ApiError ? failure.message : "That didn't work. Try again.";

export function MembersConsole({
  viewer,
  initialMembers,
  initialInvitations,
}: {
  viewer: { userId: string; role: Role };
  initialMembers: AdminMember[];
  initialInvitations: InvitationWithUrl[];
}) {
  const members = useEditableList(initialMembers);
  const [invitations, setInvitations] = useState(initialInvitations);
  const [error, setError] = useState<string | null>(null);
  const confirm = useConfirm();
  const isOwner = viewer.role === "owner";

  const refreshInvitations = async () => {
    const result = await callApi<{ invitations: InvitationWithUrl[] }>("/api/admin/invitations");
    setInvitations(result.invitations);
  };

  const changeRole = async (member: AdminMember, role: Role) => {
    setError(null);
    try {
      const result = await callApi<{ role: Role }>(`/api/admin/members/${member.id}`, {
        method: "PATCH",
        json: { role },
      });
      members.replace({ ...member, role: result.role });
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const remove = (member: AdminMember) => {
    confirm.ask({
      title: `Remove ${member.name}?`,
      body:
        member.workstreamCount > 0
          ? `They lose access to this organization. Their ${member.workstreamCount} workstream${member.workstreamCount === 1 ? "" : "s"} stay here, read-only, in the workstreams list.`
          : "They lose access to this organization.",
      confirmLabel: "Remove",
      tone: "danger",
      onConfirm: async () => {
        await callApi(`/api/admin/members/${member.id}`, { method: "DELETE" });
        members.drop(member.id);
      },
    });
  };

  const cancelInvitation = (invitation: InvitationWithUrl) => {
    confirm.ask({
      title: `Cancel the invitation for ${invitation.email}?`,
      body: "The link stops working. You can invite them again later.",
      confirmLabel: "Cancel invitation",
      tone: "danger",
      onConfirm: async () => {
        await callApi(`/api/admin/invitations/${invitation.id}`, { method: "DELETE" });
        await refreshInvitations();
      },
    });
  };

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <section aria-labelledby="members-title">
        <h2 id="members-title" className="text-sm font-semibold text-fg">
          Members <span className="font-normal text-fg-subtle">· {members.items.length}</span>
        </h2>
        <FormAlert className="mt-2">{error}</FormAlert>
        <ul className="mt-2 divide-y divide-border rounded-xl border border-border">
          {members.items.map((member) => {
            const self = member.userId === viewer.userId;
            // Admins do not manage owners; nobody changes their own role here (no lock-outs).
            const locked = (member.role === "owner" && !isOwner) || self;
            return (
              <li
                key={member.id}
                data-member={member.email}
                // Phones: avatar and name on one line, role and Remove under the name (the email
                // keeps the full width). From 640px: one row with a fixed role column, so a
                // badge lines up with the selects of the other rows.
                className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-2 px-3 py-3 text-[13px] sm:grid-cols-[auto_minmax(0,1fr)_7.5rem_4.5rem]"
              >
                <Avatar name={member.name} className="self-start sm:self-center" />
                <div className="min-w-0">
                  <p className="flex items-center gap-2">
                    <span className="truncate font-medium text-fg">{member.name}</span>
                    {self ? <span className="text-[12px] text-fg-subtle">(you)</span> : null}
                  </p>
                  <p data-member-email="" className="text-[12px] break-all text-fg-subtle">
                    {member.email}
                  </p>
                  <p className="truncate text-[12px] text-fg-subtle">
                    {member.workstreamCount} workstream{member.workstreamCount === 1 ? "" : "s"} ·
                    joined{" "}
                    {new Date(member.joinedAt).toLocaleDateString("en-US", {
                      month: "short",
                      day: "numeric",
                      year: "numeric",
                    })}
                  </p>
                </div>
                <div
                  data-role-cell=""
                  className="col-start-2 flex items-center justify-between gap-2 sm:contents"
                >
                  {locked ? (
                    <span className="flex h-8 items-center">
                      <RoleBadge role={member.role} />
                    </span>
                  ) : (
                    <select
                      aria-label={`Role of ${member.name}`}
                      value={member.role}
                      onChange={(event) => void changeRole(member, event.target.value as Role)}
                      className="h-8 w-[7.5rem] rounded-lg border border-border-strong bg-bg px-2 text-[13px] text-fg"
                    >
                      <option value="member">Member</option>
                      <option value="admin">Admin</option>
                      {isOwner || member.role === "owner" ? (
                        <option value="owner">Owner</option>
                      ) : null}
                    </select>
                  )}
                  {locked ? (
                    <span aria-hidden="true" className="max-sm:hidden" />
                  ) : (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="w-[4.5rem]"
                      onClick={() => remove(member)}
                    >
                      Remove
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      </section>
      <div>
        <InviteForm
          canInviteOwner={isOwner}
          onInvited={(invitation) =>
            setInvitations((list) => [
              invitation,
              ...list.filter((item) => item.id !== invitation.id),
            ])
          }
        />
        <PendingInvitations invitations={invitations} onCancel={cancelInvitation} />
      </div>
      <ConfirmDialog {...confirm.dialog} />
    </div>
  );
}
