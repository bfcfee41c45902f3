"use client";
// Unexpected failures while rendering any page outside the signed-in shell (or the shell itself).
import { AuthFrame } from "@/components/auth/auth-frame";
import { ErrorMessage } from "@/components/shell/error-message";

export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <AuthFrame>
      <ErrorMessage error={error} retry={retry} />
    </AuthFrame>
  );
}
