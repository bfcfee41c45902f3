"use client";
// Says when the page is not connected: offline, reconnecting on its own, or lost (with a way to
// try again). Nothing when all is well.

import { WifiOffIcon as OfflineIcon } from "lucide-react";
import { Spinner } from "@/components/ui/spinner";
import type { ChatConnection } from "./use-workstream-chat";

export function ConnectionBanner({
  online,
  connection,
  onReconnect,
}: {
  online: boolean;
  connection: ChatConnection;
  onReconnect: () => void;
}) {
  if (online && connection === "connected") return null;
  const offline = !online || connection === "offline";
  return (
    <div
      role="status"
      data-testid="connection-status"
      data-connection={offline ? "offline" : connection}
      className="flex items-center justify-center gap-2 border-b border-border bg-bg-subtle px-4 py-1.5 text-xs text-fg-muted"
    >
      {offline ? (
        <>
          <OfflineIcon className="size-3.5" />
          You're offline. The page reconnects by itself when the network is back.
        </>
      ) : connection === "reconnecting" ? (
        <>
          <Spinner className="size-3.5" />
          Connection interrupted. Reconnecting…
        </>
      ) : (
        <>
          <OfflineIcon className="size-3.5" />
          Lost the connection to the server.
          <button
            type="button"
            onClick={onReconnect}
            className="font-medium text-accent-text underline-offset-2 hover:underline"
          >
            Reconnect
          </button>
        </>
      )}
    </div>
  );
}
