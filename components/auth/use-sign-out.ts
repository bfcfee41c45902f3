"use client";
// Signs the browser out through better-auth, then shows the sign-in page.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { authClient } from "@/lib/auth/client";

export function useSignOut() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  const signOut = () => {
    setError(null);
    startTransition(async () => {
      try {
        const result = await authClient.signOut();
        if (result.error) {
          setError("Couldn't sign you out. Try again.");
          return;
        }
      } catch {
        setError("Couldn't reach Workstreams. Check your connection and try again.");
        return;
      }
      router.replace("/sign-in");
      router.refresh();
    });
  };

  return { signOut, pending, error };
}
