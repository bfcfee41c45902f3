"use client";
// Signs the browser out through better-auth's endpoint, then shows the sign-in page.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { signOutRequest } from "./auth-requests";

export function useSignOut() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  const signOut = () => {
    setError(null);
    startTransition(async () => {
      const result = await signOutRequest();
      if (result === "refused") {
        setError("Couldn't sign you out. Try again.");
        return;
      }
      if (result === "unreachable") {
        setError("Couldn't reach Workstreams. Check your connection and try again.");
        return;
      }
      router.replace("/sign-in");
      router.refresh();
    });
  };

  return { signOut, pending, error, dismissError: () => setError(null) };
}
