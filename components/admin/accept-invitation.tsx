"use client";
// Accepting an invitation: join, make the organization the active one (better-auth's
// set-active, which also refreshes the session cookie), then open it.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { ApiError, callApi } from "@/lib/api-client/call-api";
import { authClient } from "@/lib/auth/client";

export function AcceptInvitation({
  invitationId,
  organizationId,
  organizationName,
  alreadyAccepted,
}: {
  invitationId: string;
  organizationId: string;
  organizationName: string;
  alreadyAccepted: boolean;
}) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const accept = async () => {
    setPending(true);
    setError(null);
    try {
      await callApi(`/api/invitations/${encodeURIComponent(invitationId)}/accept`, {
        method: "POST",
      });
      const switched = await authClient.organization.setActive({ organizationId });
      if (switched.error) {
        setError("You joined, but switching failed.");
        setPending(false);
        return;
      }
      router.replace("/");
      router.refresh();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : "Couldn't accept the invitation.");
      setPending(false);
    }
  };

  return (
    <div className="space-y-3">
      <FormAlert>{error}</FormAlert>
      <Button className="w-full" size="lg" pending={pending} onClick={() => void accept()}>
        {alreadyAccepted ? `Open ${organizationName}` : "Accept and join"}
      </Button>
    </div>
  );
}
