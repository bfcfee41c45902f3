"use client";
// The workstream's compactions as the chat shows them: loaded with the page, then read again
// whenever the live channel says a compaction landed (or the channel was away and may have
// missed it).
import { useCallback, useState } from "react";
import { useLiveEvents } from "@/components/live/use-live-events";
import { fetchCompactions } from "@/lib/chat-client/api";
import type { ChatCompaction } from "@/lib/chat-client/wire";

export function useCompactions(workstreamId: string, initial: ChatCompaction[]): ChatCompaction[] {
  const [compactions, setCompactions] = useState(initial);

  const reload = useCallback(() => {
    fetchCompactions(workstreamId)
      .then(setCompactions)
      .catch((error: unknown) => console.warn("[chat] reloading the compactions failed:", error));
  }, [workstreamId]);

  useLiveEvents((event) => {
    if (event.type === "context" && event.workstreamId === workstreamId) {
      if (event.reason === "compaction") reload();
    } else if (event.type === "reconnected" || event.type === "refresh") {
      reload();
    }
  });

  return compactions;
}
