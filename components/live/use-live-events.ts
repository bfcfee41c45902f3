"use client";
// The browser side of the live channel: one EventSource per tab (per scope), shared by every
// component that listens, closed when the last one stops. EventSource reconnects by itself;
// changes made while it was away are not replayed, so listeners get `reconnected` and reload.
import { useEffect, useRef } from "react";
import type { LiveEvent } from "@/lib/stream/live";

export type LiveClientEvent = LiveEvent | { type: "reconnected" };
type Listener = (event: LiveClientEvent) => void;
type Channel = { source: EventSource; listeners: Set<Listener>; connectedOnce: boolean };

const channels = new Map<string, Channel>();

function open(url: string): Channel {
  const source = new EventSource(url);
  const channel: Channel = { source, listeners: new Set(), connectedOnce: false };
  source.onmessage = (message: MessageEvent<string>) => {
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch (error) {
      console.warn("[live] ignored a malformed event", error);
      return;
    }
    if (!data || typeof data !== "object" || !("type" in data)) return;
    let event = data as LiveClientEvent | { type: "ready" };
    if (event.type === "ready") {
      const first = !channel.connectedOnce;
      channel.connectedOnce = true;
      if (first) return;
      event = { type: "reconnected" };
    }
    for (const listener of channel.listeners) listener(event);
  };
  return channel;
}

function subscribe(url: string, listener: Listener): () => void {
  let channel = channels.get(url);
  if (!channel) {
    channel = open(url);
    channels.set(url, channel);
  }
  channel.listeners.add(listener);
  const current = channel;
  return () => {
    current.listeners.delete(listener);
    if (current.listeners.size === 0) {
      current.source.close();
      channels.delete(url);
    }
  };
}

/** Calls `listener` with every live event of the signed-in member (or, for admins, the org). */
export function useLiveEvents(
  listener: Listener,
  { scope = "user" }: { scope?: "user" | "organization" } = {},
): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    const url = scope === "organization" ? "/api/live?scope=organization" : "/api/live";
    return subscribe(url, (event) => latest.current(event));
  }, [scope]);
}
