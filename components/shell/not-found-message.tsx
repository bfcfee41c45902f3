import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { StatusMessage } from "./status-message";

/** Says the same thing whether the page doesn't exist or the viewer may not see it. */
export function NotFoundMessage() {
  return (
    <StatusMessage
      code="404"
      title="Page not found"
      description="This page doesn't exist, or you don't have access to it."
      actions={
        <Link href="/" className={buttonClasses({ variant: "secondary" })}>
          Go to your workstreams
        </Link>
      }
    />
  );
}
