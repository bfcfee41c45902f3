"use client";
// Unexpected failures inside a signed-in page keep the shell around the message.
import { ErrorMessage } from "@/components/shell/error-message";

export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorMessage error={error} retry={retry} />;
}
