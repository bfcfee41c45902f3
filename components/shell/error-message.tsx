"use client";
// The body of the error pages. Server errors arrive without their message (Next keeps it on the
// server), so it shows the digest people can quote when they report the problem.
import Link from "next/link";
import { useEffect } from "react";
import { Button, buttonClasses } from "@/components/ui/button";
import { StatusMessage } from "./status-message";

export function ErrorMessage({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest =
    error instanceof Error && "digest" in error && typeof error.digest === "string"
      ? error.digest
      : null;

  return (
    <StatusMessage
      code="Error"
      title="Something went wrong"
      description={
        <>
          This page couldn't be shown. Try again; if it keeps happening, let us know
          {digest ? (
            <>
              {" "}
              and mention <span className="font-mono text-xs text-fg">{digest}</span>
            </>
          ) : null}
          .
        </>
      }
      actions={
        <>
          <Button onClick={() => retry()}>Try again</Button>
          <Link href="/" className={buttonClasses({ variant: "secondary" })}>
            Go home
          </Link>
        </>
      }
    />
  );
}
