// What the model was sent: a SEND_REQUEST observer that keeps each turn's request, for tests that
// check the instructions or messages a turn's model call carried. A turn whose model calls a
// tool makes several requests; the last one is kept.
import type { ModelMessage } from "ai";
import { registerHook } from "@/lib/turns/hooks";

export type SentRequest = { instructions: string; messages: ModelMessage[] };

export type SentRequests = {
  /** The turn's last request, if its model was called. */
  of(turnId: string): SentRequest | undefined;
  /** The last request sent for this workstream, if any. */
  lastIn(workstreamId: string): SentRequest | undefined;
  /** Unregisters the observer. */
  stop(): void;
};

export function watchSentRequests(): SentRequests {
  const byTurn = new Map<string, SentRequest>();
  const byWorkstream = new Map<string, SentRequest>();
  const stop = registerHook({
    kind: "observer",
    stage: "SEND_REQUEST",
    name: "test:sent-requests",
    run: (payload, ctx) => {
      const request = { instructions: payload.instructions, messages: payload.messages };
      byTurn.set(ctx.turnId, request);
      byWorkstream.set(ctx.workstreamId, request);
    },
  });
  return {
    of: (turnId) => byTurn.get(turnId),
    lastIn: (workstreamId) => byWorkstream.get(workstreamId),
    stop,
  };
}
