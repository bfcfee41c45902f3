// An answer's footnote: who answered, and on hover or focus its tokens, cost, time and model.
import { Fragment } from "react";
import type { MessageMetadata } from "@/lib/chat-client/wire";
import { metaDetails } from "./format";

export function MessageMeta({
  metadata,
  stopped = false,
}: {
  metadata: MessageMetadata | undefined;
  /** Stopped in this page, before the stored copy says so. */
  stopped?: boolean;
}) {
  const details = metaDetails(metadata);
  const time = metadata?.finishedAt ? new Date(metadata.finishedAt) : null;
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-xs text-fg-subtle">
      {metadata?.stopped || stopped ? (
        <span className="rounded-full bg-bg-muted px-2 py-0.5 font-medium text-fg-muted">
          Stopped
        </span>
      ) : null}
      {metadata?.failed ? (
        <span className="rounded-full bg-danger-subtle px-2 py-0.5 font-medium text-danger">
          Incomplete
        </span>
      ) : null}
      {time && !Number.isNaN(time.getTime()) ? (
        <time dateTime={time.toISOString()} suppressHydrationWarning>
          {time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}
        </time>
      ) : null}
      {details.length > 0 ? (
        <span
          data-testid="message-details"
          className="flex flex-wrap gap-x-1.5 opacity-0 transition-opacity duration-150 group-hover/message:opacity-100 group-focus-within/message:opacity-100 max-sm:opacity-100"
        >
          {details.map((detail, index) => (
            <Fragment key={detail}>
              {index > 0 ? <span aria-hidden="true">·</span> : null}
              <span className="whitespace-nowrap">{detail}</span>
            </Fragment>
          ))}
        </span>
      ) : null}
    </div>
  );
}
