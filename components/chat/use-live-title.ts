"use client";
// The workstream's title as it is now: renamed in this tab (the sidebar), in another tab or by
// its automatic title, the live channel says so and the header and the tab's title follow.
import { useEffect, useState } from "react";
import { useLiveEvents } from "@/components/live/use-live-events";
import { fetchWorkstream } from "@/lib/chat-client/api";

/** The tab title the root layout's template gives a page (`%s · Workstreams`). */
export function documentTitle(title: string): string {
  return `${title} · Workstreams`;
}

export function useLiveTitle(workstreamId: string, initial: string): string {
  const [title, setTitle] = useState(initial);

  useLiveEvents((event) => {
    if (event.type === "workstream" && event.workstream.id === workstreamId) {
      setTitle(event.workstream.title);
    } else if (event.type === "reconnected" || event.type === "refresh") {
      // Changes made while the channel was away are not replayed: ask.
      fetchWorkstream(workstreamId)
        .then((description) => setTitle(description.title))
        .catch((error: unknown) => console.warn("[chat] reloading the title failed:", error));
    }
  });

  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);

  return title;
}
