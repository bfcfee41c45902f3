"use client";
import { useSignOut } from "@/components/shell/use-sign-out";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";

export function SignOutButton() {
  const { signOut, pending, error } = useSignOut();
  return (
    <div className="space-y-4">
      <FormAlert>{error}</FormAlert>
      <Button
        size="lg"
        className="w-full"
        onClick={signOut}
        pending={pending}
        pendingLabel="Signing out…"
      >
        Sign out
      </Button>
    </div>
  );
}
