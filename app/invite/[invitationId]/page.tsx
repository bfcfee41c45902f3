// /invite/[invitationId]: where an invitation link leads. Signed out, it offers sign-up and
// sign-in (returning here); signed in as the invited address, it accepts and opens the
// organization; anyone else is told the invitation is not theirs, without revealing the address.
import type { Metadata } from "next";
import { headers } from "next/headers";
import { AcceptInvitation } from "@/components/admin/accept-invitation";
import { AuthCard, AuthFrame, TextLink } from "@/components/auth/auth-frame";
import { buttonClasses } from "@/components/ui/button";
import { viewInvitation } from "@/lib/auth/invitations";
import { findSessionUser } from "@/lib/auth/session-user";

export const metadata: Metadata = { title: "Invitation" };

const ROLE_NAMES = { owner: "an owner", admin: "an admin", member: "a member" } as const;

export default async function InvitationPage({
  params,
}: {
  params: Promise<{ invitationId: string }>;
}) {
  const { invitationId } = await params;
  const user = await findSessionUser(await headers());
  const invitation = await viewInvitation({ invitationId, email: user?.email ?? null });
  const here = `/invite/${encodeURIComponent(invitationId)}`;

  if (!invitation || (invitation.state !== "pending" && !invitation.forViewer)) {
    const reason =
      invitation?.state === "expired"
        ? "This invitation has expired. Ask whoever invited you for a new link."
        : invitation?.state === "canceled"
          ? "This invitation was canceled. Ask whoever invited you for a new link."
          : "This invitation link doesn't work. Check that you copied all of it.";
    return (
      <AuthFrame>
        <AuthCard title="Invitation unavailable" description={reason}>
          <TextLink href="/">Go to Workstreams</TextLink>
        </AuthCard>
      </AuthFrame>
    );
  }

  const title = `Join ${invitation.organizationName}`;
  const who = invitation.inviterName ?? "Someone";
  const description = `${who} invited you to join as ${ROLE_NAMES[invitation.role]}.`;
  return (
    <AuthFrame>
      <AuthCard title={title} description={description}>
        {!user ? (
          <div className="space-y-3">
            <p className="text-sm text-fg-muted">
              Create an account or sign in with the email address the invitation was sent to, then
              come back to this link.
            </p>
            <div className="flex gap-2">
              <a
                href={`/sign-up?next=${encodeURIComponent(here)}`}
                className={buttonClasses({ className: "flex-1" })}
              >
                Create account
              </a>
              <a
                href={`/sign-in?next=${encodeURIComponent(here)}`}
                className={buttonClasses({ variant: "secondary", className: "flex-1" })}
              >
                Sign in
              </a>
            </div>
          </div>
        ) : !invitation.forViewer ? (
          <div className="space-y-3 text-sm text-fg-muted">
            <p>
              This invitation is for a different email address than {user.email}. Sign out and sign
              in with the invited address to accept it.
            </p>
            <TextLink href="/sign-out">Sign out</TextLink>
          </div>
        ) : (
          <AcceptInvitation
            invitationId={invitation.id}
            organizationId={invitation.organizationId}
            organizationName={invitation.organizationName}
            alreadyAccepted={invitation.state === "accepted"}
          />
        )}
      </AuthCard>
    </AuthFrame>
  );
}
