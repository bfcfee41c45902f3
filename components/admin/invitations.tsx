"use client";
// Inviting people: an email and a role make an invitation whose link is shown to copy (there is
// no mail server); pending invitations can be copied again or canceled.

import { CopyIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { ApiError, callApi } from "@/lib/api-client/call-api";
import type { InvitationSummary } from "@/lib/auth/invitations";
import type { Role } from "@/lib/auth/organizations";

export type InvitationWithUrl = InvitationSummary & { url: string };

export function CopyButton({ text, label = "Copy link" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={() => {
        navigator.clipboard
          .writeText(text)
          .then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 2000);
          })
          .catch((error: unknown) => console.warn("[admin] copy failed", error));
      }}
    >
      <CopyIcon className="size-3.5" />
      <span aria-live="polite">{copied ? "Copied" : label}</span>
    </Button>
  );
}

export function InviteForm({
  canInviteOwner,
  onInvited,
}: {
  canInviteOwner: boolean;
  onInvited: (invitation: InvitationWithUrl) => void;
}) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setError("Enter the email address to invite.");
      return;
    }
    setPending(true);
    setError(null);
    try {
      const result = await callApi<{ invitation: InvitationSummary; url: string }>(
        "/api/admin/invitations",
        { method: "POST", json: { email: email.trim(), role } },
      );
      setLink({ email: result.invitation.email, url: result.url });
      onInvited({ ...result.invitation, url: result.url });
      setEmail("");
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : "Couldn't create the invitation.");
    } finally {
      setPending(false);
    }
  };

  return (
    <section
      aria-labelledby="invite-title"
      className="rounded-xl border border-border bg-bg-elevated p-4"
    >
      <h2 id="invite-title" className="text-sm font-semibold text-fg">
        Invite someone
      </h2>
      <p className="mt-1 text-[13px] text-fg-muted">
        You get a link to send them. They sign in (or sign up) with this email to accept.
      </p>
      <form noValidate onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1 basis-60">
          <label htmlFor="invite-email" className="text-[12px] font-medium text-fg-muted">
            Email
          </label>
          <Input
            id="invite-email"
            type="email"
            value={email}
            autoComplete="off"
            placeholder="name@company.com"
            aria-invalid={error ? true : undefined}
            onChange={(event) => setEmail(event.target.value)}
            className="mt-1 h-9"
          />
        </div>
        <label>
          <span className="text-[12px] font-medium text-fg-muted">Role</span>
          <select
            value={role}
            onChange={(event) => setRole(event.target.value as Role)}
            className="mt-1 block h-9 rounded-lg border border-border-strong bg-bg px-2.5 text-sm text-fg"
          >
            <option value="member">Member</option>
            <option value="admin">Admin</option>
            {canInviteOwner ? <option value="owner">Owner</option> : null}
          </select>
        </label>
        <Button type="submit" pending={pending}>
          Create invite link
        </Button>
      </form>
      <FormAlert className="mt-3">{error}</FormAlert>
      {link ? (
        <div className="mt-3 rounded-lg border border-accent/30 bg-accent-subtle p-3">
          <p className="text-[13px] text-fg">
            Send this link to <span className="font-medium">{link.email}</span>:
          </p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <input
              readOnly
              aria-label="Invitation link"
              value={link.url}
              onFocus={(event) => event.target.select()}
              className="h-8 min-w-0 flex-1 basis-64 rounded-md border border-border bg-bg px-2 font-mono text-[12px] text-fg"
            />
            <CopyButton text={link.url} />
          </div>
        </div>
      ) : null}
    </section>
  );
}

export function PendingInvitations({
  invitations,
  onCancel,
}: {
  invitations: InvitationWithUrl[];
  onCancel: (invitation: InvitationWithUrl) => void;
}) {
  if (invitations.length === 0) return null;
  return (
    <section aria-labelledby="pending-title" className="mt-6">
      <h2 id="pending-title" className="text-sm font-semibold text-fg">
        Pending invitations
      </h2>
      <ul className="mt-2 divide-y divide-border rounded-xl border border-border">
        {invitations.map((invitation) => (
          <li
            key={invitation.id}
            className="flex flex-wrap items-center gap-2 px-3 py-2.5 text-[13px]"
          >
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium text-fg">{invitation.email}</p>
              <p className="text-[12px] text-fg-subtle">
                {invitation.role === "member"
                  ? "Member"
                  : invitation.role === "admin"
                    ? "Admin"
                    : "Owner"}
                {" · "}expires {new Date(invitation.expiresAt).toLocaleDateString()}
              </p>
            </div>
            <CopyButton text={invitation.url} />
            <Button variant="ghost" size="sm" onClick={() => onCancel(invitation)}>
              Cancel
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
